/**
 * The layout and units of the last walked list, kept on disk beside the unit cache
 * (`units.json.layout`), so a fresh process whose walk lists the same paths (a one-tool edit)
 * reads them instead of deriving them again: at 20,000 tools (~90,000 paths) the derivation
 * cost ~0.5 s of a one-change run, reading its result ~0.1 s.
 *
 * The layout is a pure function of the sorted list, the plugin entry names and the configured
 * extra plugins (scan/layout.ts), and it reads no file contents; the file is keyed by a digest
 * of exactly those and of this build's version. A file of another key, that does not parse, or
 * of any wrong shape is ignored and the layout is derived (and the file rewritten): a damaged
 * file costs the derivation it would have saved, never a different layout. Units are stored
 * without their file lists: each takes its capability directory's arrays, as collectUnits does.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TOOL_PLACEMENTS } from '@zhin-gen/runtime/define';
import type { Diagnostic } from '../diagnostics.js';
import { isDiagnostic } from '../cache/entry-shape.js';
import { packageVersion } from '../version.js';
import { writeAtomically } from '../write/output.js';
import type { CapabilityDir, CapabilityKind, CapabilityUnit, ExtraPlugin, Layout, PluginLayout } from './layout.js';
import type { DerivedLayout } from './layout-memo.js';

// Bumped when the layout or its units change for the same list (scan/layout.ts).
const STORE_VERSION = `zhin-gen-layout-1@${packageVersion()}`;

const KINDS: ReadonlySet<string> = new Set<CapabilityKind>(['tool', 'skill', 'agent', 'hook', 'prompt-section']);
const PLACEMENTS: ReadonlySet<string> = new Set(TOOL_PLACEMENTS);

/** A unit as stored: everything but the arrays it shares with its capability directory. */
type StoredUnit = Omit<CapabilityUnit, 'files' | 'entries'>;

/** What the layout is derived from, as one digest. */
export function layoutKey(
  list: readonly string[],
  pluginEntry: readonly string[],
  extra: readonly ExtraPlugin[],
): string {
  return createHash('sha256')
    .update(`${STORE_VERSION}\0${JSON.stringify(pluginEntry)}\0${JSON.stringify(extra)}\0`)
    .update(list.join('\n'))
    .digest('hex');
}

export class LayoutStore {
  /**
   * A digest of the text last written: a derivation that gives the same bytes writes nothing.
   * Not the text itself: at 20,000 tools it is 12 MB, which stayed alive for the compiler's life.
   * (A loaded store needs no record: `save` follows only a failed load.)
   */
  private lastDigest: string | undefined;

  constructor(readonly file: string) {}

  /** The stored layout for this key, or undefined (missing, other key, damaged). */
  load(key: string): DerivedLayout | undefined {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return undefined;
    }
    if (!isRecord(raw) || raw.version !== STORE_VERSION || raw.key !== key) return undefined;
    return fromStored(raw);
  }

  save(key: string, derived: DerivedLayout): void {
    const text = JSON.stringify({
      version: STORE_VERSION,
      key,
      layout: derived.layout,
      units: derived.units.units.map(({ files: _files, entries: _entries, ...unit }): StoredUnit => unit),
      unitDiagnostics: derived.units.diagnostics,
    });
    const digest = createHash('sha256').update(text).digest('base64');
    if (digest === this.lastDigest) return;
    try {
      writeAtomically(this.file, text);
      this.lastDigest = digest;
    } catch {
      // A read-only cache folder only costs speed.
    }
  }
}

function fromStored(raw: Record<string, unknown>): DerivedLayout | undefined {
  const { layout, units, unitDiagnostics } = raw;
  if (!isRecord(layout) || !Array.isArray(layout.plugins) || !isDiagnostics(layout.diagnostics)) return undefined;
  if (!Array.isArray(units) || !isDiagnostics(unitDiagnostics)) return undefined;
  const caps = new Map<string, CapabilityDir>();
  const plugins = new Set<string>();
  for (const plugin of layout.plugins) {
    if (!isPlugin(plugin, caps)) return undefined;
    plugins.add(plugin.dir);
  }
  const restored: CapabilityUnit[] = [];
  for (const unit of units) {
    const cap = isRecord(unit) && typeof unit.dir === 'string' ? caps.get(unit.dir) : undefined;
    if (!cap || !isStoredUnit(unit, cap) || !plugins.has(unit.pluginDir)) return undefined;
    restored.push({ ...unit, files: cap.files, entries: cap.entries });
  }
  return {
    layout: { plugins: layout.plugins as PluginLayout[], diagnostics: layout.diagnostics },
    units: { units: restored, diagnostics: unitDiagnostics },
  } satisfies { layout: Layout; units: DerivedLayout['units'] };
}

function isPlugin(value: unknown, caps: Map<string, CapabilityDir>): value is PluginLayout {
  if (!isRecord(value) || typeof value.owner !== 'string' || typeof value.dir !== 'string') return false;
  if (!optionalString(value.agentsMd) || !optionalString(value.entry) || !Array.isArray(value.caps)) return false;
  return value.caps.every((cap) => isCap(cap, caps));
}

/** A capability directory and, recursively, its children; each is indexed by its directory. */
function isCap(value: unknown, caps: Map<string, CapabilityDir>): value is CapabilityDir {
  if (!isRecord(value) || typeof value.kind !== 'string' || !KINDS.has(value.kind)) return false;
  if (typeof value.name !== 'string' || typeof value.dir !== 'string' || caps.has(value.dir)) return false;
  if (!isStrings(value.files) || !Array.isArray(value.entries) || !Array.isArray(value.children)) return false;
  for (const entry of value.entries)
    if (!isRecord(entry) || typeof entry.name !== 'string' || typeof entry.isDirectory !== 'boolean') return false;
  caps.set(value.dir, value as unknown as CapabilityDir);
  return value.children.every((child) => isCap(child, caps));
}

function isStoredUnit(
  value: Record<string, unknown>,
  cap: CapabilityDir,
): value is Record<string, unknown> & StoredUnit {
  return (
    value.kind === cap.kind &&
    value.name === cap.name &&
    typeof value.owner === 'string' &&
    typeof value.placement === 'string' &&
    PLACEMENTS.has(value.placement) &&
    optionalString(value.agent) &&
    optionalString(value.skill) &&
    optionalString(value.entry) &&
    (value.entry === undefined || cap.files.includes(value.entry as string)) &&
    typeof value.pluginDir === 'string'
  );
}

function isDiagnostics(value: unknown): value is Diagnostic[] {
  return Array.isArray(value) && value.every(isDiagnostic);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
