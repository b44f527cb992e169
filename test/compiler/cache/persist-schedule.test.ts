/**
 * The watch-mode write of the unit cache waits for saves to settle: each run postpones it, a
 * steady stream of saves cannot postpone it past the longest wait, and dispose writes at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PERSIST_DELAY_MS, PERSIST_MAX_WAIT_MS, PersistSchedule } from '../../../compiler/cache/persist-schedule.js';

describe('PersistSchedule', () => {
  let writes: number[];
  let schedule: PersistSchedule;
  beforeEach(() => {
    vi.useFakeTimers();
    writes = [];
    schedule = new PersistSchedule({ persist: () => writes.push(Date.now()) });
  });
  afterEach(() => vi.useRealTimers());

  it('writes once, the delay after the last of a burst of runs', () => {
    const start = Date.now();
    for (let i = 0; i < 5; i++) {
      schedule.later();
      vi.advanceTimersByTime(PERSIST_DELAY_MS - 100);
    }
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(100);
    const lastRun = start + 4 * (PERSIST_DELAY_MS - 100);
    expect(writes).toEqual([lastRun + PERSIST_DELAY_MS]);
    vi.advanceTimersByTime(PERSIST_MAX_WAIT_MS);
    expect(writes).toHaveLength(1);
  });

  it('a steady stream of runs does not postpone the write past the longest wait', () => {
    const start = Date.now();
    for (let t = 0; t < PERSIST_MAX_WAIT_MS * 2; t += 500) {
      schedule.later();
      vi.advanceTimersByTime(500);
    }
    expect(writes.length).toBeGreaterThanOrEqual(2);
    expect(writes[0]).toBe(start + PERSIST_MAX_WAIT_MS);
    for (let i = 1; i < writes.length; i++)
      expect(writes[i]! - writes[i - 1]!).toBeLessThanOrEqual(PERSIST_MAX_WAIT_MS + 500);
  });

  it('now() writes at once and drops the pending write', () => {
    schedule.later();
    schedule.now();
    expect(writes).toHaveLength(1);
    vi.advanceTimersByTime(PERSIST_MAX_WAIT_MS);
    expect(writes).toHaveLength(1);
  });
});
