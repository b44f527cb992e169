import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CandidateRejectedError,
  createCapabilityHost,
  createToken,
  defineAgentPromptSection,
  defineAgentTool,
  definePlugin,
  type PluginDefinition,
} from '../../../runtime/index.js';
import { Fixture, agent, deferred, manifest, plugin, resetGlobals } from '../fixture.js';

const fx = new Fixture('generations');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const v1 = fx.write(
  'v1/tools/version/index.ts',
  `import { defineAgentTool } from 'RUNTIME';
export default defineAgentTool({ description: 'v1', requiresApproval: 'never', execute: () => 'v1' });`,
);
const v2 = fx.write(
  'v2/tools/version/index.ts',
  `import { defineAgentTool } from 'RUNTIME';
export default defineAgentTool({ description: 'v2', requiresApproval: 'never', execute: () => 'v2' });`,
);
const slow = fx.toolModule('slow', {
  body: `await new Promise((r) => setTimeout(r, 40)); return 'slow done in generation ' + context.generation;`,
});
const echo = fx.toolModule('echo');

const tool = (name: string, value = name) =>
  defineAgentTool({ description: `setup ${name}`, requiresApproval: 'never', execute: () => value });
const withSetup = (setup: PluginDefinition['setup']): PluginDefinition =>
  definePlugin({ name: 'p', ...(setup ? { setup } : {}) });

describe('host lifecycle', () => {
  it('generation is 0 before the first load, and turns need a generation', async () => {
    const host = createCapabilityHost();
    expect(host.generation).toBe(0);
    await expect(host.beginTurn({ sessionKey: 's' })).rejects.toThrow(/no capability generation is loaded/);
    expect(await host.load(manifest({ tools: [fx.tool('version', v1)] }))).toEqual({ generation: 1, tools: 2 });
    expect(host.generation).toBe(1);
    expect(await host.load(manifest({ tools: [fx.tool('version', v2)] }))).toEqual({
      generation: 2,
      tools: 2,
      retired: 1,
    });
    expect(host.generation).toBe(2);
  });

  it('rejects malformed manifests and unknown agents', async () => {
    const host = createCapabilityHost();
    await expect(host.load({ ...manifest(), version: 2 } as never)).rejects.toThrow(/unsupported manifest version/);
    await host.load(manifest({ agents: [agent('reviewer')] }));
    await expect(host.beginTurn({ sessionKey: 's', agent: 'nobody' })).rejects.toThrow(/unknown agent "nobody"/);
    await expect(host.beginTurn({ sessionKey: '' })).rejects.toThrow(/sessionKey/);
    const turn = await host.beginTurn({ sessionKey: 's', agent: 'reviewer' });
    expect(turn.agent).toBe('reviewer');
    await turn.end();
  });
});

describe('generation swap under a running turn', () => {
  it('an old turn keeps its definitions; a new turn sees the new ones', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('version', v1), fx.tool('slow', slow), fx.tool('old-only', echo)] }));
    const oldTurn = await host.beginTurn({ sessionKey: 's' });
    const running = oldTurn.execute('slow', {});
    await host.load(manifest({ tools: [fx.tool('version', v2), fx.tool('new-only', echo)] }));
    const newTurn = await host.beginTurn({ sessionKey: 's' });
    expect([oldTurn.generation, newTurn.generation]).toEqual([1, 2]);
    expect(await running).toMatchObject({ status: 'completed', output: 'slow done in generation 1' });
    expect(await oldTurn.execute('version', {})).toMatchObject({ output: 'v1' });
    expect(await newTurn.execute('version', {})).toMatchObject({ output: 'v2' });
    expect(await oldTurn.execute('old-only', {})).toMatchObject({ status: 'completed' });
    expect(await oldTurn.execute('new-only', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(await newTurn.execute('old-only', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(oldTurn.journal.every((entry) => entry.generation === 1)).toBe(true);
    await Promise.all([oldTurn.end(), newTurn.end()]);
  });
});

describe('rejected candidates leave the previous generation serving', () => {
  async function serving() {
    const disposed: string[] = [];
    const token = createToken<string>('t');
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('version', v1)] }), {
      plugins: {
        '': withSetup((context) => context.resources.provide(token, 'gen1', () => void disposed.push('gen1'))),
      },
    });
    return { host, disposed, token };
  }

  async function expectStillServing(host: Awaited<ReturnType<typeof serving>>['host']) {
    expect(host.generation).toBe(1);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('version', {})).toMatchObject({ output: 'v1' });
    expect(await turn.execute('leaked', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    await turn.end();
  }

  it('a throwing setup: load rejects clearly, nothing of the candidate is visible, its resources are disposed', async () => {
    const { host, disposed, token } = await serving();
    const error = await host
      .load(manifest({ tools: [fx.tool('version', v2)], plugins: [plugin(''), plugin('maps')] }), {
        plugins: {
          '': withSetup((context) => {
            context.resources.provide(token, 'gen2', () => void disposed.push('gen2'));
            context.addTool('leaked', tool('leaked'));
          }),
          maps: withSetup(() => {
            throw new Error('database offline');
          }),
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRejectedError);
    expect((error as Error).message).toBe(
      'capability generation 2 rejected: plugin "maps" setup() failed: database offline; the previous generation keeps serving',
    );
    expect(disposed).toEqual(['gen2']);
    await expectStillServing(host);
    // The next successful load takes the next number.
    expect((await host.load(manifest({ tools: [fx.tool('version', v2)] }))).generation).toBe(2);
    expect(disposed).toEqual(['gen2', 'gen1']);
  });

  it.each([
    [
      'a setup tool duplicating a manifest tool',
      [],
      () => [['version', tool('version')]],
      /duplicate tool name "version": feature tool "version" of root plugin and setup tool "version" of root plugin/,
    ],
    [
      'two setup tools with one name',
      [],
      () => [
        ['x', tool('x')],
        ['x', tool('x')],
      ],
      /duplicate tool name "x"/,
    ],
    [
      'names equal after case folding',
      ['VERSION'],
      () => [],
      /tool name "VERSION" equals "version" after case folding/,
    ],
    [
      'an invalid definition',
      [],
      () => [['bad', { description: 'no kind' }]],
      /addTool\("bad"\) expects defineAgentTool/,
    ],
    [
      'an invalid local name',
      [],
      () => [['Bad Name', tool('b')]],
      /addTool\(\) name "Bad Name" does not match \^\[a-z0-9\]\[a-z0-9_-\]\*\$/,
    ],
    ['a local name with __', [], () => [['a__b', tool('b')]], /addTool\(\) name "a__b" contains "__"/],
  ] as const)('%s', async (_label, extraManifestNames, setupTools, message) => {
    const { host } = await serving();
    const extra = extraManifestNames.map((name) => fx.tool(name, echo));
    await expect(
      host.load(manifest({ tools: [fx.tool('version', v2), ...extra] }), {
        plugins: {
          '': withSetup((context) => {
            context.addTool('leaked', tool('leaked'));
            for (const [name, definition] of setupTools() as unknown as readonly (readonly [string, unknown])[])
              context.addTool(name, definition as never);
          }),
        },
      }),
    ).rejects.toThrow(message);
    await expectStillServing(host);
  });

  it('a child tool clashing with a parent-qualified manifest tool', async () => {
    const { host } = await serving();
    await expect(
      host.load(
        manifest({ tools: [fx.tool('maps__lookup', echo, { owner: 'maps' })], plugins: [plugin(''), plugin('maps')] }),
        {
          plugins: { maps: withSetup((context) => context.addTool('lookup', tool('lookup'))) },
        },
      ),
    ).rejects.toThrow(/duplicate tool name "maps__lookup"/);
    await expectStillServing(host);
  });

  it('reserved and unsafe names, dangling references and duplicate resources', async () => {
    const { host, token } = await serving();
    await expect(host.load(manifest({ tools: [fx.tool('ask_user', echo)] }))).rejects.toThrow(
      /reserved by the runtime/,
    );
    await expect(host.load(manifest({ tools: [fx.tool('discover', echo)] }))).rejects.toThrow(/reserved/);
    await expect(host.load(manifest({ tools: [fx.tool('has space', echo)] }))).rejects.toThrow(/not provider-safe/);
    await expect(host.load(manifest({ agents: [agent('a', { tools: ['missing'] })] }))).rejects.toThrow(
      /agent "a" lists unknown tool "missing"/,
    );
    await expect(
      host.load(manifest(), {
        plugins: {
          '': withSetup((context) => {
            context.resources.provide(token, 'a');
            context.resources.provide(token, 'b');
          }),
        },
      }),
    ).rejects.toThrow(/provided twice/);
    await expect(
      host.load(manifest(), {
        plugins: {
          '': withSetup((context) => {
            context.addPromptSection('rules', defineAgentPromptSection({ title: 'a', content: 'a' }));
            context.addPromptSection('rules', defineAgentPromptSection({ title: 'b', content: 'b' }));
          }),
        },
      }),
    ).rejects.toThrow(/duplicate prompt section ":rules"/);
    await expect(host.load(manifest(), { plugins: { '': { name: 'x' } as never } })).rejects.toThrow(
      /not a definePlugin/,
    );
    await expectStillServing(host);
  });

  it('a failing preparer rejects the candidate too', async () => {
    const host = createCapabilityHost({
      preparers: [
        {
          name: 'seam',
          prepare: (candidate) => {
            if (candidate.id > 1) throw new Error('provider conflict');
          },
        },
      ],
    });
    await host.load(manifest({ tools: [fx.tool('version', v1)] }));
    await expect(host.load(manifest({ tools: [fx.tool('version', v2)] }))).rejects.toThrow(
      /preparer "seam" failed: provider conflict/,
    );
    await expectStillServing(host);
  });
});

describe('serialised commits', () => {
  it('a second load waits for the first commit; numbers follow commit order', async () => {
    const gate = deferred<void>();
    const order: string[] = [];
    const host = createCapabilityHost();
    const first = host.load(manifest(), {
      plugins: {
        '': withSetup(async () => {
          order.push('setup 1 start');
          await gate.promise;
          order.push('setup 1 end');
        }),
      },
    });
    const second = host.load(manifest(), { plugins: { '': withSetup(() => void order.push('setup 2')) } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['setup 1 start']);
    gate.resolve();
    expect((await first).generation).toBe(1);
    expect((await second).generation).toBe(2);
    expect(order).toEqual(['setup 1 start', 'setup 1 end', 'setup 2']);
  });

  it('a rejected load does not block the queue', async () => {
    const host = createCapabilityHost();
    const bad = host.load(manifest(), { plugins: { '': withSetup(() => Promise.reject(new Error('nope'))) } });
    const good = host.load(manifest());
    await expect(bad).rejects.toThrow(/nope/);
    expect((await good).generation).toBe(1);
  });
});

describe('leases and disposers', () => {
  function disposingPlugin(log: string[], label: string): PluginDefinition {
    const a = createToken<string>('a');
    const b = createToken<string>('b');
    return withSetup((context) => {
      context.resources.provide(a, 'a', () => void log.push(`${label}:a`));
      context.resources.provide(b, 'b', async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.push(`${label}:b`);
      });
    });
  }

  it('a retired generation is disposed when its last lease ends (newest resource first)', async () => {
    const log: string[] = [];
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': disposingPlugin(log, 'g1') } });
    const t1 = await host.beginTurn({ sessionKey: 's' });
    const t2 = await host.beginTurn({ sessionKey: 's' });
    await host.load(manifest(), { plugins: { '': disposingPlugin(log, 'g2') } });
    const t3 = await host.beginTurn({ sessionKey: 's' });
    expect([t1.generation, t2.generation, t3.generation]).toEqual([1, 1, 2]);
    expect(log).toEqual([]);
    await t1.end();
    expect(log).toEqual([]);
    await t2.end();
    await t2.end(); // idempotent
    expect(log).toEqual(['g1:b', 'g1:a']);
    await t3.end();
    expect(log).toEqual(['g1:b', 'g1:a']); // generation 2 still serving
    await host.close();
    expect(log).toEqual(['g1:b', 'g1:a', 'g2:b', 'g2:a']);
  });

  it('a generation without leases is disposed at commit; disposer failures are reported, not thrown', async () => {
    const log: string[] = [];
    const errors: string[] = [];
    const token = createToken<string>('fragile');
    const host = createCapabilityHost({ onError: (error) => void errors.push(error.message) });
    await host.load(manifest(), {
      plugins: {
        '': withSetup((context) => {
          context.resources.provide(token, 'x', () => {
            throw new Error('close failed');
          });
          context.resources.provide(createToken('ok'), 'y', () => void log.push('ok disposed'));
        }),
      },
    });
    await host.load(manifest());
    expect(log).toEqual(['ok disposed']);
    expect(errors).toEqual(['disposing resource (root):fragile failed: close failed']);
  });

  it('a turn that failed to start releases its lease', async () => {
    const log: string[] = [];
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': disposingPlugin(log, 'g1') } });
    await expect(host.beginTurn({ sessionKey: 's', agent: 'ghost' })).rejects.toThrow();
    await host.load(manifest());
    expect(log).toEqual(['g1:b', 'g1:a']);
  });
});
