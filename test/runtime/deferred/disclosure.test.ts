/**
 * Disclosure (docs/catalog.md): what exists for the model in a turn, on
 * hand-built manifests. Every list, search result and error message is checked for leaks.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentUnavailableError,
  AgentRoutingError,
  PermissionHost,
  createCapabilityHost,
  type DiscoverOutput,
  type LoadSkillOutput,
  type Turn,
} from '../../../runtime/index.js';
import { agent, im, manifest, skill } from '../fixture.js';
import { catalogTool, failure, output } from './fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const tools = [
  catalogTool('echo', { description: 'Echo a message back' }),
  catalogTool('shorten', { description: 'Shorten a long URL' }),
  catalogTool('weather', { description: 'Weather for a city', scopes: ['group'] }),
  catalogTool('secret', { description: 'Secret master tool', permissions: ['role(master)'] }),
  catalogTool('ghost', { description: 'Hidden maintenance tool', hidden: true }),
  catalogTool('qq-only', { description: 'Only on icqq', platforms: ['icqq'] }),
  catalogTool('reviewer__check', {
    placement: 'agent',
    agent: 'reviewer',
    description: 'Check a result (reviewer only)',
  }),
  catalogTool('review__deep', {
    placement: 'agent-skill',
    agent: 'reviewer',
    skill: 'review',
    description: 'Deep review check',
  }),
  catalogTool('admin__mute', {
    placement: 'agent-skill',
    agent: 'icqq',
    skill: 'admin',
    description: 'Mute a group member',
  }),
  catalogTool('short__normalize', { placement: 'skill', skill: 'short', description: 'Normalise a URL' }),
];
const skills = [
  skill('short', {
    description: 'Short links',
    tools: ['shorten', 'short__normalize'],
    instructions: '# Short\nNormalise, then shorten.',
  }),
  skill('reviewer__review', {
    agent: 'reviewer',
    description: 'Review workflow',
    tools: ['review__deep'],
    instructions: '# Review',
  }),
  skill('icqq__admin', {
    agent: 'icqq',
    description: 'Group administration',
    tools: ['admin__mute'],
    instructions: '# Admin',
  }),
  skill('master-only', { description: 'Master skill', permissions: ['role(master)'] }),
];
const agents = [
  agent('reviewer', { tools: ['echo'] }),
  agent('icqq', { platforms: ['icqq'], description: 'QQ platform agent' }),
];
const bot = () => manifest({ tools, skills, agents });

async function hostFor(parts = bot()) {
  const host = createCapabilityHost({ permissions: new PermissionHost(), jsonSchemaValidator: ajvValidator() });
  await host.load(parts);
  return host;
}

async function listed(turn: Turn) {
  const listing = await turn.deferred.listing();
  return {
    tools: listing.tools.map((tool) => `${tool.name}:${tool.state}${tool.reason ? `:${tool.reason}` : ''}`),
    skills: listing.skills.map((entry) => entry.name),
    agents: listing.agents.map((entry) => entry.name),
  };
}

const discover = async (turn: Turn, query: string, kind?: 'tool' | 'skill' | 'all') =>
  output<DiscoverOutput>(await turn.execute('discover', { query, ...(kind ? { kind } : {}) })).results.map(
    (r) => `${r.kind}:${r.name}`,
  );

const ALL_NAMES = [...tools.map((tool) => tool.qualifiedName), ...skills.map((entry) => entry.qualifiedName)];
/** Every word of every name and description: a query set that would surface anything indexed. */
const PROBES = [
  ...new Set([...ALL_NAMES, ...tools.map((tool) => tool.description), ...skills.map((entry) => entry.description)]),
];

describe('start of a turn', () => {
  it('lists root tools, root skill summaries and agents, filtered by access and hidden', async () => {
    const host = await hostFor();
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord', type: 'group' }) });
    expect(turn.agent).toBeUndefined();
    expect(turn.agentSelection).toBe('none');
    expect(await listed(turn)).toEqual({
      tools: [
        'discover:loaded:meta',
        'load_tool:loaded:meta',
        'load_skill:loaded:meta',
        'echo:deferred',
        'shorten:deferred',
        'weather:deferred',
      ],
      skills: ['short'],
      // The icqq platform agent is not offered on discord.
      agents: ['reviewer'],
    });
    await turn.end();
  });

  it('a private-scene turn loses the group-only tool; a master gains the permit-guarded ones', async () => {
    const host = await hostFor();
    const privateTurn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord' }) });
    expect((await listed(privateTurn)).tools).not.toContain('weather:deferred');
    const master = await host.beginTurn({
      sessionKey: 's',
      message: im({ adapter: 'discord', type: 'group', role: 'master' }),
    });
    expect((await listed(master)).tools).toContain('secret:deferred');
    expect((await listed(master)).skills).toEqual(['master-only', 'short']);
    await Promise.all([privateTurn.end(), master.end()]);
  });

  it('ask_user is offered only to attended turns with a QuestionPort', async () => {
    const host = await hostFor();
    const question = { ask: async () => 'yes' };
    const withPort = await host.beginTurn({ sessionKey: 's', question });
    const noPort = await host.beginTurn({ sessionKey: 's' });
    const unattended = await host.beginTurn({ sessionKey: 's', question, unattended: true });
    const names = async (turn: Turn) =>
      (await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name);
    expect(await names(withPort)).toEqual(['discover', 'load_tool', 'load_skill', 'ask_user']);
    expect(await names(noPort)).toEqual(['discover', 'load_tool', 'load_skill']);
    expect(await names(unattended)).toEqual(['discover', 'load_tool', 'load_skill']);
    expect(await discover(noPort, 'ask the user a question')).not.toContain('tool:ask_user');
    expect(await discover(withPort, 'ask the user a question')).toContain('tool:ask_user');
    await Promise.all([withPort.end(), noPort.end(), unattended.end()]);
  });
});

describe('agent selection', () => {
  it('explicit selection adds private tools (deferred), agent.json tools (pinned) and private skill summaries', async () => {
    const host = await hostFor();
    const turn = await host.beginTurn({
      sessionKey: 's',
      message: im({ adapter: 'discord', type: 'group' }),
      agent: 'reviewer',
    });
    expect(turn.agentSelection).toBe('explicit');
    const view = await listed(turn);
    expect(view.tools).toEqual([
      'discover:loaded:meta',
      'load_tool:loaded:meta',
      'load_skill:loaded:meta',
      'echo:loaded:pinned',
      'reviewer__check:deferred',
      'shorten:deferred',
      'weather:deferred',
    ]);
    expect(view.skills).toEqual(['reviewer__review', 'short']);
    // The agent-skill tool stays undisclosed until the skill is loaded.
    expect(await discover(turn, 'deep review check')).not.toContain('tool:review__deep');
    await turn.end();
  });

  it('load_skill returns the instructions and unlocks the associated tools (loaded, executable)', async () => {
    const host = await hostFor();
    const turn = await host.beginTurn({ sessionKey: 's', agent: 'reviewer' });
    expect(await turn.execute('review__deep', {})).toMatchObject({
      status: 'denied',
      reason: 'tool "review__deep" is not available',
    });
    const loaded = output<LoadSkillOutput>(await turn.execute('load_skill', { name: 'reviewer__review' }));
    expect(loaded).toEqual({
      name: 'reviewer__review',
      description: 'Review workflow',
      instructions: '# Review',
      loaded: ['review__deep'],
    });
    expect(turn.activeSkills.has('reviewer__review')).toBe(true);
    expect(turn.deferred.isLoaded('review__deep')).toBe(true);
    expect((await listed(turn)).tools).toContain('review__deep:loaded:loaded');
    expect(await turn.execute('review__deep', {})).toMatchObject({ status: 'completed' });

    // A root skill: declared public tools and private tools, in that order.
    const short = output<LoadSkillOutput>(await turn.execute('load_skill', { name: 'short' }));
    expect(short.loaded).toEqual(['shorten', 'short__normalize']);
    expect(await turn.execute('short__normalize', {})).toMatchObject({ status: 'completed' });
    await turn.end();
  });

  it('auto-selects the platform agent; its private skill is invisible on another platform', async () => {
    const host = await hostFor();
    const qq = await host.beginTurn({ sessionKey: 'qq', message: im({ adapter: 'icqq', type: 'group' }) });
    expect(qq.agent).toBe('icqq');
    expect(qq.agentSelection).toBe('platform');
    expect((await listed(qq)).skills).toEqual(['icqq__admin', 'short']);
    expect(await discover(qq, 'group administration', 'skill')).toEqual(['skill:icqq__admin']);
    expect(output<LoadSkillOutput>(await qq.execute('load_skill', { name: 'icqq__admin' })).loaded).toEqual([
      'admin__mute',
    ]);

    const discord = await host.beginTurn({ sessionKey: 'dc', message: im({ adapter: 'discord', type: 'group' }) });
    expect(discord.agent).toBeUndefined();
    expect((await listed(discord)).skills).toEqual(['short']);
    expect(await discover(discord, 'group administration mute')).toEqual([]);
    const unknown = failure(await discord.execute('load_skill', { name: 'no-such-skill' }));
    expect(failure(await discord.execute('load_skill', { name: 'icqq__admin' }))).toBe(
      unknown.replace('no-such-skill', 'icqq__admin'),
    );
    // Not even an explicit selection makes it visible on discord.
    // And the error says no more than for an agent that does not exist (a host may relay it to
    // the user); why is in its fields, for the host's logs.
    const refused = await host
      .beginTurn({ sessionKey: 'dc', message: im({ adapter: 'discord' }), agent: 'icqq' })
      .catch((error: unknown) => error);
    const missing = await host
      .beginTurn({ sessionKey: 'dc', message: im({ adapter: 'discord' }), agent: 'ghost' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AgentUnavailableError);
    expect(missing).toBeInstanceOf(AgentUnavailableError);
    expect((refused as Error).message).toBe('agent "icqq" is not available for a "discord" turn');
    expect((refused as Error).message).toBe((missing as Error).message.replace('ghost', 'icqq'));
    expect(refused).toMatchObject({ reason: 'platform', adapter: 'discord', platforms: ['icqq'] });
    expect(missing).toMatchObject({ reason: 'unknown', adapter: 'discord', platforms: [] });
    // Non-IM turns never auto-select.
    const system = await host.beginTurn({ sessionKey: 'sys' });
    expect(system.agentSelection).toBe('none');
    await Promise.all([qq.end(), discord.end(), system.end()]);
  });

  it('two platform candidates: a routing error naming both; an explicit choice resolves it', async () => {
    const host = await hostFor(
      manifest({ agents: [agent('qq-a', { platforms: ['icqq'] }), agent('qq-b', { platforms: ['icqq', 'kook'] })] }),
    );
    const error = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'icqq' }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentRoutingError);
    expect((error as AgentRoutingError).candidates).toEqual(['qq-a', 'qq-b']);
    expect((error as Error).message).toContain('"qq-a", "qq-b"');
    const explicit = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'icqq' }), agent: 'qq-b' });
    expect(explicit.agent).toBe('qq-b');
    const kook = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'kook' }) });
    expect(kook.agent).toBe('qq-b');
    // The failed beginTurn released its lease: the generation is not held.
    await Promise.all([explicit.end(), kook.end()]);
    expect(host.current?.leases).toBe(0);
  });
});

describe('nothing private or inaccessible leaks', () => {
  it('discover never returns an undisclosed, inaccessible or hidden capability, whatever the query', async () => {
    const host = await hostFor();
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord', type: 'private' }) });
    const visible = new Set(['tool:echo', 'tool:shorten', 'skill:short']);
    for (const probe of PROBES) {
      for (const hit of await discover(turn, probe)) expect(visible, `probe "${probe}" returned ${hit}`).toContain(hit);
    }
    await turn.end();
  });

  it('load_tool / load_skill answer unknown, private, inaccessible and hidden names identically', async () => {
    const host = await hostFor();
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord', type: 'private' }) });
    const toolMessage = (name: string) => turn.execute('load_tool', { name }).then(failure);
    const unknown = await toolMessage('nope');
    expect(unknown).toBe('No tool named "nope" is available in this turn. Use discover to search for tools.');
    for (const name of [
      'reviewer__check',
      'review__deep',
      'admin__mute',
      'short__normalize',
      'secret',
      'weather',
      'qq-only',
      'ghost',
    ]) {
      expect(await toolMessage(name)).toBe(unknown.replace('"nope"', `"${name}"`));
    }
    const skillMessage = (name: string) => turn.execute('load_skill', { name }).then(failure);
    const unknownSkill = await skillMessage('nope');
    for (const name of ['reviewer__review', 'icqq__admin', 'master-only']) {
      expect(await skillMessage(name)).toBe(unknownSkill.replace('"nope"', `"${name}"`));
    }
    // Nothing about these names leaked into any journal entry either.
    expect(JSON.stringify(turn.journal)).not.toMatch(/agent|skill "|permission|hidden|platform/);
    await turn.end();
  });

  it('hidden tools are never listed, discovered or loadable, but run by name through the gates', async () => {
    const host = await hostFor();
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect((await turn.modelTools({ provider: 'anthropic' })).map((tool) => tool.name)).not.toContain('ghost');
    expect(await discover(turn, 'hidden maintenance ghost')).toEqual([]);
    expect(await turn.execute('ghost', {})).toMatchObject({ status: 'completed' });
    await turn.end();
  });
});
