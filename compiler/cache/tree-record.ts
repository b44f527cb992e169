/**
 * The tree record: a small file beside the unit cache (`units.json.tree`) that lets a fresh run
 * with nothing to do stop after the walk. It holds one digest over everything the last output
 * was made from that a walk and a stat per file can see again: the walked paths, the mtime and
 * size of every listed file (but code units' helper modules, which no run reads: `unstat`, not
 * stat'ed by the next walk) and of every file outside the walk a unit depends on (a `src/`
 * fragment), the validators folder's stamp, and the run's context (root, output path, runtime
 * module, shipped packages, plugin entry names). With it go what the run reported (counts, the
 * diagnostics of the parse, the model and the layout) and the output record. A run whose walk
 * gives the same digest, whose output file still carries the recorded stamp and whose cache
 * bodies are those the record was written beside returns the recorded result without building
 * the layout, reading the index or loading a parser.
 *
 * Every stamp in the digest is one the unit cache stamped the unit's result with (taken through
 * the descriptor the bytes were read from), or, for a listed file no unit depends on, one taken
 * when the run started, before it read anything; a listed file whose stamp moved while the run
 * read it leaves no record. A record of another version or configuration, of any wrong shape,
 * or beside other bodies is ignored (the run takes the index's path): a damaged record costs the
 * index read it would have saved, never a wrong result.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { type FileStat, fileStat, statNow } from '../util/file-stat.js';
import type { Diagnostic } from '../diagnostics.js';
import { isDiagnostic, isOutputRecord } from './entry-shape.js';
import { readBeside, writeBeside } from './index-file.js';
import { type RunSummary, sealedSummary, toSummary } from './run-summary.js';
import type { OutputRecord } from './units.js';

/** mtime, size and inode of a file as one comparable string; '-' when it cannot be stat'ed. */
export type Stamp = string;

/** A stat as a {@link Stamp} ('-': missing). */
export function stampText(changedMs: number, size: number, ino: number): Stamp {
  return size < 0 ? '-' : `${changedMs}:${size}:${ino}`;
}

export function stampOf(abs: string): Stamp {
  try {
    // No exception for a missing file: a unit's stamps of files that must stay missing are extras too.
    const s = statSync(abs, { throwIfNoEntry: false });
    if (s === undefined) return '-';
    const { changedMs, size, ino } = fileStat(s);
    return stampText(changedMs, size, ino);
  } catch {
    return '-';
  }
}

/**
 * Numbers an entry takes in a table of a list's stamps: mtime, size and inode of the entry at
 * index i at 3i, 3i + 1 and 3i + 2 (cache/flat-stamps.ts `FileStat`); -1 each for a directory
 * (its path ends in '/') and for a file that cannot be stat'ed (no file has size -1), NaN each for
 * a file not stat'ed (a helper module the record left out).
 */
export const TABLE_SLOTS = 3;

/** The size at entry i of a stamps table. */
export function sizeIn(table: ArrayLike<number>, i: number): number {
  return table[TABLE_SLOTS * i + 1]!;
}

/** Writes a stat at entry i of a stamps table (-1 each: it could not be stat'ed). */
export function putStat(table: Float64Array, i: number, s: FileStat | undefined): void {
  const at = TABLE_SLOTS * i;
  table[at] = s === undefined ? -1 : s.changedMs;
  table[at + 1] = s === undefined ? -1 : s.size;
  table[at + 2] = s === undefined ? -1 : s.ino;
}

/** Fills entry i of a stamps table with one number. */
export function fillEntry(table: Float64Array, i: number, value: number): void {
  table.fill(value, TABLE_SLOTS * i, TABLE_SLOTS * (i + 1));
}

/**
 * The stamps of a walk's list, taken now ({@link TABLE_SLOTS}). Numbers, not {@link Stamp}
 * strings: at 20,000 tools the list holds ~90,000 paths, and a string per file (a double printed,
 * a template, a map entry) cost more than the stat did.
 */
export function statList(root: string, list: readonly string[]): Float64Array {
  const stamps = new Float64Array(list.length * TABLE_SLOTS).fill(-1);
  const prefix = `${root}/`;
  for (let i = 0; i < list.length; i++) if (!list[i]!.endsWith('/')) stampInto(stamps, i, prefix + list[i]!);
  return stamps;
}

/** Stats the file and writes its stat at entry i of a {@link statList} table (-1 each when it cannot be). */
export function stampInto(stamps: Float64Array, i: number, abs: string): void {
  putStat(stamps, i, statNow(abs));
}

export interface TreeInputs {
  /** Root, output path, runtime module, shipped packages, plugin entry names, configured plugins. */
  readonly context: string;
  /** The walked list's digest (scan/inventory.ts `listDigest`). */
  readonly listDigest: string;
  /** The list's stamps ({@link statList}). */
  readonly stamps: Float64Array;
  /** Files outside the walk a unit depends on, with their stamps. */
  readonly extras: ReadonlyMap<string, Stamp>;
  readonly validators: string;
}

/** One digest over the context, the list's digest, its stamps (their bytes, in list order) and the extras. */
export function treeDigest(input: TreeInputs): string {
  const hash = createHash('sha256').update(`${input.context}\0${input.validators}\0`);
  hash.update(input.listDigest);
  hash.update('\0stamps\0');
  hash.update(new Uint8Array(input.stamps.buffer, input.stamps.byteOffset, input.stamps.byteLength));
  hash.update('\0extras\0');
  for (const [path, stamp] of input.extras) hash.update(`${path}\0${stamp}\n`);
  return hash.digest('hex');
}

export interface TreeRecord {
  readonly digest: string;
  /** Files outside the walk the units depend on (their stamps are in the digest). */
  readonly extras: readonly string[];
  readonly units: number;
  readonly output: OutputRecord;
  readonly summary: RunSummary;
  /** Diagnostics of the layout (a function of the walked paths and their contents). */
  readonly layout: readonly Diagnostic[];
  /**
   * The tree digest with the stamps of the listed files no unit depends on left out
   * ({@link unitsDigest}): when a later walk gives another, some unit's file is not as the cache's
   * index recorded it (or the list changed), so the index check cannot vouch and is skipped
   * (cache/tree-check.ts). Absent in a record without it.
   */
  readonly unitsDigest?: string;
  /** List indices of the files no unit depends on (a stray file, a README): left out of {@link unitsDigest}. */
  readonly loose?: readonly number[];
  /**
   * List indices (ascending) of the helper modules of code units (a tool's `format.ts`): files
   * whose content no run reads (cache/unit-key.ts `stampedFilesOf`), stamped NaN in
   * {@link digest}, so the next walk does not stat them (scan/walk.ts). Their names are in the
   * list's digest. Absent: every listed file's stamp is in the digest.
   */
  readonly unstat?: readonly number[];
  /**
   * The walked list's digest (also in {@link digest}): while a later walk lists the same paths,
   * the files at `unstat` are still the helper modules the record left out (cache/tree-check.ts `fill`).
   */
  readonly list?: string;
}

/** The list's stamps with the files at `unstat` stamped NaN (the table itself when they are already). */
export function withoutUnstat(stamps: Float64Array, unstat: readonly number[] | undefined): Float64Array {
  if (!unstat || unstat.length === 0) return stamps;
  let out = stamps;
  for (const i of unstat) {
    if (TABLE_SLOTS * i + 1 >= stamps.length || Number.isNaN(sizeIn(out, i))) continue;
    if (out === stamps) out = new Float64Array(stamps);
    fillEntry(out, i, Number.NaN);
  }
  return out;
}

/**
 * {@link treeDigest} of the list and its stamps with the stamps at the `loose` indices left out:
 * it moves when a unit's file is edited, added or removed, but not when only a file no unit
 * depends on is edited. Made from the table the tree check has anyway: no string per file.
 */
export function unitsDigest(input: Omit<TreeInputs, 'extras'>, loose: readonly number[]): string {
  const stamps = new Float64Array(input.stamps);
  for (const i of loose) if (TABLE_SLOTS * i + 1 < stamps.length) fillEntry(stamps, i, -1);
  return treeDigest({ ...input, stamps, extras: new Map() });
}

export class TreeRecordFile {
  readonly file: string;

  constructor(
    private readonly bodies: string,
    private readonly version: string,
  ) {
    this.file = `${bodies}.tree`;
  }

  /** The record, when it is of this version and configuration and written beside these bodies. */
  load(configKey: string): TreeRecord | undefined {
    const raw = readBeside(this.file, this.bodies, this.version, configKey);
    if (!raw) return undefined;
    const { digest, extras, units, output, layout } = raw;
    if (typeof digest !== 'string' || typeof units !== 'number' || !isOutputRecord(output)) return undefined;
    if (!Array.isArray(extras) || !extras.every((e) => typeof e === 'string')) return undefined;
    if (!Array.isArray(layout) || !layout.every(isDiagnostic)) return undefined;
    const summary = toSummary(raw.summary);
    if (summary === undefined) return undefined;
    const { unitsDigest, loose } = raw;
    if (unitsDigest !== undefined && typeof unitsDigest !== 'string') return undefined;
    if (loose !== undefined && !(Array.isArray(loose) && loose.every((i) => Number.isInteger(i) && i >= 0)))
      return undefined;
    const withUnits = unitsDigest !== undefined && loose !== undefined ? { unitsDigest, loose: loose as number[] } : {};
    const { unstat } = raw;
    if (unstat !== undefined && !ascending(unstat)) return undefined;
    const withUnstat = unstat !== undefined ? { unstat: unstat as number[] } : {};
    const { list } = raw;
    if (list !== undefined && typeof list !== 'string') return undefined;
    const withList = list !== undefined ? { list } : {};
    return { digest, extras, units, output, summary, layout, ...withUnits, ...withUnstat, ...withList };
  }

  /** Writes the record for the bodies now on disk (call after they are written). */
  save(configKey: string, record: TreeRecord): void {
    writeBeside(this.file, this.bodies, this.version, configKey, { ...record, summary: sealedSummary(record.summary) });
  }
}

/** Whether a value is a list of list indices, strictly ascending (what the walk's cursor takes). */
function ascending(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    const n = value[i] as unknown;
    if (!Number.isInteger(n) || (n as number) < 0 || (i > 0 && (n as number) <= (value[i - 1] as number))) return false;
  }
  return true;
}
