/**
 * The tree record: a small file beside the unit cache (`units.json.tree`) that lets a fresh run
 * with nothing to do stop after the walk. It holds one digest over everything the last output
 * was made from that a walk and a stat per file can see again: the walked paths, the mtime and
 * size of every listed file and of every file outside the walk a unit depends on (a `src/`
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
import type { Diagnostic } from '../diagnostics.js';
import { isDiagnostic, isOutputRecord } from './entry-shape.js';
import { readBeside, type RunSummary, toSummary, writeBeside } from './index-file.js';
import type { OutputRecord } from './units.js';

/** mtime and size of a file as one comparable string; '-' when it cannot be stat'ed. */
export type Stamp = string;

export function stampOf(abs: string): Stamp {
  try {
    const s = statSync(abs);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return '-';
  }
}

/**
 * The stamps of a walk's list, taken now: mtime and size of the entry at index i at 2i and 2i + 1,
 * -1 and -1 for a directory (its path ends in '/') and for a file that cannot be stat'ed (no file
 * has size -1). Numbers, not {@link Stamp} strings: at 20,000 tools the list holds ~90,000 paths,
 * and a string per file (a double printed, a template, a map entry) cost more than the stat did.
 */
export function statList(root: string, list: readonly string[]): Float64Array {
  const stamps = new Float64Array(list.length * 2).fill(-1);
  const prefix = `${root}/`;
  for (let i = 0; i < list.length; i++) {
    const path = list[i]!;
    if (path.endsWith('/')) continue;
    let s: { mtimeMs: number; size: number } | undefined;
    try {
      s = statSync(prefix + path, { throwIfNoEntry: false });
    } catch {
      s = undefined;
    }
    if (s === undefined) continue;
    stamps[2 * i] = s.mtimeMs;
    stamps[2 * i + 1] = s.size;
  }
  return stamps;
}

/** Entry i of {@link statList}'s table as a {@link Stamp} (what the unit cache compares). */
export function stampAt(stamps: Float64Array, i: number): Stamp {
  const size = stamps[2 * i + 1]!;
  return size < 0 ? '-' : `${stamps[2 * i]}:${size}`;
}

export interface TreeInputs {
  /** Root, output path, runtime module, shipped packages, plugin entry names, configured plugins. */
  readonly context: string;
  readonly list: readonly string[];
  /** The list's stamps ({@link statList}). */
  readonly stamps: Float64Array;
  /** Files outside the walk a unit depends on, with their stamps. */
  readonly extras: ReadonlyMap<string, Stamp>;
  readonly validators: string;
}

/** One digest over the context, the list, its stamps (their bytes, in list order) and the extras. */
export function treeDigest(input: TreeInputs): string {
  const hash = createHash('sha256').update(`${input.context}\0${input.validators}\0`);
  hash.update(input.list.join('\n'));
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
   * One digest over every unit's key, file list and its files' stamps ({@link digestOfUnits}): when
   * a later walk gives another, some unit is not as the cache's index recorded it, so the index
   * check cannot vouch and is skipped (cache/tree-check.ts). Absent in a record without it.
   */
  readonly unitsDigest?: string;
}

/** The units a run looks up: key and files (capability units, then plugin entries). */
export type KeyedUnits = readonly (readonly [key: string, files: readonly string[]])[];

/** {@link TreeRecord.unitsDigest} of these units, with each file's stamp as `stampOf` gives it. */
export function digestOfUnits(units: KeyedUnits, stampOf: (path: string) => Stamp | undefined): string {
  const hash = createHash('sha256');
  for (const [key, files] of units) {
    let text = `${key}\0`;
    for (const file of files) text += `${file}\0${stampOf(file) ?? '?'}\0`;
    hash.update(`${text}\n`);
  }
  return hash.digest('hex');
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
    const { unitsDigest } = raw;
    if (unitsDigest !== undefined && typeof unitsDigest !== 'string') return undefined;
    return { digest, extras, units, output, summary, layout, ...(unitsDigest !== undefined ? { unitsDigest } : {}) };
  }

  /** Writes the record for the bodies now on disk (call after they are written). */
  save(configKey: string, record: TreeRecord): void {
    writeBeside(this.file, this.bodies, this.version, configKey, { ...record });
  }
}
