import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PermissionHost, createCapabilityHost, type JournalEntry } from '../../../runtime/index.js';
import { Fixture, agent, events, im, loadedModules, manifest, resetGlobals, skill } from '../fixture.js';

const fx = new Fixture('hooks');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const types = (journal: readonly JournalEntry[]) => journal.map((entry) => entry.type);
const plain = fx.toolModule('plain');

function hookModule(name: string, handle: string): string {
  return fx.write(
    `hooks/${name}/index.ts`,
    `import { defineAgentHook } from 'RUNTIME';
(globalThis.__loaded ??= []).push('hook:${name}');
export default defineAgentHook({
  events: ['tool:before', 'tool:after'],
  async handle(event) {
    (globalThis.__events ??= []).push('${name}:' + event.event + ':' + event.toolName + (event.outcome ? ':' + event.outcome.status : ''));
    ${handle}
  },
});`,
  );
}

const audit = hookModule('audit', '');
const guard = hookModule(
  'guard',
  `if (event.event === 'tool:before' && event.input && event.input.danger) return { veto: 'dangerous input' };`,
);
const crashing = hookModule('crashing', `if (event.event === 'tool:before') throw new Error('hook bug');`);
const afterCrash = hookModule('after-crash', `if (event.event === 'tool:after') throw new Error('after bug');`);

describe('tool hooks', () => {
  it('a plugin hook observes before and after, and is imported lazily', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('plain', plain)], hooks: [fx.hook(':plugin::audit', audit)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(loadedModules()).toEqual([]);
    await turn.execute('plain', {});
    expect(events()).toEqual(['audit:tool:before:plain', 'execute:plain', 'audit:tool:after:plain:completed']);
    await turn.end();
  });

  it('tool:before veto → tool_denied with policy hook; the tool never runs', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('plain', plain)], hooks: [fx.hook(':plugin::guard', guard)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('plain', { danger: true });
    expect(outcome).toEqual({
      status: 'denied',
      policy: 'hook',
      reason: 'vetoed by hook :plugin::guard: dangerous input',
    });
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_denied']);
    expect(events()).toEqual(['guard:tool:before:plain', 'guard:tool:after:plain:denied']);
    expect(await turn.execute('plain', { danger: false })).toMatchObject({ status: 'completed' });
    await turn.end();
  });

  it('a veto comes before approval: nobody is asked for a vetoed call', async () => {
    let asked = 0;
    const host = createCapabilityHost({ approval: { requestApproval: async () => ++asked > 0 } });
    await host.load(
      manifest({
        tools: [fx.tool('plain', plain, { requiresApproval: 'always' })],
        hooks: [fx.hook(':plugin::guard', guard)],
      }),
    );
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('plain', { danger: true })).toMatchObject({ status: 'denied', policy: 'hook' });
    expect(asked).toBe(0);
    await turn.end();
  });

  it('a throwing tool:before hook fails closed; a throwing tool:after hook is only reported', async () => {
    const errors: string[] = [];
    const host = createCapabilityHost({ onError: (error) => void errors.push(error.message) });
    await host.load(manifest({ tools: [fx.tool('plain', plain)], hooks: [fx.hook(':plugin::crashing', crashing)] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('plain', {})).toEqual({
      status: 'denied',
      policy: 'hook',
      reason: 'hook :plugin::crashing failed: hook bug',
    });
    await turn.end();
    await host.load(
      manifest({ tools: [fx.tool('plain', plain)], hooks: [fx.hook(':plugin::after-crash', afterCrash)] }),
    );
    const next = await host.beginTurn({ sessionKey: 's' });
    expect(await next.execute('plain', {})).toMatchObject({ status: 'completed' });
    expect(errors).toEqual(['tool:after hook :plugin::after-crash failed: after bug']);
    await next.end();
  });

  it('hooks never run for unknown or inaccessible tools', async () => {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(
      manifest({
        tools: [fx.tool('secret', plain, { permissions: ['role(master)'] })],
        hooks: [fx.hook(':plugin::audit', audit)],
      }),
    );
    const turn = await host.beginTurn({ sessionKey: 's', message: im() });
    await turn.execute('secret', {});
    await turn.execute('nope', {});
    expect(events()).toEqual([]);
    await turn.end();
  });
});

describe('agent and skill scope', () => {
  function scopedManifest() {
    return manifest({
      tools: [
        fx.tool('plain', plain),
        fx.tool('reviewer__check', plain, { placement: 'agent', agent: 'reviewer', localName: 'check' }),
        fx.tool('short-url__normalize', plain, { placement: 'skill', skill: 'short-url', localName: 'normalize' }),
        fx.tool('review__mark', plain, {
          placement: 'agent-skill',
          agent: 'reviewer',
          skill: 'review',
          localName: 'mark',
        }),
      ],
      agents: [agent('reviewer'), agent('writer')],
      skills: [
        skill('short-url', { tools: ['short-url__normalize'] }),
        skill('reviewer__review', { name: 'review', agent: 'reviewer', tools: ['review__mark'] }),
        skill('admin-only', { permissions: ['role(master)'] }),
      ],
      hooks: [
        fx.hook(':agent:reviewer:audit', audit, { placement: 'agent', agent: 'reviewer' }),
        fx.hook(':skill:short-url:guard', guard, { placement: 'skill', skill: 'short-url' }),
      ],
    });
  }

  it('agent-private tools and hooks exist only when their agent is selected', async () => {
    const host = createCapabilityHost();
    await host.load(scopedManifest());
    const none = await host.beginTurn({ sessionKey: 's' });
    const writer = await host.beginTurn({ sessionKey: 's', agent: 'writer' });
    const reviewer = await host.beginTurn({ sessionKey: 's', agent: 'reviewer' });
    for (const turn of [none, writer]) {
      expect(await turn.execute('reviewer__check', {})).toEqual({
        status: 'denied',
        policy: 'capability',
        reason: 'tool "reviewer__check" is not available',
      });
      await turn.execute('plain', {});
    }
    expect(events()).toEqual(['execute:plain', 'execute:plain']);
    expect(await reviewer.execute('reviewer__check', {})).toMatchObject({ status: 'completed' });
    expect(events().slice(2)).toEqual([
      'audit:tool:before:reviewer__check',
      'execute:plain',
      'audit:tool:after:reviewer__check:completed',
    ]);
    expect((await none.admittedTools()).map((tool) => tool.qualifiedName).sort()).toEqual(['ask_user', 'plain']);
    await Promise.all([none.end(), writer.end(), reviewer.end()]);
  });

  it('skill-private tools and hooks join when the skill is activated', async () => {
    const host = createCapabilityHost();
    await host.load(scopedManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('short-url__normalize', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(await turn.activateSkill('short-url')).toBe(true);
    expect([...turn.activeSkills]).toEqual(['short-url']);
    expect(await turn.execute('short-url__normalize', {})).toMatchObject({ status: 'completed' });
    expect(await turn.execute('plain', { danger: true })).toMatchObject({ status: 'denied', policy: 'hook' });
    await turn.end();
  });

  it('agent-skill tools need the agent selected and its skill active; inaccessible skills do not activate', async () => {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(scopedManifest());
    const plainTurn = await host.beginTurn({ sessionKey: 's', message: im() });
    expect(await plainTurn.activateSkill('reviewer__review')).toBe(false);
    expect(await plainTurn.activateSkill('admin-only')).toBe(false);
    expect(await plainTurn.activateSkill('missing')).toBe(false);
    const reviewer = await host.beginTurn({ sessionKey: 's', agent: 'reviewer', skills: ['reviewer__review', 'gone'] });
    expect([...reviewer.activeSkills]).toEqual(['reviewer__review']);
    expect(await reviewer.execute('review__mark', {})).toMatchObject({ status: 'completed' });
    const master = await host.beginTurn({ sessionKey: 's', message: im({ role: 'master' }) });
    expect(await master.activateSkill('admin-only')).toBe(true);
    await Promise.all([plainTurn.end(), reviewer.end(), master.end()]);
  });
});
