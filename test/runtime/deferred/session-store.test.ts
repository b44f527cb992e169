/**
 * Loaded state per session (docs/catalog.md): the snapshot store, LRU eviction, always-loaded tools,
 * pruning of vanished capabilities, isolation of concurrent turns and of forks.
 */
import { describe, expect, it } from 'vitest';
import {
  PermissionHost,
  createCapabilityHost,
  createMemorySessionStore,
  type DeferredToolSessionSnapshot,
  type DeferredToolSessionStore,
  type HostConfig,
} from '../../../runtime/index.js';
import { agent, im, manifest, skill } from '../fixture.js';
import { catalogTool, manualClock, output } from './fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const many = Array.from({ length: 6 }, (_, i) => catalogTool(`t${i}`, { description: `numbered tool ${i}` }));
const config = (deferredTools: Record<string, unknown>): HostConfig => ({ deferredTools });

function recordingStore(): DeferredToolSessionStore & {
  writes: DeferredToolSessionSnapshot[];
  data: Map<string, DeferredToolSessionSnapshot>;
} {
  const data = new Map<string, DeferredToolSessionSnapshot>();
  const writes: DeferredToolSessionSnapshot[] = [];
  return {
    data,
    writes,
    // Async on purpose: hosts persist to databases.
    get: async (key) => data.get(key),
    set: async (key, snapshot) => {
      writes.push(snapshot);
      data.set(key, snapshot);
    },
  };
}

describe('session snapshots', () => {
  it('persists when a turn loads something, and the next turn of the session starts from it', async () => {
    const clock = manualClock();
    const sessions = recordingStore();
    const host = createCapabilityHost({ sessions, clock: clock.now });
    await host.load(manifest({ tools: many, skills: [skill('pack', { tools: ['t4', 't5'] })] }));
    const first = await host.beginTurn({ sessionKey: 'chat' });
    await first.execute('discover', { query: 'numbered' });
    expect(sessions.writes).toEqual([]); // discovering loads nothing
    await first.execute('load_tool', { name: 't1' });
    clock.advance(10);
    await first.execute('load_skill', { name: 'pack' });
    await first.end();
    expect(sessions.data.get('chat')).toEqual({
      loadedTools: { t1: 1_000_000, t4: 1_000_010, t5: 1_000_011 },
      loadedSkills: ['pack'],
    });

    const second = await host.beginTurn({ sessionKey: 'chat' });
    expect(second.activeSkills.has('pack')).toBe(true);
    expect((await second.modelTools({ provider: 'generic' })).map((tool) => tool.name)).toEqual([
      'discover',
      'load_tool',
      'load_skill',
      't1',
      't4',
      't5',
    ]);
    const other = await host.beginTurn({ sessionKey: 'other-chat' });
    expect((await other.modelTools({ provider: 'generic' })).map((tool) => tool.name)).toEqual([
      'discover',
      'load_tool',
      'load_skill',
    ]);
    await Promise.all([second.end(), other.end()]);
  });

  it('evicts the least recently used tool above maxLoadedPerSession; a use refreshes a tool', async () => {
    const clock = manualClock();
    const sessions = createMemorySessionStore();
    const host = createCapabilityHost({
      sessions,
      clock: clock.now,
      config: config({ maxLoadedPerSession: 3 }),
      jsonSchemaValidator: ajvValidator(),
    });
    await host.load(manifest({ tools: many }));
    const turn = await host.beginTurn({ sessionKey: 'chat' });
    for (const name of ['t0', 't1', 't2']) {
      await turn.execute('load_tool', { name });
      clock.advance(5);
    }
    await turn.execute('t0', {}); // touch: t0 is now the most recent
    clock.advance(5);
    await turn.execute('load_tool', { name: 't3' }); // evicts t1 (oldest), not t0
    expect(Object.keys(turn.deferred.snapshot().loadedTools).sort()).toEqual(['t0', 't2', 't3']);
    clock.advance(5);
    await turn.execute('load_tool', { name: 't4' }); // evicts t2
    expect(Object.keys(turn.deferred.snapshot().loadedTools).sort()).toEqual(['t0', 't3', 't4']);
    await turn.end();
    // The touch of t0 was flushed at the end of the turn. The store evicts nothing for the bound
    // (a session may be shared by principals who see other tools): the next turn's set is the newest three.
    const stored = await sessions.get('chat');
    expect(Object.keys(stored!.loadedTools).sort()).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(stored!.loadedTools.t0).toBeGreaterThan(stored!.loadedTools.t2 ?? 0);
    const next = await host.beginTurn({ sessionKey: 'chat' });
    expect(Object.keys(next.deferred.snapshot().loadedTools).sort()).toEqual(['t0', 't3', 't4']);
    await next.end();
  });

  it('principals sharing a session: tools one may not list never count against, evict or hint to the other', async () => {
    const clock = manualClock();
    const sessions = createMemorySessionStore();
    const host = createCapabilityHost({
      sessions,
      clock: clock.now,
      permissions: new PermissionHost(),
      config: config({ maxLoadedPerSession: 2 }),
    });
    const secret = ['s0', 's1', 's2'].map((name) => catalogTool(name, { permissions: ['role(master)'] }));
    await host.load(manifest({ tools: [...many, ...secret] }));
    const turnOf = async (role: string | undefined, load: readonly string[]) => {
      clock.advance(10);
      const turn = await host.beginTurn({ sessionKey: 'qq:group:1', message: im({ role }) });
      for (const name of load) await turn.execute('load_tool', { name });
      const names = (await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name);
      await turn.end();
      return names.filter((name) => !['discover', 'load_tool', 'load_skill'].includes(name));
    };
    expect(await turnOf(undefined, ['t0'])).toEqual(['t0']);
    // The master loads three tools the user may not see: the master's set is the newest two.
    expect(await turnOf('master', ['s0', 's1', 's2'])).toEqual(['s1', 's2']);
    // The user's set is as if they had not: t0 stays, nothing tells the user of the master's loads.
    expect(await turnOf(undefined, [])).toEqual(['t0']);
    expect(await turnOf(undefined, ['t1'])).toEqual(['t0', 't1']);
    // A tool both may list is shared: the user's newer load is in the master's set.
    expect(await turnOf('master', [])).toEqual(['s2', 't1']);
    // The user loads a third tool: their own oldest leaves their set; nothing leaves the store.
    expect(await turnOf(undefined, ['t2'])).toEqual(['t1', 't2']);
    const stored = Object.keys((await sessions.get('qq:group:1'))!.loadedTools).sort();
    expect(stored).toEqual(['s0', 's1', 's2', 't0', 't1', 't2']);
    expect(await turnOf('master', [])).toEqual(['t1', 't2']);
  });

  it("a shared session's snapshot and the turn a host sees never name what another principal loaded", async () => {
    const host = createCapabilityHost({
      sessions: createMemorySessionStore(),
      permissions: new PermissionHost(),
      config: config({ maxLoadedPerSession: 4 }),
    });
    const admin = { permissions: ['role(master)'] };
    await host.load(
      manifest({
        tools: [...many, catalogTool('vault__open', { placement: 'skill', skill: 'vault', ...admin })],
        skills: [skill('vault', { tools: ['vault__open'], ...admin }), skill('pack', { tools: ['t4'] })],
      }),
    );
    const master = await host.beginTurn({ sessionKey: 'qq:group:7', message: im({ role: 'master' }) });
    await master.execute('load_skill', { name: 'vault' });
    await master.execute('load_skill', { name: 'pack' });
    await master.execute('load_tool', { name: 't0' });
    expect(master.deferred.snapshot().loadedSkills).toEqual(['vault', 'pack']);
    await master.end();

    const member = await host.beginTurn({ sessionKey: 'qq:group:7', message: im({}) });
    const seen = member.deferred.snapshot();
    expect(seen.loadedSkills).toEqual(['pack']);
    expect(Object.keys(seen.loadedTools).sort()).toEqual(['t0', 't4']);
    // Nothing of the controller a host holds names the master's loads (a fork's seed is the turn's own).
    expect(JSON.stringify(Object.keys(member.deferred))).not.toContain('fork');
    const fork = await member.fork({});
    expect(fork.deferred.snapshot().loadedSkills).toEqual(['pack']);
    expect(fork.deferred.isLoaded('vault__open')).toBe(false);
    await member.end();
  });

  it('always-loaded tools are not counted, never evicted and never stored', async () => {
    const host = createCapabilityHost({
      config: config({ maxLoadedPerSession: 1, alwaysLoadedTools: ['discover', 'load_tool', 't0'] }),
    });
    await host.load(manifest({ tools: many }));
    const turn = await host.beginTurn({ sessionKey: 'chat' });
    await turn.execute('load_tool', { name: 't0' });
    await turn.execute('load_tool', { name: 't1' });
    await turn.execute('load_tool', { name: 't2' });
    expect(turn.deferred.snapshot().loadedTools).toEqual({ t2: expect.any(Number) });
    expect((await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name)).toEqual([
      'discover',
      'load_tool',
      't0',
      't2',
    ]);
    await turn.end();
  });

  it('drops snapshot entries whose capability no longer exists in the current generation', async () => {
    const sessions = createMemorySessionStore();
    await sessions.set('chat', { loadedTools: { t1: 5, gone: 9, discover: 3 }, loadedSkills: ['pack', 'vanished'] });
    const host = createCapabilityHost({ sessions });
    await host.load(manifest({ tools: many, skills: [skill('pack', { tools: ['t5'] })] }));
    const turn = await host.beginTurn({ sessionKey: 'chat' });
    expect(turn.deferred.snapshot()).toEqual({ loadedTools: { t1: 5 }, loadedSkills: ['pack'] });
    expect([...turn.activeSkills]).toEqual(['pack']);
    await turn.execute('load_tool', { name: 't2' });
    await turn.end();
    const stored = await sessions.get('chat');
    expect(Object.keys(stored!.loadedTools).sort()).toEqual(['t1', 't2']);
    expect(stored!.loadedSkills).toEqual(['pack']);
  });

  it('a tool removed by a new generation disappears from the next turn of the session', async () => {
    const sessions = createMemorySessionStore();
    const host = createCapabilityHost({ sessions });
    await host.load(manifest({ tools: many }));
    const before = await host.beginTurn({ sessionKey: 'chat' });
    await before.execute('load_tool', { name: 't3' });
    await before.end();
    await host.load(manifest({ tools: many.filter((tool) => tool.qualifiedName !== 't3') }));
    const after = await host.beginTurn({ sessionKey: 'chat' });
    expect(after.deferred.snapshot().loadedTools).toEqual({});
    expect((await after.modelTools({ provider: 'openai' })).map((tool) => tool.function.name)).not.toContain('t3');
    await after.end();
  });

  it('two turns of one session do not see each other’s in-flight loads; both loads are kept', async () => {
    const sessions = createMemorySessionStore();
    const host = createCapabilityHost({ sessions });
    await host.load(manifest({ tools: many }));
    const a = await host.beginTurn({ sessionKey: 'chat' });
    const b = await host.beginTurn({ sessionKey: 'chat' });
    await a.execute('load_tool', { name: 't1' });
    await b.execute('load_tool', { name: 't2' });
    expect(a.deferred.isLoaded('t2')).toBe(false);
    expect(b.deferred.isLoaded('t1')).toBe(false);
    await Promise.all([a.end(), b.end()]);
    expect(Object.keys((await sessions.get('chat'))!.loadedTools).sort()).toEqual(['t1', 't2']);
  });

  it('a fork starts from a copy of the parent state; its loads never reach the parent or the session', async () => {
    const sessions = recordingStore();
    const host = createCapabilityHost({ sessions });
    await host.load(
      manifest({
        tools: [...many, catalogTool('reviewer__check', { placement: 'agent', agent: 'reviewer' })],
        agents: [agent('reviewer')],
      }),
    );
    const parent = await host.beginTurn({ sessionKey: 'chat' });
    await parent.execute('load_tool', { name: 't1' });
    const writes = sessions.writes.length;
    const child = await parent.fork({ agent: 'reviewer' });
    expect(child.agent).toBe('reviewer');
    expect(child.sessionKey).toBe('chat');
    expect(child.deferred.isLoaded('t1')).toBe(true);
    await child.execute('load_tool', { name: 't2' });
    await child.execute('load_tool', { name: 'reviewer__check' });
    expect(child.deferred.isLoaded('t2')).toBe(true);
    expect(parent.deferred.isLoaded('t2')).toBe(false);
    await parent.execute('load_tool', { name: 't3' });
    expect(child.deferred.isLoaded('t3')).toBe(false);
    // The parent cannot run the subagent's private tool.
    expect(await parent.execute('reviewer__check', {})).toMatchObject({ status: 'denied' });
    await parent.end(); // ends the fork too
    expect(child.state).toBe('ended');
    expect(sessions.writes.length).toBe(writes + 1);
    expect(Object.keys((await sessions.get('chat'))!.loadedTools).sort()).toEqual(['t1', 't3']);
    expect(host.current?.leases).toBe(0);
  });

  it("a session value lost during a turn (an expired key, a reset) is written back with the turn's set", async () => {
    const clock = manualClock();
    const sessions = recordingStore();
    const host = createCapabilityHost({ sessions, clock: clock.now, jsonSchemaValidator: ajvValidator() });
    await host.load(manifest({ tools: many }));
    const first = await host.beginTurn({ sessionKey: 'chat' });
    for (const name of ['t0', 't1', 't2']) await first.execute('load_tool', { name });
    await first.end();
    const second = await host.beginTurn({ sessionKey: 'chat' });
    sessions.data.delete('chat');
    clock.advance(5);
    await second.execute('t1', {}); // a use: written at the end
    await second.end();
    const third = await host.beginTurn({ sessionKey: 'chat' });
    expect(Object.keys(third.deferred.snapshot().loadedTools).sort()).toEqual(['t0', 't1', 't2']);
    await third.end();
  });

  it("a stored tool the turn pins (its agent's tools) takes no slot of the loaded set", async () => {
    const host = createCapabilityHost({ config: config({ maxLoadedPerSession: 2 }) });
    await host.load(manifest({ tools: many, agents: [agent('helper', { tools: ['t0'] })] }));
    const plain = await host.beginTurn({ sessionKey: 'chat' });
    for (const name of ['t1', 't2', 't0']) await plain.execute('load_tool', { name });
    await plain.end();
    const withAgent = await host.beginTurn({ sessionKey: 'chat', agent: 'helper' });
    expect(Object.keys(withAgent.deferred.snapshot().loadedTools).sort()).toEqual(['t1', 't2']);
    expect(['t0', 't1', 't2'].map((name) => withAgent.deferred.isLoaded(name))).toEqual([true, true, true]);
    await withAgent.end();
  });

  it('a failing store is reported, never fails the turn', async () => {
    const errors: string[] = [];
    const host = createCapabilityHost({
      onError: (error) => errors.push(error.message),
      sessions: {
        get: () => Promise.reject(new Error('db down')),
        set: () => Promise.reject(new Error('db still down')),
      },
    });
    await host.load(manifest({ tools: many }));
    const turn = await host.beginTurn({ sessionKey: 'chat' });
    expect(output<{ loaded: string[] }>(await turn.execute('load_tool', { name: 't1' })).loaded).toEqual(['t1']);
    await turn.end();
    expect(errors).toEqual([
      'deferred tools: reading session "chat" failed: db down',
      'deferred tools: writing session "chat" failed: db down',
    ]);
  });
});
