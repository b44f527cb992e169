/**
 * Which paths the unit cache stamped since it was last asked (cache/units.ts `takeStamped`), with
 * the stamp each got: watch mode watches the ones outside the walk and compares them with the
 * disk once their folder is watched (compiler/watch/dependency-dirs.ts). Off, and free, until
 * first asked: a one-shot run never collects them.
 */
import { STAMP_SLOTS } from './flat-stamps.js';
import type { FileStamp } from './flat-stamps.js';

/** A stamped path (POSIX, relative to the root) and the stamp the cache holds for it. */
export interface StampedFile {
  readonly path: string;
  readonly stamp: FileStamp;
}

export class StampedSince {
  private since: Map<string, FileStamp> | undefined;

  /** Every path `all` gives at the first call; at later calls, those noted since the last. */
  take(all: () => ReadonlyMap<string, FileStamp>): readonly StampedFile[] {
    const taken = this.since ? this.since : all();
    const out = [...taken].map(([path, stamp]) => ({ path, stamp }));
    if (this.since) this.since.clear();
    else this.since = new Map();
    return out;
  }

  /** A unit's stamps were set or grew (flat, as cache/flat-stamps.ts holds them). */
  note(stamps: readonly (string | number)[]): void {
    const since = this.since;
    if (!since) return;
    for (let i = 0; i < stamps.length; i += STAMP_SLOTS)
      since.set(stamps[i] as string, {
        changedMs: stamps[i + 1] as number,
        size: stamps[i + 2] as number,
        hash: stamps[i + 3] as string,
        ino: stamps[i + 4] as number,
      });
  }
}
