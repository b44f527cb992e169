/**
 * The Redis journal's bounds and corrupt keys against a real redis-server: with
 * `journalMaxLenPerSession` the per-turn index is bounded with the session stream (a trimmed
 * entry leaves its turn, a turn with none left is deleted, a retried batch adds nothing back);
 * with `journalTtlMs` an entry is kept that long after it was written, and `readTurn` and
 * `readSession` agree on what is left; a wrong-typed key is moved aside where no real key can
 * be, never over another, and a wrong-typed turn key is reported by `readTurn`, not thrown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCapabilityHost, type JournalEntry } from '../../../runtime/index.js';
import { redisStores, type RedisStoreOptions } from '../../../runtime/stores/redis.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { type RedisServer, redisClient, startRedis, type TestRedisClient } from './servers.js';
import { recordSeqs } from './journal-entries.js';

let server: RedisServer;
let client: TestRedisClient;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedis();
  client = await redisClient(server.url);
});
afterAll(async () => {
  await client?.quit().catch(() => undefined);
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const open = (options: RedisStoreOptions = {}) => {
  const prefix = options.prefix ?? `j${++prefixes}:`;
  const errors: string[] = [];
  const stores = redisStores(client, { ...options, prefix, onError: (error) => errors.push(error.message) });
  return { prefix, errors, stores };
};

const seqsOf = (read: { entries: readonly { entry: JournalEntry }[] }) => read.entries.map((item) => item.entry.seq);
const turnsOf = (read: { entries: readonly { entry: JournalEntry }[] }) => [
  ...new Set(read.entries.map((item) => item.entry.turnId)),
];

describe('journalMaxLenPerSession bounds the turn index too', () => {
  it('300 turns of a bot session keep the newest entries and only their turns’ hashes', async () => {
    const { prefix, stores } = open({ journalMaxLenPerSession: 10 });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host });
    await host.load(manifest({ tools: [catalogTool('tool1', { description: 'one' })] }));
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      const turn = await host.beginTurn({ sessionKey: 'qq:group:1' });
      await turn.execute('load_tool', { name: 'tool1' }); // tool_call + tool_result
      await turn.end();
      ids.push(turn.id);
    }
    await stores.journal.sink.flush({ timeoutMs: 5000 });
    expect(await client.xLen(`${prefix}journal:session:qq:group:1`)).toBe(10);
    expect((await client.keys(`${prefix}journal:turn:*`)).sort()).toEqual(
      ids
        .slice(-5)
        .map((id) => `${prefix}journal:turn:${id}`)
        .sort(),
    );
    expect(await stores.journal.readTurn(ids[0]!)).toEqual({ entries: [], ignored: [] });
    const newest = await stores.journal.readTurn(ids.at(-1)!);
    expect([seqsOf(newest), newest.ignored]).toEqual([[0, 1], []]);
    expect(turnsOf(await stores.journal.readSession('qq:group:1'))).toEqual(ids.slice(-5));
    await host.close();
  });

  it('a partly trimmed turn says so; a retried batch adds nothing back; a turn trimmed away is deleted', async () => {
    const { prefix, stores } = open({ journalMaxLenPerSession: 4 });
    await recordSeqs(stores, 's', 'T', [0, 1, 2, 3, 4, 5]);
    const turn = await stores.journal.readTurn('T');
    expect(seqsOf(turn)).toEqual([2, 3, 4, 5]);
    expect(turn.ignored).toEqual([
      `${prefix}journal:turn:T (seq 0): trimmed (journalMaxLenPerSession or journalTtlMs)`,
      `${prefix}journal:turn:T (seq 1): trimmed (journalMaxLenPerSession or journalTtlMs)`,
    ]);
    // The same entries again, as a batch retried after a timeout sends them: already written.
    await recordSeqs(stores, 's', 'T', [0, 1, 2, 3, 4, 5]);
    expect(seqsOf(await stores.journal.readSession('s'))).toEqual([2, 3, 4, 5]);
    await recordSeqs(stores, 's', 'U', [0, 1, 2, 3]);
    expect(await client.exists(`${prefix}journal:turn:T`)).toBe(0);
    expect(await stores.journal.readTurn('T')).toEqual({ entries: [], ignored: [] });
    expect(turnsOf(await stores.journal.readSession('s'))).toEqual(['U']);
  });

  it('a turn hash written before its live count was kept is counted, not deleted early', async () => {
    const prefix = `j${++prefixes}:`;
    const unbounded = open({ prefix }).stores;
    await recordSeqs(unbounded, 's', 'T', [0, 1, 2, 3, 4, 5]);
    await client.hDel(`${prefix}journal:turn:T`, '_live'); // as an older store wrote it
    const bounded = open({ prefix, journalMaxLenPerSession: 8 }).stores;
    await recordSeqs(bounded, 's', 'U', [0, 1, 2, 3]);
    expect(seqsOf(await bounded.journal.readTurn('T'))).toEqual([2, 3, 4, 5]);
    await recordSeqs(bounded, 's', 'V', [0, 1, 2, 3]);
    expect(await client.exists(`${prefix}journal:turn:T`)).toBe(0);
  });
});

describe('journalTtlMs: each entry is kept that long after it was written', () => {
  it('readTurn and readSession agree: an old turn is gone from both; the next append removes it', async () => {
    const { prefix, stores } = open({ journalTtlMs: 2000 });
    await recordSeqs(stores, 's', 'T1', [0, 1]);
    await sleep(1000);
    await recordSeqs(stores, 's', 'T2', [0, 1]);
    await sleep(1100); // T1's entries are past 2,000 ms old, T2's about 1,100 ms
    expect(await stores.journal.readTurn('T1')).toEqual({ entries: [], ignored: [] });
    expect(seqsOf(await stores.journal.readTurn('T2'))).toEqual([0, 1]);
    const session = await stores.journal.readSession('s');
    expect([turnsOf(session), session.ignored]).toEqual([['T2'], []]);
    await recordSeqs(stores, 's', 'T3', [0]);
    expect(await client.xLen(`${prefix}journal:session:s`)).toBe(3);
    expect(turnsOf(await stores.journal.readSession('s'))).toEqual(['T2', 'T3']);
  });
});

describe('corrupt journal keys', () => {
  it('a wrong-typed session stream is moved aside where no session key can be, never over another', async () => {
    const { prefix, errors, stores } = open();
    await recordSeqs(stores, 'g:corrupt', 'R', [0, 1]); // a real session named `g:corrupt`
    for (const [round, turnId] of [
      [1, 'A'],
      [2, 'B'],
    ] as const) {
      await client.set(`${prefix}journal:session:g`, `garbage ${round}`);
      await recordSeqs(stores, 'g', turnId, [0]);
    }
    expect(seqsOf(await stores.journal.readSession('g:corrupt'))).toEqual([0, 1]);
    // The second garbage replaced the stream A was written to: B's entry is what is left.
    expect(turnsOf(await stores.journal.readSession('g'))).toEqual(['B']);
    const aside = (await client.keys(`${prefix}corrupt:*`)).sort();
    expect(aside).toHaveLength(2);
    expect(await Promise.all(aside.map((name) => client.get(name)))).toEqual(
      expect.arrayContaining(['garbage 1', 'garbage 2']),
    );
    expect(errors).toEqual(
      aside.map((name) => `redis store: ${prefix}journal:session:g held a string, not a stream (moved to ${name})`),
    );
  });

  it('readTurn reports a wrong-typed turn key or a corrupt index entry in `ignored`, never throws', async () => {
    const { prefix, stores } = open();
    await client.set(`${prefix}journal:turn:T1`, 'garbage');
    expect(await stores.journal.readTurn('T1')).toEqual({
      entries: [],
      ignored: [`${prefix}journal:turn:T1 holds a string, not a hash`],
    });
    await recordSeqs(stores, 's', 'T2', [0, 1]);
    await client.hSet(`${prefix}journal:turn:T2`, '1', 'nonsense');
    const read = await stores.journal.readTurn('T2');
    expect([seqsOf(read), read.ignored]).toEqual([
      [0],
      [`${prefix}journal:turn:T2 (seq 1): "nonsense" is not a stream id`],
    ]);
    // An id of the right shape that is no stream id (past 64 bits) loses that row, not the turn.
    await client.hSet(`${prefix}journal:turn:T2`, '1', '99999999999999999999999-0');
    const big = await stores.journal.readTurn('T2');
    expect([seqsOf(big), big.ignored]).toEqual([
      [0],
      [`${prefix}journal:turn:T2 (seq 1): "99999999999999999999999-0" is not a stream id`],
    ]);
  });

  it("a turn's index pointing at another turn's entry (another session's) lists nothing of it", async () => {
    const { prefix, stores } = open();
    await recordSeqs(stores, 'alice', 'TA', [0]);
    await recordSeqs(stores, 'bob', 'TB', [0]);
    const aliceId = await client.hGet(`${prefix}journal:turn:TA`, '0');
    await client.hSet(`${prefix}journal:turn:TB`, { _session: 'alice', '0': aliceId! });
    const read = await stores.journal.readTurn('TB');
    expect(read.entries).toEqual([]);
    expect(read.ignored).toEqual([
      `${prefix}journal:session:alice ${aliceId} (seq 0): an entry of turn TA (seq 0), not of this one`,
    ]);
  });
});
