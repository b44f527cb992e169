/**
 * The whole tool-use loop through each bridge, with the real SDK client over loopback HTTP: the
 * model discovers a tool, loads it, then calls it in parallel with a tool this principal may not
 * run, then answers. Asserted on what the SDK really sent (tools per request, defer_loading,
 * tool results and their order), on the journal, and on the final answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGES, type Bridge, runBridge, sentResults, sentSystem, sentTools } from './drivers.js';
import { type FakeModelServer, type ScriptedReply, startFakeModels } from './fake-models.js';
import { botTurn, executed, journalByCall } from './scenario.js';

const FINAL = 'It is sunny in Paris, 21 °C.';
const SCRIPT: readonly ScriptedReply[] = [
  { calls: [{ id: 'call_1', name: 'discover', input: { query: 'weather forecast' } }] },
  { text: 'Loading the weather tool.', calls: [{ id: 'call_2', name: 'load_tool', input: { name: 'weather' } }] },
  {
    calls: [
      { id: 'call_3', name: 'weather', input: { city: 'Paris' } },
      { id: 'call_4', name: 'payroll', input: { month: 'May' } },
    ],
  },
  { text: FINAL },
];

const META = ['discover', 'load_tool', 'load_skill'];
/** Every tool this member may see (payroll is not among them), in catalog order. */
const LISTED = ['echo', 'flaky', 'slow', 'transfer', 'weather'];

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectedTools(bridge: Bridge, loaded: boolean): { name: string; deferred: boolean }[] {
  const meta = META.map((name) => ({ name, deferred: false }));
  if (bridge.startsWith('anthropic'))
    return [...meta, ...LISTED.map((name) => ({ name, deferred: !(loaded && name === 'weather') }))];
  return loaded ? [...meta, { name: 'weather', deferred: false }] : meta;
}

describe.each(BRIDGES)('%s', (bridge) => {
  it('discover → load_tool → parallel calls (one forbidden) → final answer', async () => {
    server = await startFakeModels(SCRIPT);
    const { turn } = await botTurn();
    const { result, deltas } = await runBridge(bridge, turn, server);

    // The requests the SDK sent: the tool list follows the loads, step by step.
    const requests = server.requests;
    expect(requests).toHaveLength(4);
    expect(requests.map((request) => sentTools(bridge, request))).toEqual([
      expectedTools(bridge, false),
      expectedTools(bridge, false),
      expectedTools(bridge, true),
      expectedTools(bridge, true),
    ]);
    expect(requests.every((request) => sentSystem(bridge, request) === 'You are a test bot.')).toBe(true);
    const streamed = bridge.endsWith('-stream');
    expect(requests.every((request) => (request.body.stream === true) === streamed)).toBe(true);
    expect(sentTools(bridge, requests[0]!).map((tool) => tool.name)).not.toContain('payroll');

    // Tool results went back in call order, each with the text the model may see.
    expect(sentResults(bridge, requests[0]!)).toEqual([]);
    const [discovered] = sentResults(bridge, requests[1]!);
    expect(discovered!.id).toBe('call_1');
    expect(JSON.parse(discovered!.text).results.map((entry: { name: string }) => entry.name)).toContain('weather');
    expect(JSON.parse(discovered!.text).results.map((entry: { name: string }) => entry.name)).not.toContain('payroll');
    const [loaded] = sentResults(bridge, requests[2]!);
    expect(loaded!.id).toBe('call_2');
    expect(JSON.parse(loaded!.text)).toMatchObject({ name: 'weather', loaded: ['weather'] });
    if (bridge.startsWith('anthropic')) expect(loaded!.references).toEqual(['weather']);
    const parallel = sentResults(bridge, requests[3]!);
    expect(parallel.map((entry) => entry.id)).toEqual(['call_3', 'call_4']);
    expect(JSON.parse(parallel[0]!.text)).toEqual({ city: 'Paris', forecast: 'sunny', celsius: 21 });
    expect(parallel[0]!.isError).toBeUndefined();
    if (bridge.startsWith('ai-sdk')) {
      // The SDK refused the call itself (payroll was never offered): its text, not ours.
      expect(parallel[1]!.text).toMatch(/unavailable tool 'payroll'/);
    } else {
      expect(parallel[1]!.text).toBe('tool "payroll" is not available');
    }
    if (bridge.startsWith('anthropic')) expect(parallel[1]!.isError).toBe(true);

    // The journal holds every call; the forbidden one was denied before anything ran.
    expect(journalByCall(turn.journal)).toEqual({
      call_1: ['discover:tool_call', 'discover:tool_result'],
      call_2: ['load_tool:tool_call', 'load_tool:tool_result'],
      call_3: ['weather:tool_call', 'weather:tool_result'],
      call_4: ['payroll:tool_denied'],
    });
    expect(executed).toEqual(['weather']);

    // The typed result.
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe(FINAL);
    expect(result.steps).toHaveLength(4);
    expect(result.steps[2]!.results.map((entry) => [entry.call.name, entry.outcome.status, entry.isError])).toEqual([
      ['weather', 'completed', false],
      ['payroll', 'denied', true],
    ]);
    expect(result.usage).toEqual({ inputTokens: 44, outputTokens: 28 });
    expect(result.messages.length).toBeGreaterThan(4);
    if (streamed) expect(deltas.join('')).toBe(`Loading the weather tool.${FINAL}`);
    else expect(deltas).toEqual([]);
    await turn.end();
  });

  it("load_skill: the skill's instructions come back and its private tool joins the next request", async () => {
    server = await startFakeModels([
      { calls: [{ id: 'call_1', name: 'load_skill', input: { name: 'reports' } }] },
      { calls: [{ id: 'call_2', name: 'reports__monthly', input: {} }] },
      { text: 'Sales were 42.' },
    ]);
    const { turn } = await botTurn();
    const { result } = await runBridge(bridge, turn, server);
    const names = server.requests.map((request) => sentTools(bridge, request).map((tool) => tool.name));
    expect(names[0]).not.toContain('reports__monthly');
    expect(names[1]).toContain('reports__monthly');
    expect(sentTools(bridge, server.requests[1]!).find((tool) => tool.name === 'reports__monthly')!.deferred).toBe(
      false,
    );
    const [loaded] = sentResults(bridge, server.requests[1]!);
    expect(JSON.parse(loaded!.text)).toMatchObject({
      name: 'reports',
      instructions: 'Use reports__monthly for the current month.',
      loaded: ['reports__monthly'],
    });
    if (bridge.startsWith('anthropic')) expect(loaded!.references).toEqual(['reports__monthly']);
    expect(sentResults(bridge, server.requests[2]!).map((entry) => entry.text)).toEqual(['{"month":"May","sales":42}']);
    expect(executed).toEqual(['reports__monthly']);
    expect(result.text).toBe('Sales were 42.');
    await turn.end();
  });

  it('a forbidden tool reads exactly like an unknown one', async () => {
    server = await startFakeModels([
      {
        calls: [
          { id: 'call_1', name: 'payroll', input: {} },
          { id: 'call_2', name: 'no_such_tool', input: {} },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { turn } = await botTurn();
    const { result } = await runBridge(bridge, turn, server);
    const [forbidden, unknown] = sentResults(bridge, server.requests[1]!);
    expect(forbidden!.text.replaceAll('payroll', 'X')).toBe(unknown!.text.replaceAll('no_such_tool', 'X'));
    expect(forbidden!.isError).toBe(unknown!.isError);
    // Parallel calls: the journal order is completion order; each call has exactly one entry.
    const denials = turn.journal.map((entry) =>
      entry.type === 'tool_denied' ? `${entry.toolUseId}:${entry.policy}:${entry.reason}` : entry.type,
    );
    expect(denials.sort()).toEqual([
      'call_1:capability:tool "payroll" is not available',
      'call_2:capability:tool "no_such_tool" is not available',
    ]);
    expect(result.steps[0]!.results.map((entry) => entry.outcome)).toEqual([
      { status: 'denied', policy: 'capability', reason: 'tool "payroll" is not available' },
      { status: 'denied', policy: 'capability', reason: 'tool "no_such_tool" is not available' },
    ]);
    expect(executed).toEqual([]);
    await turn.end();
  });
});
