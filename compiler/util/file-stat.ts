/**
 * What a stat says of a file, as everything that stamps one compares it: the unit cache's stamps
 * (cache/flat-stamps.ts), the tree record's table (cache/tree-record.ts), the watcher's and the
 * module graph's stamps, and the writer's stamps of what it wrote (write/output.ts,
 * write/validators.ts). One home, so a file is "the one stamped" by one rule everywhere.
 */
import { statSync } from 'node:fs';

/**
 * A file as a stamp knows it: when it last changed, its size and its inode. Another file at the
 * path whose mtime and size are the same (a file moved over it, a link retargeted to a file
 * written in the same tick, a copy that kept its date, an archive unpacked over it) differs in
 * the inode, or, when the new file got a freed inode number back, in the ctime, which nothing
 * sets back: without both, such a file passed for the stamped one and kept its old result.
 */
export interface FileStat {
  /**
   * When the file last changed as the stamp sees it: for a file the compiler reads
   * ({@link inputStat}), the later of its mtime and ctime; for one it wrote ({@link writtenStat}),
   * its mtime (the rename that puts it in place moves its ctime after the writer's stat, and a
   * writer's new file cannot have the inode of one still in place). A time within a tick of the
   * stat is racy (cache/racy.ts).
   */
  readonly changedMs: number;
  readonly size: number;
  readonly ino: number;
}

type Stat = { readonly mtimeMs: number; readonly ctimeMs: number; readonly size: number; readonly ino: number };

/** A read file's `changedMs`: the later of its mtime and ctime. */
export function changedTime(s: { readonly mtimeMs: number; readonly ctimeMs: number }): number {
  return Math.max(s.mtimeMs, s.ctimeMs);
}

/** A read file's {@link FileStat} (numbers only: a stat per file of a large tree is the budget). */
export function inputStat(s: Stat): FileStat {
  return { changedMs: changedTime(s), size: s.size, ino: s.ino };
}

/** A written file's {@link FileStat}. */
export function writtenStat(s: Stat): FileStat {
  return { changedMs: s.mtimeMs, size: s.size, ino: s.ino };
}

function statWith(file: string, of: (s: Stat) => FileStat): FileStat | undefined {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return s === undefined ? undefined : of(s);
  } catch {
    return undefined;
  }
}

/** An input's stat now ({@link inputStat}); undefined when it is missing or cannot be stat'ed. */
export function inputStatNow(file: string): FileStat | undefined {
  return statWith(file, inputStat);
}

/** A written file's stat now ({@link writtenStat}); undefined when it is missing or cannot be stat'ed. */
export function writtenStatNow(file: string): FileStat | undefined {
  return statWith(file, writtenStat);
}

/** Whether two stats (of one kind) are of one file as it was. */
export function sameFile(a: FileStat | undefined, b: FileStat | undefined): boolean {
  return a !== undefined && b !== undefined && a.changedMs === b.changedMs && a.size === b.size && a.ino === b.ino;
}
