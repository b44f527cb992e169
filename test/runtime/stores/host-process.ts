/**
 * A bot host in its own process, for the store tests: `createCapabilityHost` over the runtime
 * sources with Redis or SQLite stores, driven by JSON lines on stdin (one reply line each). The
 * manifest is hand-built: `tool0…toolN` (deferred, `never`), `deploy` (`once` approval).
 *   node --import tsx host-process.ts '{"store":"redis","url":"redis://…","tools":50}'
 */
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import {
  type ApprovalPort,
  createCapabilityHost,
  type HostConfig,
  type ManifestTool,
  type ToolOutcome,
} from '../../../runtime/index.js';
import { redisStores } from '../../../runtime/stores/redis.js';
import { type SqliteDatabase, sqliteStores } from '../../../runtime/stores/sqlite.js';
import type { DurableStores } from '../../../runtime/stores/shared.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { createRequire } from 'node:module';

interface Config {
  readonly store: 'redis' | 'sqlite';
  readonly url?: string;
  readonly file?: string;
  readonly prefix?: string;
  readonly tools?: number;
  readonly maxLoadedPerSession?: number;
  readonly timeoutMs?: number;
  readonly approvalTtlMs?: number;
}

interface TurnCommand {
  readonly op: 'turn';
  readonly session: string;
  readonly load?: readonly string[];
  readonly call?: { readonly name: string; readonly input?: unknown };
  /** What the approval port answers; absent: the turn has no port. */
  readonly approve?: boolean;
  readonly unattended?: boolean;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const errors: string[] = [];

async function open(): Promise<DurableStores> {
  if (config.store === 'redis') {
    const client = createClient({ url: config.url!, socket: { reconnectStrategy: () => 50, connectTimeout: 1000 } });
    client.on('error', (error: Error) => errors.push(`client: ${error.message}`));
    await client.connect();
    return redisStores(client, {
      prefix: config.prefix ?? 'test:',
      timeoutMs: config.timeoutMs ?? 1000,
      ...(config.approvalTtlMs ? { approvalTtlMs: config.approvalTtlMs } : {}),
      journal: { retryMs: 50 },
      onError: (error) => errors.push(error.message),
    });
  }
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteDatabase;
  return sqliteStores(new Database(config.file!), { journal: { retryMs: 50 } });
}

const stores = await open();
const tools: ManifestTool[] = Array.from({ length: config.tools ?? 8 }, (_, i) =>
  catalogTool(`tool${i}`, { description: `numbered tool ${i}` }),
);
tools.push(catalogTool('deploy', { description: 'deploy the bot', requiresApproval: 'once' }));
const hostConfig: HostConfig = { deferredTools: { maxLoadedPerSession: config.maxLoadedPerSession ?? 12 } };
const host = createCapabilityHost({
  jsonSchemaValidator: ajvValidator(),
  ...stores.host,
  config: hostConfig,
  onError: (error) => errors.push(error.message),
});
await host.load(manifest({ tools }));

async function turn(command: TurnCommand) {
  let asked = 0;
  const approval: ApprovalPort = {
    requestApproval: async () => {
      asked += 1;
      return command.approve === true;
    },
  };
  const current = await host.beginTurn({
    sessionKey: command.session,
    principal: { adapter: 'qq', userId: `u-${process.pid}` },
    ...(command.approve !== undefined ? { approval } : {}),
    ...(command.unattended ? { unattended: true } : {}),
  });
  const restored = Object.keys(current.deferred.snapshot().loadedTools).sort();
  const outcomes: ToolOutcome[] = [];
  for (const name of command.load ?? []) outcomes.push(await current.execute('load_tool', { name }));
  if (command.call) outcomes.push(await current.execute(command.call.name, command.call.input ?? {}));
  const snapshot = current.deferred.snapshot();
  await current.end();
  return {
    turnId: current.id,
    restored,
    snapshot,
    outcomes,
    asked,
    diagnostics: current.diagnostics.map((item) => `${item.source}: ${item.message}`),
    journal: current.journal.length,
  };
}

async function handle(command: Record<string, unknown>): Promise<unknown> {
  switch (command['op']) {
    case 'turn':
      return turn(command as unknown as TurnCommand);
    case 'turns':
      // Concurrent turns of this process (the interleaving test).
      return { turns: await Promise.all((command['turns'] as TurnCommand[]).map((item) => turn(item))) };
    case 'flush':
      return { stats: await stores.journal.sink.flush({ timeoutMs: Number(command['timeoutMs'] ?? 5000) }) };
    case 'stats':
      return { stats: stores.journal.sink.stats(), errors };
    case 'readTurn':
      return stores.journal.readTurn(String(command['turnId']));
    case 'readSession':
      return stores.journal.readSession(String(command['session']));
    case 'revoke':
      await stores.approvals.forgetSession(String(command['session']));
      return { ok: true };
    default:
      throw new Error(`unknown op ${String(command['op'])}`);
  }
}

const lines = createInterface({ input: process.stdin });
let queue: Promise<void> = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    let reply: unknown;
    try {
      reply = await handle(JSON.parse(line) as Record<string, unknown>);
    } catch (error) {
      reply = { error: error instanceof Error ? error.message : String(error) };
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`);
  });
});
lines.on('close', () => process.exit(0));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
