/**
 * Where the unit cache gets a file's mtime, size and inode: the stamps a fresh run took of every listed
 * file when it started (cache/tree-check.ts), else one stat. Taking them from the run's own list
 * means the index check and the lookups cost no stat per file each.
 */
import { readFileSync } from 'node:fs';
import { settledTime } from './racy.js';
import { type FileStat, sameFile, statNow } from '../util/file-stat.js';
import { type FileStamp, isAbsent, putStamp, STAMP_SLOTS, stampAt } from './flat-stamps.js';
import { sha, under } from './unit-entry.js';

export type { FileStat } from './flat-stamps.js';

/**
 * The stamps a fresh run took of its listed files (cache/tree-check.ts), as numbers: printing a
 * double per file into an "mtime:size" string, to parse it back on lookup, cost more than the
 * lookups at 5,000 tools (~17,000 files).
 */
export interface RunStamps {
  /** The file's position in the run's list; -1 when it is not a listed file. */
  indexOf(path: string): number;
  /** mtime of the file at a position. */
  changedAt(i: number): number;
  /** size of the file at a position; negative when it could not be stat'ed, NaN when it was not. */
  sizeAt(i: number): number;
  /** inode of the file at a position. */
  inoAt(i: number): number;
}

export class StatSource {
  /** Stamps of this run's listed files, taken when it started. */
  private known: RunStamps | undefined;

  constructor(private readonly root: string) {}

  /** The stamps of this run (undefined: stat each file when asked). */
  use(stamps: RunStamps | undefined): void {
    this.known = stamps;
  }

  /** A file (POSIX, relative to the root) as this run sees it; undefined when it is missing. */
  stat(path: string): FileStat | undefined {
    const known = this.known;
    const i = known === undefined ? -1 : known.indexOf(path);
    const size = i >= 0 ? known!.sizeAt(i) : Number.NaN;
    // NaN: a file the walk did not stat (a helper module the tree record left out): stat it now.
    if (i >= 0 && !Number.isNaN(size))
      return size < 0 ? undefined : { changedMs: known!.changedAt(i), size, ino: known!.inoAt(i) };
    return statNow(under(this.root, path));
  }
}

/**
 * A file stamped `stamp` whose stat now is `now` (undefined: missing): 'same' when mtime, size and
 * inode match (or it is still missing, as stamped), the new stamp when only the mtime or the inode
 * moved and the content is still the stamped one (a checkout, a touch, a save that wrote the same
 * bytes to a new file), and 'changed' otherwise (then the unit is parsed again).
 */
export function restamped(
  root: string,
  file: string,
  stamp: FileStamp,
  now: FileStat | undefined,
): 'same' | 'changed' | FileStamp {
  if (isAbsent(stamp)) return now === undefined ? 'same' : 'changed';
  if (now === undefined) return 'changed';
  if (sameFile(now, stamp)) return 'same';
  if (now.size !== stamp.size) return 'changed';
  const readAt = Date.now();
  let hash: string;
  try {
    hash = sha(readFileSync(under(root, file)));
  } catch {
    return 'changed';
  }
  if (hash !== stamp.hash) return 'changed';
  // The content matched; a same-size write within a tick of it would keep this mtime (cache/racy.ts).
  return { ...stamp, changedMs: settledTime(now.changedMs, readAt), ino: now.ino };
}

/**
 * A unit's stamps against the files now: 'changed' when some file differs (or appeared, or went
 * missing), 'touched' when some only had their mtime move over the same bytes, else 'same'.
 * `restamp`: the touched stamps take the new mtime in place; or a function given each touched
 * file's new stamp (the stamps are then left as they are).
 */
export function compareStamps(
  root: string,
  stamps: readonly (string | number)[],
  stat: (path: string) => FileStat | undefined,
  restamp: boolean | ((file: string, stamp: FileStamp) => void),
): 'same' | 'touched' | 'changed' {
  let touched = false;
  for (let i = 0; i < stamps.length; i += STAMP_SLOTS) {
    const file = stamps[i] as string;
    const next = restamped(root, file, stampAt(stamps, i), stat(file));
    if (next === 'same') continue;
    if (next === 'changed') return 'changed';
    touched = true;
    // Only a loaded entry's own (mutable) array is restamped.
    if (restamp === true) putStamp(stamps as (string | number)[], file, next);
    else if (restamp !== false) restamp(file, next);
  }
  return touched ? 'touched' : 'same';
}
