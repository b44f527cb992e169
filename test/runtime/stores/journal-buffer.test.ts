/**
 * The journal buffer on its own, with a writer the test controls: `flush` waits only for the
 * entries recorded before it (a host that keeps recording never holds it up), says how many of
 * them are still unacknowledged when it times out, and a turn that lost an entry to a full
 * buffer loses its later entries too (stored as an unbroken prefix), named in the report.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../runtime/index.js';
import { createBufferedJournalSink, type JournalRecord } from '../../../runtime/stores/journal-buffer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const info = { sessionKey: 's', traceId: 'trace' };
const entry = (turnId: string, seq: number): JournalEntry =>
  ({
    type: seq % 2 === 0 ? 'tool_call' : 'tool_result',
    seq,
    turnId,
    toolName: 'tool1',
    toolUseId: `${turnId}-${seq >> 1}`,
    generation: 1,
    at: Date.now(),
    ...(seq % 2 === 0
      ? { input: {}, owner: 'test', source: 'test' }
      : { output: 'ok', durationMs: 1, executionMs: 1, afterAbort: false }),
  }) as JournalEntry;
const ids = (records: readonly JournalRecord[]) => records.map(({ entry: item }) => `${item.turnId}:${item.seq}`);
/** A store the test takes down and brings back; `stored` is what it acknowledged, in order. */
function store() {
  const state = { up: true, stored: [] as JournalRecord[] };
  const write = async (batch: readonly JournalRecord[]) => {
    await sleep(1);
    if (!state.up) throw new Error('store down');
    state.stored.push(...batch);
  };
  return { state, write };
}

describe('flush', () => {
  it('resolves once the entries recorded before it are written, while the host keeps recording', async () => {
    const { state, write } = store();
    let traffic = true;
    let next = 0;
    // Steady traffic: every write finds new entries in the buffer, so it never runs empty.
    const sink = createBufferedJournalSink(
      async (batch) => {
        if (traffic) for (let i = 0; i < 3; i++) sink.record(entry(`bg${next++}`, 0), info);
        await write(batch);
      },
      { batchSize: 2 },
    );
    sink.record(entry('bg', 0), info);
    await sleep(5);
    for (const seq of [0, 1, 2, 3]) sink.record(entry('mine', seq), info);
    const flushed = await Promise.race([sink.flush(), sleep(2000).then(() => 'still waiting' as const)]);
    traffic = false;
    expect(flushed).toMatchObject({ pending: 0, dropped: 0 });
    expect(ids(state.stored)).toEqual(expect.arrayContaining(['mine:0', 'mine:1', 'mine:2', 'mine:3']));
    expect(sink.stats().buffered).toBeGreaterThan(0); // recorded after the flush: still on their way
    expect(await sink.flush({ timeoutMs: 2000 })).toMatchObject({ buffered: 0, pending: 0 });
  });

  it('with timeoutMs during an outage, `pending` counts the entries recorded before it still unwritten', async () => {
    const { state, write } = store();
    const sink = createBufferedJournalSink(write, { retryMs: 10 });
    sink.record(entry('T', 0), info);
    expect(await sink.flush()).toMatchObject({ written: 1, pending: 0 });
    state.up = false;
    for (const seq of [1, 2, 3]) sink.record(entry('T', seq), info);
    const waiting = sink.flush({ timeoutMs: 100 });
    sink.record(entry('U', 0), info); // after the call: not the caller's
    expect(await waiting).toMatchObject({ written: 1, buffered: 4, pending: 3, dropped: 0 });
    expect(sink.stats()).toMatchObject({ pending: 4 });
    state.up = true;
    expect(await sink.flush({ timeoutMs: 2000 })).toMatchObject({ written: 5, buffered: 0, pending: 0 });
    expect(sink.truncatedAt('T')).toBeUndefined();
  });
});

describe('a full buffer never leaves a hole in a turn', () => {
  it('a turn that lost an entry loses its later ones too; the turns cut short are named', async () => {
    const { state, write } = store();
    const errors: string[] = [];
    const sink = createBufferedJournalSink(write, {
      maxBuffered: 4,
      retryMs: 10,
      onError: (error) => errors.push(error.message),
    });
    state.up = false;
    for (const seq of [0, 1, 2, 3]) sink.record(entry('A', seq), info); // the buffer is full
    sink.record(entry('A', 4), info); // A's tool_call: dropped
    sink.record(entry('B', 0), info); // B's first: dropped
    await sleep(30); // writes fail meanwhile
    state.up = true;
    expect(await sink.flush({ timeoutMs: 2000 })).toMatchObject({ buffered: 0, pending: 0, written: 4 });
    // The store is back and the buffer empty: A's result would leave a result with no call.
    sink.record(entry('A', 5), info);
    sink.record(entry('B', 1), info);
    sink.record(entry('C', 0), info);
    const stats = await sink.flush({ timeoutMs: 2000 });
    expect(stats).toMatchObject({ written: 5, dropped: 4, truncatedTurns: 2, pending: 0 });
    expect(ids(state.stored)).toEqual(['A:0', 'A:1', 'A:2', 'A:3', 'C:0']);
    expect([sink.truncatedAt('A'), sink.truncatedAt('B'), sink.truncatedAt('C')]).toEqual([4, 0, undefined]);
    expect(errors).toEqual([
      'journal sink: buffer full (4); dropping entries until the store is back (a turn that loses one loses its later ones too)',
      'journal sink: write failed, 4 entries buffered: store down',
      'journal sink: store back; 2 entries were dropped while it was down; 2 turns lost their later entries too: A (from seq 4), B (from seq 0)',
    ]);
  });

  it('a store too slow for the traffic: one report when the buffer drained, naming the first turns', async () => {
    const errors: string[] = [];
    const stored: JournalRecord[] = [];
    const sink = createBufferedJournalSink(
      async (batch) => {
        await sleep(20);
        stored.push(...batch);
      },
      { maxBuffered: 2, onError: (error) => errors.push(error.message) },
    );
    for (let turn = 0; turn < 14; turn++) sink.record(entry(`t${turn}`, 0), info);
    for (let turn = 0; turn < 14; turn++) sink.record(entry(`t${turn}`, 1), info);
    // t0 and t1 got in; the rest were cut at seq 0, and t0 and t1 at seq 1 (the write was slow).
    expect(await sink.flush({ timeoutMs: 2000 })).toMatchObject({ written: 2, dropped: 26, truncatedTurns: 14 });
    expect(ids(stored)).toEqual(['t0:0', 't1:0']);
    expect([sink.truncatedAt('t1'), sink.truncatedAt('t2')]).toEqual([1, 0]);
    const named = Array.from({ length: 10 }, (_, i) => `t${i + 2} (from seq 0)`).join(', ');
    expect(errors).toEqual([
      'journal sink: buffer full (2); dropping entries until the store is back (a turn that loses one loses its later ones too)',
      `journal sink: buffer drained; 26 entries were dropped while it was full; 14 turns lost their later entries too: ${named} and 4 more`,
    ]);
  });
});
