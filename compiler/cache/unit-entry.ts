/**
 * One unit-cache entry and the output record as the cache holds them (cache/units.ts), with the
 * small pure helpers around them: where the cache lives, what of an entry is persisted, and how a
 * unit's files are stamped.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { UnitResult } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import type { FileReader } from './reader.js';
import {
  ABSENT,
  contentHash,
  type FileStamp,
  type FlatStamps,
  putStamp,
  stampAt,
  stampIndex,
  UNKNOWN_CONTENT,
} from './flat-stamps.js';
import { tempCacheDir } from '../util/temp-cache-dir.js';
import { type FileStat, sameFile } from '../util/file-stat.js';
import { isRacy } from './racy.js';

export interface Entry {
  /** Replaced by the caller's equal array on lookup, so later runs compare one identity. */
  files: readonly string[];
  /** Flat, as the index's (cache/flat-stamps.ts); restamped in place. */
  readonly stamps: FlatStamps;
  readonly hash: string;
  result: UnitResult;
  schema?: SchemaOutcome;
  /**
   * Digests of `result` and `schema` as JSON, taken when each is set and kept with the entry: a
   * fresh process fingerprints a tool's generated text from them (`UnitCache.modelPrint`)
   * instead of serialising every tool again.
   */
  resultPrint?: string;
  schemaPrint?: string;
}

/** The last output this cache vouches for: same inputs digest + same file stamp → same bytes. */
export interface OutputRecord extends FileStat {
  readonly digest: string;
  readonly file: string;
}

/** A unit's files hash: the same digest as a file's content hash (cache/flat-stamps.ts). */
export const sha = contentHash;

/**
 * A root-relative POSIX path made absolute. Plain concatenation: `path.join` normalises, which
 * costs more than the stat it is for when every file of a large tree is stamped (Windows
 * accepts forward slashes).
 */
export function under(root: string, path: string): string {
  return `${root}/${path}`;
}

/**
 * node_modules/.cache/zhin-gen when the project has node_modules, else a per-root file in the
 * user's cache folder in the OS temp dir (cache/temp-dir.ts prunes it); none when that folder
 * cannot be trusted (util/temp-cache-dir.ts).
 */
export function defaultCacheFile(root: string): string | undefined {
  if (existsSync(join(root, 'node_modules'))) return join(root, 'node_modules', '.cache', 'zhin-gen', 'units.json');
  const dir = tempCacheDir();
  return dir === undefined ? undefined : join(dir, `${sha(root)}.json`);
}

/** The schema snippet is only needed until the schema is evaluated; keep the file small. */
export function persistable(entry: Entry): Entry {
  const data = entry.result.data;
  return entry.schema && data && data.kind === 'tool' && 'schema' in data
    ? { ...entry, result: { ...entry.result, data: { ...data, schema: undefined } } }
    : entry;
}

/** The entries as persisted, one at a time (no second map of every entry at a cold run's peak). */
export function* persistableEntries(entries: ReadonlyMap<string, Entry>): Iterable<readonly [string, Entry]> {
  for (const [key, entry] of entries) yield [key, persistable(entry)];
}

/** A file's stat (undefined: missing). */
type StatOf = (file: string) => FileStat | undefined;

/**
 * Files read by something else than the run's reader (esbuild, for a bundled schema) from `at`
 * (ms since the epoch) on, before the reader read them; `statNow` stats a file on the disk now.
 */
export interface ReadElsewhere {
  readonly at: number;
  readonly statNow: StatOf;
}

/**
 * Stamps files the unit now depends on into `stamps` (mtime, size and inode as the reader read them, or
 * a stat, and the content hash); a file the reader found missing is stamped {@link ABSENT} (the
 * unit must notice when it appears); files stamped already, or unreadable, are left as they are.
 *
 * `elsewhere`: the files were read by something else first (see {@link ReadElsewhere}). A file
 * written since it began (within a timestamp tick: cache/racy.ts) may hold other bytes than the
 * ones the result was made from, so its stamp matches nothing and the next run makes the result
 * again. That holds for a file stamped already too (the tool's entry, from its parse's read):
 * when it moved since its stamp, or was written since, it was read twice and may have differed.
 */
export function addStamps(
  stamps: FlatStamps,
  files: readonly string[],
  reader: FileReader,
  stat: StatOf,
  elsewhere?: ReadElsewhere,
): void {
  for (const file of files) {
    const at = stampIndex(stamps, file);
    if (at >= 0) {
      const stamp = stampAt(stamps, at);
      if (elsewhere && mayDiffer(file, stamp, elsewhere)) putStamp(stamps, file, unknownContent(stamp.size));
      continue;
    }
    const hash = reader.hashOf(file);
    const now = reader.stampOf(file) ?? stat(file);
    if (now && hash) {
      const moved = elsewhere !== undefined && mayDiffer(file, now, elsewhere);
      putStamp(
        stamps,
        file,
        moved ? unknownContent(now.size) : { changedMs: now.changedMs, size: now.size, hash, ino: now.ino },
      );
    } else if (reader.missing(file)) putStamp(stamps, file, ABSENT);
  }
}

/** A stamp that matches no stat (cache/flat-stamps.ts `UNKNOWN_CONTENT`): only a later read decides. */
function unknownContent(size: number): FileStamp {
  return { changedMs: -1, size: Math.max(0, size), hash: UNKNOWN_CONTENT, ino: -1 };
}

/**
 * Whether a file something else read from `elsewhere.at` on may hold other bytes than the ones
 * stamped `stamp` (mtime -1: racy when read, so only its size and content say): missing, of
 * another size, mtime or inode now, or written since that moment. A file dated ahead of the clock is no
 * write of this run: its racy stamp keeps its content hash for the next run to compare, as any
 * racy stamp does (else each run would make its result again until the clock passed its date).
 */
function mayDiffer(file: string, stamp: FileStat, elsewhere: ReadElsewhere): boolean {
  const now = elsewhere.statNow(file);
  if (now === undefined) return stamp.size >= 0;
  if (stamp.size < 0 || stamp.size !== now.size) return true;
  if (stamp.changedMs >= 0 && (stamp.changedMs !== now.changedMs || stamp.ino !== now.ino)) return true;
  return isRacy(now.changedMs, elsewhere.at) && now.changedMs <= Date.now();
}

export function sameRecord(a: OutputRecord | undefined, b: OutputRecord | undefined): boolean {
  return (
    a === b || (a !== undefined && b !== undefined && a.digest === b.digest && a.file === b.file && sameFile(a, b))
  );
}
