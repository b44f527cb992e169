/**
 * The journal through real stores when the buffer is full or busy: a flush under steady traffic
 * on Redis resolves once the turn it follows is written; with Redis paused and the buffer full a
 * turn is stored as an unbroken prefix (never a result without its call) and the sink names it;
 * and both stores' reads report entries missing inside a turn (written by a writer without that
 * rule) instead of returning the rest as if whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCapabilityHost, type ManifestTool } from '../../../runtime/index.js';
import { redisStores } from '../../../runtime/stores/redis.js';
import type { DurableStores, JournalReadResult } from '../../../runtime/stores/shared.js';
import { sqliteStores } from '../../../runtime/stores/sqlite.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { Database, type RedisServer, redisClient, sqliteFile, startRedis, type TestRedisClient } from './servers.js';
import { recordSeqs } from './journal-entries.js';

let server: RedisServer;
let client: TestRedisClient;
let admin: TestRedisClient;
const databases: { close(): void }[] = [];
let prefixes = 0;
const fresh = () => `h${++prefixes}:`;

beforeAll(async () => {
  server = await startRedis();
  client = await redisClient(server.url);
  admin = await redisClient(server.url);
});
afterAll(async () => {
  await client?.quit().catch(() => undefined);
  await admin?.quit().catch(() => undefined);
  await server?.stop();
  for (const db of databases) db.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seqsOf = (read: JournalReadResult) =>
  read.entries.map(({ entry }) => `${entry.seq}:${entry.type}:${entry.toolName}`);
/** A tool that takes `ms` to answer. */
const slowTool = (name: string, ms: number): ManifestTool => ({
  ...catalogTool(name),
  load: () =>
    Promise.resolve({
      default: {
        kind: 'agent-tool',
        description: 'x',
        requiresApproval: 'never',
        execute: async () => {
          await sleep(ms);
          return 'ok';
        },
      },
    }),
});

describe('flush under steady traffic', () => {
  it('256 conversations keep recording on Redis: a flush after one turn resolves once that turn is written', async () => {
    const stores = redisStores(client, { prefix: fresh() });
    const host = createCapabilityHost({ ...stores.host });
    await host.load(manifest({ tools: [catalogTool('ping')] }));
    let traffic = true;
    const conversation = async (n: number) => {
      while (traffic) {
        const turn = await host.beginTurn({ sessionKey: `bg${n}` });
        await turn.execute('ping', {});
        await turn.end();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const conversations = Array.from({ length: 256 }, (_, n) => conversation(n));
    await sleep(200);
    const mine = await host.beginTurn({ sessionKey: 'mine' });
    await mine.execute('ping', {});
    await mine.end();
    const flushed = await Promise.race([stores.journal.sink.flush(), sleep(3000).then(() => 'still waiting')]);
    const read = await stores.journal.readTurn(mine.id);
    const busy = stores.journal.sink.stats().buffered;
    traffic = false;
    await Promise.all(conversations);
    expect(flushed).toMatchObject({ pending: 0, dropped: 0 });
    expect(seqsOf(read)).toEqual(['0:tool_call:ping', '1:tool_result:ping']);
    expect(busy).toBeGreaterThan(0); // the traffic went on: the buffer was not empty when it resolved
    await stores.journal.sink.flush({ timeoutMs: 5000 });
    await host.close();
  });
});

describe('a full buffer while Redis is paused', () => {
  it('the turn is stored as an unbroken prefix: its call was dropped, so its result is too, and the sink names it', async () => {
    const errors: string[] = [];
    const stores = redisStores(client, {
      prefix: fresh(),
      timeoutMs: 200,
      journal: { maxBuffered: 4, retryMs: 100 },
      onError: (error) => errors.push(error.message),
    });
    const host = createCapabilityHost({ journal: stores.journal.sink });
    await host.load(manifest({ tools: [catalogTool('ping'), slowTool('rm_rf', 1500)] }));
    await admin.sendCommand(['CLIENT', 'PAUSE', '1000', 'WRITE']);
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.execute('ping', {}); // seq 0, 1
    await turn.execute('ping', {}); // seq 2, 3: the buffer is full
    // seq 4, rm_rf's call, is dropped; its result comes after Redis is back and the buffer drained.
    await turn.execute('rm_rf', {});
    await turn.end();
    const stats = await stores.journal.sink.flush({ timeoutMs: 3000 });
    expect(turn.journal.map((item) => item.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(stats).toMatchObject({ buffered: 0, pending: 0, written: 4, dropped: 2, truncatedTurns: 1 });
    expect(stores.journal.sink.truncatedAt(turn.id)).toBe(4);
    const read = await stores.journal.readTurn(turn.id);
    expect([seqsOf(read), read.ignored]).toEqual([
      ['0:tool_call:ping', '1:tool_result:ping', '2:tool_call:ping', '3:tool_result:ping'],
      [],
    ]);
    expect(errors).toContain(
      `journal sink: store back; 1 entries were dropped while it was down; 1 turns lost their later entries too: ${turn.id} (from seq 4)`,
    );
    await host.close();
  });
});

describe('reads report entries missing inside a turn', () => {
  const backends: readonly (readonly [
    string,
    () => { stores: DurableStores; where: (turn: string) => string; session: string },
  ])[] = [
    [
      'redis',
      () => {
        const prefix = fresh();
        return {
          stores: redisStores(client, { prefix }),
          where: (turn) => `${prefix}journal:turn:${turn}`,
          session: `${prefix}journal:session:s turn`,
        };
      },
    ],
    [
      'sqlite',
      () => {
        const db = new Database(sqliteFile('holes'));
        databases.push(db);
        return { stores: sqliteStores(db), where: (turn) => `journal turn ${turn}`, session: 'journal turn' };
      },
    ],
  ];
  for (const [name, open] of backends)
    it(`${name}: readTurn names each gap, from seq 0; readSession the gaps inside the turns it read`, async () => {
      const { stores, where, session } = open();
      await recordSeqs(stores, 's', 'H', [0, 1, 3, 6]);
      await recordSeqs(stores, 's', 'J', [2, 3]);
      const holes = await stores.journal.readTurn('H');
      expect([holes.entries.map(({ entry }) => entry.seq), holes.ignored]).toEqual([
        [0, 1, 3, 6],
        [
          `${where('H')}: seq 2 missing (never stored, or trimmed since)`,
          `${where('H')}: seq 4-5 missing (never stored, or trimmed since)`,
        ],
      ]);
      expect((await stores.journal.readTurn('J')).ignored).toEqual([
        `${where('J')}: seq 0-1 missing (never stored, or trimmed since)`,
      ]);
      // A session read may begin inside a turn (its limit): J's entries before seq 2 are not a gap there.
      const read = await stores.journal.readSession('s');
      expect(read.entries).toHaveLength(6);
      expect(read.ignored).toEqual([
        `${session} H: seq 2 missing (never stored, or trimmed since)`,
        `${session} H: seq 4-5 missing (never stored, or trimmed since)`,
      ]);
      const whole = await stores.journal.readSession('s', { limit: 3 }); // H:6, J:2, J:3
      expect(whole.ignored).toEqual([]);
    });
});
