/**
 * The SQLite stores on real files (better-sqlite3): the schema is created and migrated by the
 * store (version table; a newer file is refused), sessions / approvals / journal round-trip,
 * corrupt rows are ignored with a recorded reason, a locked database is failed closed on and the
 * journal waits for it, and a host process killed with SIGKILL keeps everything acknowledged.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ApprovalPort, createCapabilityHost, type HostConfig } from '../../../runtime/index.js';
import { SCHEMA_VERSION, sqliteStores } from '../../../runtime/stores/sqlite.js';
import type { JournalReadResult } from '../../../runtime/stores/shared.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest } from '../fixture.js';
import { Database, type HostProcess, sqliteFile, startHost } from './servers.js';

const tools = Array.from({ length: 6 }, (_, i) => catalogTool(`tool${i}`, { description: `numbered tool ${i}` }));
const deploy = catalogTool('deploy', { description: 'deploy', requiresApproval: 'once' });
const config: HostConfig = { deferredTools: { maxLoadedPerSession: 3 } };
const open: { close(): void }[] = [];
const db = (file: string, timeout = 5000) => {
  const handle = new Database(file, { timeout });
  open.push(handle);
  return handle;
};
const processes: HostProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((item) => item.kill()));
  for (const handle of open) handle.close();
});
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

describe('sqlite schema', () => {
  it('creates the schema in a new file, records the version, reopens without migrating again', () => {
    const file = sqliteFile();
    sqliteStores(db(file));
    const check = db(file);
    expect(check.prepare('SELECT version FROM zhin_schema').all()).toEqual([{ version: SCHEMA_VERSION }]);
    const tables = check.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables.map((row) => (row as { name: string }).name)).toEqual(
      expect.arrayContaining(['zhin_approvals', 'zhin_journal', 'zhin_schema', 'zhin_sessions']),
    );
    expect(() => sqliteStores(db(file))).not.toThrow();
    expect(check.prepare('SELECT count(*) AS n FROM zhin_schema').get()).toEqual({ n: 1 });
  });

  it('refuses a file written by a newer schema, with what to do', () => {
    const file = sqliteFile();
    sqliteStores(db(file));
    db(file)
      .prepare('UPDATE zhin_schema SET version = ?')
      .run(SCHEMA_VERSION + 1);
    expect(() => sqliteStores(db(file))).toThrow(
      `SQLite store: the database is at schema version ${SCHEMA_VERSION + 1}, newer than this runtime's ${SCHEMA_VERSION}; upgrade @zhin-gen/runtime or use another file`,
    );
  });
});

describe('sqlite stores', () => {
  it('sessions, approvals and the journal survive a new database handle (a restarted host)', async () => {
    const file = sqliteFile();
    const first = sqliteStores(db(file));
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...first.host, config });
    await host.load(manifest({ tools: [...tools, deploy] }));
    const port = yes();
    const turn = await host.beginTurn({ sessionKey: 'chat', approval: port, principal: { userId: 'u1' } });
    for (const name of ['tool1', 'tool2', 'tool3', 'tool4']) await turn.execute('load_tool', { name });
    expect((await turn.execute('deploy', { at: 1 })).status).toBe('completed');
    await turn.end();
    expect((await first.journal.sink.flush()).written).toBe(10);

    const second = sqliteStores(db(file));
    const again = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...second.host, config });
    await again.load(manifest({ tools: [...tools, deploy] }));
    const next = await again.beginTurn({ sessionKey: 'chat', unattended: true });
    // LRU bound 3: tool1 (the oldest) was evicted.
    expect(Object.keys(next.deferred.snapshot().loadedTools).sort()).toEqual(['tool2', 'tool3', 'tool4']);
    expect((await next.execute('deploy', {})).status).toBe('completed');
    await next.end();
    const read = await second.journal.readTurn(turn.id);
    expect(read.entries.map((item) => item.entry)).toEqual([...turn.journal]);
    expect(read.entries[0]).toMatchObject({ sessionKey: 'chat', traceId: turn.traceId, principal: { userId: 'u1' } });
    expect((await second.journal.readSession('chat', { limit: 2 })).entries.map((item) => item.entry.type)).toEqual([
      'tool_call',
      'tool_result',
    ]);
  });

  it('approvals expire after approvalTtlMs; prune deletes expired rows; revoke is per session', async () => {
    let now = 1_000;
    const stores = sqliteStores(db(sqliteFile()), { approvalTtlMs: 500, sessionTtlMs: 800, clock: () => now });
    await stores.approvals.remember('a:deploy');
    await stores.approvals.remember('b:deploy');
    await stores.sessions.set('a', { loadedTools: { tool1: 1 }, loadedSkills: [] });
    now = 1_499;
    expect(await stores.approvals.has('a:deploy')).toBe(true);
    now = 1_500;
    expect(await stores.approvals.has('a:deploy')).toBe(false);
    await stores.approvals.remember('a:deploy');
    await stores.approvals.forgetSession('a');
    expect([await stores.approvals.has('a:deploy'), await stores.approvals.has('b:deploy')]).toEqual([false, false]);
    now = 1_800;
    expect(await stores.sessions.get('a')).toBeUndefined();
    expect(await stores.prune()).toBe(2); // session a, approval b
  });

  it('a TTL shortened since an approval was given shortens that approval too', async () => {
    const file = sqliteFile();
    let now = 10_000;
    const clock = () => now;
    await sqliteStores(db(file), { approvalTtlMs: 30 * 86_400_000, clock }).approvals.remember('a:deploy');
    const tightened = sqliteStores(db(file), { approvalTtlMs: 2_000, clock });
    now = 11_999;
    expect(await tightened.approvals.has('a:deploy')).toBe(true);
    now = 12_000;
    expect(await tightened.approvals.has('a:deploy')).toBe(false);
    // Under the TTL it was given with, it still counts: each store applies its own.
    expect(await sqliteStores(db(file), { approvalTtlMs: 30 * 86_400_000, clock }).approvals.has('a:deploy')).toBe(
      true,
    );
  });

  it('an approval kept without expiry stops counting once the store has an approvalTtlMs', async () => {
    const file = sqliteFile();
    await sqliteStores(db(file)).approvals.remember('a:deploy');
    expect(await sqliteStores(db(file)).approvals.has('a:deploy')).toBe(true);
    // The operator sets a TTL: the old approval is asked again once, then kept with an expiry.
    const bounded = sqliteStores(db(file), { approvalTtlMs: 500 });
    expect(await bounded.approvals.has('a:deploy')).toBe(false);
    await bounded.approvals.remember('a:deploy');
    expect(await bounded.approvals.has('a:deploy')).toBe(true);
  });

  it('corrupt rows are ignored with the reason, never trusted, and a write replaces them', async () => {
    const file = sqliteFile();
    const stores = sqliteStores(db(file));
    const raw = db(file);
    raw.prepare("INSERT INTO zhin_sessions VALUES ('chat', '{not json', 0, NULL)").run();
    raw.prepare("INSERT INTO zhin_approvals VALUES ('chat', 'deploy', 0, 'soon')").run();
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools: [...tools, deploy] }));
    const turn = await host.beginTurn({ sessionKey: 'chat', unattended: true });
    expect(await turn.execute('deploy', {})).toMatchObject({ status: 'denied', policy: 'approval' });
    await turn.execute('load_tool', { name: 'tool5' });
    await turn.end();
    expect(turn.diagnostics.map((item) => `${item.source}: ${item.message}`)).toEqual([
      'sessions: deferred tools: reading session "chat" failed: session row: snapshot is not JSON (ignored)',
      'approvals: approval memory failed for "deploy": approval row of "deploy": expires_at is not a number (treated as not approved)',
      'sessions: deferred tools: session "chat": ignored a stored value: session row: snapshot is not JSON (replaced)',
    ]);
    expect(await stores.sessions.get('chat')).toEqual({ loadedTools: { tool5: expect.any(Number) }, loadedSkills: [] });

    raw
      .prepare('UPDATE zhin_sessions SET snapshot = ?')
      .run('{"loadedTools":{"tool5":"yesterday"},"loadedSkills":[7]}');
    const next = await host.beginTurn({ sessionKey: 'chat' });
    expect(next.deferred.snapshot().loadedTools).toEqual({});
    expect(next.diagnostics.map((item) => item.message)).toEqual([
      'deferred tools: session "chat": ignored a stored value: loadedTools.tool5 is not a finite number',
      'deferred tools: session "chat": ignored a stored value: loadedSkills holds a value that is not a string',
    ]);
    await next.end();
    await stores.journal.sink.flush();
    raw.prepare("UPDATE zhin_journal SET entry = '[1]' WHERE seq = 0").run();
    const read = await stores.journal.readTurn(turn.id);
    expect(read.ignored).toEqual([expect.stringMatching(/^journal row \d+: entry is not an object$/)]);
    expect(read.entries.map((item) => item.entry.seq)).toEqual([1, 2, 3]);
  });

  it('a database locked by another writer: loads and approvals are not kept (asked again), the journal waits', async () => {
    const file = sqliteFile();
    const stores = sqliteStores(db(file, 0), { journal: { retryMs: 20 } });
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...stores.host, config });
    await host.load(manifest({ tools: [...tools, deploy] }));
    const port = yes();
    const first = await host.beginTurn({ sessionKey: 's', approval: port });
    await first.execute('load_tool', { name: 'tool0' });
    await first.end();
    await stores.journal.sink.flush();

    // Another process's writer holds the lock (WAL: reading still works, writing does not).
    const other = db(file);
    other.exec('BEGIN EXCLUSIVE');
    const locked = await host.beginTurn({ sessionKey: 's', approval: port });
    expect(Object.keys(locked.deferred.snapshot().loadedTools)).toEqual(['tool0']);
    await locked.execute('load_tool', { name: 'tool1' });
    expect((await locked.execute('deploy', {})).status).toBe('completed');
    await locked.end();
    expect(locked.diagnostics.map((item) => `${item.source}: ${item.message}`)).toEqual([
      'sessions: deferred tools: writing session "s" failed: database is locked',
      'approvals: approval memory failed to remember "deploy": database is locked',
    ]);
    const waiting = await stores.journal.sink.flush({ timeoutMs: 100 });
    expect(waiting).toMatchObject({ buffered: 4, dropped: 0, written: 2 });
    expect(waiting.lastError).toBe('database is locked');

    other.exec('COMMIT');
    expect(await stores.journal.sink.flush({ timeoutMs: 5000 })).toMatchObject({ buffered: 0, written: 6 });
    expect((await stores.journal.readTurn(locked.id)).entries).toHaveLength(4);
    const after = await host.beginTurn({ sessionKey: 's', approval: port });
    expect(Object.keys(after.deferred.snapshot().loadedTools)).toEqual(['tool0']); // tool1 was never stored
    expect((await after.execute('deploy', {})).status).toBe('completed');
    expect(port.asked).toBe(2); // not remembered while locked: asked again
    await after.end();
  });

  it('two host processes on one file, 50 concurrent turns loading different tools: no load is lost', async () => {
    const file = sqliteFile('sqlite-pair');
    sqliteStores(db(file)); // migrate once before both start
    const [a, b] = await Promise.all([
      startHost({ store: 'sqlite', file, tools: 60, maxLoadedPerSession: 64 }),
      startHost({ store: 'sqlite', file, tools: 60, maxLoadedPerSession: 64 }),
    ]);
    processes.push(a, b);
    const turns = (from: number) =>
      Array.from({ length: 25 }, (_, i) => ({ op: 'turn', session: 'busy', load: [`tool${from + i}`] }));
    type Reply = { turns: { diagnostics: string[] }[] };
    const replies = await Promise.all([
      a.request<Reply>({ op: 'turns', turns: turns(0) }),
      b.request<Reply>({ op: 'turns', turns: turns(25) }),
    ]);
    expect(replies.flatMap((reply) => reply.turns.flatMap((turn) => turn.diagnostics))).toEqual([]);
    const after = await b.request<{ restored: string[] }>({ op: 'turn', session: 'busy' });
    expect(after.restored).toEqual(Array.from({ length: 50 }, (_, i) => `tool${i}`).sort());
  });

  it('a host process killed with SIGKILL and started again keeps sessions, approvals and acknowledged entries', async () => {
    const file = sqliteFile('sqlite-kill');
    const first = await startHost({ store: 'sqlite', file, tools: 8 });
    processes.push(first);
    await first.request({ op: 'turn', session: 's', load: ['tool6'] });
    const approved = await first.request<{ turnId: string }>({
      op: 'turn',
      session: 's',
      call: { name: 'deploy' },
      approve: true,
    });
    expect(await first.request({ op: 'flush' })).toMatchObject({ stats: { buffered: 0, written: 4 } });
    await first.kill('SIGKILL');
    const second = await startHost({ store: 'sqlite', file, tools: 8 });
    processes.push(second);
    const turn = await second.request<{ restored: string[]; asked: number; outcomes: { status: string }[] }>({
      op: 'turn',
      session: 's',
      call: { name: 'deploy' },
      unattended: true,
    });
    expect([turn.restored, turn.outcomes[0]?.status, turn.asked]).toEqual([['tool6'], 'completed', 0]);
    const read = await second.request<JournalReadResult>({ op: 'readTurn', turnId: approved.turnId });
    expect(read.entries.map((item) => item.entry.type)).toEqual(['tool_call', 'tool_result']);
  });
});
