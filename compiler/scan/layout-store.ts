/**
 * The layout and units of the last walked list, kept on disk beside the unit cache
 * (`units.json.layout`), so a fresh process whose walk lists the same paths (a one-tool edit)
 * reads them instead of deriving them again.
 *
 * The layout is a pure function of the sorted list, the plugin entry names and the configured
 * extra plugins (scan/layout.ts), and it reads no file contents; the file is keyed by a digest
 * of exactly those and of this build's version. So the list a loading run walked is the list the
 * file was written for, and the file names every path by its position in that list (layout
 * format 2): a directory, its files and its entries are numbers, restored as the walk's own
 * strings. The first format held every path as text; at 20,000 tools (~90,000 paths) it was
 * 12 MB, and parsing and checking it cost what deriving the layout again did (~200 ms).
 *
 * A file of another key, that does not parse, or of any wrong shape (a code or a position out of
 * range, a count that does not add up) is ignored and the layout is derived (and the file
 * rewritten): a damaged file costs the derivation it would have saved, never a crash.
 */
import { isRecord } from '../cache/json-shape.js';
import { createHash } from 'node:crypto';
import { sha256 } from '../util/hash.js';
import { readText } from '../util/read-text.js';
import type { ToolPlacement } from '@zhin-gen/runtime';
import { TOOL_PLACEMENTS } from '@zhin-gen/runtime/define';
import type { Diagnostic } from '../diagnostics.js';
import { isDiagnostic } from '../cache/entry-shape.js';
import { packageVersion } from '../version.js';
import { writeAtomically } from '../write/output.js';
import {
  type CapabilityDir,
  type CapabilityKind,
  type CapabilityUnit,
  type ExtraPlugin,
  type PluginLayout,
  unitOf,
} from './layout.js';
import type { DerivedLayout } from './layout-memo.js';
import { stringifyAscii } from '../util/ascii-json.js';

// Bumped when the layout or its units change for the same list (scan/layout.ts), or the format.
const STORE_VERSION = `zhin-gen-layout-2@${packageVersion()}`;

/** Codes of the file: a kind or a placement is its index here. */
const KINDS: readonly CapabilityKind[] = ['tool', 'skill', 'agent', 'hook', 'prompt-section'];
const PLACEMENTS: readonly ToolPlacement[] = TOOL_PLACEMENTS;
/** Numbers per unit in `units`: cap, plugin, placement, agent, skill, entry. */
const UNIT_WIDTH = 6;

/** What the layout is derived from, as one digest; `listDigest`: the walked list's (scan/inventory.ts). */
export function layoutKey(listDigest: string, pluginEntry: readonly string[], extra: readonly ExtraPlugin[]): string {
  return sha256(`${STORE_VERSION}\0${JSON.stringify(pluginEntry)}\0${JSON.stringify(extra)}\0${listDigest}`);
}

/**
 * The file's payload. `caps`: every capability directory in pre-order (plugin by plugin), each
 * as kind, the position of `dir/`, the file count and positions, the entry count and positions,
 * the child count, then its children. `units`: {@link UNIT_WIDTH} values a unit (its directory's
 * pre-order index, its plugin's index, its placement, its agent and skill names or null, the
 * position of its entry file or -1).
 */
interface Stored {
  readonly plugins: readonly (readonly [
    owner: string,
    dir: string,
    agentsMd: string | null,
    entry: string | null,
    caps: number,
  ])[];
  readonly caps: readonly number[];
  readonly units: readonly (number | string | null)[];
  readonly diagnostics: readonly Diagnostic[];
  readonly unitDiagnostics: readonly Diagnostic[];
}

export class LayoutStore {
  /**
   * A digest of the text last written: a derivation that gives the same bytes writes nothing.
   * Not the text itself, which stayed alive for the compiler's life. (A loaded store needs no
   * record: `save` follows only a failed load.)
   */
  private lastDigest: string | undefined;

  constructor(readonly file: string) {}

  /** The stored layout for this key and the list it was made from, or undefined (missing, other key, damaged). */
  load(key: string, list: readonly string[]): DerivedLayout | undefined {
    let raw: unknown;
    try {
      raw = JSON.parse(readText(this.file));
    } catch {
      return undefined;
    }
    if (!isRecord(raw) || raw.version !== STORE_VERSION || raw.key !== key) return undefined;
    try {
      return decode(raw, list);
    } catch {
      // A planted nesting deep enough to exhaust the stack.
      return undefined;
    }
  }

  /** Stores the layout derived from `list`; nothing when a path it holds is not in the list. */
  save(key: string, derived: DerivedLayout, list: readonly string[]): void {
    const stored = encode(derived, list);
    if (!stored) return;
    const text = stringifyAscii({ version: STORE_VERSION, key, ...stored });
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

function encode({ layout, units }: DerivedLayout, list: readonly string[]): Stored | undefined {
  const positions = new Map<string, number>();
  for (let i = 0; i < list.length; i++) positions.set(list[i]!, i);
  const caps: number[] = [];
  const capIndex = new Map<string, number>();
  let missing = false;
  const positionOf = (path: string): number => {
    const position = positions.get(path);
    if (position === undefined) missing = true;
    return position ?? -1;
  };
  const put = (cap: CapabilityDir): void => {
    capIndex.set(cap.dir, capIndex.size);
    caps.push(KINDS.indexOf(cap.kind), positionOf(`${cap.dir}/`), cap.files.length);
    for (const file of cap.files) caps.push(positionOf(file));
    caps.push(cap.entries.length);
    for (const entry of cap.entries) caps.push(positionOf(`${cap.dir}/${entry.name}${entry.isDirectory ? '/' : ''}`));
    caps.push(cap.children.length);
    for (const child of cap.children) put(child);
  };
  const plugins = layout.plugins.map((plugin) => {
    for (const cap of plugin.caps) put(cap);
    return [plugin.owner, plugin.dir, plugin.agentsMd ?? null, plugin.entry ?? null, plugin.caps.length] as const;
  });
  const pluginIndex = new Map(layout.plugins.map((plugin, i) => [plugin.dir, i]));
  const stored: (number | string | null)[] = [];
  for (const unit of units.units) {
    stored.push(
      capIndex.get(unit.dir) ?? -1,
      pluginIndex.get(unit.pluginDir) ?? -1,
      PLACEMENTS.indexOf(unit.placement),
      unit.agent ?? null,
      unit.skill ?? null,
      unit.entry === undefined ? -1 : positionOf(unit.entry),
    );
  }
  if (missing) return undefined;
  return { plugins, caps, units: stored, diagnostics: layout.diagnostics, unitDiagnostics: units.diagnostics };
}

/** Thrown inside {@link decode} on the first value out of shape: the file is then not used. */
class Damaged extends Error {}

function decode(raw: Record<string, unknown>, list: readonly string[]): DerivedLayout | undefined {
  const { plugins, caps, units, diagnostics, unitDiagnostics } = raw;
  if (!Array.isArray(plugins) || !Array.isArray(caps) || !Array.isArray(units)) return undefined;
  if (!isDiagnostics(diagnostics) || !isDiagnostics(unitDiagnostics) || units.length % UNIT_WIDTH !== 0)
    return undefined;
  const all: CapabilityDir[] = [];
  let i = 0;
  const count = (): number => {
    const n: unknown = caps[i++];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || i + n > caps.length) throw new Damaged();
    return n;
  };
  const path = (): string => {
    const p = at(list, caps[i++]);
    if (p === undefined) throw new Damaged();
    return p;
  };
  const cap = (): CapabilityDir => {
    const kind = at(KINDS, caps[i++]);
    const dirPath = path();
    if (kind === undefined || dirPath.length < 2 || !dirPath.endsWith('/')) throw new Damaged();
    const dir = dirPath.slice(0, -1);
    const files = new Array<string>(count());
    for (let f = 0; f < files.length; f++) files[f] = path();
    const entries = new Array<{ name: string; isDirectory: boolean }>(count());
    for (let e = 0; e < entries.length; e++) {
      const entry = path();
      const isDirectory = entry.endsWith('/');
      const end = isDirectory ? entry.length - 1 : entry.length;
      entries[e] = { name: entry.slice(entry.lastIndexOf('/', end - 1) + 1, end), isDirectory };
    }
    const restored: CapabilityDir = {
      kind,
      name: dir.slice(dir.lastIndexOf('/') + 1),
      dir,
      files,
      entries,
      children: [],
    };
    all.push(restored);
    for (let c = count(); c > 0; c--) restored.children.push(cap());
    return restored;
  };
  const layoutPlugins: PluginLayout[] = [];
  for (const plugin of plugins) {
    if (!Array.isArray(plugin) || plugin.length !== 5) return undefined;
    const [owner, dir, agentsMd, entry, n] = plugin as unknown[];
    if (typeof owner !== 'string' || typeof dir !== 'string' || !nullableString(agentsMd) || !nullableString(entry))
      return undefined;
    if (!Number.isInteger(n) || (n as number) < 0) return undefined;
    const pluginCaps: CapabilityDir[] = [];
    for (let c = 0; c < (n as number); c++) pluginCaps.push(cap());
    layoutPlugins.push({
      owner,
      dir,
      ...(agentsMd !== null ? { agentsMd } : {}),
      ...(entry !== null ? { entry } : {}),
      caps: pluginCaps,
    });
  }
  if (i !== caps.length) return undefined;
  const restored: CapabilityUnit[] = [];
  for (let u = 0; u < units.length; u += UNIT_WIDTH) {
    const capOf = at(all, units[u]);
    const plugin = at(layoutPlugins, units[u + 1]);
    const placement = at(PLACEMENTS, units[u + 2]);
    const [agent, skill, entryAt] = [units[u + 3], units[u + 4], units[u + 5]];
    if (!capOf || !plugin || !placement || !nullableString(agent) || !nullableString(skill)) return undefined;
    const entry = entryAt === -1 ? undefined : at(list, entryAt);
    if (entryAt !== -1 && (entry === undefined || !capOf.files.includes(entry))) return undefined;
    restored.push(unitOf(capOf, plugin, placement, agent ?? undefined, skill ?? undefined, entry));
  }
  return { layout: { plugins: layoutPlugins, diagnostics }, units: { units: restored, diagnostics: unitDiagnostics } };
}

/** The element at a stored position: only an integer in range is one. */
function at<T>(table: readonly T[], position: unknown): T | undefined {
  return typeof position === 'number' && Number.isInteger(position) && position >= 0 ? table[position] : undefined;
}

function isDiagnostics(value: unknown): value is Diagnostic[] {
  return Array.isArray(value) && value.every(isDiagnostic);
}

function nullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
