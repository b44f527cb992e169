/**
 * The turn lists reused across turns (runtime/deferred/projection.ts): turns of different
 * principals, scopes, agents and skills alternate on one generation, and each turn's
 * `modelTools` for every provider must equal what the per-tool access decision lists for that
 * turn (`turn.deferred.listing()`, which asks the decision tool by tool), including when a
 * permission checker's answer changes between turns of the same principal.
 */
import { describe, expect, it } from 'vitest';
import {
  createCapabilityHost,
  type ImMessage,
  PermissionHost,
  type Turn,
  type TurnInput,
} from '../../../runtime/index.js';
import { agent, manifest, skill } from '../fixture.js';
import {
  ANTHROPIC_MAX_TOOLS,
  type AnthropicModelTool,
  capAnthropicTools,
} from '../../../runtime/deferred/providers.js';
import { catalogTool } from './fixture.js';

const tools = [
  catalogTool('open-a', { description: 'Open tool a' }),
  catalogTool('open-b', { description: 'Open tool b' }),
  catalogTool('group-only', { description: 'Only in groups', scopes: ['group'] }),
  catalogTool('qq-only', { description: 'Only on qq', platforms: ['qq'] }),
  catalogTool('master-only', { description: 'Masters only', permissions: ['role(master)'] }),
  catalogTool('vip-only', { description: 'VIPs only (live list)', permissions: ['vip'] }),
  catalogTool('hidden-one', { description: 'Hidden', hidden: true }),
  catalogTool('helper__private', {
    description: 'Agent private',
    placement: 'agent',
    agent: 'helper',
    localName: 'private',
  }),
  catalogTool('report__draft', {
    description: 'Skill private',
    placement: 'skill',
    skill: 'report',
    localName: 'draft',
  }),
  catalogTool('report__publish', {
    description: 'Skill private, masters only',
    placement: 'skill',
    skill: 'report',
    localName: 'publish',
    permissions: ['role(master)'],
  }),
];

const message = (adapter: string, scene: 'group' | 'private', user: string, roles: string[] = []): ImMessage => ({
  $adapter: adapter,
  $channel: { id: 'c1', type: scene },
  $sender: { id: user, ...(roles.length > 0 ? { role: roles } : {}) },
});

/** What the per-tool decision lists for this turn, as each provider's request would carry it. */
async function expected(turn: Turn) {
  const listing = await turn.deferred.listing();
  const loaded = listing.tools.filter((tool) => tool.state === 'loaded').map((tool) => tool.name);
  return {
    anthropic: listing.tools.map((tool) => [tool.name, tool.state === 'deferred']),
    openai: loaded,
    all: listing.tools.map((tool) => tool.name),
  };
}

async function actual(turn: Turn) {
  const anthropic = await turn.modelTools({ provider: 'anthropic' });
  return {
    anthropic: anthropic.map((tool) => [tool.name, tool.defer_loading === true]),
    openai: (await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name),
    generic: (await turn.modelTools({ provider: 'generic' })).map((tool) => tool.name),
    undeferred: (await turn.modelTools({ provider: 'openai', defer: false })).map((tool) => tool.function.name),
    anthropicUndeferred: (await turn.modelTools({ provider: 'anthropic', defer: false })).map((tool) => [
      tool.name,
      tool.defer_loading === true,
    ]),
  };
}

describe('turn lists reused across turns', () => {
  it('principals, scopes, agents and skills alternating on one generation each get exactly their own list', async () => {
    const vips = new Set<string>(['ann']);
    const permissions = new PermissionHost();
    // Live state: the answer for one user changes between turns.
    permissions.register('vip', (_permit, subject) => vips.has(String(subject.sender?.id)));
    const host = createCapabilityHost({ permissions });
    await host.load(
      manifest({
        tools,
        skills: [skill('report', { description: 'Write a report', tools: [] })],
        agents: [agent('helper')],
      }),
    );
    const inputs: TurnInput[] = [
      { sessionKey: 'ann', message: message('qq', 'group', 'ann', ['master']) },
      { sessionKey: 'bob', message: message('qq', 'private', 'bob') },
      { sessionKey: 'cid', message: message('discord', 'group', 'cid') },
      { sessionKey: 'sys' },
      { sessionKey: 'ann', message: message('qq', 'group', 'ann', ['master']), agent: 'helper' },
      { sessionKey: 'bob', message: message('qq', 'private', 'bob'), skills: ['report'] },
      { sessionKey: 'ann', message: message('qq', 'group', 'ann', ['master']), skills: ['report'] },
    ];
    const seen = new Map<string, string[]>();
    for (let round = 0; round < 3; round++) {
      // Round 1 revokes ann's VIP status, round 2 makes bob one: the cached lists must follow.
      if (round === 1) vips.delete('ann');
      if (round === 2) vips.add('bob');
      for (const input of inputs) {
        const turn = await host.beginTurn(input);
        const want = await expected(turn);
        const got = await actual(turn);
        expect(got.anthropic).toEqual([...want.anthropic]);
        expect(got.openai).toEqual(want.openai);
        expect(got.generic).toEqual(want.openai);
        expect(got.undeferred).toEqual(want.all);
        expect(got.anthropicUndeferred).toEqual(want.all.map((name) => [name, false]));
        for (const name of got.undeferred) expect(name).not.toBe('hidden-one');
        const key = `${round}:${JSON.stringify(input)}`;
        seen.set(key, got.undeferred);
        await turn.end();
      }
    }
    const list = (round: number, index: number) => seen.get(`${round}:${JSON.stringify(inputs[index])}`)!;
    // Spot checks that the oracle itself distinguishes the principals.
    expect(list(0, 0)).toContain('master-only');
    expect(list(0, 0)).toContain('vip-only');
    expect(list(1, 0)).not.toContain('vip-only');
    expect(list(0, 1)).not.toContain('master-only');
    expect(list(0, 1)).not.toContain('group-only');
    expect(list(1, 1)).not.toContain('vip-only');
    expect(list(2, 1)).toContain('vip-only');
    expect(list(0, 2)).not.toContain('qq-only');
    expect(list(0, 3)).toEqual(['discover', 'load_tool', 'load_skill', 'open-a', 'open-b']);
    expect(list(0, 4)).toContain('helper__private');
    expect(list(0, 0)).not.toContain('helper__private');
    expect(list(0, 5)).toContain('report__draft');
    expect(list(0, 5)).not.toContain('report__publish');
    expect(list(0, 6)).toContain('report__publish');
    await host.close();
  });

  it('a skill loaded mid-turn and tools loaded by load_tool change the next list of the same turn', async () => {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(
      manifest({ tools, skills: [skill('report', { description: 'Write a report', tools: ['report__draft'] })] }),
    );
    const first = await host.beginTurn({ sessionKey: 'x', message: message('qq', 'group', 'ann', ['master']) });
    const before = (await first.modelTools({ provider: 'anthropic' })).map((tool) => tool.name);
    expect(before).not.toContain('report__draft');
    await first.execute('load_skill', { name: 'report' });
    await first.execute('load_tool', { name: 'open-b' });
    const after = await first.modelTools({ provider: 'anthropic' });
    expect(after.map((tool) => [tool.name, tool.defer_loading === true])).toEqual((await expected(first)).anthropic);
    expect(after.find((tool) => tool.name === 'report__draft')?.defer_loading).toBeUndefined();
    expect(after.find((tool) => tool.name === 'open-b')?.defer_loading).toBeUndefined();
    expect(after.find((tool) => tool.name === 'open-a')?.defer_loading).toBe(true);
    // A turn of another session on the same scope shares the list but not the loaded state.
    const other = await host.beginTurn({ sessionKey: 'y', message: message('qq', 'group', 'ann', ['master']) });
    const theirs = await other.modelTools({ provider: 'anthropic' });
    expect(theirs.find((tool) => tool.name === 'open-b')?.defer_loading).toBe(true);
    expect(theirs.map((tool) => tool.name)).not.toContain('report__draft');
    // Arrays handed out are the caller's: changing one never reaches another turn.
    theirs.length = 0;
    expect((await other.modelTools({ provider: 'anthropic' })).length).toBe(before.length);
    await first.end();
    await other.end();
    await host.close();
  });

  it('an Anthropic request never carries more than the provider limit: meta and loaded tools stay, the last deferred ones are left out and recorded', async () => {
    const many = Array.from({ length: 10_050 }, (_, i) => catalogTool(`bulk-${String(i).padStart(5, '0')}`));
    const host = createCapabilityHost();
    await host.load(manifest({ tools: many }));
    const turn = await host.beginTurn({ sessionKey: 'big' });
    for (const name of ['bulk-10049', 'bulk-10040', 'bulk-00007']) await turn.execute('load_tool', { name });
    const sent = await turn.modelTools({ provider: 'anthropic' });
    expect(sent).toHaveLength(10_000);
    const names = sent.map((tool) => tool.name);
    expect(names.slice(0, 3)).toEqual(['discover', 'load_tool', 'load_skill']);
    for (const name of ['bulk-10049', 'bulk-10040', 'bulk-00007']) {
      expect(names).toContain(name);
      expect(sent.find((tool) => tool.name === name)?.defer_loading).toBeUndefined();
    }
    // Deferred tools are kept in catalog order: the cut falls on the last ones, loaded ones excepted.
    const deferred = names.filter(
      (name) => name.startsWith('bulk-') && !['bulk-10049', 'bulk-10040', 'bulk-00007'].includes(name),
    );
    expect(deferred[0]).toBe('bulk-00000');
    expect(deferred.at(-1)).toBe('bulk-09994');
    expect(names).not.toContain('bulk-09995');
    const recorded = turn.diagnostics.filter((entry) => entry.source === 'catalog');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.message).toContain('left out 53: bulk-09995, bulk-09996');
    // Asking again records nothing new; deferral off is capped too.
    await turn.modelTools({ provider: 'anthropic' });
    expect(turn.diagnostics.filter((entry) => entry.source === 'catalog')).toHaveLength(1);
    expect(await turn.modelTools({ provider: 'anthropic', defer: false })).toHaveLength(10_000);
    await turn.end();
    await host.close();
  });

  it('discover after the turn listed its tools (the list is its mask) finds what it finds before any listing, skills included', async () => {
    const queries = ['open tool', 'only', 'report', 'write a report', 'forecast', 'masters', 'skill private', 'agent'];
    const found = async (input: TurnInput) => {
      // A fresh generation: its scope is unlisted until a turn lists it.
      const host = createCapabilityHost({ permissions: new PermissionHost() });
      await host.load(
        manifest({
          tools,
          skills: [
            skill('report', { description: 'Write a report', tools: ['report__draft'] }),
            skill('forecast', { description: 'Open tool forecasts', permissions: ['role(master)'] }),
          ],
          agents: [agent('helper')],
        }),
      );
      const pass = async (listFirst: boolean) => {
        const out: string[][] = [];
        for (const query of queries) {
          const turn = await host.beginTurn(input);
          if (listFirst) await turn.modelTools({ provider: 'anthropic' });
          const outcome = await turn.execute('discover', { query });
          await turn.end();
          const { results } = (outcome as { output: { results: { name: string; kind: string }[] } }).output;
          out.push(results.map((hit) => `${hit.kind}:${hit.name}`));
        }
        return out;
      };
      const unmasked = await pass(false);
      const masked = await pass(true);
      await host.close();
      return { unmasked, masked };
    };
    const member = await found({ sessionKey: 'm', message: message('qq', 'group', 'ann') });
    const master = await found({ sessionKey: 'b', message: message('qq', 'private', 'bob', ['master']) });
    for (const { unmasked, masked } of [member, master]) {
      expect(unmasked.flat()).toContain('skill:report');
      expect(masked).toEqual(unmasked);
    }
    expect(master.masked.flat()).toContain('skill:forecast');
    expect(member.masked.flat()).not.toContain('skill:forecast');
    expect(member.masked.flat()).not.toContain('tool:master-only');
    expect(master.masked.flat()).toContain('tool:master-only');
  });

  it('discover ranks only what the turn lists: the best matches of another agent or of masters never crowd out the listed ones', async () => {
    const weather = (name: string, meta: Parameters<typeof catalogTool>[1] = {}) =>
      catalogTool(name, { description: `weather weather forecast ${name}`, ...meta });
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(
      manifest({
        // Matches that a plain member turn does not list: another agent's tools, masters' tools.
        tools: [
          ...Array.from({ length: 30 }, (_, i) =>
            catalogTool(`helper__weather-${i}`, {
              description: 'weather',
              placement: 'agent',
              agent: 'helper',
              localName: `weather-${i}`,
            }),
          ),
          ...Array.from({ length: 30 }, (_, i) =>
            catalogTool(`boss-weather-${i}`, { description: 'weather', permissions: ['role(master)'] }),
          ),
          weather('weather-a'),
          weather('weather-b'),
          weather('weather-c', { permissions: ['role(master)'] }),
        ],
        agents: [agent('helper')],
      }),
    );
    const member = message('qq', 'group', 'ann');
    const master = message('qq', 'group', 'bob', ['master']);
    const found = async (input: TurnInput, listFirst: boolean) => {
      const turn = await host.beginTurn(input);
      if (listFirst) await turn.modelTools({ provider: 'anthropic' });
      const outcome = await turn.execute('discover', { query: 'weather' });
      await turn.end();
      return (outcome as { output: { results: { name: string }[] } }).output.results.map((hit) => hit.name);
    };
    for (const listFirst of [false, true, false, true]) {
      expect(await found({ sessionKey: 'm', message: member }, listFirst)).toEqual(['weather-a', 'weather-b']);
      expect(await found({ sessionKey: 'b', message: master }, listFirst)).toEqual([
        'weather-a',
        'weather-b',
        'weather-c',
        'boss-weather-0',
        'boss-weather-1',
      ]);
    }
    await host.close();
  });

  it('the cut found from the undeferred positions keeps exactly what keeping every undeferred tool and the first deferred ones keeps', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 12; round++) {
      const length = ANTHROPIC_MAX_TOOLS + 1 + Math.floor(next() * 3000);
      const share = [0, 0.001, 0.05, 0.5, 1][round % 5]!;
      const tools: AnthropicModelTool[] = Array.from({ length }, (_, i) => ({
        name: `t${i}`,
        description: '',
        input_schema: { type: 'object' },
        ...(next() < share ? {} : { defer_loading: true as const }),
      }));
      const undeferred = tools.flatMap((tool, i) => (tool.defer_loading ? [] : [i]));
      let room = ANTHROPIC_MAX_TOOLS - undeferred.length;
      const expected = tools.filter((tool) => !tool.defer_loading || room-- > 0).slice(0, ANTHROPIC_MAX_TOOLS);
      const cut = capAnthropicTools(tools, undeferred);
      expect(cut.kept.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
      expect(cut.droppedCount).toBe(length - expected.length);
      const left = new Set(expected);
      expect(cut.firstDropped).toEqual(
        tools
          .filter((tool) => !left.has(tool))
          .slice(0, 20)
          .map((tool) => tool.name),
      );
    }
  });
});
