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
