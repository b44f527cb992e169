/**
 * `turn.isToolName`: narrows a model-supplied string to the registry's names. True for the
 * generation's tools (accessible or not: it is about existence, access is `execute`'s), the
 * runtime's `ask_user` and the turn's enabled meta tools; false for anything else. And
 * `turn.maxSteps`: the selected agent's `agent.json` limit.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createCapabilityHost, PermissionHost } from '../../../runtime/index.js';
import { catalogTool } from '../deferred/fixture.js';
import { agent, im, manifest } from '../fixture.js';

type Registry = { toolInputs: { weather: { city: string }; payroll: Record<string, never> } };

async function turnFor(config?: { deferredTools: { alwaysLoadedTools: string[] } }, agentName?: string) {
  const host = createCapabilityHost<Registry>({ permissions: new PermissionHost(), ...(config ? { config } : {}) });
  await host.load(
    manifest({
      tools: [catalogTool('weather'), catalogTool('payroll', { permissions: ['role(master)'] })],
      agents: [agent('planner', { maxSteps: 3 }), agent('free')],
    }),
  );
  return host.beginTurn({ sessionKey: 's', message: im(), ...(agentName ? { agent: agentName } : {}) });
}

describe('turn.isToolName', () => {
  it('is true for tools of the generation and the turn, whatever the access; false otherwise', async () => {
    const turn = await turnFor();
    expect(
      ['weather', 'payroll', 'ask_user', 'discover', 'load_tool', 'load_skill'].map((name) => turn.isToolName(name)),
    ).toEqual([true, true, true, true, true, true]);
    expect(['nope', 'Weather', '', 'weather '].map((name) => turn.isToolName(name))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    // Existence only: the forbidden tool is still denied exactly like an unknown one.
    const forbidden = await turn.execute('payroll', {});
    expect(forbidden).toEqual({ status: 'denied', policy: 'capability', reason: 'tool "payroll" is not available' });
    await turn.end();
  });

  it('meta tools the config disables are not names of the turn', async () => {
    const turn = await turnFor({ deferredTools: { alwaysLoadedTools: ['load_tool'] } });
    expect(['discover', 'load_tool', 'load_skill'].map((name) => turn.isToolName(name))).toEqual([false, true, false]);
    await turn.end();
  });

  it('narrows the type to the registry names', async () => {
    const turn = await turnFor();
    const name: string = 'weather';
    if (turn.isToolName(name)) {
      expectTypeOf(name).toEqualTypeOf<'weather' | 'payroll' | 'ask_user' | 'discover' | 'load_tool' | 'load_skill'>();
    } else {
      expectTypeOf(name).toEqualTypeOf<string>();
    }
    await turn.end();
  });

  it("maxSteps is the selected agent's limit", async () => {
    const planner = await turnFor(undefined, 'planner');
    const free = await turnFor(undefined, 'free');
    const none = await turnFor();
    expect([planner.maxSteps, free.maxSteps, none.maxSteps]).toEqual([3, undefined, undefined]);
    await Promise.all([planner.end(), free.end(), none.end()]);
  });
});
