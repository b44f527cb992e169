/**
 * Journal entries written straight into a store's sink, as a turn's would be: what the journal
 * tests read back. `seqs` only (a writer without the sink's prefix rule may leave gaps).
 */
import { expect } from 'vitest';
import type { JournalEntry } from '../../../runtime/index.js';
import type { DurableStores } from '../../../runtime/stores/shared.js';

export async function recordSeqs(
  stores: Pick<DurableStores, 'journal'>,
  session: string,
  turnId: string,
  seqs: readonly number[],
): Promise<void> {
  for (const seq of seqs) {
    const entry: JournalEntry = {
      type: 'tool_call',
      seq,
      turnId,
      toolName: 'tool1',
      toolUseId: `${turnId}-${seq}`,
      generation: 1,
      at: Date.now(),
      input: { seq },
      owner: 'test',
      source: 'test',
    };
    stores.journal.sink.record(entry, { sessionKey: session, traceId: `trace-${turnId}` });
  }
  expect(await stores.journal.sink.flush({ timeoutMs: 5000 })).toMatchObject({ buffered: 0, dropped: 0 });
}
