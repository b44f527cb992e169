/**
 * The in-memory defaults and the fail-closed rules every store relies on: `once` approvals expire
 * and are revoked per session; an approval memory that fails means "not approved" (asked again,
 * denied when unattended) and is recorded on the turn; a memory that cannot remember never
 * fails the approved call; a session store that fails is recorded on the turn; a journal sink
 * sees the principal.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApprovalMemory,
  type ApprovalPort,
  createApprovalMemory,
  createCapabilityHost,
  createMemorySessionStore,
  type JournalTurnInfo,
} from '../../../runtime/index.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const deploy = catalogTool('deploy', { description: 'deploy', requiresApproval: 'once' });
const port = (): ApprovalPort & { asked: number } => {
  const self = {
    asked: 0,
    requestApproval: async () => {
      self.asked += 1;
      return true;
    },
  };
  return self;
};

describe('in-memory stores stay bounded on a long-running bot', () => {
  it('expired approvals are swept as more are given; past maxEntries the oldest given is asked again', () => {
    let now = 0;
    const memory = createApprovalMemory({ ttlMs: 10, clock: () => now });
    for (let i = 0; i < 5_000; i++) {
      now = i; // one-off sessions, each approving once
      memory.remember(`chat${i}:deploy`);
    }
    // Never more than twice what the last sweep left, nowhere near 5,000.
    expect(memory.size).toBeLessThan(2_048);
    expect(memory.has('chat4999:deploy')).toBe(true);

    const bounded = createApprovalMemory({ maxEntries: 3 });
    for (const chat of ['a', 'b', 'c', 'a', 'd']) bounded.remember(`${chat}:deploy`);
    // `a` given again moved it last: `b` was the oldest given.
    expect(['a', 'b', 'c', 'd'].map((chat) => bounded.has(`${chat}:deploy`))).toEqual([true, false, true, true]);
    expect(() => createApprovalMemory({ maxEntries: 0 })).toThrow('maxEntries must be an integer ≥ 1');
  });

  it('the session store forgets the least recently used session past maxSessions', async () => {
    const sessions = createMemorySessionStore({ maxSessions: 2 });
    for (const key of ['a', 'b']) await sessions.set(key, { loadedTools: { echo: 1 }, loadedSkills: [] });
    await sessions.get('a'); // used: b is now the least recent
    await sessions.merge!('c', { tools: { echo: 2 }, skills: [], drop: [] });
    expect([await sessions.get('a'), await sessions.get('b'), await sessions.get('c')].map(Boolean)).toEqual([
      true,
      false,
      true,
    ]);
    expect(sessions.size).toBe(2);
    expect(createMemorySessionStore().size).toBe(0);
    expect(() => createMemorySessionStore({ maxSessions: 1.5 })).toThrow('maxSessions must be an integer ≥ 1');
  });
});

describe('in-memory approvals', () => {
  it('expire after ttlMs and are revoked per session', () => {
    let now = 0;
    const memory = createApprovalMemory({ ttlMs: 100, clock: () => now });
    memory.remember('a:deploy');
    memory.remember('b:deploy');
    now = 99;
    expect([memory.has('a:deploy'), memory.has('b:deploy')]).toEqual([true, true]);
    memory.forgetSession('a');
    expect([memory.has('a:deploy'), memory.has('b:deploy')]).toEqual([false, true]);
    now = 100;
    expect(memory.has('b:deploy')).toBe(false);
    const forever = createApprovalMemory({ clock: () => now });
    forever.remember('a:x:deploy'); // a session key may contain ':'
    now = Number.MAX_SAFE_INTEGER;
    expect(forever.has('a:x:deploy')).toBe(true);
    forever.forgetSession('a:x');
    expect(forever.has('a:x:deploy')).toBe(false);
  });
});

describe('a failing approval memory', () => {
  const failing = (): ApprovalMemory & { remembered: string[] } => ({
    remembered: [],
    has: () => Promise.reject(new Error('store down')),
    remember(scopeKey) {
      this.remembered.push(scopeKey);
      return Promise.reject(new Error('still down'));
    },
  });

  it('is "not approved": asked again when someone can answer, denied when unattended; recorded', async () => {
    const errors: string[] = [];
    const memory = failing();
    const host = createCapabilityHost({
      jsonSchemaValidator: ajvValidator(),
      approvalMemory: memory,
      onError: (error) => errors.push(error.message),
    });
    await host.load(manifest({ tools: [deploy] }));
    const approver = port();
    const attended = await host.beginTurn({ sessionKey: 's', approval: approver });
    expect((await attended.execute('deploy', {})).status).toBe('completed');
    expect((await attended.execute('deploy', {})).status).toBe('completed');
    expect(approver.asked).toBe(2);
    expect(memory.remembered).toEqual(['s:deploy', 's:deploy']);
    expect(attended.diagnostics.map((item) => `${item.source}: ${item.message}`).slice(0, 2)).toEqual([
      'approvals: approval memory failed for "deploy": store down (treated as not approved)',
      'approvals: approval memory failed to remember "deploy": still down',
    ]);
    await attended.end();
    const unattended = await host.beginTurn({ sessionKey: 's', unattended: true });
    expect(await unattended.execute('deploy', {})).toMatchObject({ status: 'denied', policy: 'approval' });
    expect(unattended.diagnostics).toHaveLength(1);
    await unattended.end();
    expect(errors).toContain('approval memory failed for "deploy": store down (treated as not approved)');
  });
});

describe('session store faults and the journal sink', () => {
  it('a session store that fails is recorded on the turn; the sink sees session, trace and principal', async () => {
    const seen: JournalTurnInfo[] = [];
    const host = createCapabilityHost({
      sessions: { get: () => Promise.reject(new Error('db down')), set: () => undefined },
      journal: { record: (_entry, turn) => void seen.push(turn) },
    });
    await host.load(manifest({ tools: [catalogTool('t1')] }));
    const turn = await host.beginTurn({ sessionKey: 'chat', principal: { userId: 'u9' }, traceId: 'trace-1' });
    expect(turn.diagnostics).toEqual([
      { source: 'sessions', message: 'deferred tools: reading session "chat" failed: db down', at: expect.any(Number) },
    ]);
    await turn.execute('load_tool', { name: 't1' });
    await turn.end();
    expect(seen[0]).toEqual({ sessionKey: 'chat', traceId: 'trace-1', principal: { userId: 'u9' } });
  });
});
