/**
 * Racy stamps. A stamp (mtime and size) proves a file unchanged only if every later write moves
 * its mtime. A write lands on the file system's clock tick, not on the instant: two saves of the
 * same size within one tick (a few milliseconds on Linux, a whole second on ext3, HFS+ or SMB,
 * two seconds on FAT) leave the same stamp. So a stamp taken within a tick of the file's mtime
 * (or a file dated in the future) is "racy": it is recorded as one that matches nothing, and the
 * next run compares the file's content instead. Once the file is older than a tick, its stamp is
 * trusted again.
 */

/** The mtime recorded for a file stat'ed at `at` (ms since the epoch): -1 when it is racy. */
export function settledTime(changedMs: number, at: number): number {
  return isRacy(changedMs, at) ? -1 : changedMs;
}

/**
 * Whether a file with this mtime may still be rewritten without its stamp moving. An mtime on a
 * whole second says the file system keeps seconds at best (a sub-second clock gives one 1 time
 * in 1,000): two seconds then, else a margin well over a kernel tick and a clock step.
 */
export function isRacy(changedMs: number, at: number): boolean {
  const tick = changedMs % 1000 === 0 ? 2000 : 100;
  return changedMs > at - tick;
}
