/**
 * What a stat says of a file, as everything that stamps one compares it: the unit cache's stamps
 * (cache/flat-stamps.ts), the tree record's table (cache/tree-record.ts), the watcher's and the
 * module graph's stamps, and the writer's stamps of what it wrote (write/output.ts,
 * write/validators.ts). One home, so a file is "the one stamped" by one rule everywhere.
 */
import { statSync } from 'node:fs';

/**
 * A file's mtime, size and inode. The inode tells another file at the path whose mtime and size
 * are the same (a file moved over it, a link retargeted to a file written in the same tick, a
 * concurrent writer's rename): without it, such a file passed for the stamped one.
 */
export interface FileStat {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
}

/** A stat's {@link FileStat} (numbers only: a stat per file of a large tree is the budget). */
export function statOf(s: { readonly mtimeMs: number; readonly size: number; readonly ino: number }): FileStat {
  return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
}

/** An absolute path's stat now; undefined when it is missing or cannot be stat'ed. */
export function statNow(file: string): FileStat | undefined {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return s === undefined ? undefined : statOf(s);
  } catch {
    return undefined;
  }
}

/** Whether two stats are of one file as it was: the same mtime, size and inode. */
export function sameFile(a: FileStat | undefined, b: FileStat | undefined): boolean {
  return a !== undefined && b !== undefined && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}
