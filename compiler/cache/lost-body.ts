/**
 * A cache body the index or a unit record vouched for could not be read, or was not what its
 * record says, while a run used it: the base was changed in place under the same size and mtime
 * (the cache's own writes go by rename, so another writer or a damaged disk). The cache drops its
 * index (cache/units.ts `dropIndex`), and the compiler runs once more from a fresh walk with the
 * bodies read whole (context.ts), so the damage costs time, never the build.
 */
export class LostCacheBody extends Error {
  constructor(what: string) {
    super(`zhin-gen: the unit cache lost ${what} while this run read it; run the command again`);
    this.name = 'LostCacheBody';
  }
}
