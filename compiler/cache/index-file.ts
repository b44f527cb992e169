/**
 * The unit cache's index: a small file beside the cache (`units.json.index`) with what a run
 * that finds nothing to do needs, and nothing else: each unit's file list and file stamps, the
 * output record, and the counts and diagnostics of the run that wrote that output. The entries'
 * bodies (parse results, schemas: ~2.6 KB a tool, 50 MB at 20,000 tools) stay in the cache file
 * and its journal (cache/file.ts), read only when some unit changed or someone asks for the model.
 *
 * The index names the bodies it was written with (size and mtime of the cache file and of its
 * journal). An index whose bodies are no longer those on disk, of another version or
 * configuration, or of any wrong shape, is not used: the run loads the bodies as before, so a
 * damaged index costs the load it would have saved, never a wrong result.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics.js';
import { writeAtomically } from '../write/output.js';
import { isDiagnostic, isOutputRecord } from './entry-shape.js';
import type { OutputRecord } from './units.js';
import type { RunCounts } from '../run-types.js';

/** The part of a run's result that follows from its inputs digest alone. */
export interface RunSummary {
  /** The vouched-output key (inputs digest and validators stamp) this summary belongs to. */
  readonly digest: string;
  readonly counts: RunCounts;
  /** Diagnostics of the parse results and the assembled model (not of the walk or layout). */
  readonly diagnostics: readonly Diagnostic[];
}

/** One unit as the index knows it: its hash, its file list and the stamps of its files. */
export interface IndexedUnit {
  readonly hash: string;
  readonly files: readonly string[];
  /** Flat: file, mtimeMs, size, content hash; for every file the unit's result depends on. */
  readonly stamps: readonly (string | number)[];
}

export interface CacheIndex {
  readonly units: ReadonlyMap<string, IndexedUnit>;
  readonly output?: OutputRecord;
  readonly summary?: RunSummary;
}

/** The cache file and its journal as they are on disk now, as one comparable string. */
export function bodiesStamp(file: string): string | undefined {
  const stamp = (path: string): string => {
    try {
      const s = statSync(path);
      return `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      return '-';
    }
  };
  const base = stamp(file);
  return base === '-' ? undefined : `${base}|${stamp(`${file}.journal`)}`;
}

/**
 * A file written beside the cache bodies (the index, the tree record): its JSON object when it is
 * of this version and configuration and was written for the bodies now on disk, else undefined.
 */
export function readBeside(
  file: string,
  bodies: string,
  version: string,
  configKey: string,
): Record<string, unknown> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || raw.version !== version || raw.configKey !== configKey) return undefined;
  const stamp = bodiesStamp(bodies);
  return stamp !== undefined && raw.bodies === stamp ? raw : undefined;
}

/** Writes a file beside the bodies now on disk (call after they are written), stamped for them. */
export function writeBeside(
  file: string,
  bodies: string,
  version: string,
  configKey: string,
  payload: Record<string, unknown>,
): void {
  const stamp = bodiesStamp(bodies);
  if (stamp === undefined) return;
  writeAtomically(file, JSON.stringify({ version, configKey, bodies: stamp, ...payload }));
}

const COUNT_KEYS = ['tools', 'skills', 'agents', 'promptSections', 'hooks'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isStamps(value: unknown): value is (string | number)[] {
  if (!Array.isArray(value) || value.length % 4 !== 0) return false;
  for (let i = 0; i < value.length; i += 4)
    if (
      typeof value[i] !== 'string' ||
      typeof value[i + 1] !== 'number' ||
      typeof value[i + 2] !== 'number' ||
      typeof value[i + 3] !== 'string'
    )
      return false;
  return true;
}

export function toSummary(value: unknown): RunSummary | undefined {
  if (!isRecord(value) || typeof value.digest !== 'string' || !isRecord(value.counts)) return undefined;
  const counts = value.counts;
  if (!COUNT_KEYS.every((k) => typeof counts[k] === 'number')) return undefined;
  if (!Array.isArray(value.diagnostics) || !value.diagnostics.every(isDiagnostic)) return undefined;
  return { digest: value.digest, counts: counts as unknown as RunCounts, diagnostics: value.diagnostics };
}

export class IndexFile {
  readonly file: string;

  constructor(
    private readonly bodies: string,
    private readonly version: string,
  ) {
    this.file = `${bodies}.index`;
  }

  /** The index, when it is of this version and configuration and its bodies are those on disk. */
  load(configKey: string): CacheIndex | undefined {
    const raw = readBeside(this.file, this.bodies, this.version, configKey);
    if (!raw || !isRecord(raw.units)) return undefined;
    const units = new Map<string, IndexedUnit>();
    for (const key in raw.units) {
      const unit = raw.units[key];
      if (!isRecord(unit) || typeof unit.h !== 'string' || !isStrings(unit.f) || !isStamps(unit.s)) return undefined;
      units.set(key, { hash: unit.h, files: unit.f, stamps: unit.s });
    }
    let output: OutputRecord | undefined;
    if (raw.output !== undefined) {
      if (!isOutputRecord(raw.output)) return undefined;
      output = raw.output;
    }
    let summary: RunSummary | undefined;
    if (raw.summary !== undefined) {
      summary = toSummary(raw.summary);
      if (summary === undefined) return undefined;
    }
    return { units, ...(output ? { output } : {}), ...(summary ? { summary } : {}) };
  }

  /** Writes the index for the bodies now on disk (call after they are written). */
  save(configKey: string, index: CacheIndex): void {
    const stamp = bodiesStamp(this.bodies);
    if (stamp === undefined) return;
    const units: Record<string, { h: string; f: readonly string[]; s: readonly (string | number)[] }> = {};
    for (const [key, unit] of index.units) units[key] = { h: unit.hash, f: unit.files, s: unit.stamps };
    writeAtomically(
      this.file,
      JSON.stringify({
        version: this.version,
        configKey,
        bodies: stamp,
        units,
        ...(index.output ? { output: index.output } : {}),
        ...(index.summary ? { summary: index.summary } : {}),
      }),
    );
  }
}
