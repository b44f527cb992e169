/**
 * The journal sink in front of a store: `record` only appends to a bounded in-memory buffer and
 * returns, so writing the journal never blocks or fails a tool call. Batches are written in the
 * background, one at a time, in order; a failed batch stays at the head and is retried after
 * `retryMs`. When the buffer is full (the store has been down long enough), new entries are
 * dropped, counted and reported, and so is every later entry of a turn that lost one: what
 * reaches the store of each turn is always an unbroken prefix of what happened in it (a result
 * is never stored without its call), and the turns cut short are named. Writers must be
 * idempotent per (turnId, seq): a batch that timed out may have landed.
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
  /** Write failures and drops (one report per outage, not per entry), naming the turns cut short. */
  readonly onError?: (error: Error) => void;
}

export interface JournalSinkStats {
  /** Waiting to be written. */
  readonly buffered: number;
  /** Acknowledged by the store. */
  readonly written: number;
  /** Never written: the buffer was full, or an earlier entry of the same turn was dropped. */
  readonly dropped: number;
  /** Failed write attempts. */
  readonly failures: number;
  readonly lastError?: string;
  /**
   * Of the entries recorded before this `flush` (for `stats()`: so far), those neither written nor
   * dropped yet. 0 once `flush` resolved without its timeout; more after a timeout means some of
   * the caller's entries are not acknowledged (yet).
   */
  readonly pending: number;
  /** Turns that lost entries: each has its entries before the first one lost, none after. */
  readonly truncatedTurns: number;
}

export interface BufferedJournalSink extends JournalSink {
  record(entry: JournalEntry, turn: JournalTurnInfo): void;
  /**
   * Resolves once every entry recorded before the call was written (acknowledged) or dropped, or
   * after `timeoutMs` if given; never rejects. Entries recorded after the call do not hold it up.
   * The stats say which: `pending` 0 and `truncatedAt(turnId)` undefined mean all of a turn that
   * ended before the call is acknowledged.
   */
  flush(options?: { readonly timeoutMs?: number }): Promise<JournalSinkStats>;
  stats(): JournalSinkStats;
  /**
   * The `seq` of the first entry of `turnId` this sink dropped (the turn's entries before it are
   * written or pending, none from it on), or `undefined` if it dropped none. Kept for the newest
   * 10,000 turns that lost entries.
   */
  truncatedAt(turnId: string): number | undefined;
}

/**
 * Turns cut short that are remembered, so their later entries are dropped too: far more than the
 * turns a host runs at once, and a bound on memory through an outage of any length.
 */
const TRUNCATED_TURNS_KEPT = 10_000;
/** Turn ids named in one report; the rest are counted. */
const TURNS_NAMED = 10;

export function createBufferedJournalSink(
  write: JournalWriter,
  options: JournalBufferOptions = {},
): BufferedJournalSink {
  const maxBuffered = positive(options.maxBuffered, 'maxBuffered', 10_000)!;
  const batchSize = positive(options.batchSize, 'batchSize', 500)!;
  const retryMs = positive(options.retryMs, 'retryMs', 1_000)!;
  const onError = options.onError ?? (() => {});
  const buffer: JournalRecord[] = [];
  /** Entries ever put in the buffer; it is a FIFO, so the first `written` of them are written. */
  let accepted = 0;
  let written = 0;
  let dropped = 0;
  let failures = 0;
  let lastError: string | undefined;
  let truncatedTurns = 0;
  /** turn id → seq of its first dropped entry, oldest first (a Map keeps insertion order). */
  const truncated = new Map<string, number>();
  /** Since the buffer last overflowed: entries dropped, and the turns cut short (some named). */
  let overflowing = false;
  let lostThisOutage = 0;
  let turnsThisOutage = 0;
  let namedThisOutage: string[] = [];
  let down = false;
  let running = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** Flushes waiting for the first `upTo` accepted entries; in `upTo` order, as `accepted` only grows. */
  const waiters: { readonly upTo: number; readonly done: () => void }[] = [];

  const settle = () => {
    while (waiters.length > 0 && waiters[0]!.upTo <= written) waiters.shift()!.done();
  };

  /** One report per episode: when the store is back, or when the buffer drained after it overflowed. */
  const reportLosses = (what: string, during: string) => {
    const more = turnsThisOutage - namedThisOutage.length;
    const turns =
      turnsThisOutage === 0
        ? ''
        : `; ${turnsThisOutage} turns lost their later entries too: ${namedThisOutage.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    onError(new Error(`journal sink: ${what}; ${lostThisOutage} entries were dropped while it was ${during}${turns}`));
    overflowing = false;
    lostThisOutage = 0;
    turnsThisOutage = 0;
    namedThisOutage = [];
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
        settle();
        if (down) {
          down = false;
          reportLosses('store back', 'down');
        }
      }
      // A store too slow for the traffic, never failing: the episode ends once it caught up.
      if (overflowing) reportLosses('buffer drained', 'full');
    } finally {
      running = false;
    }
  }

  function stats(upTo = accepted): JournalSinkStats {
    return Object.freeze({
      buffered: buffer.length,
      written,
      dropped,
      failures,
      ...(lastError !== undefined ? { lastError } : {}),
      pending: Math.max(0, upTo - written),
      truncatedTurns,
    });
  }

  /** The buffer is full: drops `entry` and cuts its turn short, so none of its later entries is stored. */
  const overflow = (entry: JournalEntry) => {
    dropped += 1;
    lostThisOutage += 1;
    if (!overflowing) {
      overflowing = true;
      onError(
        new Error(
          `journal sink: buffer full (${maxBuffered}); dropping entries until the store is back (a turn that loses one loses its later ones too)`,
        ),
      );
    }
    truncated.set(entry.turnId, entry.seq);
    if (truncated.size > TRUNCATED_TURNS_KEPT) truncated.delete(truncated.keys().next().value!);
    truncatedTurns += 1;
    turnsThisOutage += 1;
    if (namedThisOutage.length < TURNS_NAMED) namedThisOutage.push(`${entry.turnId} (from seq ${entry.seq})`);
  };

  const schedule = () => {
    if (!running && retry === undefined) queueMicrotask(() => void drain());
  };

  return Object.freeze({
    record(entry: JournalEntry, turn: JournalTurnInfo): void {
      if (truncated.has(entry.turnId)) {
        // A turn cut short stays cut: storing its later entries would leave a hole in it. Counted
        // (the turn was named when it was cut), and in this outage's report while there is one.
        dropped += 1;
        if (overflowing) lostThisOutage += 1;
        return;
      }
      if (buffer.length >= maxBuffered) return overflow(entry);
      const { sessionKey, traceId, principal } = turn;
      buffer.push({ entry, sessionKey, traceId, ...(principal !== undefined ? { principal } : {}) });
      accepted += 1;
      schedule();
    },
    flush(flushOptions: { readonly timeoutMs?: number } = {}): Promise<JournalSinkStats> {
      // Only what was recorded before this call: a steady stream of new entries never holds it up.
      const upTo = accepted;
      if (written >= upTo) return Promise.resolve(stats(upTo));
      return new Promise<JournalSinkStats>((resolve) => {
        const waiter = {
          upTo,
          done: () => {
            clearTimeout(timer);
            resolve(stats(upTo));
          },
        };
        const timer =
          flushOptions.timeoutMs === undefined
            ? undefined
            : setTimeout(
                () => {
                  const at = waiters.indexOf(waiter);
                  if (at >= 0) waiters.splice(at, 1);
                  resolve(stats(upTo));
                },
                Math.max(0, flushOptions.timeoutMs),
              );
        waiters.push(waiter);
        if (retry !== undefined) {
          // Someone is waiting: retry now rather than at the next tick of the back-off.
          clearTimeout(retry);
          retry = undefined;
        }
        schedule();
      });
    },
    stats: () => stats(),
    truncatedAt: (turnId: string) => truncated.get(turnId),
  });
}
