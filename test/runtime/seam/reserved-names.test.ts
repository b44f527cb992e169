/**
 * Names the runtime owns (the meta tools, `ask_user`, `spawn_task`) are reserved after case
 * folding for every source. The meta tools are per-turn bindings that never enter the tool
 * table, so a clash check against the table alone let a seam provider's `Discover` through and
 * list it next to `discover` (issue 13, item 6).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CandidateRejectedError, createCapabilityHost, definePlugin, defineAgentTool } from '../../../runtime/index.js';
import { Fixture, agent, manifest } from '../fixture.js';
import { RecordingToolService, seamRoot, tool } from './helpers.js';

const fx = new Fixture('seam-reserved-names');
afterAll(() => fx.cleanup());

/** A host serving generation 1 with one ordinary seam tool, and a loader for the next candidate. */
async function servingHost() {
  const host = createCapabilityHost({
    config: { deferredTools: { alwaysLoadedTools: ['acme_search', 'discover', 'load_tool', 'load_skill'] } },
  });
  const good = seamRoot((seams) =>
    seams.registerToolService('global', new RecordingToolService('acme', [tool('acme_search', { approval: 'never' })])),
  );
  await host.load(manifest({ agents: [agent('reviewer')] }), { plugins: { '': good.plugin } });
  return host;
}

async function expectStillServing(host: Awaited<ReturnType<typeof servingHost>>): Promise<void> {
  expect(host.generation).toBe(1);
  const turn = await host.beginTurn({ sessionKey: 's' });
  const names = (await turn.modelTools({ provider: 'openai' })).map((t) => t.function.name).sort();
  expect(names).toEqual(['acme_search', 'discover', 'load_skill', 'load_tool']);
  await turn.end();
}

describe('seam tool names that fold to a runtime-owned name', () => {
  it.each([
    ['Discover', 'discover'],
    ['LOAD_SKILL', 'load_skill'],
    ['Load_Tool', 'load_tool'],
    ['ASK_USER', 'ask_user'],
    ['Spawn_Task', 'spawn_task'],
  ])(
    'a global provider offering "%s" rejects the candidate, naming the provider and the tool',
    async (name, reserved) => {
      const host = await servingHost();
      const bad = seamRoot((seams) => {
        seams.registerToolService('global', new RecordingToolService('acme', [tool('acme_search')]));
        seams.registerToolService('global', new RecordingToolService('shadow:remote', [tool('remote_ok'), tool(name)]));
      });
      const failure = await host
        .load(manifest({ agents: [agent('reviewer')] }), { plugins: { '': bad.plugin } })
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(CandidateRejectedError);
      expect((failure as Error).message).toBe(
        `capability generation 2 rejected: capability seam: tool name "${name}" is reserved by the runtime: it equals "${reserved}" ` +
          `after case folding (seam tool "${name}" of provider "shadow:remote" (scope global)); the previous generation keeps serving`,
      );
      // Nothing of the candidate is visible; its integration was released at once.
      expect(bad.disposed).toEqual([bad.integrations[0]]);
      await expectStillServing(host);
    },
  );

  it('an exact reserved name from the provider is still reported as reserved', async () => {
    const host = await servingHost();
    const bad = seamRoot((seams) =>
      seams.registerToolService('global', new RecordingToolService('p', [tool('load_skill')])),
    );
    await expect(host.load(manifest(), { plugins: { '': bad.plugin } })).rejects.toThrow(
      'capability seam: tool name "load_skill" is reserved by the runtime (seam tool "load_skill" of provider "p" (scope global))',
    );
    await expectStillServing(host);
  });

  it('an agent-scoped provider may offer "Discover": its qualifiedName is reviewer__Discover, like an agent-private tool directory', async () => {
    const host = createCapabilityHost();
    const root = seamRoot((seams) =>
      seams.registerToolService('reviewer', new RecordingToolService('p', [tool('Discover', { approval: 'never' })])),
    );
    await host.load(manifest({ agents: [agent('reviewer')] }), { plugins: { '': root.plugin } });
    expect([...host.current!.tools.keys()]).toContain('reviewer__Discover');
    const turn = await host.beginTurn({ sessionKey: 's', agent: 'reviewer' });
    expect(await turn.execute('reviewer__Discover', {})).toMatchObject({
      status: 'completed',
      output: { provider: 'p', tool: 'Discover' },
    });
    await turn.end();
  });
});

describe('other sources use the same rule', () => {
  it('a hand-made manifest tool "Discover" is rejected (the compiler never emits one)', async () => {
    const host = createCapabilityHost();
    const file = fx.toolModule('shadow');
    await expect(host.load(manifest({ tools: [fx.tool('Discover', file)] }))).rejects.toThrow(
      'tool name "Discover" is reserved by the runtime: it equals "discover" after case folding (feature tool "Discover" of root plugin)',
    );
    expect(host.generation).toBe(0);
  });

  it('setup() addTool() names: the local-name rule and the reserved names, as the compiler reports them (ZG3011, ZG3005, ZG3003)', async () => {
    const load = (name: string) =>
      createCapabilityHost().load(manifest(), {
        plugins: {
          '': definePlugin({
            name: 'root',
            setup: (context) => context.addTool(name, defineAgentTool({ description: 'x', execute: () => 1 })),
          }),
        },
      });
    await expect(load('Discover')).rejects.toThrow(
      'root plugin: addTool() name "Discover" does not match ^[a-z0-9][a-z0-9_-]*$',
    );
    await expect(load('Sync')).rejects.toThrow(
      'root plugin: addTool() name "Sync" does not match ^[a-z0-9][a-z0-9_-]*$',
    );
    await expect(load('a__b')).rejects.toThrow(
      'root plugin: addTool() name "a__b" contains "__", which separates owner segments in qualifiedNames',
    );
    await expect(load('spawn_task')).rejects.toThrow(
      'tool name "spawn_task" is reserved by the runtime (setup tool "spawn_task" of root plugin)',
    );
    await expect(load('sync')).resolves.toMatchObject({ generation: 1, tools: 2 });
  });
});
