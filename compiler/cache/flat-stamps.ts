/**
 * A unit's file stamps as the cache holds them, in its entries and in its index alike: one flat
 * array, five slots a file (path, changedMs, size, content hash, inode), in the order the files
 * were stamped. An object keyed by path (the entries' format before cache version 5) gave V8 a new
 * hidden class per path: ~29,000 of them and ~6 MB at 5,000 tools (docs/bench.md, "Eighth pass").
 * A unit stamps a handful of files, so a scan finds one faster than a hash would.
 */
/**
 * What the cache knows of one file: its stat and content hash. Here, not beside the entry, so the
 * watcher's declarations (watch/dependency-dirs.ts) reach it without the parser's types.
 */
import { type FileStat, statIs } from '../util/file-stat.js';
import { sha256 } from '../util/hash.js';

export type { FileStat } from '../util/file-stat.js';

/** A content hash as stamps hold it (and a unit's files hash, cache/unit-entry.ts): 16 hex digits of SHA-256. */
export function contentHash(data: string | Buffer): string {
  return sha256(data).slice(0, 16);
}

export interface FileStamp extends FileStat {
  readonly hash: string;
}

/** Path, changedMs, size, content hash, inode; again for every file the unit's result depends on. */
export type FlatStamps = (string | number)[];

/** Slots a file takes. */
export const STAMP_SLOTS = 5;

/**
 * The stamp of a file the unit looked for and did not find (an import candidate that would win
 * resolution if it appeared, a package not installed): the unit is current only while the file is
 * still missing. -1 and -1 as the tree record's table has a missing file (cache/tree-record.ts).
 */
export const ABSENT: FileStamp = { changedMs: -1, size: -1, hash: '-', ino: -1 };

/**
 * The content hash of a stamp that must match nothing (its mtime is -1, its size the file's): the
 * bytes the unit's result was made from may not be the bytes hashed (a bundled schema's file
 * written after esbuild read it: cache/unit-entry.ts `addStamps`; a file whose bytes changed
 * between two reads of one run: cache/reader.ts). Never a hex digest.
 */
export const UNKNOWN_CONTENT = '?';

/** Whether a stamp says the file was missing. */
export function isAbsent(stamp: { readonly size: number }): boolean {
  return stamp.size < 0;
}

/**
 * Whether a file's stat now (undefined: missing) is exactly what was stamped (util/file-stat.ts
 * `statIs`), or missing when it was stamped {@link ABSENT}.
 */
export function sameStat(now: FileStat | undefined, changedMs: unknown, size: unknown, ino: unknown): boolean {
  return now === undefined ? (size as number) < 0 : statIs(now, changedMs, size, ino);
}

/** Where `file`'s stamp starts, or -1. */
export function stampIndex(stamps: readonly (string | number)[], file: string): number {
  for (let i = 0; i < stamps.length; i += STAMP_SLOTS) if (stamps[i] === file) return i;
  return -1;
}

/** The stamp that starts at `i` (a position `stampIndex` gave, or a multiple of STAMP_SLOTS). */
export function stampAt(stamps: readonly (string | number)[], i: number): FileStamp {
  return {
    changedMs: stamps[i + 1] as number,
    size: stamps[i + 2] as number,
    hash: stamps[i + 3] as string,
    ino: stamps[i + 4] as number,
  };
}

/** Stamps `file` anew, or for the first time. */
export function putStamp(stamps: FlatStamps, file: string, stamp: FileStamp): void {
  const i = stampIndex(stamps, file);
  if (i < 0) stamps.push(file, stamp.changedMs, stamp.size, stamp.hash, stamp.ino);
  else {
    stamps[i + 1] = stamp.changedMs;
    stamps[i + 2] = stamp.size;
    stamps[i + 3] = stamp.hash;
    stamps[i + 4] = stamp.ino;
  }
}

/** The stamped paths, in stamping order. */
export function stampedPaths(stamps: readonly (string | number)[]): string[] {
  const paths: string[] = [];
  for (let i = 0; i < stamps.length; i += STAMP_SLOTS) paths.push(stamps[i] as string);
  return paths;
}

/** Calls `each` with every stamped file's path, mtime, size and inode. */
export function eachStamp(
  stamps: readonly (string | number)[],
  each: (path: string, changedMs: number, size: number, ino: number) => void,
): void {
  for (let i = 0; i < stamps.length; i += STAMP_SLOTS)
    each(stamps[i] as string, stamps[i + 1] as number, stamps[i + 2] as number, stamps[i + 4] as number);
}

/**
 * What the inputs digest reads of a unit's dependencies: `path:hash` of every stamped file, sorted
 * by path, joined by `|`. One function for an entry and for its indexed unit, so both give the
 * same text.
 */
export function stampsContent(stamps: readonly (string | number)[] | undefined): string {
  if (!stamps || stamps.length === 0) return '';
  const order: number[] = [];
  for (let i = 0; i < stamps.length; i += STAMP_SLOTS) order.push(i);
  order.sort((a, b) => {
    const x = stamps[a] as string;
    const y = stamps[b] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return order.map((i) => `${stamps[i] as string}:${stamps[i + 3] as string}`).join('|');
}
