/**
 * When the unit cache is written in watch mode: once things settle, not on every edit (the cache
 * is megabytes of JSON for a big tree, and writing it blocks the thread for a large part of a
 * second at 20,000 tools), and at dispose. One-shot runs persist at once.
 */
import type { UnitCache } from './units.js';

/** How long after the last run the unit cache is written to disk. */
export const PERSIST_DELAY_MS = 1500;
/**
 * The longest a run's cache may wait while saves keep coming: a process that dies without
 * dispose() loses at most this much of the cache.
 */
export const PERSIST_MAX_WAIT_MS = 10_000;

export class PersistSchedule {
  private timer?: ReturnType<typeof setTimeout>;
  /** When the oldest run not yet persisted ended. */
  private since?: number;

  constructor(private readonly cache: Pick<UnitCache, 'persist'>) {}

  /**
   * Persists once no run has ended for the delay: each run postpones the write, so a burst of
   * saves is not interrupted by it, but never past the longest wait from the first pending run.
   */
  later(now: number = Date.now()): void {
    this.since ??= now;
    const due = Math.min(now + PERSIST_DELAY_MS, this.since + PERSIST_MAX_WAIT_MS);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.now(), Math.max(0, due - now));
    // A dev server exiting without dispose() loses at most the last few seconds of cache.
    this.timer.unref?.();
  }

  /** Persists now, dropping a pending write. */
  now(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.since = undefined;
    this.cache.persist();
  }
}
