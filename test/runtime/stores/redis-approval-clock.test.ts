/**
 * Approval expiry on Redis follows the server's clock (`TIME`), the one every instance sharing
 * it agrees on: two instances whose own clocks are 60 s apart give and see the same expiry,
 * `approvalTtlMs` after the approval was given by the server's time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCapabilityHost, type ApprovalPort } from '../../../runtime/index.js';
import { redisStores } from '../../../runtime/stores/redis.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { type RedisServer, redisClient, startRedis, type TestRedisClient } from './servers.js';

let server: RedisServer;
let client: TestRedisClient;

beforeAll(async () => {
  server = await startRedis();
  client = await redisClient(server.url);
});
afterAll(async () => {
  await client?.quit().catch(() => undefined);
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The server's time in ms. */
const serverMs = async () => {
  const [seconds, micros] = (await client.sendCommand(['TIME'])) as [string, string];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
};
const TTL = 1000;
/** Two instances on one prefix: A's clock 60 s ahead of B's (and of the server's). */
const pair = (prefix: string) => ({
  a: redisStores(client, { prefix, approvalTtlMs: TTL, clock: () => Date.now() + 60_000 }),
  b: redisStores(client, { prefix, approvalTtlMs: TTL, clock: () => Date.now() }),
});

describe('approval expiry by the server’s clock', () => {
  it('clocks 60 s apart: an approval given on either expires approvalTtlMs after it was given, on both', async () => {
    const { a, b } = pair('clock1:');
    const before = await serverMs();
    await a.approvals.remember('s:deploy'); // given on the instance whose clock is ahead
    await b.approvals.remember('s:wipe'); // given on the one whose clock is right
    const after = await serverMs();
    // Stored as the server's time + TTL, whichever instance wrote it.
    for (const tool of ['deploy', 'wipe']) {
      const expiry = Number(await client.hGet('clock1:approvals:s', tool));
      expect(expiry).toBeGreaterThanOrEqual(before + TTL);
      expect(expiry).toBeLessThanOrEqual(after + TTL);
    }
    for (const stores of [a, b])
      expect([await stores.approvals.has('s:deploy'), await stores.approvals.has('s:wipe')]).toEqual([true, true]);
    // A later approval of the session keeps its key alive: each approval expires on its own.
    await sleep(TTL / 2);
    await a.approvals.remember('s:later');
    await sleep(TTL / 2 + 100);
    const has = async (stores: typeof a) =>
      Promise.all(['s:deploy', 's:wipe', 's:later'].map((scope) => stores.approvals.has(scope)));
    expect([await has(a), await has(b)]).toEqual([
      [false, false, true],
      [false, false, true],
    ]);
  });

  it('a host on the instance whose clock is behind asks again once the TTL passed by the server’s time', async () => {
    const { a, b } = pair('clock2:');
    const deploy = catalogTool('deploy', { description: 'deploy', requiresApproval: 'once' });
    const hostB = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...b.host });
    await hostB.load(manifest({ tools: [deploy] }));
    const port: ApprovalPort & { asked: number } = {
      asked: 0,
      requestApproval: async () => {
        port.asked += 1;
        return true;
      },
    };
    const call = async () => {
      const turn = await hostB.beginTurn({ sessionKey: 's', approval: port });
      const outcome = await turn.execute('deploy', {});
      await turn.end();
      return outcome.status;
    };
    await a.approvals.remember('s:deploy');
    expect(await call()).toBe('completed');
    expect(port.asked).toBe(0); // A's approval counts on B
    await sleep(TTL / 2);
    await a.approvals.remember('s:other'); // the session's key lives on
    await sleep(TTL / 2 + 100);
    expect(await call()).toBe('completed');
    expect(port.asked).toBe(1); // expired by the server's time, not 60 s later
    await hostB.close();
  });

  it('a TTL shortened in a deploy shortens approvals given before it, on every instance that has it', async () => {
    const long = redisStores(client, { prefix: 'ttl1:', approvalTtlMs: 30 * 86_400_000 });
    const short = redisStores(client, { prefix: 'ttl1:', approvalTtlMs: 600 });
    await long.approvals.remember('s:deploy');
    expect([await long.approvals.has('s:deploy'), await short.approvals.has('s:deploy')]).toEqual([true, true]);
    await sleep(700);
    expect([await long.approvals.has('s:deploy'), await short.approvals.has('s:deploy')]).toEqual([true, false]);

    // Written by an earlier version (no time of its own): an instance with a TTL asks again (once:
    // its answer is written with the time); one without a TTL goes by the stored expiry.
    await long.approvals.remember('s:old');
    await client.hDel('ttl1:approvals:s', ':at:old');
    const unbounded = redisStores(client, { prefix: 'ttl1:' });
    expect([await long.approvals.has('s:old'), await unbounded.approvals.has('s:old')]).toEqual([false, true]);
    // A time that is not one is a fault, never a grant.
    await client.hSet('ttl1:approvals:s', ':at:deploy', 'soon');
    await expect(short.approvals.has('s:deploy')).rejects.toThrow('"soon" is not a time');
  });
});
