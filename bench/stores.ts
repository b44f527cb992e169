/**
 * Store bench: what a durable store adds to a turn, and how fast each journal sink drains.
 *
 * 1. Per-turn overhead at 1,000 tools: `beginTurn` (reads the session) + one `load_tool` (writes
 *    it) + `end` (writes the touches), for the in-memory store (the floor), SQLite on a temp file
 *    (better-sqlite3, WAL) and Redis on loopback (a redis-server this bench starts). Each turn
 *    loads another tool into one session, so the snapshot is full (`maxLoadedPerSession` 12) and
 *    every write evicts. Reported as µs (median) and as a ratio to the floor measured in the run.
 * 2. Journal throughput: entries/s a sink writes (record → acknowledged by `flush()`), batches of
 *    the default size, for SQLite and Redis.
 *
 *   node --import tsx bench/stores.ts        → table on stdout, JSON on stderr
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import {
  createCapabilityHost,
  type DeferredToolSessionStore,
  type JournalEntry,
  type JournalSink,
  type ManifestTool,
} from '@zhin-gen/runtime';
import { redisStores } from '@zhin-gen/runtime/redis';
import { type SqliteDatabase, sqliteStores } from '@zhin-gen/runtime/sqlite';

const TOOLS = 1000;
const TURNS = 400;
const ENTRIES = 20_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function tools(n: number): ManifestTool[] {
  return Array.from({ length: n }, (_, i) => ({
    qualifiedName: `tool${i}`,
    localName: `tool${i}`,
    owner: '',
    placement: 'plugin' as const,
    description: `numbered tool ${i}`,
    inputSchema: { type: 'object', properties: {} },
    requiresApproval: 'never' as const,
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    keywords: [],
    source: `tools/tool${i}/index.ts`,
    load: () => Promise.reject(new Error('not imported by this bench')),
  }));
}

async function turnCost(sessions: DeferredToolSessionStore | undefined): Promise<number> {
  const host = createCapabilityHost({
    ...(sessions ? { sessions } : {}),
    config: { deferredTools: { maxLoadedPerSession: 12 } },
  });
  await host.load({
    version: 1,
    plugins: [{ owner: '', dir: '.', conditionalTools: [] }],
    tools: tools(TOOLS),
    skills: [],
    agents: [],
    promptSections: [],
    hooks: [],
  });
  const times: number[] = [];
  for (let i = 0; i < TURNS + 50; i++) {
    const started = performance.now();
    const turn = await host.beginTurn({ sessionKey: 'bench' });
    await turn.execute('load_tool', { name: `tool${i % TOOLS}` });
    await turn.end();
    if (i >= 50) times.push((performance.now() - started) * 1000); // first 50: warm-up
  }
  await host.close();
  return median(times);
}

function entry(i: number): JournalEntry {
  return Object.freeze({
    type: 'tool_result',
    seq: i,
    toolName: 'weather',
    toolUseId: `use${i}`,
    turnId: `turn${Math.floor(i / 100)}`,
    generation: 1,
    at: Date.now(),
    output: { city: 'Hangzhou', temperature: 21, summary: 'light rain in the afternoon' },
    durationMs: 3,
    executionMs: 2,
    afterAbort: false,
  });
}

async function journalRate(sink: JournalSink & { flush(): Promise<unknown> }): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < ENTRIES; i++)
    sink.record({ ...entry(i), seq: i % 100 } as JournalEntry, { sessionKey: `s${i % 10}`, traceId: 't' });
  await sink.flush();
  return Math.round(ENTRIES / ((performance.now() - started) / 1000));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zhin-bench-stores-'));
  const port = await freePort();
  const redis = spawn('/usr/bin/redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ]);
  await new Promise<void>((resolve) =>
    redis.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Ready') && resolve()),
  );
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDatabase;
  try {
    const floor = await turnCost(undefined);
    const sqlite = sqliteStores(new Database(join(dir, 'bench.db')));
    const sqliteUs = await turnCost(sqlite.sessions);
    const redisSet = redisStores(client, { prefix: 'bench:' });
    const redisUs = await turnCost(redisSet.sessions);
    const sqliteRate = await journalRate(sqliteStores(new Database(join(dir, 'journal.db'))).journal.sink);
    const redisRate = await journalRate(redisStores(client, { prefix: 'benchj:' }).journal.sink);
    const rows = [
      ['memory (floor)', floor, 1],
      ['sqlite', sqliteUs, sqliteUs / floor],
      ['redis (loopback)', redisUs, redisUs / floor],
    ] as const;
    console.log(`per turn at ${TOOLS} tools (beginTurn + load_tool + end), median of ${TURNS}:`);
    for (const [name, us, ratio] of rows)
      console.log(`  ${name.padEnd(18)} ${us.toFixed(0).padStart(6)} µs  ×${ratio.toFixed(2)}`);
    console.log(`journal throughput (${ENTRIES} entries, record → flush):`);
    console.log(`  sqlite             ${sqliteRate.toLocaleString('en')} entries/s`);
    console.log(`  redis (loopback)   ${redisRate.toLocaleString('en')} entries/s`);
    console.error(
      JSON.stringify({
        tools: TOOLS,
        turnUs: { memory: floor, sqlite: sqliteUs, redis: redisUs },
        journalPerSecond: { sqlite: sqliteRate, redis: redisRate },
      }),
    );
  } finally {
    await client.quit().catch(() => undefined);
    redis.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
