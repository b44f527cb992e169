/**
 * `once` approvals in Redis against writes that arrive late: two hosts share a prefix, host A's
 * approval write is held on its way (a stalled link through a real TCP proxy, or node-redis's
 * offline queue while the server seems gone), host B revokes the session, and then A's write
 * reaches a real redis-server. A revocation must remove every approval given before it, and a
 * write A reported as not kept ("asked again next time") must never grant later: B's unattended
 * turn is denied, not let through.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalPort, type CapabilityHost, createCapabilityHost } from '../../../runtime/index.js';
import { redisStores } from '../../../runtime/stores/redis.js';
import { APPROVAL_REMEMBER } from '../../../runtime/stores/redis-scripts.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import {
  type RedisServer,
  redisClient,
  type StallingProxy,
  startProxy,
  startRedis,
  type TestRedisClient,
} from './servers.js';

let server: RedisServer;
let proxy: StallingProxy;
/** Host B's client: straight to the server. */
let direct: TestRedisClient;
/** Host A's clients: destroyed after each test (a quit would wait on a held link). */
const opened: TestRedisClient[] = [];
const hosts: CapabilityHost[] = [];
let prefixes = 0;

beforeAll(async () => {
  server = await startRedis();
  proxy = await startProxy(server.port);
  direct = await redisClient(server.url);
});
afterEach(async () => {
  proxy.release();
  await proxy.restore();
  for (const client of opened.splice(0)) client.destroy();
  for (const host of hosts.splice(0)) await host.close();
});
afterAll(async () => {
  await direct?.quit().catch(() => undefined);
  await proxy?.close();
  await server?.stop();
});

const deploy = catalogTool('deploy', { description: 'deploy', requiresApproval: 'once' });
const SESSION = 'qq:group:1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: string, check: () => boolean, ms = 5000) {
  for (const start = Date.now(); !check(); await sleep(10))
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
}
/** The approval write on the wire: EVALSHA of the remember script. */
const rememberSha = createHash('sha1').update(APPROVAL_REMEMBER).digest('hex');
const isApprovalWrite = (chunk: string) => chunk.includes(rememberSha);

/** Host A (through the proxy) and host B (direct) on one prefix. */
async function pair(timeoutMs: number) {
  const prefix = `rev${++prefixes}:`;
  const linkA = await redisClient(proxy.url);
  opened.push(linkA);
  const storesA = redisStores(linkA, { prefix, timeoutMs });
  const storesB = redisStores(direct, { prefix });
  const hostA = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...storesA.host });
  const hostB = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...storesB.host });
  hosts.push(hostA, hostB);
  await Promise.all([hostA.load(manifest({ tools: [deploy] })), hostB.load(manifest({ tools: [deploy] }))]);
  /** Once the replies to everything sent so far on A's link are back, whatever was held has run. */
  const drain = async () => {
    await linkA.sendCommand(['PING']);
    await sleep(50); // a continuation that sends one more command (after SCRIPT LOAD) has sent it
    await linkA.sendCommand(['PING']);
  };
  /** B's unattended turn: denied unless an approval is remembered. */
  const unattendedOnB = async () => {
    const turn = await hostB.beginTurn({ sessionKey: SESSION, unattended: true });
    const outcome = await turn.execute('deploy', {});
    await turn.end();
    return outcome;
  };
  return { prefix, linkA, storesA, storesB, hostA, hostB, drain, unattendedOnB };
}

/** A's attended turn: the user says yes; `onYes` runs as they do (the link stalls then). */
async function approveOnA(hostA: CapabilityHost, onYes: () => void | Promise<void>) {
  const port: ApprovalPort = {
    requestApproval: async () => {
      await onYes();
      return true;
    },
  };
  const turn = await hostA.beginTurn({ sessionKey: SESSION, approval: port });
  const outcome = await turn.execute('deploy', {});
  const diagnostics = turn.diagnostics.map((item) => item.message);
  void turn.end(); // its journal and session writes may wait on the held link; nothing here needs them
  return { outcome, diagnostics };
}

describe('a `once` approval written late', () => {
  it.each([
    ['the approval write', isApprovalWrite],
    ['the whole link', () => true],
  ])(
    'A’s write times out (%s stalls), B revokes the session, then the write reaches Redis: not approved',
    async (_what, match) => {
      const { storesB, hostA, drain, unattendedOnB } = await pair(300);
      const a = await approveOnA(hostA, () => proxy.hold(match));
      expect(a.outcome.status).toBe('completed'); // the user said yes: the call runs
      expect(a.diagnostics).toContainEqual(
        expect.stringMatching(/^approval memory failed to remember "deploy": redis .*timed out after \d+ ms/),
      );
      expect(proxy.held()).toBeGreaterThan(0);
      await storesB.approvals.forgetSession(SESSION);
      proxy.release();
      await drain();
      expect(await storesB.approvals.has(`${SESSION}:deploy`)).toBe(false);
      expect(await unattendedOnB()).toMatchObject({ status: 'denied', policy: 'approval' });
    },
  );

  it('a write reported as not kept never grants later, even with no revocation', async () => {
    const { storesB, hostA, drain, unattendedOnB } = await pair(300);
    const a = await approveOnA(hostA, () => proxy.hold(isApprovalWrite));
    expect(a.diagnostics).toContainEqual(expect.stringMatching(/failed to remember "deploy": .*timed out/));
    proxy.release();
    await drain();
    expect(await storesB.approvals.has(`${SESSION}:deploy`)).toBe(false);
    expect(await unattendedOnB()).toMatchObject({ status: 'denied', policy: 'approval' });
  });

  it('revoked while the write is on its way (it lands in time): refused, reported; a later approval is kept', async () => {
    const { storesB, hostA, unattendedOnB } = await pair(5000);
    const pending = approveOnA(hostA, () => proxy.hold(isApprovalWrite));
    await until('the approval write to be held', () => proxy.held() > 0);
    await storesB.approvals.forgetSession(SESSION);
    proxy.release();
    const a = await pending;
    expect(a.outcome.status).toBe('completed');
    expect(a.diagnostics).toContainEqual(
      expect.stringMatching(/failed to remember "deploy": .*approvals:qq:group:1: revoked while the approval/),
    );
    expect(await storesB.approvals.has(`${SESSION}:deploy`)).toBe(false);
    expect(await unattendedOnB()).toMatchObject({ status: 'denied', policy: 'approval' });

    // An approval given after the revocation counts as usual, on either host.
    const again = await approveOnA(hostA, () => undefined);
    expect(again.diagnostics).toEqual([]);
    expect(await unattendedOnB()).toMatchObject({ status: 'completed' });
  });

  it('held in node-redis’s offline queue while the server seems gone, landing after B revoked: not approved', async () => {
    const { linkA, storesB, hostA, drain, unattendedOnB } = await pair(300);
    const a = await approveOnA(hostA, async () => {
      proxy.cut();
      await until('A’s client to see the server gone', () => !linkA.isReady);
    });
    expect(a.diagnostics).toContainEqual(expect.stringMatching(/failed to remember "deploy": .*timed out/));
    await storesB.approvals.forgetSession(SESSION);
    await proxy.restore();
    await until('A’s client to reconnect', () => linkA.isReady);
    await drain();
    expect(await storesB.approvals.has(`${SESSION}:deploy`)).toBe(false);
    expect(await unattendedOnB()).toMatchObject({ status: 'denied', policy: 'approval' });
  });

  it('a revocation time that is not a time refuses the write (fail closed), is reported and repaired', async () => {
    const { prefix, storesB } = await pair(1000);
    const errors: string[] = [];
    const stores = redisStores(direct, { prefix, onError: (error) => errors.push(error.message) });
    await direct.hSet(`${prefix}approvals:${SESSION}`, ':revoked', 'soon');
    await expect(stores.approvals.remember(`${SESSION}:deploy`)).rejects.toThrow(/revoked/);
    expect(errors).toEqual([
      `redis store: ${prefix}approvals:${SESSION} field :revoked held "soon", not a time (replaced)`,
    ]);
    expect(await storesB.approvals.has(`${SESSION}:deploy`)).toBe(false);
    await stores.approvals.remember(`${SESSION}:deploy`);
    expect(await storesB.approvals.has(`${SESSION}:deploy`)).toBe(true);
  });

  it('a revocation outlives late writes but not forever; approvals without a TTL keep it with them', async () => {
    const { prefix, storesB } = await pair(1000);
    const name = `${prefix}approvals:${SESSION}`;
    await storesB.approvals.forgetSession(SESSION);
    const ttl = Number(await direct.sendCommand(['PTTL', name]));
    expect(ttl).toBeGreaterThan(60_000); // longer than any write may still land
    expect(ttl).toBeLessThanOrEqual(120_000);
    await storesB.approvals.remember(`${SESSION}:deploy`); // `never` expires: nor does its hash
    expect(Number(await direct.sendCommand(['PTTL', name]))).toBe(-1);
    const short = redisStores(direct, { prefix, approvalTtlMs: 1000 });
    await short.approvals.forgetSession(SESSION);
    await short.approvals.remember(`${SESSION}:deploy`); // never shortens the revocation's life
    expect(Number(await direct.sendCommand(['PTTL', name]))).toBeGreaterThan(60_000);
    expect(await short.approvals.has(`${SESSION}:deploy`)).toBe(true);
  });
});
