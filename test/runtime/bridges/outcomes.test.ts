/**
 * Each outcome kind through each bridge (completed, failed, denied, cancelled), what the model
 * reads for it, the approval and ask_user ports reaching the "chat user", aborts in the middle of
 * the loop, and the step limit. `defer: false` (every admitted tool, none deferred) throughout, so
 * the scripted model may call any tool from the first request on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, QuestionRequest } from '../../../runtime/index.js';
import { agentFixture } from './agent.js';
import { BRIDGES, type Bridge, CORE_BRIDGES, runBridge, sentResults, sentTools } from './drivers.js';
import { type FakeModelServer, type ScriptedReply, startFakeModels } from './fake-models.js';
import { botTurn, executed, journalByCall, slowStarted } from './scenario.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  slowStarted.notify = undefined;
});

const anthropic = (bridge: Bridge) => bridge.startsWith('anthropic');
const done: ScriptedReply = { text: 'Done.' };

describe.each(BRIDGES)('%s', (bridge) => {
  it('completed and failed: is_error and the text the model may see; defer: false sends everything undeferred', async () => {
    server = await startFakeModels([
      {
        calls: [
          { id: 'c1', name: 'echo', input: { text: 'hi' } },
          { id: 'c2', name: 'weather', input: { city: 5 } },
          { id: 'c3', name: 'flaky', input: {} },
        ],
      },
      done,
    ]);
    const { turn } = await botTurn();
    const { result } = await runBridge(bridge, turn, server, { defer: false });
    expect(sentTools(bridge, server.requests[0]!)).toEqual(
      ['discover', 'load_tool', 'load_skill', 'echo', 'flaky', 'slow', 'transfer', 'weather'].map((name) => ({
        name,
        deferred: false,
      })),
    );
    const sent = sentResults(bridge, server.requests[1]!);
    expect(sent.map((entry) => entry.id)).toEqual(['c1', 'c2', 'c3']);
    expect(sent[0]!.text).toBe('hi');
    expect(sent[1]!.text).toMatch(/^invalid input at \/city: /);
    expect(sent[2]!.text).toBe('The tool failed: upstream timed out (retrying may help)');
    if (anthropic(bridge)) expect(sent.map((entry) => entry.isError)).toEqual([undefined, true, true]);
    expect(result.steps[0]!.results.map((entry) => entry.outcome.status)).toEqual(['completed', 'failed', 'failed']);
    expect(journalByCall(turn.journal)).toEqual({
      c1: ['echo:tool_call', 'echo:tool_result'],
      c2: ['weather:tool_call', 'weather:tool_failed'],
      c3: ['flaky:tool_call', 'flaky:tool_failed'],
    });
    expect(executed.sort()).toEqual(['echo', 'flaky']);
    await turn.end();
  });

  it('denied by the user: approval reaches the chat through the ApprovalPort, per call', async () => {
    server = await startFakeModels([
      {
        calls: [
          { id: 'c1', name: 'transfer', input: { amount: 5 } },
          { id: 'c2', name: 'transfer', input: { amount: 5000 } },
        ],
      },
      done,
    ]);
    const asked: ApprovalRequest[] = [];
    // A chat host would post `request.question` with Approve / Deny buttons and resolve on the click.
    const approval = {
      requestApproval: async (request: ApprovalRequest) => (
        asked.push(request), (request.input as { amount: number }).amount < 100
      ),
    };
    const { turn } = await botTurn({ approval });
    const { result } = await runBridge(bridge, turn, server, { defer: false });
    expect(asked.map((request) => [request.toolName, request.input])).toEqual([
      ['transfer', { amount: 5 }],
      ['transfer', { amount: 5000 }],
    ]);
    expect(asked[0]!.question).toContain('transfer');
    const sent = sentResults(bridge, server.requests[1]!);
    expect(sent.map((entry) => entry.text)).toEqual(['{"ok":true}', 'The user did not approve this call.']);
    if (anthropic(bridge)) expect(sent.map((entry) => entry.isError)).toEqual([undefined, true]);
    expect(result.steps[0]!.results[1]!.outcome).toEqual({
      status: 'denied',
      policy: 'approval',
      reason: 'approval denied',
    });
    expect(journalByCall(turn.journal).c2).toEqual(['transfer:tool_call', 'transfer:tool_denied']);
    expect(executed).toEqual(['transfer']);
    await turn.end();
  });

  it('ask_user reaches the chat through the QuestionPort', async () => {
    server = await startFakeModels([
      { calls: [{ id: 'c1', name: 'ask_user', input: { question: 'Which city?', options: ['Paris', 'Rome'] } }] },
      done,
    ]);
    const questions: QuestionRequest[] = [];
    const question = { ask: async (request: QuestionRequest) => (questions.push(request), 'Paris') };
    const { turn } = await botTurn({ question });
    await runBridge(bridge, turn, server, { defer: false });
    expect(sentTools(bridge, server.requests[0]!).map((tool) => tool.name)).toContain('ask_user');
    expect(questions.map((request) => [request.question, request.options, request.sessionKey])).toEqual([
      ['Which city?', ['Paris', 'Rome'], 'qq:group:g1'],
    ]);
    expect(sentResults(bridge, server.requests[1]!).map((entry) => entry.text)).toEqual(['{"answer":"Paris"}']);
    await turn.end();
  });

  it('cancelled: an abort while a tool runs ends the loop; the result still answers the call', async () => {
    server = await startFakeModels([{ calls: [{ id: 'c1', name: 'slow', input: {} }] }, done]);
    const { turn } = await botTurn();
    const controller = new AbortController();
    slowStarted.notify = () => controller.abort(new Error('user left'));
    const { result } = await runBridge(bridge, turn, server, { defer: false, signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
    expect(result.steps).toHaveLength(1);
    const [call] = result.steps[0]!.results;
    expect(call!.outcome).toEqual({ status: 'cancelled', reason: 'aborted during execution' });
    expect(call!.text).toBe('The call was cancelled (aborted during execution).');
    expect(call!.isError).toBe(true);
    await turn.end();
    expect(journalByCall(turn.journal).c1).toEqual(['slow:tool_call', 'slow:tool_cancelled']);
  });

  it("the step an abort cuts short lists its calls in the reply's order, not as they finished", async () => {
    server = await startFakeModels([
      {
        calls: [
          { id: 'c1', name: 'slow', input: {} },
          { id: 'c2', name: 'echo', input: { text: 'hi' } },
        ],
      },
      done,
    ]);
    const { turn } = await botTurn();
    const controller = new AbortController();
    // The slow call is first in the reply and still running when the echo has finished.
    slowStarted.notify = () => setTimeout(() => controller.abort(new Error('user left')), 50);
    const { result } = await runBridge(bridge, turn, server, { defer: false, signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    expect(result.steps.at(-1)!.results.map((entry) => [entry.call.id, entry.outcome.status])).toEqual([
      ['c1', 'cancelled'],
      ['c2', 'completed'],
    ]);
    await turn.end();
  });

  it('abort while the model is answering: no further request, the finished steps are kept', async () => {
    server = await startFakeModels([
      { calls: [{ id: 'c1', name: 'discover', input: { query: 'weather' } }] },
      { hang: true },
    ]);
    const { turn } = await botTurn();
    const controller = new AbortController();
    void server.hanging().then(() => controller.abort(new Error('user left')));
    const { result } = await runBridge(bridge, turn, server, { signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    expect(server.requests).toHaveLength(2);
    expect(result.steps.map((step) => step.results.map((entry) => entry.call.name))).toEqual([['discover']]);
    expect(journalByCall(turn.journal)).toEqual({ c1: ['discover:tool_call', 'discover:tool_result'] });
    await turn.end();
  });

  it('turn.end() aborts the loop too (the turn signal)', async () => {
    server = await startFakeModels([{ hang: true }]);
    const { turn } = await botTurn();
    void server.hanging().then(() => turn.end());
    const { result } = await runBridge(bridge, turn, server);
    expect(result.finishReason).toBe('aborted');
    expect(result.steps).toEqual([]);
  });

  it("step limit: the selected agent's maxSteps, and the host's when smaller", async () => {
    const calls = (id: string): ScriptedReply => ({ calls: [{ id, name: 'discover', input: { query: 'weather' } }] });
    server = await startFakeModels([calls('c1'), calls('c2'), calls('c3'), done]);
    const { turn } = await botTurn({ agents: [agentFixture('planner', 2)], agent: 'planner' });
    expect(turn.maxSteps).toBe(2);
    const { result } = await runBridge(bridge, turn, server);
    expect(result.finishReason).toBe('max-steps');
    expect(server.requests).toHaveLength(2);
    expect(result.steps).toHaveLength(2);
    await turn.end();
    await server.close();

    server = await startFakeModels([calls('c1'), calls('c2'), done]);
    const second = await botTurn({ agents: [agentFixture('planner', 2)], agent: 'planner' });
    const limited = await runBridge(bridge, second.turn, server, { maxSteps: 1 });
    expect(limited.result.finishReason).toBe('max-steps');
    expect(server.requests).toHaveLength(1);
    await second.turn.end();
  });
});

// The AI SDK parses a call's arguments strictly before it runs anything (a cut-off argument text
// is not JSON); the other SDKs hand over what their lenient parser made of the text.
describe.each(CORE_BRIDGES)('%s, a reply cut off at the output limit', (bridge) => {
  it('runs none of its calls: each is journaled as cancelled and the model is told to call again', async () => {
    server = await startFakeModels([
      { calls: [{ id: 'c1', name: 'echo', input: { text: 'rm -rf /tmp/build' } }], cutOff: true },
      done,
    ]);
    const { turn } = await botTurn();
    const { result } = await runBridge(bridge, turn, server, { defer: false });
    expect(executed).toEqual([]);
    const [sent] = sentResults(bridge, server.requests[1]!);
    expect(sent!.text).toBe(
      'The call was not run: the reply was cut off at the output token limit before its tool calls were complete; call again.',
    );
    expect(result.steps[0]!.results.map((entry) => entry.outcome.status)).toEqual(['cancelled']);
    expect(journalByCall(turn.journal)).toEqual({ c1: ['echo:tool_call', 'echo:tool_cancelled'] });
    expect(result.finishReason).toBe('stop');
    await turn.end();
  });
});

// The AI SDK runs tools only for the finish reasons 'stop' and 'tool-calls': a cut-off reply ends
// its loop. Its complete calls were then left with a tool_call and no end in the journal.
describe.each(BRIDGES.filter((bridge) => bridge.startsWith('ai-sdk')))(
  '%s, a reply cut off at the output limit',
  (bridge) => {
    it('runs none of its calls, and each is journaled as cancelled and reported in the step', async () => {
      server = await startFakeModels([
        {
          calls: [
            { id: 'c1', name: 'echo', input: { text: 'first' } },
            { id: 'c2', name: 'echo', input: { text: 'second' } },
          ],
          cutOff: true,
        },
        done,
      ]);
      const { turn } = await botTurn();
      const { result } = await runBridge(bridge, turn, server, { defer: false });
      expect(executed).toEqual([]);
      expect(journalByCall(turn.journal)).toEqual({
        c1: ['echo:tool_call', 'echo:tool_cancelled'],
        c2: ['echo:tool_call', 'echo:tool_cancelled'],
      });
      expect(result.steps[0]!.results.map((entry) => [entry.call.id, entry.outcome.status])).toEqual([
        ['c1', 'cancelled'],
        ['c2', 'cancelled'],
      ]);
      expect(result.steps[0]!.results[0]!.text).toContain('cut off at the output token limit');
      await turn.end();
    });
  },
);

describe.each(BRIDGES.filter((bridge) => !bridge.startsWith('anthropic')))(
  '%s, arguments that are not JSON',
  (bridge) => {
    it('never run the tool, and the journal records the call', async () => {
      server = await startFakeModels([
        { calls: [{ id: 'c1', name: 'echo', input: null, arguments: '{"text": "hi"' }] },
        done,
      ]);
      const { turn } = await botTurn();
      await runBridge(bridge, turn, server, { defer: false });
      expect(executed).toEqual([]);
      const ended = bridge.startsWith('ai-sdk') ? 'echo:tool_cancelled' : 'echo:tool_failed';
      expect(journalByCall(turn.journal)).toEqual({ c1: ['echo:tool_call', ended] });
      expect(sentResults(bridge, server.requests[1]!).map((entry) => entry.id)).toEqual(['c1']);
      await turn.end();
    });
  },
);
