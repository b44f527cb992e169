/**
 * The generated folder beside the manifest and its stamp: what a record of the output vouches
 * for besides the manifest (a module removed, edited or moved over by hand is not vouched for).
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { validatorsDirRel } from '../emit/validator-table.js';
import { type FileStat, sameFile, statNow } from '../util/file-stat.js';
import type { KnownFolders } from './validators.js';

export function mtimeOf(dir: string): number | undefined {
  try {
    return statSync(dir).mtimeMs;
  } catch {
    return undefined;
  }
}

export function validatorsDir(root: string, outRel: string): string {
  return join(root, validatorsDirRel(outRel));
}

/**
 * The folder's stamp (`none` when it is missing): its mtime, which any file added or removed
 * changes, and every file's mtime, size and inode, which an edit in place or a file moved over it changes. A run is vouched for
 * only while this is what it was when the output was written (cache/units.ts).
 */
export function validatorsStamp(root: string, outRel: string): string {
  return folderStamp(validatorsDir(root, outRel), () => true) ?? 'none';
}

/**
 * The folder's stamp for a record of the output this compiler just wrote or verified, or
 * undefined when the folder is not as this compiler left it: a module it wrote or verified (by
 * its writer's descriptor or the stat before its bytes were checked) is missing or has another
 * stamp now. A stat alone would vouch for what a concurrent `generate` put there after this run's
 * writes. Files this compiler does not know of (another catalog's, a user's) are stamped as they
 * are: the output imports none of them.
 */
export function recordedValidatorsStamp(root: string, outRel: string, known: KnownFolders): string | undefined {
  const dir = validatorsDir(root, outRel);
  const folder = known.get(dir);
  if (!folder) return validatorsStamp(root, outRel);
  const owned = new Set([...(folder.verified?.keys() ?? [])].filter((name) => folder.names.has(name)));
  const stamp = folderStamp(dir, (name, now) => {
    const seen = folder.verified?.get(name);
    if (seen === undefined) return true;
    owned.delete(name);
    return sameFile(seen, now);
  });
  return owned.size === 0 ? stamp : undefined;
}

/** The stamp of a folder's listing and its files (`none`: no folder); undefined when `keep` refuses a file. */
function folderStamp(dir: string, keep: (name: string, now: FileStat | undefined) => boolean): string | undefined {
  const mtimeMs = mtimeOf(dir);
  if (mtimeMs === undefined) return 'none';
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return 'none';
  }
  const digest = createHash('sha256');
  for (const name of names) {
    const now = statNow(join(dir, name));
    if (!keep(name, now)) return undefined;
    digest.update(`${name}\0${now?.changedMs ?? -1}\0${now?.size ?? -1}\0${now?.ino ?? -1}\n`);
  }
  return `${mtimeMs}:${digest.digest('hex').slice(0, 32)}`;
}
