/**
 * Real servers and processes for the store tests: a `redis-server` on a free loopback port in a
 * temp dir (no persistence), a connected node-redis client, a better-sqlite3 database, and host
 * processes (host-process.ts under tsx) that talk to the test over stdin/stdout lines.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { afterAll } from 'vitest';
import type { SqliteDatabase } from '../../../runtime/stores/sqlite.js';
import { REPO, tempDir } from '../../helpers.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is saved). */
  start(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = tempDir('redis');
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      // Nothing is saved there (--save '', no AOF): the folder exists only while the server runs.
      mkdirSync(dir, { recursive: true });
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
      const proc = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = proc;
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      proc.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${output}`));
      });
      // No binary (a machine without Debian's redis-server; .ci/run installs it): a test failure
      // that says so, not an uncaught spawn error, and no folder left in test/tmp.
      proc.once('error', (error) => {
        clearTimeout(timer);
        rmSync(dir, { recursive: true, force: true });
        reject(new Error(`${REDIS_SERVER} could not be started (${error.message}): install redis-server`));
      });
    });
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        const proc = child;
        const done = (): void => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (!proc || proc.exitCode !== null) return done();
        proc.once('exit', done);
        proc.kill('SIGTERM');
      }),
  };
}

/**
 * A TCP proxy in front of a redis-server whose client side can stall the way a real link does:
 * what a client sends while held is kept, not lost, and delivered in order on `release()`
 * (replies always flow). `cut()` drops every connection and refuses new ones, so node-redis
 * sees the server gone and queues commands offline until `restore()`.
 */
export interface StallingProxy {
  readonly url: string;
  /** Holds what clients send from the first chunk `match` accepts (default: any) on. */
  hold(match?: (chunk: string) => boolean): void;
  /** Bytes held so far. */
  held(): number;
  /** Delivers everything held, in order, and stops holding. */
  release(): void;
  cut(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number): Promise<StallingProxy> {
  interface Pair {
    readonly client: Socket;
    readonly server: Socket;
    holding: boolean;
    readonly queue: Buffer[];
  }
  const pairs = new Set<Pair>();
  let match: ((chunk: string) => boolean) | undefined;
  let down = false;
  const proxy = createServer((client) => {
    const pair: Pair = { client, server: connect(targetPort, '127.0.0.1'), holding: false, queue: [] };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (!pair.holding && match?.(chunk.toString('latin1'))) pair.holding = true;
      if (pair.holding) pair.queue.push(chunk);
      else pair.server.write(chunk);
    });
    pair.server.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      pair.server.destroy();
    };
    for (const socket of [client, pair.server]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  const listen = (at: number) =>
    new Promise<number>((resolve, reject) => {
      proxy.once('error', reject);
      proxy.listen(at, '127.0.0.1', () => {
        proxy.off('error', reject);
        const address = proxy.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  const port = await listen(0);
  return {
    url: `redis://127.0.0.1:${port}`,
    hold: (accept = () => true) => void (match = accept),
    held: () => [...pairs].reduce((sum, pair) => sum + pair.queue.reduce((n, chunk) => n + chunk.length, 0), 0),
    release() {
      match = undefined;
      for (const pair of pairs) {
        pair.holding = false;
        for (const chunk of pair.queue.splice(0)) pair.server.write(chunk);
      }
    },
    // As a server that went away: connections drop, and new ones are refused (not accepted and
    // dropped, which node-redis would take for a server that is back).
    cut() {
      if (down) return;
      down = true;
      proxy.close();
      for (const pair of pairs) pair.client.destroy();
    },
    async restore() {
      if (!down) return;
      down = false;
      await listen(port);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) pair.client.destroy();
        if (down) resolve();
        else proxy.close(() => resolve());
      }),
  };
}

/** A connected client that reconnects quickly and never crashes the test on a connection error. */
export async function redisClient(url: string, errors: string[] = []) {
  const client = createClient({ url, socket: { reconnectStrategy: () => 50, connectTimeout: 1000 } });
  client.on('error', (error: Error) => errors.push(error.message));
  await client.connect();
  return client;
}

export type TestRedisClient = Awaited<ReturnType<typeof redisClient>>;

const require = createRequire(import.meta.url);
type DatabaseConstructor = new (
  file: string,
  options?: { readonly timeout?: number },
) => SqliteDatabase & {
  close(): void;
};
export const Database = require('better-sqlite3') as DatabaseConstructor;

/** Folders of the database files made for the importing test file: removed after its tests. */
const sqliteDirs: string[] = [];
afterAll(() => {
  for (const dir of sqliteDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function sqliteFile(prefix = 'sqlite'): string {
  const dir = tempDir(prefix);
  sqliteDirs.push(dir);
  return join(dir, 'bot.db');
}

/** A host process (host-process.ts) driven by JSON lines: one request, one reply. */
export interface HostProcess {
  readonly pid: number;
  request<T = Record<string, unknown>>(command: Record<string, unknown>): Promise<T>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startHost(config: Record<string, unknown>): Promise<HostProcess> {
  const script = join(REPO, 'test', 'runtime', 'stores', 'host-process.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(config)], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  const early: string[] = [];
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else early.push(line);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const queued = early.shift();
      if (queued !== undefined) return resolve(queued);
      waiting.push(resolve);
      void exited.then((code) => reject(new Error(`host process exited (${code}): ${stderr}`)));
    });
  const ready = JSON.parse(await nextLine()) as { ready?: boolean };
  if (ready.ready !== true) throw new Error(`host process did not start: ${stderr}`);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    pid: child.pid!,
    request<T>(command: Record<string, unknown>): Promise<T> {
      // One request at a time per process: replies come back in order.
      const run = queue.then(async () => {
        child.stdin!.write(`${JSON.stringify(command)}\n`);
        const reply = JSON.parse(await nextLine()) as T & { error?: string };
        if (reply.error !== undefined) throw new Error(`host process: ${reply.error}`);
        return reply;
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
    },
  };
}
