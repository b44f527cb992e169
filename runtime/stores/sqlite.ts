/**
 * `@zhin-gen/runtime/sqlite`: sessions, `once` approvals and the journal in one SQLite file, for
 * one durable instance (docs/stores.md). The host opens the database with better-sqlite3 and
 * passes it in, so the runtime imports no driver and no Node built-in. Session writes run the
 * shared merge rule inside an immediate transaction, so processes sharing the file never lose a
 * load either. Calls are synchronous (better-sqlite3): each is a few microseconds on a local file.
 */
import {
  approvalExpiry,
  unexpiringApprovalCounts,
  type DeferredToolSessionSnapshot,
  type DeferredToolSessionStore,
  type JournalEntry,
  mergeSnapshot,
  readSnapshot,
  splitScopeKey,
} from '../index.js';
import { createBufferedJournalSink, type JournalBufferOptions, type JournalRecord } from './journal-buffer.js';
import {
  type ApprovalStore,
  CorruptStoreValueError,
  decodeEntry,
  decodePrincipal,
  type DurableStores,
  encodeEntry,
  encodeJson,
  type JournalReadResult,
  type JournalStore,
  positive,
  seqGaps,
  type StoredJournalEntry,
} from './shared.js';
import { migrate, type SqliteDatabase, type SqliteStatement } from './sqlite-schema.js';

export type { SqliteDatabase, SqliteStatement } from './sqlite-schema.js';
export { SCHEMA_VERSION } from './sqlite-schema.js';

export interface SqliteStoreOptions {
  /** A session's snapshot is forgotten this long after its last write. Default: kept. */
  readonly sessionTtlMs?: number;
  /** A `once` approval expires this long after it was given. Default: never. */
  readonly approvalTtlMs?: number;
  /** Journal buffering (bound, batch size, retry). */
  readonly journal?: JournalBufferOptions;
  /** Wall clock for TTLs. Default `Date.now`. */
  readonly clock?: () => number;
}

export interface SqliteStores extends DurableStores {
  /** Deletes expired sessions and approvals; returns how many rows went. */
  prune(): Promise<number>;
}

interface JournalRow {
  readonly id: number;
  readonly turn_id: unknown;
  readonly seq: unknown;
  readonly session_key: unknown;
  readonly trace_id: unknown;
  readonly principal: unknown;
  readonly entry: unknown;
}

const run = <T>(fn: () => T): Promise<T> => {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
};

/** Opens (creates, migrates) the stores on `db`, a better-sqlite3 `Database`. */
export function sqliteStores(db: SqliteDatabase, options: SqliteStoreOptions = {}): SqliteStores {
  const sessionTtl = positive(options.sessionTtlMs, 'sessionTtlMs', undefined);
  const approvalTtl = positive(options.approvalTtlMs, 'approvalTtlMs', undefined);
  const clock = options.clock ?? Date.now;
  // WAL: readers never wait for the writer; another process can share the file.
  db.pragma('journal_mode = WAL');
  migrate(db);
  const sql = (text: string): SqliteStatement => db.prepare(text);
  const q = {
    session: sql('SELECT snapshot, expires_at FROM zhin_sessions WHERE session_key = ?'),
    putSession: sql(
      `INSERT INTO zhin_sessions (session_key, snapshot, updated_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_key) DO UPDATE SET snapshot = excluded.snapshot, updated_at = excluded.updated_at,
       expires_at = excluded.expires_at`,
    ),
    approval: sql('SELECT approved_at, expires_at FROM zhin_approvals WHERE session_key = ? AND tool = ?'),
    putApproval: sql(
      `INSERT INTO zhin_approvals (session_key, tool, approved_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (session_key, tool) DO UPDATE SET approved_at = excluded.approved_at, expires_at = excluded.expires_at`,
    ),
    forget: sql('DELETE FROM zhin_approvals WHERE session_key = ?'),
    append: sql(
      `INSERT OR IGNORE INTO zhin_journal (turn_id, seq, session_key, trace_id, principal, tool, type, at, duration_ms, entry)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    turn: sql('SELECT * FROM zhin_journal WHERE turn_id = ? ORDER BY seq'),
    sessionJournal: sql('SELECT * FROM zhin_journal WHERE session_key = ? ORDER BY id DESC LIMIT ?'),
    pruneSessions: sql('DELETE FROM zhin_sessions WHERE expires_at IS NOT NULL AND expires_at <= ?'),
    pruneApprovals: sql('DELETE FROM zhin_approvals WHERE expires_at IS NOT NULL AND expires_at <= ?'),
  };

  /** The stored snapshot, `undefined`, or the reason the row is not one. */
  function readRow(key: string): { value: unknown; problem?: string } {
    const row = q.session.get(key) as { snapshot: unknown; expires_at: unknown } | undefined;
    if (!row) return { value: undefined };
    if (typeof row.expires_at === 'number' && row.expires_at <= clock()) return { value: undefined };
    if (typeof row.snapshot !== 'string') return { value: undefined, problem: 'session row: snapshot is not text' };
    try {
      return { value: JSON.parse(row.snapshot) as unknown };
    } catch {
      return { value: undefined, problem: 'session row: snapshot is not JSON' };
    }
  }
  const writeRow = (key: string, snapshot: DeferredToolSessionSnapshot) => {
    const now = clock();
    q.putSession.run(key, encodeJson(snapshot), now, sessionTtl === undefined ? null : now + sessionTtl);
  };

  const sessions: DeferredToolSessionStore = {
    get: (key) =>
      run(() => {
        const read = readRow(key);
        if (read.problem) throw new CorruptStoreValueError(`${read.problem} (ignored)`);
        return read.value as DeferredToolSessionSnapshot | undefined;
      }),
    set: (key, snapshot) => run(() => writeRow(key, snapshot)),
    merge: (key, update) =>
      run(() =>
        db
          .transaction(() => {
            const read = readRow(key);
            const stored = readSnapshot(read.value);
            writeRow(key, mergeSnapshot(stored, update));
            return read.problem ? [`${read.problem} (replaced)`, ...stored.problems] : stored.problems;
          })
          .immediate(),
      ),
  };

  const approvals: ApprovalStore = {
    has: (scopeKey) =>
      run(() => {
        const { sessionKey, toolName } = splitScopeKey(scopeKey);
        const row = q.approval.get(sessionKey, toolName) as { approved_at: unknown; expires_at: unknown } | undefined;
        if (!row) return false;
        if (row.expires_at === null) return unexpiringApprovalCounts(approvalTtl);
        for (const column of ['approved_at', 'expires_at'] as const)
          if (typeof row[column] !== 'number')
            throw new CorruptStoreValueError(`approval row of "${toolName}": ${column} is not a number`);
        // This store's TTL too, from when it was given: a TTL shortened since shortens it.
        const now = clock();
        return (
          (row.expires_at as number) > now &&
          (approvalTtl === undefined || (row.approved_at as number) + approvalTtl > now)
        );
      }),
    remember: (scopeKey) =>
      run(() => {
        const { sessionKey, toolName } = splitScopeKey(scopeKey);
        const now = clock();
        q.putApproval.run(sessionKey, toolName, now, approvalExpiry(now, approvalTtl) ?? null);
      }),
    forgetSession: (sessionKey) => run(() => void q.forget.run(sessionKey)),
  };

  const writeBatch = (batch: readonly JournalRecord[]) =>
    db
      .transaction(() => {
        for (const record of batch) {
          const { entry } = record;
          const timing = 'durationMs' in entry ? entry.durationMs : null;
          q.append.run(
            entry.turnId,
            entry.seq,
            record.sessionKey,
            record.traceId,
            record.principal === undefined ? null : encodeJson(record.principal),
            entry.toolName,
            entry.type,
            entry.at,
            timing,
            encodeEntry(entry),
          );
        }
      })
      .immediate();

  /** `wholeTurn`: the rows are all of one turn (seqGaps). */
  const decodeRows = (rows: readonly JournalRow[], wholeTurn: boolean): JournalReadResult => {
    const entries: StoredJournalEntry[] = [];
    const ignored: string[] = [];
    for (const row of rows) {
      const decoded = decodeEntry(row.entry, `journal row ${row.id}`);
      if (typeof decoded === 'string') ignored.push(decoded);
      else if (decoded.turnId !== row.turn_id || decoded.seq !== row.seq)
        ignored.push(`journal row ${row.id}: entry does not match its turn_id / seq columns`);
      else if (typeof row.session_key !== 'string' || typeof row.trace_id !== 'string')
        ignored.push(`journal row ${row.id}: session_key / trace_id is not text`);
      else entries.push(storedEntry(decoded, row));
    }
    const known = rows.map((row) => ({ turnId: row.turn_id, seq: row.seq }));
    ignored.push(...seqGaps((turnId) => `journal turn ${turnId}`, known, wholeTurn));
    return Object.freeze({ entries: Object.freeze(entries), ignored: Object.freeze(ignored) });
  };

  const journal: JournalStore = {
    sink: createBufferedJournalSink(writeBatch, options.journal),
    readTurn: (turnId) => run(() => decodeRows(q.turn.all(turnId) as JournalRow[], true)),
    readSession: (sessionKey, readOptions = {}) =>
      run(() => {
        const limit = positive(readOptions.limit, 'limit', 1000)!;
        return decodeRows((q.sessionJournal.all(sessionKey, limit) as JournalRow[]).reverse(), false);
      }),
  };

  return Object.freeze({
    sessions,
    approvals,
    journal,
    host: Object.freeze({ sessions, approvalMemory: approvals, journal: journal.sink }),
    prune: () =>
      run(() => {
        const now = clock();
        return q.pruneSessions.run(now).changes + q.pruneApprovals.run(now).changes;
      }),
  });
}

function storedEntry(entry: JournalEntry, row: JournalRow): StoredJournalEntry {
  const principal = decodePrincipal(row.principal);
  return Object.freeze({
    entry,
    sessionKey: row.session_key as string,
    traceId: row.trace_id as string,
    ...(principal !== undefined ? { principal } : {}),
  });
}
