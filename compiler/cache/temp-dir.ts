/**
 * The user's cache folder in the OS temp directory (`zhin-gen-cache-<uid>`, util/temp-cache-dir.ts):
 * the unit cache of every root without `node_modules` (one set of files per root: `<sha(root)>.json` and its sidecars
 * `.index`, `.journal`, `.layout`, `.tree`, `.emit`, `.dirs`, …) and the TypeScript code caches
 * (`code-<key>.v8`, util/code-cache.ts). Nothing else removes them, so without pruning the folder
 * only grows: every temporary root a test suite or a scaffold ever compiled leaves its cache
 * there (tens of megabytes for a large tree).
 *
 * Pruning runs at most once per {@link PRUNE_INTERVAL_MS} on a machine (a marker file's mtime,
 * touched before the pass, so concurrent processes do not all prune), from the persist step of a
 * run that uses this folder. It removes
 * - the set of a root that no longer exists (each set names its root in `<set>.json.root`),
 * - a set or code cache not read or written for {@link UNUSED_MS} (the newest mtime or atime of its
 *   files; on a `noatime` mount an idle read-only set ages by its writes alone),
 * - a temp file an interrupted atomic write left, older than {@link STALE_TEMP_MS},
 * and never the set of the run's own root. Everything here is only speed: a removed cache means
 * one cold run, and any failure (a file another process removed first) is ignored.
 */
import { lstatSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempCacheDir } from '../util/temp-cache-dir.js';

export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
export const UNUSED_MS = 14 * 24 * 60 * 60 * 1000;
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** The marker whose mtime is the last pruning pass. */
const MARKER = '.pruned';
/** `<16 hex>.json…` (a root's set) or `code-<16 hex>.v8…` (a code cache), and any temp file of either. */
const MEMBER = /^(?:([0-9a-f]{16})\.json|(code-[0-9a-f]{16})\.v8)(.*)$/;

export interface PruneOptions {
  /** The folder (default {@link tempCacheDir}). */
  readonly dir?: string;
  /** The set of the run's own root (`<sha>`), never removed. */
  readonly keep?: string;
  readonly now?: number;
  /** Prune even when the marker says a pass ran within the interval. */
  readonly force?: boolean;
}

export interface PruneResult {
  /** Set keys (`<sha>` or `code-<key>`) removed, sorted. */
  readonly removed: readonly string[];
  /** Whether a pass ran (false: the last one is recent). */
  readonly ran: boolean;
}

interface SetFiles {
  readonly files: string[];
  newest: number;
  root?: string;
}

/** Records the root a cache file in the temp folder belongs to, once (its `.root` sidecar). */
export function noteTempRoot(cacheFile: string, root: string): void {
  const file = `${cacheFile}.root`;
  try {
    if (readFileSync(file, 'utf8') === `${root}\n`) return;
  } catch {
    // Missing: written below.
  }
  try {
    writeFileSync(file, `${root}\n`);
  } catch {
    // Only pruning needs it.
  }
}

/** The set key of a cache file in the temp folder, or undefined for a file elsewhere. */
export function tempSetOf(cacheFile: string, dir = tempCacheDir()): string | undefined {
  if (dir === undefined) return undefined;
  if (!cacheFile.startsWith(`${dir}/`) && !cacheFile.startsWith(`${dir}\\`)) return undefined;
  const match = MEMBER.exec(cacheFile.slice(dir.length + 1));
  return match?.[1];
}

/**
 * After a run's persist: when its cache file lives in the temp folder, names its root and prunes
 * (when due). A cache file elsewhere (node_modules/.cache, a configured `cacheFile`) is left alone.
 */
export function tidyTempCache(cacheFile: string | undefined, root: string): void {
  if (cacheFile === undefined) return;
  const dir = tempCacheDir();
  if (dir === undefined) return;
  const keep = tempSetOf(cacheFile, dir);
  if (keep === undefined) return;
  noteTempRoot(cacheFile, root);
  pruneTempCache({ dir, keep });
}

export function pruneTempCache(options: PruneOptions = {}): PruneResult {
  const dir = options.dir ?? tempCacheDir();
  if (dir === undefined) return { removed: [], ran: false };
  const now = options.now ?? Date.now();
  if (!options.force && !due(dir, now)) return { removed: [], ran: false };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { removed: [], ran: true };
  }
  const sets = new Map<string, SetFiles>();
  for (const name of names) {
    const match = MEMBER.exec(name);
    if (!match) continue;
    const key = match[1] ?? match[2]!;
    const rest = match[3]!;
    let stat: { mtimeMs: number; atimeMs: number; isFile(): boolean };
    try {
      stat = lstatSync(join(dir, name));
    } catch {
      continue;
    }
    if (!stat.isFile()) continue;
    if (rest.endsWith('.tmp') && now - stat.mtimeMs > STALE_TEMP_MS) {
      remove(join(dir, name));
      continue;
    }
    let set = sets.get(key);
    if (!set) sets.set(key, (set = { files: [], newest: 0 }));
    set.files.push(name);
    set.newest = Math.max(set.newest, stat.mtimeMs, stat.atimeMs);
    if (rest === '.root') set.root = readRoot(join(dir, name));
  }
  const removed: string[] = [];
  for (const [key, set] of sets) {
    if (key === options.keep) continue;
    const gone = set.root !== undefined && !exists(set.root);
    if (!gone && now - set.newest <= UNUSED_MS) continue;
    for (const name of set.files) remove(join(dir, name));
    removed.push(key);
  }
  return { removed: removed.sort(), ran: true };
}

/** Whether the last pass is older than the interval; if so, this process claims the next one. */
function due(dir: string, now: number): boolean {
  const marker = join(dir, MARKER);
  try {
    if (now - statSync(marker).mtimeMs < PRUNE_INTERVAL_MS) return false;
  } catch {
    // No pass yet.
  }
  try {
    writeFileSync(marker, '');
    utimesSync(marker, now / 1000, now / 1000);
  } catch {
    return false;
  }
  return true;
}

function readRoot(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    // Only a whole line names a root: a cut-short write names none (the set ages out instead).
    return text.endsWith('\n') && text.length > 1 ? text.slice(0, -1) : undefined;
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    // Only a path known to be gone counts: an unreadable parent keeps the set.
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

function remove(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Another process's, or already gone.
  }
}
