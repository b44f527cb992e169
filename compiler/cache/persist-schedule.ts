/**
 * When the unit cache is written in watch mode: once things settle, not on every edit (the cache
 * is megabytes of JSON for a big tree), and at dispose. One-shot runs persist at once.
 */
import type { UnitCache } from './units.js';

/** How long after the last run the unit cache is written to disk. */
const PERSIST_DELAY_MS = 1500;

export class PersistSchedule {
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly cache: UnitCache) {}

  /** Persists after the delay, unless a write is already pending. */
  later(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.cache.persist();
    }, PERSIST_DELAY_MS);
    // A dev server exiting without dispose() loses at most the last few seconds of cache.
    this.timer.unref?.();
  }

  /** Persists now, dropping a pending write. */
  now(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.cache.persist();
  }
}
