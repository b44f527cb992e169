/**
 * The Redis stores against a real redis-server on loopback: the Lua merge equals the one merge
 * rule (differential), approvals expire and are revoked per session, the journal round-trips,
 * corrupt values are ignored with a recorded reason, and a server that stops or restarts under a
 * running host is failed closed on and recovered from without restarting the host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../../../bench/gen-tree.js';
import {
  createCapabilityHost,
  createMemorySessionStore,
  type ApprovalPort,
  type HostConfig,
  type SessionUpdate,
} from '../../../runtime/index.js';
import { redisStores } from '../../../runtime/stores/redis.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { type RedisServer, redisClient, startRedis, type TestRedisClient } from './servers.js';

let server: RedisServer;
let client: TestRedisClient;
const clientErrors: string[] = [];
let prefixes = 0;
const fresh = () => `t${process.pid}-${++prefixes}:`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await startRedis();
  client = await redisClient(server.url, clientErrors);
});
afterAll(async () => {
  await client?.quit().catch(() => undefined);
  await server?.stop();
});

const tools = Array.from({ length: 10 }, (_, i) => catalogTool(`tool${i}`, { description: `numbered tool ${i}` }));
const deploy = catalogTool('deploy', { description: 'deploy', requiresApproval: 'once' });
const config: HostConfig = { deferredTools: { maxLoadedPerSession: 4 } };
const yes = (): ApprovalPort & { asked: number } => {
  const port = {
    asked: 0,
    requestApproval: async () => {
      port.asked += 1;
      return true;
    },
  };
  return port;
};

describe('redis session merge', () => {
  it('the Lua merge gives exactly what mergeSnapshot gives, update for update (random updates)', async () => {
    const random = rng(19);
    const memory = createMemorySessionStore();
    const redis = redisStores(client, { prefix: fresh() });
    // Names of Object.prototype's members among them: a seam or MCP tool may be named `__proto__`.
    const names = [...Array.from({ length: 12 }, (_, i) => `n${i}`), '__proto__', 'constructor', 'toString'];
    const pick = (count: number) => names.filter(() => random() < count / names.length);
    for (let step = 0; step < 200; step++) {
      const update: SessionUpdate = {
        // Few distinct times, so a write meets an equal, older and newer stored touch often.
        tools: Object.fromEntries(pick(3).map((name) => [name, 1000 + Math.floor(random() * 20)])),
        skills: pick(1),
        drop: pick(1),
      };
      await memory.merge!('s', update);
      await redis.sessions.merge!('s', update);
      const expected = (await memory.get('s')) ?? { loadedTools: {}, loadedSkills: [] };
      const actual = (await redis.sessions.get('s')) ?? { loadedTools: {}, loadedSkills: [] };
      expect(actual, `step ${step}: ${JSON.stringify(update)}`).toEqual(expected);
    }
  });

  it('a host on Redis restores its sessions in the next turn and records a corrupt key, then repairs it', async () => {
    const prefix = fresh();
    const stores = redisStores(client, { prefix });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools }));
    const first = await host.beginTurn({ sessionKey: 'chat' });
    await first.execute('load_tool', { name: 'tool3' });
    await first.end();
    const second = await host.beginTurn({ sessionKey: 'chat' });
    expect(Object.keys(second.deferred.snapshot().loadedTools)).toEqual(['tool3']);
    await second.end();

    await client.set(`${prefix}session:chat:tools`, 'garbage');
    const corrupt = await host.beginTurn({ sessionKey: 'chat' });
    expect(corrupt.deferred.snapshot().loadedTools).toEqual({});
    expect(corrupt.diagnostics.map((item) => item.message)).toEqual([
      `deferred tools: reading session "chat" failed: ${prefix}session:chat:tools holds a string, not a zset (ignored)`,
    ]);
    await corrupt.execute('load_tool', { name: 'tool5' });
    await corrupt.end();
    expect(corrupt.diagnostics.map((item) => item.message)[1]).toBe(
      `deferred tools: session "chat": ignored a stored value: ${prefix}session:chat:tools held a string, not a zset (replaced)`,
    );
    const repaired = await host.beginTurn({ sessionKey: 'chat' });
    expect(Object.keys(repaired.deferred.snapshot().loadedTools)).toEqual(['tool5']);
    expect(repaired.diagnostics).toEqual([]);
    await repaired.end();
    await host.close();
  });

  it('a non-numeric score cannot be stored; a skills key of the wrong type is recorded', async () => {
    const prefix = fresh();
    const stores = redisStores(client, { prefix });
    await client.hSet(`${prefix}session:s:skills`, 'a', 'b');
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(turn.diagnostics[0]?.message).toContain('session:s:skills holds a hash, not a list (ignored)');
    await turn.end();
    await host.close();
  });
});

describe('redis sessions: bad values do not stick', () => {
  it('a time far in the future is dropped with a report (it would freeze the loaded set), and removed', async () => {
    const prefix = fresh();
    const stores = redisStores(client, { prefix });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools }));
    await client.zAdd(`${prefix}session:s:tools`, { score: 1e300, value: 'tool1' });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(turn.diagnostics.map((d) => d.message)).toEqual([
      'deferred tools: session "s": ignored a stored value: loadedTools.tool1 is dated after this clock allows',
    ]);
    await turn.execute('load_tool', { name: 'tool2' });
    expect(turn.deferred.isLoaded('tool2')).toBe(true);
    await turn.end();
    expect(await client.zRange(`${prefix}session:s:tools`, 0, -1)).toEqual(['tool2']);
    await host.close();
  });

  it('set() replaces whatever is stored, a corrupt key too, in one script (no merge lands between a read and a write)', async () => {
    const prefix = fresh();
    const errors: string[] = [];
    const stores = redisStores(client, { prefix, onError: (error) => errors.push(error.message) });
    await client.set(`${prefix}session:s:skills`, 'garbage');
    await client.zAdd(`${prefix}session:s:tools`, { score: 1, value: 'weather' });
    await stores.sessions.set('s', { loadedTools: {}, loadedSkills: [] });
    expect(await stores.sessions.get('s')).toBeUndefined();
    await stores.sessions.set('s', { loadedTools: { echo: 5 }, loadedSkills: ['research'] });
    expect(await stores.sessions.get('s')).toEqual({ loadedTools: { echo: 5 }, loadedSkills: ['research'] });
    expect(errors).toEqual([`redis store: ${prefix}session:s:skills held a string, not a list (replaced)`]);
  });
});

describe('redis approvals', () => {
  it('an approval kept without expiry stops counting once the store has an approvalTtlMs', async () => {
    const prefix = fresh();
    await redisStores(client, { prefix }).approvals.remember('a:deploy');
    expect(await redisStores(client, { prefix }).approvals.has('a:deploy')).toBe(true);
    const bounded = redisStores(client, { prefix, approvalTtlMs: 60_000 });
    expect(await bounded.approvals.has('a:deploy')).toBe(false);
    await bounded.approvals.remember('a:deploy');
    expect(await bounded.approvals.has('a:deploy')).toBe(true);
  });

  it('`once` is remembered, expires after approvalTtlMs, and is revoked per session', async () => {
    // Expiry is by the server's clock (TIME): real time passes, an own clock would not count.
    // Wide margins: a loaded CI runner may stall for hundreds of milliseconds between calls.
    const stores = redisStores(client, { prefix: fresh(), approvalTtlMs: 2000 });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host });
    await host.load(manifest({ tools: [deploy] }));
    const port = yes();
    const call = async (session: string) => {
      const turn = await host.beginTurn({ sessionKey: session, approval: port });
      const outcome = await turn.execute('deploy', {});
      await turn.end();
      return outcome.status;
    };
    expect(await call('a')).toBe('completed');
    expect(await call('a')).toBe('completed');
    expect(port.asked).toBe(1);
    await sleep(200);
    expect(await call('a')).toBe('completed');
    expect(port.asked).toBe(1);
    await sleep(2000); // past 2000 ms after it was given
    expect(await call('a')).toBe('completed');
    expect(port.asked).toBe(2);
    expect(await call('b')).toBe('completed');
    expect(port.asked).toBe(3);
    await stores.approvals.forgetSession('a');
    expect(await stores.approvals.has('a:deploy')).toBe(false);
    expect(await stores.approvals.has('b:deploy')).toBe(true);
    await host.close();
  });

  it('a corrupt approval value is not an approval: the user is asked again, the reason recorded', async () => {
    const prefix = fresh();
    const stores = redisStores(client, { prefix });
    await client.hSet(`${prefix}approvals:s`, 'deploy', 'yes please');
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host });
    await host.load(manifest({ tools: [deploy] }));
    const unattended = await host.beginTurn({ sessionKey: 's', unattended: true });
    expect(await unattended.execute('deploy', {})).toMatchObject({ status: 'denied', policy: 'approval' });
    expect(unattended.diagnostics.map((item) => item.message)).toEqual([
      `approval memory failed for "deploy": ${prefix}approvals:s field deploy: "yes please" is not an expiry (treated as not approved)`,
    ]);
    await unattended.end();
    const port = yes();
    const attended = await host.beginTurn({ sessionKey: 's', approval: port });
    expect((await attended.execute('deploy', {})).status).toBe('completed');
    expect(port.asked).toBe(1);
    await attended.end();
    expect(await client.hGet(`${prefix}approvals:s`, 'deploy')).toBe('never');
    await host.close();
  });
  it.each(['0x7fffffffffff', ' ', '1e400', '+5e12', 'Infinity'])(
    'an approval expiry `remember` never writes (%j) is not an approval, and is recorded',
    async (value) => {
      const prefix = fresh();
      const stores = redisStores(client, { prefix });
      await client.hSet(`${prefix}approvals:s`, 'deploy', value);
      const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host });
      await host.load(manifest({ tools: [deploy] }));
      const unattended = await host.beginTurn({ sessionKey: 's', unattended: true });
      expect(await unattended.execute('deploy', {})).toMatchObject({ status: 'denied', policy: 'approval' });
      expect(unattended.diagnostics.map((item) => item.message)).toEqual([
        `approval memory failed for "deploy": ${prefix}approvals:s field deploy: "${value}" is not an expiry (treated as not approved)`,
      ]);
      await unattended.end();
      await host.close();
    },
  );
});

describe('redis journal', () => {
  it('streams every entry with its turn, session and principal; reads back per turn and per session', async () => {
    const prefix = fresh();
    const stores = redisStores(client, { prefix });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools }));
    const turn = await host.beginTurn({ sessionKey: 'chat', principal: { userId: 'u1' } });
    await turn.execute('load_tool', { name: 'tool1' });
    await turn.execute('tool1', { big: 12n, list: [1, 2] });
    await turn.execute('nope', {});
    await turn.end();
    await stores.journal.sink.flush();
    const read = await stores.journal.readTurn(turn.id);
    expect(read.ignored).toEqual([]);
    expect(read.entries.map((item) => item.entry)).toEqual(
      turn.journal.map((entry) =>
        entry.type === 'tool_call' && entry.toolName === 'tool1'
          ? { ...entry, input: { big: { $unrecorded: 'bigint 12' }, list: [1, 2] } }
          : entry.type === 'tool_result' && entry.toolName === 'tool1'
            ? { ...entry, output: { ran: 'tool1', input: { big: { $unrecorded: 'bigint 12' }, list: [1, 2] } } }
            : entry,
      ),
    );
    expect(read.entries.every((item) => item.sessionKey === 'chat' && item.traceId === turn.traceId)).toBe(true);
    expect(read.entries[0]?.principal).toEqual({ userId: 'u1' });
    const session = await stores.journal.readSession('chat');
    expect(session.entries.map((item) => `${item.entry.seq}:${item.entry.type}`)).toEqual([
      '0:tool_call',
      '1:tool_result',
      '2:tool_call',
      '3:tool_result',
      '4:tool_denied',
    ]);
    // A corrupt stream entry is ignored with its reason, never returned.
    await client.xAdd(`${prefix}journal:session:chat`, '*', { turn: 'x', seq: '0', entry: '{not json' });
    const after = await stores.journal.readSession('chat');
    expect(after.entries).toHaveLength(5);
    expect(after.ignored).toHaveLength(1);
    expect(after.ignored[0]).toMatch(/entry is not JSON/);
    await host.close();
  });
});

describe('redis down and back', () => {
  it('stopped: approvals asked / denied, turns go on from empty, journal buffered; restarted: all recovers', async () => {
    const local = await startRedis();
    const errors: string[] = [];
    const own = await redisClient(local.url, errors);
    const reports: string[] = [];
    const stores = redisStores(own, {
      prefix: 'x:',
      timeoutMs: 500,
      journal: { retryMs: 50, maxBuffered: 5 },
      onError: (error) => reports.push(error.message),
    });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools: [...tools, deploy] }));
    const port = yes();
    const before = await host.beginTurn({ sessionKey: 's', approval: port });
    await before.execute('load_tool', { name: 'tool2' });
    await before.execute('deploy', {});
    await before.end();
    expect((await stores.journal.sink.flush()).written).toBe(4);

    // On a busy machine a write may have timed out (and been retried) before the stop; the flush
    // above saw it land, so from here the reports are exactly those of this outage.
    const reportsBefore = reports.length;
    await local.stop();
    const down = await host.beginTurn({ sessionKey: 's', approval: port });
    expect(down.deferred.snapshot().loadedTools).toEqual({});
    expect(down.diagnostics[0]?.message).toMatch(
      /reading session "s" failed: redis session read timed out after 500 ms/,
    );
    expect((await down.execute('deploy', {})).status).toBe('completed'); // asked again, not let through
    expect(port.asked).toBe(2);
    expect(down.diagnostics.map((item) => item.source)).toContain('approvals');
    await down.end();
    const unattended = await host.beginTurn({ sessionKey: 's', unattended: true });
    expect(await unattended.execute('deploy', {})).toMatchObject({ status: 'denied', policy: 'approval' });
    expect((await unattended.execute('load_tool', { name: 'tool4' })).status).toBe('completed');
    await unattended.end();
    const stats = await stores.journal.sink.flush({ timeoutMs: 300 });
    // 2 + 2 + 2 entries recorded while down; the bound is 5: the last one dropped, counted.
    expect(stats).toMatchObject({ buffered: 5, dropped: 1, written: 4 });
    expect(stats.failures).toBeGreaterThan(0);

    await local.start();
    const flushed = await stores.journal.sink.flush({ timeoutMs: 5000 });
    expect(flushed).toMatchObject({ buffered: 0, dropped: 1, written: 9, pending: 0, truncatedTurns: 1 });
    // The dropped entry was the unattended turn's last: its first three are stored, no hole.
    expect(stores.journal.sink.truncatedAt(unattended.id)).toBe(3);
    const cut = await stores.journal.readTurn(unattended.id);
    expect([cut.entries.map((item) => item.entry.seq), cut.ignored]).toEqual([[0, 1, 2], []]);
    // One report when writes start failing, one when the buffer overflows, one when it is back.
    expect(reports.slice(reportsBefore)).toEqual([
      expect.stringMatching(
        /^journal sink: write failed, \d+ entries buffered: redis journal append timed out after 500 ms$/,
      ),
      'journal sink: buffer full (5); dropping entries until the store is back (a turn that loses one loses its later ones too)',
      `journal sink: store back; 1 entries were dropped while it was down; 1 turns lost their later entries too: ${unattended.id} (from seq 3)`,
    ]);
    const back = await host.beginTurn({ sessionKey: 's', approval: port });
    // The restarted server kept nothing (no persistence); the host works again without a restart.
    expect(back.diagnostics).toEqual([]);
    await back.execute('load_tool', { name: 'tool7' });
    expect((await back.execute('deploy', {})).status).toBe('completed');
    await back.end();
    const again = await host.beginTurn({ sessionKey: 's', approval: port });
    // tool4's merge timed out while the server was down, waited in the client's offline queue and
    // landed on reconnect: a merge is safe to land late.
    expect(Object.keys(again.deferred.snapshot().loadedTools).sort()).toEqual(['tool4', 'tool7']);
    const asked = port.asked;
    expect((await again.execute('deploy', {})).status).toBe('completed');
    expect(port.asked).toBe(asked); // remembered again
    await again.end();
    const session = await stores.journal.readSession('s');
    expect(session.entries.length).toBeGreaterThanOrEqual(6);
    await host.close();
    await own.quit().catch(() => undefined);
    await local.stop();
  });
});
