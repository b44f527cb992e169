/**
 * The cache folder in the OS temp directory: the unit caches of roots without node_modules and
 * the TypeScript code caches (util/code-cache.ts) live there, and cache/temp-dir.ts prunes it. A
 * leaf module, so the code cache's loader stays a few files.
 *
 * The folder is the user's own: `zhin-gen-cache-<uid>`, made private (0700), and used only while
 * it is a folder (not a link) that the user owns and nobody else can write to, in a temp
 * directory owned by the user or root where nobody else can rename it (not writable by others,
 * or sticky, as /tmp is). Checked once, it stays so: nobody else can put anything in it, nor
 * swap it for another folder while a watch runs for hours. What is in it is
 * trusted as if this process had computed it: a unit cache record becomes the manifest's tool
 * definitions, a code cache becomes code V8 runs. In one folder shared by every user of the
 * machine (as it was, `zhin-gen-cache`), another user could make the folder first or put files
 * in it, and with them code into this user's manifest and process. A folder that fails the check
 * is not used at all (every run is cold, the code cache is off) and is reported once per
 * process: a missing cache costs time, never a wrong result.
 *
 * Windows has no uid, and its temp directory is the user's own (`%LOCALAPPDATA%\Temp`): the
 * folder there is `zhin-gen-cache`, as before.
 */
import { chmodSync, lstatSync, mkdirSync, type Stats, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * Folders already reported as refused: one warning per process, however many runs ask (the parse
 * workers, which load the code cache too, leave it to the main thread).
 */
const reported = new Set<string>();

/** The folder's name in the temp directory, for this user. */
export function tempCacheName(uid = process.geteuid?.()): string {
  return uid === undefined ? 'zhin-gen-cache' : `zhin-gen-cache-${uid}`;
}

/** The folder, made if missing; undefined when it cannot be trusted (then reported, once). */
export function tempCacheDir(): string | undefined {
  // The effective uid: the one that owns the files this process creates.
  const uid = process.geteuid?.();
  const dir = join(tmpdir(), tempCacheName(uid));
  if (uid === undefined) return dir;
  const problem = untrusted(dir, uid);
  if (problem === undefined) return dir;
  if (isMainThread && !reported.has(dir)) {
    reported.add(dir);
    const fix = problem.startsWith('lies in')
      ? 'Point TMPDIR at a folder of your own.'
      : 'Remove it: zhin-gen makes it again, private to you.';
    process.emitWarning(`${dir} ${problem}, so zhin-gen keeps no cache in it (every run is cold). ${fix}`, {
      code: 'ZHIN_GEN_CACHE_FOLDER',
    });
  }
  return undefined;
}

/** Why the folder cannot hold this user's cache, or undefined when it can (made here if missing). */
function untrusted(dir: string, uid: number): string | undefined {
  // The temp directory first, links followed (macOS's /tmp is one): whoever may rename its
  // entries could swap the folder for another after this check. Nothing is made in one that fails.
  const parent = parentProblem(uid);
  if (parent !== undefined && parent !== 'missing') return parent;
  let stat = lstatOf(dir);
  if (stat === undefined) {
    try {
      // Recursive for a temp directory that does not exist yet (a fresh TMPDIR): made 0700 too.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return `cannot be made (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    stat = lstatOf(dir);
    if (stat === undefined) return 'cannot be read';
    if (parent === 'missing') {
      const made = parentProblem(uid);
      if (made !== undefined) return made === 'missing' ? 'cannot be read' : made;
    }
  }
  if (stat.isSymbolicLink()) return 'is a link';
  if (!stat.isDirectory()) return 'is not a folder';
  if (stat.uid !== uid) return `belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `can be written by others (mode ${(stat.mode & 0o777).toString(8)})`;
  // Readable by others (made by hand, or by an earlier mkdir under a loose umask): nobody else
  // could write to it, so nothing in it is foreign; it is made private again.
  if ((stat.mode & 0o077) !== 0) {
    try {
      chmodSync(dir, 0o700);
    } catch {
      // Still the user's alone to write to.
    }
  }
  return undefined;
}

/** Why the temp directory cannot hold the folder; 'missing' when it does not exist (yet). */
function parentProblem(uid: number): string | undefined {
  const tmp = tmpdir();
  let parent: Stats;
  try {
    parent = statSync(tmp);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `lies in ${tmp}, which cannot be read`;
  }
  if (parent.uid !== uid && parent.uid !== 0)
    return `lies in ${tmp}, which belongs to another user (uid ${parent.uid})`;
  if ((parent.mode & 0o022) !== 0 && (parent.mode & 0o1000) === 0)
    return `lies in ${tmp}, which others can write to and is not sticky (mode ${(parent.mode & 0o7777).toString(8)})`;
  return undefined;
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
