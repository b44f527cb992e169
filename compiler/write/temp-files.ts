/**
 * The temp files of atomic writes (write/output.ts): `<target>.<pid>.<ms in base 36>.tmp`, renamed
 * over the target once complete. A process killed between the two (SIGKILL, an OOM kill, a power
 * cut) leaves its temp file behind, where no `catch` removes it: a half-written manifest beside
 * the real one in `git status`, up to the whole unit cache in the cache folder, one more after
 * every such kill. A later run that writes into the same folder removes those of its own targets
 * that are certainly dead: written by a process that no longer runs, or so long ago that no write
 * is still in flight.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A fresh temp path for an atomic write of `file`. */
export function tempPath(file: string): string {
  return `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
}

const TEMP = /^(.+)\.(\d+)\.([0-9a-z]+)\.tmp$/;
/** A temp file this old is no write in flight, whoever made it (pids of other containers mean nothing here). */
const ABANDONED_MS = 10 * 60_000;
/** A dead process's temp file younger than this may be its pid's new owner's (pids are reused). */
const SETTLED_MS = 2_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a folder entry is a dead write's temp file of a target `owns` accepts. */
export function isStaleTemp(name: string, owns: (target: string) => boolean, now = Date.now()): boolean {
  const match = TEMP.exec(name);
  if (!match || !owns(match[1]!)) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  const age = now - Number.parseInt(match[3]!, 36);
  if (!(age >= SETTLED_MS)) return false;
  return age >= ABANDONED_MS || !alive(pid);
}

/**
 * Removes the stale temp files of `owns`'s targets in `dir` (its entries: `names`, or a fresh
 * listing), returning their names. The file's own mtime must agree that it is old: a clock set
 * back makes no temp file look abandoned.
 */
export function sweepStaleTemps(dir: string, owns: (target: string) => boolean, names?: Iterable<string>): string[] {
  let entries: Iterable<string>;
  try {
    entries = names ?? readdirSync(dir);
  } catch {
    return [];
  }
  const now = Date.now();
  const removed: string[] = [];
  for (const name of entries) {
    if (!isStaleTemp(name, owns, now)) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs < SETTLED_MS) continue;
      rmSync(file, { force: true });
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: the next run looks again.
    }
  }
  return removed;
}
