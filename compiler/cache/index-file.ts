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
 * damaged index costs the load it would have saved, never a wrong result. A run that changed a
 * few units appends them to the index's journal instead of rewriting it (cache/index-journal.ts).
 */
import { isRecord } from './json-shape.js';
import { rmSync, statSync } from 'node:fs';
import { readText } from '../util/read-text.js';
import { sealOf } from '../util/hash.js';
import type { Writable } from '../util/writable.js';
import { writeAtomically, writeChunksAtomically } from '../write/output.js';
import { isFileStamps, isOutputRecord, isUnitRecord } from './entry-shape.js';
import type { OutputRecord } from './units.js';
import { appendJournal, applyJournal, type IndexState } from './index-journal.js';
import { indexedUnitOf } from './index-queries.js';
import type { Entry } from './unit-entry.js';
import type { EntryRange } from './file.js';
import type { UnitRecord } from './unit-record.js';
import { type RunSummary, sealedSummary, toSummary } from './run-summary.js';
import { stringifyAscii } from '../util/ascii-json.js';

export { type RunSummary, toSummary } from './run-summary.js';

/** One unit as the index knows it: its hash, its file list and the stamps of its files. */
export interface IndexedUnit {
  readonly hash: string;
  readonly files: readonly string[];
  /** For every file the unit's result depends on, flat (cache/flat-stamps.ts). */
  readonly stamps: readonly (string | number)[];
  /** What a run needs of the unit while it is unchanged (cache/unit-record.ts). */
  readonly record?: UnitRecord;
  /** Where the entry's body is in the base file (cache/file.ts); absent: in its journal. */
  readonly at?: EntryRange;
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

/** A file's JSON object when it is of this version and configuration, else undefined. */
function readFrame(file: string, version: string, configKey: string): Record<string, unknown> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readText(file));
  } catch {
    return undefined;
  }
  return isRecord(raw) && raw.version === version && raw.configKey === configKey ? raw : undefined;
}

/**
 * A file written beside the cache bodies (the tree record): its payload when it is of this
 * version and configuration, was written for the bodies now on disk and still carries its seal,
 * else undefined. The seal catches what keeps the shape: a hand edit of a recorded diagnostic
 * (a run it vouches for replays them as they are) or a flipped byte inside a string.
 */
export function readBeside(
  file: string,
  bodies: string,
  version: string,
  configKey: string,
): Record<string, unknown> | undefined {
  const raw = readFrame(file, version, configKey);
  if (!raw) return undefined;
  const stamp = bodiesStamp(bodies);
  if (stamp === undefined || raw.bodies !== stamp) return undefined;
  // The rest keeps the order it was written in, so its JSON is the text that was sealed.
  const { version: _v, configKey: _c, bodies: _b, seal, ...payload } = raw;
  return typeof seal === 'string' && seal === sealOf(payload) ? payload : undefined;
}

/** Writes a file beside the bodies now on disk (call after they are written), stamped for them and sealed. */
export function writeBeside(
  file: string,
  bodies: string,
  version: string,
  configKey: string,
  payload: Record<string, unknown>,
): void {
  const stamp = bodiesStamp(bodies);
  if (stamp === undefined) return;
  writeAtomically(file, stringifyAscii({ version, configKey, bodies: stamp, seal: sealOf(payload), ...payload }));
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

export class IndexFile {
  readonly file: string;

  constructor(
    private readonly bodies: string,
    private readonly version: string,
  ) {
    this.file = `${bodies}.index`;
  }

  /** The bodies on disk as an index names them (bodiesStamp), undefined when they are missing. */
  bodiesNow(): string | undefined {
    return bodiesStamp(this.bodies);
  }

  /**
   * The index, when it is of this version and configuration and, with its journal applied
   * (cache/index-journal.ts), describes the bodies on disk.
   */
  load(configKey: string): CacheIndex | undefined {
    const raw = readFrame(this.file, this.version, configKey);
    if (!raw || typeof raw.bodies !== 'string') return undefined;
    const units = unitsOf(raw.units);
    if (!units) return undefined;
    const state: IndexState = { output: undefined, summary: undefined };
    if (raw.output !== undefined) {
      if (!isOutputRecord(raw.output)) return undefined;
      state.output = raw.output;
    }
    if (raw.summary !== undefined) {
      state.summary = toSummary(raw.summary);
      if (state.summary === undefined) return undefined;
    }
    const at = applyJournal(`${this.file}.journal`, raw.bodies, units, state, { units: unitsOf, summary: toSummary });
    const stamp = bodiesStamp(this.bodies);
    if (at === undefined || stamp === undefined || at !== stamp) return undefined;
    const { output, summary } = state;
    return { units, ...(output ? { output } : {}), ...(summary ? { summary } : {}) };
  }

  /** Writes the index for the bodies now on disk (call after they are written), without a journal. */
  save(configKey: string, index: CacheIndex): void {
    this.write(configKey, storedUnits(index.units), index.output, index.summary);
  }

  /**
   * The whole index of these entries, for the bodies now on disk (call after they are written),
   * without a journal. Written unit by unit as it is serialised: at 20,000 tools the index is
   * ~22 MB, and a map of every unit's record plus one string of it added that much again to a
   * cold run's peak.
   */
  saveEntries(
    configKey: string,
    entries: ReadonlyMap<string, Entry>,
    output: OutputRecord | undefined,
    summary: RunSummary | undefined,
    ranges?: ReadonlyMap<string, EntryRange>,
  ): void {
    this.write(configKey, storedEntries(entries, ranges), output, summary);
  }

  private write(
    configKey: string,
    units: Iterable<readonly [string, string]>,
    output: OutputRecord | undefined,
    summary: RunSummary | undefined,
  ): void {
    const stamp = bodiesStamp(this.bodies);
    if (stamp === undefined) return;
    writeChunksAtomically(
      this.file,
      indexChunks({ version: this.version, configKey, bodies: stamp }, units, output, summary),
    );
    rmSync(`${this.file}.journal`, { force: true });
  }

  /**
   * Appends the `changed` entries' units to the journal, taking the index from the bodies stamped
   * `prev` to those now on disk (call after they are written); false when the base must be
   * rewritten instead. The belief that the index on disk describes `prev` is not checked here:
   * a wrong one breaks the chain, which only costs the next index read.
   */
  append(
    prev: string,
    entries: ReadonlyMap<string, Entry>,
    changed: readonly string[],
    output: OutputRecord | undefined,
    summary: RunSummary | undefined,
  ): boolean {
    const bodies = bodiesStamp(this.bodies);
    if (bodies === undefined) return false;
    const units: Record<string, StoredUnit> = {};
    for (const key of changed) {
      const entry = entries.get(key);
      if (entry) units[key] = stored(indexedUnitOf(entry));
    }
    return appendJournal(this.file, { prev, bodies, units, output, summary });
  }
}

/** Each unit of a loaded index, as the index stores it (JSON). */
function* storedUnits(units: ReadonlyMap<string, IndexedUnit>): Generator<readonly [string, string]> {
  for (const [key, unit] of units) yield [key, stringifyAscii(stored(unit))];
}

/** Each entry's unit as the index stores it, made as it is written (never all at once). */
function* storedEntries(
  entries: ReadonlyMap<string, Entry>,
  ranges: ReadonlyMap<string, EntryRange> | undefined,
): Generator<readonly [string, string]> {
  for (const [key, entry] of entries) yield [key, stringifyAscii(stored(indexedUnitOf(entry, ranges?.get(key))))];
}

/**
 * `JSON.stringify` of the index (same keys in the same order: frame, units, output, summary),
 * unit by unit: at 20,000 tools the index is ~22 MB, and one string of it with the stored copy of
 * every unit beside it was held at the very end of a cold run, where its peak RSS is.
 */
function* indexChunks(
  frame: { readonly version: string; readonly configKey: string; readonly bodies: string },
  units: Iterable<readonly [string, string]>,
  output: OutputRecord | undefined,
  summary: RunSummary | undefined,
): Generator<string> {
  yield `${stringifyAscii(frame).slice(0, -1)},"units":{`;
  let first = true;
  for (const [key, unit] of units) {
    yield `${first ? '' : ','}${stringifyAscii(key)}:${unit}`;
    first = false;
  }
  yield `}${output ? `,"output":${stringifyAscii(output)}` : ''}${summary ? `,"summary":${stringifyAscii(sealedSummary(summary))}` : ''}}`;
}

interface StoredUnit {
  readonly h: string;
  readonly f: readonly string[];
  readonly s: readonly (string | number)[];
  readonly r?: UnitRecord;
  readonly a?: EntryRange;
}

function stored(unit: IndexedUnit): StoredUnit {
  // Assigned, not spread (util/writable.ts): one per unit.
  const out: Writable<StoredUnit> = { h: unit.hash, f: unit.files, s: unit.stamps };
  if (unit.record) out.r = unit.record;
  if (unit.at) out.a = unit.at;
  return out;
}

function isRange(value: unknown): value is EntryRange {
  return Array.isArray(value) && value.length === 2 && Number.isInteger(value[0]) && Number.isInteger(value[1]);
}

/** The units of a stored index (or of a journal line), or undefined when any is of a wrong shape. */
function unitsOf(value: unknown): Map<string, IndexedUnit> | undefined {
  if (!isRecord(value)) return undefined;
  const units = new Map<string, IndexedUnit>();
  for (const key in value) {
    const unit = value[key];
    if (!isRecord(unit) || typeof unit.h !== 'string' || !isStrings(unit.f) || !isFileStamps(unit.s)) return undefined;
    if (unit.r !== undefined && !isUnitRecord(unit.r)) return undefined;
    if (unit.a !== undefined && !isRange(unit.a)) return undefined;
    const indexed: Writable<IndexedUnit> = { hash: unit.h, files: unit.f, stamps: unit.s };
    if (unit.r !== undefined) indexed.record = unit.r;
    if (unit.a !== undefined) indexed.at = unit.a;
    units.set(key, indexed);
  }
  return units;
}
