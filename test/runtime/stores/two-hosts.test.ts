/**
 * Two bot hosts in two processes sharing one real redis-server (the way an IM bot scales out):
 * what one instance loads, approves and journals, the other sees; 50 concurrent turns across both
 * processes lose no load; a host killed with SIGKILL and started again keeps everything that was
 * acknowledged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeferredToolSessionSnapshot, JournalEntry, ToolOutcome } from '../../../runtime/index.js';
import type { JournalReadResult } from '../../../runtime/stores/shared.js';
import { type HostProcess, type RedisServer, startHost, startRedis } from './servers.js';

interface TurnReply {
  readonly turnId: string;
  readonly restored: readonly string[];
  readonly snapshot: DeferredToolSessionSnapshot;
  readonly outcomes: readonly ToolOutcome[];
  readonly asked: number;
  readonly diagnostics: readonly string[];
  readonly journal: number;
}

let server: RedisServer;
const hosts: HostProcess[] = [];
const host = async (prefix: string, extra: Record<string, unknown> = {}) => {
  const started = await startHost({ store: 'redis', url: server.url, prefix, tools: 60, ...extra });
  hosts.push(started);
  return started;
};

beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await Promise.all(hosts.map((item) => item.kill()));
  await server?.stop();
});

describe('two host processes on one Redis', () => {
  it('A loads, B has it; A approves once, B remembers; A journals, B reads it', async () => {
    const [a, b] = await Promise.all([host('pair:'), host('pair:')]);
    expect(a.pid).not.toBe(b.pid);
    const loaded = await a.request<TurnReply>({ op: 'turn', session: 'qq:group:1', load: ['tool7'] });
    expect(loaded.outcomes[0]?.status).toBe('completed');
    const next = await b.request<TurnReply>({ op: 'turn', session: 'qq:group:1' });
    expect(next.restored).toEqual(['tool7']);
    expect(next.diagnostics).toEqual([]);

    const approved = await a.request<TurnReply>({
      op: 'turn',
      session: 'qq:group:1',
      call: { name: 'deploy' },
      approve: true,
    });
    expect([approved.outcomes[0]?.status, approved.asked]).toEqual(['completed', 1]);
    // B never asks: the approval A got is remembered for the session, also unattended.
    const remembered = await b.request<TurnReply>({
      op: 'turn',
      session: 'qq:group:1',
      call: { name: 'deploy' },
      unattended: true,
    });
    expect([remembered.outcomes[0]?.status, remembered.asked]).toEqual(['completed', 0]);
    const otherSession = await b.request<TurnReply>({
      op: 'turn',
      session: 'qq:group:2',
      call: { name: 'deploy' },
      unattended: true,
    });
    expect(otherSession.outcomes[0]).toMatchObject({ status: 'denied', policy: 'approval' });
    await b.request({ op: 'revoke', session: 'qq:group:1' });
    const revoked = await a.request<TurnReply>({
      op: 'turn',
      session: 'qq:group:1',
      call: { name: 'deploy' },
      approve: false,
    });
    expect([revoked.outcomes[0]?.status, revoked.asked]).toEqual(['denied', 1]);

    await a.request({ op: 'flush' });
    const read = await b.request<JournalReadResult>({ op: 'readTurn', turnId: approved.turnId });
    expect(read.ignored).toEqual([]);
    expect(read.entries.map((item) => `${item.entry.type}:${item.entry.toolName}`)).toEqual([
      'tool_call:deploy',
      'tool_result:deploy',
    ]);
    expect(read.entries[0]?.principal).toEqual({ adapter: 'qq', userId: `u-${a.pid}` });
    expect(
      read.entries.every((item) => item.entry.turnId === approved.turnId && item.sessionKey === 'qq:group:1'),
    ).toBe(true);
  });

  it.each([64, 12])(
    '50 concurrent turns over both processes, each loading another tool: the union, bounded to %i (no lost update)',
    async (max) => {
      const prefix = `race${max}:`;
      const [a, b] = await Promise.all([
        host(prefix, { maxLoadedPerSession: max }),
        host(prefix, { maxLoadedPerSession: max }),
      ]);
      const turns = (from: number) =>
        Array.from({ length: 25 }, (_, i) => ({ op: 'turn', session: 'busy', load: [`tool${from + i}`] }));
      const [left, right] = await Promise.all([
        a.request<{ turns: TurnReply[] }>({ op: 'turns', turns: turns(0) }),
        b.request<{ turns: TurnReply[] }>({ op: 'turns', turns: turns(25) }),
      ]);
      const all = [...left.turns, ...right.turns];
      expect(all.every((turn) => turn.outcomes[0]?.status === 'completed' && turn.diagnostics.length === 0)).toBe(true);
      // Whatever the interleaving, no load is lost: the next turn holds the newest `max` of all 50
      // (a turn evicts only tools it read as older than `max` others, and only at that touch).
      const times = new Map<string, number>();
      for (const turn of all)
        for (const [name, at] of Object.entries(turn.snapshot.loadedTools))
          times.set(name, Math.max(at, times.get(name) ?? at));
      const newest = [...times].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? 1 : -1)).slice(0, max);
      const after = await a.request<TurnReply>({ op: 'turn', session: 'busy' });
      expect(after.restored).toEqual(newest.map(([name]) => name).sort());
      expect(after.restored).toHaveLength(Math.min(max, 50));
    },
  );

  it('SIGKILL and start again: sessions, approvals and every acknowledged journal entry survive', async () => {
    const first = await host('restart:');
    await first.request({ op: 'turn', session: 's', load: ['tool3', 'tool4'] });
    const approved = await first.request<TurnReply>({
      op: 'turn',
      session: 's',
      call: { name: 'deploy' },
      approve: true,
    });
    const acked = await first.request<{ stats: { written: number; buffered: number } }>({ op: 'flush' });
    expect(acked.stats).toMatchObject({ buffered: 0, written: 6 });
    await first.kill('SIGKILL');

    const second = await host('restart:');
    const turn = await second.request<TurnReply>({
      op: 'turn',
      session: 's',
      call: { name: 'deploy' },
      unattended: true,
    });
    expect(turn.restored).toEqual(['tool3', 'tool4']);
    expect([turn.outcomes[0]?.status, turn.asked]).toEqual(['completed', 0]);
    const session = await second.request<JournalReadResult>({ op: 'readSession', session: 's' });
    const before = session.entries.filter((item) => item.entry.turnId !== turn.turnId);
    expect(before.map((item) => item.entry.type)).toEqual([
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
    ]);
    expect(before.slice(4).map((item) => item.entry.turnId)).toEqual([approved.turnId, approved.turnId]);
    expect(before.every((item): item is typeof item & { entry: JournalEntry } => item.sessionKey === 's')).toBe(true);
  });
});
