/**
 * The cache folder in the OS temp directory: the unit caches of roots without node_modules and
 * the TypeScript code caches (util/code-cache.ts) live there, and cache/temp-dir.ts prunes it. A
 * leaf module, so the code cache's loader stays a few files.
 *
 * The folder is the user's own: `zhin-gen-cache-<uid>`, made private (0700), and used only while
 * it is a folder (not a link) that the user owns and nobody else can write to. What is in it is
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
import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * Folders already reported as refused: one warning per process, however many runs ask (the parse
 * workers, which load the code cache too, leave it to the main thread).
 */
const reported = new Set<string>();

/** The folder's name in the temp directory, for this user. */
export function tempCacheName(uid = process.getuid?.()): string {
  return uid === undefined ? 'zhin-gen-cache' : `zhin-gen-cache-${uid}`;
}

/** The folder, made if missing; undefined when it cannot be trusted (then reported, once). */
export function tempCacheDir(): string | undefined {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), tempCacheName(uid));
  if (uid === undefined) return dir;
  const problem = untrusted(dir, uid);
  if (problem === undefined) return dir;
  if (isMainThread && !reported.has(dir)) {
    reported.add(dir);
    process.emitWarning(
      `${dir} ${problem}, so zhin-gen keeps no cache in it (every run is cold). Remove it: zhin-gen makes it again, private to you.`,
      { code: 'ZHIN_GEN_CACHE_FOLDER' },
    );
  }
  return undefined;
}

/** Why the folder cannot hold this user's cache, or undefined when it can (made here if missing). */
function untrusted(dir: string, uid: number): string | undefined {
  let stat = lstatOf(dir);
  if (stat === undefined) {
    try {
      // Recursive for a temp directory that does not exist yet (a fresh TMPDIR); 0700 either way.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return `cannot be made (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    stat = lstatOf(dir);
    if (stat === undefined) return 'cannot be read';
  }
  if (stat.isSymbolicLink()) return 'is a link';
  if (!stat.isDirectory()) return 'is not a folder';
  if (stat.uid !== uid) return `belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `can be written by others (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
