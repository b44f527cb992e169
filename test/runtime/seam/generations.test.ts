/**
 * Seam providers live and die with their generation: prepared with the candidate, published
 * atomically, rolled back with a rejected candidate, released when the generation is disposed.
 * Scopes, replacement and conflicts are decided at projection.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  CandidateRejectedError,
  SeamIntegration,
  capabilitySeamToken,
  createCapabilityHost,
  definePlugin,
  isSkillInScope,
} from '../../../runtime/index.js';
import { Fixture, agent, deferred, manifest, plugin, skill } from '../fixture.js';
import { RecordingSkillService, RecordingToolService, seamRoot, tool } from './helpers.js';

const fx = new Fixture('seam-generations');
afterAll(() => fx.cleanup());
const echoFile = fx.toolModule('echo');

describe('generation swap', () => {
  it('a seam call in flight finishes on its generation; the old provider is released after the last lease, then never runs again', async () => {
    const gate = deferred<void>();
    const started = deferred<void>();
    let version = 0;
    const root = seamRoot((seams) => {
      const v = ++version;
      seams.registerToolService(
        'global',
        new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })], async (call) => {
          if (v === 1) {
            started.resolve();
            await gate.promise;
          }
          return { success: true, output: `v${v} generation ${call.context!.generation}` };
        }),
      );
    });
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root.plugin } });
    const oldTurn = await host.beginTurn({ sessionKey: 's' });
    const captured = await host.current!.tools.get('acme_search')!.resolve();
    const inFlight = oldTurn.execute('acme_search', {});
    await started.promise;

    expect(await host.load(manifest(), { plugins: { '': root.plugin } })).toMatchObject({ generation: 2, retired: 1 });
    const newTurn = await host.beginTurn({ sessionKey: 's' });
    expect(await newTurn.execute('acme_search', {})).toMatchObject({ status: 'completed', output: 'v2 generation 2' });
    // Generation 1 is retired but leased: its integration is not released yet.
    expect(root.disposed).toEqual([]);
    gate.resolve();
    expect(await inFlight).toMatchObject({ status: 'completed', output: 'v1 generation 1' });
    expect(oldTurn.journal.map((e) => [e.type, e.generation])).toEqual([
      ['tool_call', 1],
      ['tool_result', 1],
    ]);

    await oldTurn.end();
    expect(root.disposed).toEqual([root.integrations[0]]);
    expect(root.integrations[0]!.disposed).toBe(true);
    expect(root.integrations[1]!.disposed).toBe(false);
    // The captured generation-1 tool no longer runs, whatever context it is given.
    await expect(captured.execute({}, newTurn.journal as never)).rejects.toThrow(/its generation 1 was disposed/);
    await newTurn.end();
  });

  it('a turn that ends while its seam call runs: the provider sees the abort', async () => {
    const started = deferred<void>();
    const service = new RecordingToolService(
      'acme:search',
      [tool('acme_slow', { approval: 'never' })],
      async (call) => {
        started.resolve();
        await new Promise((resolve) => call.context!.signal.addEventListener('abort', resolve, { once: true }));
        return { success: false, error: 'aborted by turn end' };
      },
    );
    const root = seamRoot((seams) => seams.registerToolService('global', service));
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root.plugin } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    const running = turn.execute('acme_slow', {});
    await started.promise;
    await host.load(manifest(), { plugins: { '': root.plugin } });
    await turn.end();
    expect(await running).toEqual({ status: 'cancelled', reason: 'aborted during execution' });
    expect(root.disposed).toEqual([root.integrations[0]]);
    await host.close();
    expect(root.disposed).toEqual([root.integrations[0], root.integrations[1]]);
  });
});

describe('feature / seam clashes reject the candidate', () => {
  it('a seam tool named like a feature tool: rejected naming both sources, previous generation keeps serving', async () => {
    const host = createCapabilityHost();
    const good = seamRoot((seams) =>
      seams.registerToolService(
        'global',
        new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })]),
      ),
    );
    await host.load(manifest({ tools: [fx.tool('echo', echoFile)] }), { plugins: { '': good.plugin } });
    const clashing = new RecordingToolService('acme:echo', [tool('echo', { source: 'remote:acme' })]);
    const bad = seamRoot((seams) => seams.registerToolService('global', clashing));
    const failure = await host
      .load(manifest({ tools: [fx.tool('echo', echoFile)] }), { plugins: { '': bad.plugin } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CandidateRejectedError);
    expect((failure as Error).message).toBe(
      'capability generation 2 rejected: capability seam: duplicate tool name "echo": feature tool "echo" of root plugin and ' +
        'seam tool "echo" of provider "acme:echo" (scope global, remote:acme); the previous generation keeps serving',
    );
    // The rejected candidate's integration was released at once.
    expect(bad.disposed).toEqual([bad.integrations[0]]);
    expect(host.generation).toBe(1);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('acme_search', {})).toMatchObject({ status: 'completed' });
    // `echo` is still the feature tool (the fixture module echoes its input and owner).
    expect(await turn.execute('echo', { hi: 1 })).toMatchObject({
      status: 'completed',
      output: { echo: { hi: 1 }, owner: '' },
    });
    expect(turn.journal.find((e) => e.type === 'tool_call' && e.toolName === 'echo')).toMatchObject({
      source: 'feature',
    });
    expect(clashing.calls).toHaveLength(0);
    await turn.end();
  });

  it('names equal after case folding, reserved names and setup() tools clash too', async () => {
    const host = createCapabilityHost();
    const load = (name: string, extra: Parameters<typeof manifest>[0] = {}, setupTool?: string) =>
      host.load(manifest(extra), {
        plugins: {
          '': definePlugin({
            name: 'root',
            setup(context) {
              if (setupTool)
                context.addTool(setupTool, { kind: 'agent-tool', description: 'setup', execute: () => 1 } as never);
              const seams = new SeamIntegration();
              seams.registerToolService('global', new RecordingToolService('p', [tool(name)]));
              context.resources.provide(capabilitySeamToken, seams, () => seams.dispose());
            },
          }),
        },
      });
    await expect(load('Echo', { tools: [fx.tool('echo', echoFile)] })).rejects.toThrow(
      /tool name "Echo" equals "echo" after case folding "echo": feature tool "echo"/,
    );
    await expect(load('ask_user')).rejects.toThrow(
      /tool name "ask_user" is reserved by the runtime \(seam tool "ask_user" of provider "p"/,
    );
    await expect(load('lottery_sync', {}, 'lottery_sync')).rejects.toThrow(
      /duplicate tool name "lottery_sync": setup tool "lottery_sync" of root plugin and seam tool "lottery_sync"/,
    );
    expect(host.generation).toBe(0);
  });

  it('a seam skill named like a SKILL.md skill rejects the candidate', async () => {
    const host = createCapabilityHost();
    const root = seamRoot((seams) =>
      seams.registerSkillService(
        'global',
        new RecordingSkillService('acme:skills', [{ name: 'research', description: 'remote research' }]),
      ),
    );
    await expect(
      host.load(manifest({ skills: [skill('research', { source: 'skills/research/SKILL.md' })] }), {
        plugins: { '': root.plugin },
      }),
    ).rejects.toThrow(
      'capability seam: duplicate skill name "research": feature skill "research" (skills/research/SKILL.md) and seam skill "research" of provider "acme:skills" (scope global)',
    );
  });
});

describe('projection conflicts', () => {
  const reviewer = agent('reviewer');
  const load = (register: (seams: SeamIntegration) => void, agents = [reviewer]) =>
    createCapabilityHost().load(manifest({ agents }), { plugins: { '': seamRoot(register).plugin } });

  it('two visible providers offering one tool or skill name fail the projection', async () => {
    await expect(
      load((seams) => {
        seams.registerToolService('global', new RecordingToolService('a', [tool('search')]));
        seams.registerToolService('global', new RecordingToolService('b', [tool('search')]));
      }),
    ).rejects.toThrow(
      'seam tool name "search" is offered by two providers visible to every owner: "a" (scope global) and "b" (scope global)',
    );
    await expect(
      load((seams) => {
        seams.registerToolService('global', new RecordingToolService('a', [tool('search')]));
        seams.registerToolService('reviewer', new RecordingToolService('b', [tool('search')]));
      }),
    ).rejects.toThrow(
      'seam tool name "search" is offered by two providers visible to owner "reviewer": "b" (scope reviewer) and "a" (scope global)',
    );
    await expect(
      load((seams) => {
        seams.registerSkillService('global', new RecordingSkillService('a', [{ name: 'howto', description: 'x' }]));
        seams.registerSkillService('global', new RecordingSkillService('b', [{ name: 'HowTo', description: 'y' }]));
      }),
    ).rejects.toThrow('seam skill name "HowTo" is offered by two providers visible to every owner');
    await expect(
      load((seams) => seams.registerToolService('global', new RecordingToolService('a', [tool('x'), tool('x')]))),
    ).rejects.toThrow('tool provider "a" offers "x" twice');
  });

  it('bad schemas, failing schema() and unknown owners fail the projection', async () => {
    await expect(
      load((s) =>
        s.registerToolService('global', new RecordingToolService('a', [tool('x', { approval: 'sometimes' as never })])),
      ),
    ).rejects.toThrow('tool provider "a", tool "x": `approval` must be one of never, on-risk, once, always');
    await expect(
      load((s) =>
        s.registerToolService('global', new RecordingToolService('a', [tool('x', { parameters: { type: 'array' } })])),
      ),
    ).rejects.toThrow('`parameters` must be a JSON Schema with type: "object"');
    await expect(
      load((s) =>
        s.registerToolService('global', new RecordingToolService('a', [tool('x', { permissions: ['Role(admin)'] })])),
      ),
    ).rejects.toThrow('permission "Role(admin)" does not parse');
    await expect(
      load((s) => s.registerToolService('global', new RecordingToolService('a', [tool('acme.search')]))),
    ).rejects.toThrow('provider-safe');
    const failing = new RecordingToolService('a', []);
    failing.schema = () => {
      throw new Error('remote down');
    };
    await expect(load((s) => s.registerToolService('global', failing))).rejects.toThrow(
      'tool provider "a" (scope global): schema() failed: remote down',
    );
    await expect(
      load((s) => s.registerToolService('ghost', new RecordingToolService('a', [tool('x')]))),
    ).rejects.toThrow(
      'seam providers are registered for owner "ghost", which is not an agent of this generation (agents: reviewer)',
    );
  });

  it('an integration kept across generations, a disposed one, or one provided by a child plugin is rejected', async () => {
    const shared = new SeamIntegration();
    shared.registerToolService('global', new RecordingToolService('a', [tool('x')]));
    const root = definePlugin({
      name: 'root',
      setup: ({ resources }) => resources.provide(capabilitySeamToken, shared),
    });
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root } });
    await expect(host.load(manifest(), { plugins: { '': root } })).rejects.toThrow(
      'the SeamIntegration was already projected into generation 1; create a new one in setup() for every generation',
    );
    shared.dispose();
    await expect(createCapabilityHost().load(manifest(), { plugins: { '': root } })).rejects.toThrow(
      'already disposed',
    );
    const child = definePlugin({
      name: 'maps',
      setup: ({ resources }) => resources.provide(capabilitySeamToken, new SeamIntegration()),
    });
    await expect(
      createCapabilityHost().load(manifest({ plugins: [plugin(''), plugin('maps')] }), { plugins: { maps: child } }),
    ).rejects.toThrow('capabilitySeamToken is a root resource; plugin "maps" provided it');
  });
});

describe('scopes', () => {
  it('a scoped provider replaces the global one with the same id, only for its owner', async () => {
    const globalSearch = new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })]);
    const reviewerSearch = new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })]);
    const other = new RecordingToolService('acme:other', [tool('acme_other', { approval: 'never' })]);
    const root = seamRoot((seams) => {
      seams.registerToolService('global', globalSearch);
      seams.registerToolService('global', other);
      seams.registerToolService('reviewer', reviewerSearch);
      seams.registerSkillService(
        'global',
        new RecordingSkillService('acme:skills', [{ name: 'acme_research', description: 'global research' }]),
      );
      seams.registerSkillService(
        'reviewer',
        new RecordingSkillService('acme:skills', [{ name: 'acme_research', description: 'reviewer research' }]),
      );
    });
    const host = createCapabilityHost();
    await host.load(manifest({ agents: [agent('reviewer'), agent('writer')] }), { plugins: { '': root.plugin } });
    const tools = host.current!.tools;
    expect(tools.get('reviewer__acme_search')).toMatchObject({
      placement: 'agent',
      agent: 'reviewer',
      localName: 'acme_search',
      seam: { scope: 'reviewer' },
    });
    expect(tools.get('acme_search')).toMatchObject({ placement: 'plugin', exceptAgents: ['reviewer'] });
    expect(tools.get('acme_other')!.exceptAgents).toBeUndefined();

    const main = await host.beginTurn({ sessionKey: 's' });
    const writer = await host.beginTurn({ sessionKey: 's', agent: 'writer' });
    const rev = await host.beginTurn({ sessionKey: 's', agent: 'reviewer' });
    const names = async (turn: typeof main) =>
      (await turn.admittedTools())
        .map((t) => t.qualifiedName)
        .filter((n) => n.startsWith('acme') || n.includes('__acme'))
        .sort();
    expect(await names(main)).toEqual(['acme_other', 'acme_search']);
    expect(await names(writer)).toEqual(['acme_other', 'acme_search']);
    expect(await names(rev)).toEqual(['acme_other', 'reviewer__acme_search']);

    expect(await main.execute('acme_search', { q: 1 })).toMatchObject({ status: 'completed' });
    expect(await main.execute('reviewer__acme_search', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(await rev.execute('acme_search', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(await rev.execute('reviewer__acme_search', { q: 2 })).toMatchObject({ status: 'completed' });
    // Each provider is called with its own scope and its own name for the tool.
    expect(globalSearch.calls.map((c) => [c.scope, c.toolName, c.input])).toEqual([
      ['global', 'acme_search', { q: 1 }],
    ]);
    expect(reviewerSearch.calls.map((c) => [c.scope, c.toolName, c.input])).toEqual([
      ['reviewer', 'acme_search', { q: 2 }],
    ]);
    expect(reviewerSearch.schemaScopes).toEqual(['reviewer']);

    const table = host.current!.skillTable;
    const research = table.get('acme_research')!;
    const reviewerResearch = table.get('reviewer__acme_research')!;
    const scopeOf = (a?: string) => ({
      activeSkills: new Set<string>(),
      ...(a ? { agent: host.current!.agents.get(a)! } : {}),
    });
    expect([
      isSkillInScope(research, scopeOf()),
      isSkillInScope(research, scopeOf('writer')),
      isSkillInScope(research, scopeOf('reviewer')),
    ]).toEqual([true, true, false]);
    expect([
      isSkillInScope(reviewerResearch, scopeOf()),
      isSkillInScope(reviewerResearch, scopeOf('reviewer')),
    ]).toEqual([false, true]);
    expect(await table.describe('reviewer__acme_research')).toBe(
      '# acme_research\nInstructions from acme:skills for scope reviewer.',
    );
    await Promise.all([main.end(), writer.end(), rev.end()]);
  });
});

describe('seam skills', () => {
  it('join the generation skill table: catalog gives names and summaries, describe the instructions, until disposal', async () => {
    const skills = new RecordingSkillService('acme:skills', [
      { name: 'acme_research', description: 'Research with Acme sources', keywords: ['acme'] },
    ]);
    const root = seamRoot((seams) => seams.registerSkillService('global', skills));
    const host = createCapabilityHost();
    await host.load(manifest({ skills: [skill('research')] }), { plugins: { '': root.plugin } });
    const generation = host.current!;
    expect(generation.skillTable.catalog()).toEqual([
      { name: 'research', description: 'skill research', source: 'feature' },
      { name: 'acme_research', description: 'Research with Acme sources', source: 'seam' },
    ]);
    expect(generation.skillTable.get('acme_research')).toMatchObject({
      owner: '',
      keywords: ['acme'],
      tools: [],
      seam: { provider: 'acme:skills', scope: 'global', name: 'acme_research' },
    });
    expect(await generation.skillTable.describe('research')).toBe('Do the thing.');
    expect(await generation.skillTable.describe('acme_research')).toBe(
      '# acme_research\nInstructions from acme:skills for scope global.',
    );
    await expect(generation.skillTable.describe('nope')).rejects.toThrow('skill "nope" is not available');
    expect(skills.described).toEqual([{ scope: 'global', skillId: 'acme_research' }]);
    await host.load(manifest(), { plugins: { '': root.plugin } });
    await expect(generation.skillTable.describe('acme_research')).rejects.toThrow('its generation 1 was disposed');
    expect(skills.described).toHaveLength(1);
  });

  it('can be activated on a turn like feature skills (beginTurn({ skills }) and activateSkill)', async () => {
    const skills = new RecordingSkillService('acme:skills', [
      { name: 'acme_research', description: 'Research with Acme sources' },
    ]);
    const root = seamRoot((seams) => seams.registerSkillService('global', skills));
    const host = createCapabilityHost();
    await host.load(manifest({ skills: [skill('research')] }), { plugins: { '': root.plugin } });
    const turn = await host.beginTurn({ sessionKey: 's', skills: ['acme_research'] });
    expect([...turn.activeSkills]).toContain('acme_research');
    const other = await host.beginTurn({ sessionKey: 't' });
    expect(await other.activateSkill('acme_research')).toBe(true);
    expect(await other.activateSkill('no_such_skill')).toBe(false);
    await turn.end();
    await other.end();
  });
});
