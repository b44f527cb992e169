/**
 * The pipeline rehearsal (runtime/turn/rehearsal.ts) that the catalog's prefetch runs while the
 * model answers: it goes through the whole tool pipeline (a `tool_call` and a `tool_result` in
 * its own journal, so the code the first `discover` runs is the code it ran), and nobody sees it:
 * no hook of the generation, no journal sink, no entry in the turn's journal, no session state.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { REHEARSAL_INPUT, rehearsalBinding } from '../../../runtime/deferred/meta-tools.js';
import { createCapabilityHost, type JournalEntry } from '../../../runtime/index.js';
import { rehearseToolCall } from '../../../runtime/turn/rehearsal.js';
import { events, Fixture, manifest, resetGlobals } from '../fixture.js';

const fx = new Fixture('rehearsal');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const audit = fx.write(
  'hooks/audit/index.ts',
  `import { defineAgentHook } from 'RUNTIME';
export default defineAgentHook({
  events: ['tool:before', 'tool:after'],
  async handle(event) {
    (globalThis.__events ??= []).push('audit:' + event.event + ':' + event.toolName);
  },
});`,
);
const plain = fx.toolModule('plain');

async function hostWithHook() {
  const sunk: JournalEntry[] = [];
  const host = createCapabilityHost({ journal: { record: (entry) => void sunk.push(entry) } });
  await host.load(manifest({ tools: [fx.tool('plain', plain)], hooks: [fx.hook(':plugin::audit', audit)] }));
  return { host, sunk };
}

describe('the pipeline rehearsal', () => {
  it('runs a discover-shaped call through the whole pipeline, seen by no hook and no sink', async () => {
    const { host, sunk } = await hostWithHook();
    const { outcome, journal } = await rehearseToolCall(host.current!, rehearsalBinding(), REHEARSAL_INPUT);
    expect(outcome).toMatchObject({ status: 'completed', output: { query: 'rehearsal', results: [] } });
    expect(journal.entries.map((entry) => entry.type)).toEqual(['tool_call', 'tool_result']);
    expect(events()).toEqual([]);
    expect(sunk).toEqual([]);
    // The same generation's hooks still see a real call.
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.execute('plain', {});
    expect(events()).toEqual(['audit:tool:before:plain', 'execute:plain', 'audit:tool:after:plain']);
    await turn.end();
    await host.close();
  });

  it('leaves nothing of itself in the turn whose listing started it', async () => {
    const { host, sunk } = await hostWithHook();
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.modelTools({ provider: 'anthropic' });
    // The prefetch and its rehearsal run off the turn: give them time to finish.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(turn.journal).toEqual([]);
    expect(sunk).toEqual([]);
    expect(events()).toEqual([]);
    const found = await turn.execute('discover', { query: 'plain' });
    expect(found.status).toBe('completed');
    expect(turn.journal.map((entry) => [entry.seq, entry.type, entry.toolName])).toEqual([
      [0, 'tool_call', 'discover'],
      [1, 'tool_result', 'discover'],
    ]);
    expect(events()).toEqual(['audit:tool:before:discover', 'audit:tool:after:discover']);
    await turn.end();
    await host.close();
  });
});
