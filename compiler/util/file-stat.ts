/**
 * What a stat says of a file, as everything that stamps one compares it: the unit cache's stamps
 * (cache/flat-stamps.ts), the tree record's table (cache/tree-record.ts), the watcher's and the
 * module graph's stamps, and the writer's stamps of what it wrote (write/output.ts,
 * write/validators.ts), with the output record and the emit record. One home, so a file is "the
 * one stamped" by one rule everywhere.
 */
import { statSync } from 'node:fs';

/**
 * A file as a stamp knows it: when it last changed, its size and its inode. Another file at the
 * path whose mtime and size are the same (a file moved over it, a link retargeted to a file
 * written in the same tick, a copy that kept its date, an archive unpacked over it) differs in
 * the inode, or, when the new file got a freed inode number back, in the ctime, which nothing
 * sets back: without both, such a file passed for the stamped one and kept its old result. The
 * same rule for what the compiler reads and what it writes (a same-size edit of the manifest
 * with its date put back is seen).
 */
export interface FileStat {
  /**
   * The later of the file's mtime and ctime. A time within a tick of the stat, or ahead of the
   * clock, is racy (cache/racy.ts): it proves nothing, and the content decides.
   */
  readonly changedMs: number;
  readonly size: number;
  readonly ino: number;
}

/** A stat's `changedMs`: the later of its mtime and ctime. */
export function changedTime(s: { readonly mtimeMs: number; readonly ctimeMs: number }): number {
  return Math.max(s.mtimeMs, s.ctimeMs);
}

/** A stat's {@link FileStat} (numbers only: a stat per file of a large tree is the budget). */
export function fileStat(s: {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly size: number;
  readonly ino: number;
}): FileStat {
  return { changedMs: changedTime(s), size: s.size, ino: s.ino };
}

/** An absolute path's stat now; undefined when it is missing or cannot be stat'ed. */
export function statNow(file: string): FileStat | undefined {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return s === undefined ? undefined : fileStat(s);
  } catch {
    return undefined;
  }
}

/**
 * The stamp of a file this process just renamed into place, `own` being its stat through the
 * writer's descriptor: the path's stat now while it is still that file (its inode and size), for
 * the ctime the rename gave it; else `own`, which then matches no stat of the path (another
 * process's file renamed over it since is never vouched for as this process's).
 */
export function placedStat(file: string, own: FileStat): FileStat {
  const now = statNow(file);
  return now !== undefined && now.ino === own.ino && now.size === own.size ? now : own;
}

/** Whether a stat is the one recorded as these numbers (a stamp's slots: cache/flat-stamps.ts). */
export function statIs(s: FileStat, changedMs: unknown, size: unknown, ino: unknown): boolean {
  return s.changedMs === changedMs && s.size === size && s.ino === ino;
}

/** Whether two stats are of one file as it was. */
export function sameFile(a: FileStat | undefined, b: FileStat | undefined): boolean {
  return a !== undefined && b !== undefined && statIs(a, b.changedMs, b.size, b.ino);
}
