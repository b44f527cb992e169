/**
 * The journal sink in front of a store: `record` only appends to a bounded in-memory buffer and
 * returns, so writing the journal never blocks or fails a tool call. Batches are written in the
 * background, one at a time, in order; a failed batch stays at the head and is retried after
 * `retryMs`. When the buffer is full (the store has been down long enough), new entries are
 * dropped, counted and reported, so what reaches the store is always an unbroken prefix of what
 * happened. Writers must be idempotent per (turnId, seq): a batch that timed out may have landed.
 */
import type { JournalEntry, JournalSink, JournalTurnInfo } from '../index.js';
import { messageOf, positive } from './shared.js';

export interface JournalRecord {
  readonly entry: JournalEntry;
  readonly sessionKey: string;
  readonly traceId: string;
  readonly principal?: unknown;
}

/** Writes one batch; rejects (or throws) when the store did not take it. */
export type JournalWriter = (batch: readonly JournalRecord[]) => void | Promise<void>;

export interface JournalBufferOptions {
  /** Most entries held while the store is down. Default 10,000. */
  readonly maxBuffered?: number;
  /** Most entries per write. Default 500. */
  readonly batchSize?: number;
  /** Wait before retrying a failed write. Default 1,000 ms. */
  readonly retryMs?: number;
  /** Write failures and drops (one report per outage, not per entry). */
  readonly onError?: (error: Error) => void;
}

export interface JournalSinkStats {
  /** Waiting to be written. */
  readonly buffered: number;
  /** Acknowledged by the store. */
  readonly written: number;
  /** Never written: the buffer was full. */
  readonly dropped: number;
  /** Failed write attempts. */
  readonly failures: number;
  readonly lastError?: string;
}

export interface BufferedJournalSink extends JournalSink {
  record(entry: JournalEntry, turn: JournalTurnInfo): void;
  /**
   * Resolves once everything recorded so far was written (acknowledged) or dropped, or after
   * `timeoutMs` if given; never rejects. The stats say which.
   */
  flush(options?: { readonly timeoutMs?: number }): Promise<JournalSinkStats>;
  stats(): JournalSinkStats;
}

export function createBufferedJournalSink(
  write: JournalWriter,
  options: JournalBufferOptions = {},
): BufferedJournalSink {
  const maxBuffered = positive(options.maxBuffered, 'maxBuffered', 10_000)!;
  const batchSize = positive(options.batchSize, 'batchSize', 500)!;
  const retryMs = positive(options.retryMs, 'retryMs', 1_000)!;
  const onError = options.onError ?? (() => {});
  const buffer: JournalRecord[] = [];
  let written = 0;
  let dropped = 0;
  let failures = 0;
  let lastError: string | undefined;
  let droppedThisOutage = 0;
  let down = false;
  let running = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** Settled by the writer loop each time the buffer empties. */
  let idle: (() => void)[] = [];

  const settleIdle = () => {
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (buffer.length > 0) {
        const batch = buffer.slice(0, batchSize);
        try {
          await write(batch);
        } catch (error) {
          failures += 1;
          lastError = messageOf(error);
          if (!down) onError(new Error(`journal sink: write failed, ${buffer.length} entries buffered: ${lastError}`));
          down = true;
          retry = setTimeout(() => {
            retry = undefined;
            void drain();
          }, retryMs);
          // Node would otherwise stay alive for a retry nobody waits for.
          (retry as { unref?: () => void }).unref?.();
          return;
        }
        buffer.splice(0, batch.length);
        written += batch.length;
        if (down) {
          onError(new Error(`journal sink: store back; ${droppedThisOutage} entries were dropped while it was down`));
          down = false;
          droppedThisOutage = 0;
        }
      }
      settleIdle();
    } finally {
      running = false;
    }
  }

  function stats(): JournalSinkStats {
    return Object.freeze({
      buffered: buffer.length,
      written,
      dropped,
      failures,
      ...(lastError !== undefined ? { lastError } : {}),
    });
  }

  const schedule = () => {
    if (!running && retry === undefined) queueMicrotask(() => void drain());
  };

  return Object.freeze({
    record(entry: JournalEntry, turn: JournalTurnInfo): void {
      if (buffer.length >= maxBuffered) {
        dropped += 1;
        if (droppedThisOutage++ === 0)
          onError(new Error(`journal sink: buffer full (${maxBuffered}); dropping entries until the store is back`));
        return;
      }
      const { sessionKey, traceId, principal } = turn;
      buffer.push({ entry, sessionKey, traceId, ...(principal !== undefined ? { principal } : {}) });
      schedule();
    },
    flush(flushOptions: { readonly timeoutMs?: number } = {}): Promise<JournalSinkStats> {
      if (buffer.length === 0 && !running) return Promise.resolve(stats());
      return new Promise<JournalSinkStats>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve(stats());
        };
        const timer =
          flushOptions.timeoutMs === undefined ? undefined : setTimeout(done, Math.max(0, flushOptions.timeoutMs));
        idle.push(done);
        if (retry !== undefined) {
          // Someone is waiting: retry now rather than at the next tick of the back-off.
          clearTimeout(retry);
          retry = undefined;
        }
        schedule();
      });
    },
    stats,
  });
}
