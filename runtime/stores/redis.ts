/**
 * `@zhin-gen/runtime/redis`: sessions, `once` approvals and the journal in Redis, shared by every
 * bot instance that uses the same server and prefix (docs/stores.md). The host creates and
 * connects the client (the official `redis` package; anything with `sendCommand(args)` works)
 * and passes it in, so the runtime imports no driver and no Node built-in. Every operation is
 * one Lua script (EVALSHA, reloaded after a server restart), so writes from several instances
 * merge atomically on the server; every call has a timeout, and a call that fails or times out
 * is a fault the runtime fails closed on.
 */
import {
  approvalExpiry,
  type DeferredToolSessionSnapshot,
  type DeferredToolSessionStore,
  splitScopeKey,
} from '../index.js';
import { createBufferedJournalSink, type JournalBufferOptions, type JournalRecord } from './journal-buffer.js';
import {
  APPEND_FIELDS,
  APPROVAL_GET,
  APPROVAL_REMEMBER,
  JOURNAL_APPEND,
  JOURNAL_SESSION,
  JOURNAL_TURN,
  SESSION_GET,
  SESSION_MERGE,
} from './redis-scripts.js';
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
  messageOf,
  positive,
  type StoredJournalEntry,
  withTimeout,
} from './shared.js';

/** What the store needs of a client: node-redis's `sendCommand` (a `RedisClientType` fits). */
export interface RedisCommandClient {
  sendCommand(args: readonly string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prepended to every key. Default `'zhin:'`; give each bot (or environment) its own. */
  readonly prefix?: string;
  /** Session keys expire this long after the session's last write. Default: never. */
  readonly sessionTtlMs?: number;
  /** A `once` approval expires this long after it was given. Default: never. */
  readonly approvalTtlMs?: number;
  /** Journal keys expire this long after a session's last entry. Default: never. */
  readonly journalTtlMs?: number;
  /** Keep about this many entries per session stream (`XADD MAXLEN ~`). Default: all. */
  readonly journalMaxLenPerSession?: number;
  /** Per call; a slower answer counts as a failure. Default 1,000 ms. */
  readonly timeoutMs?: number;
  /** Journal buffering (bound, batch size, retry). */
  readonly journal?: JournalBufferOptions;
  /** Wall clock for approval expiry. Default `Date.now`. */
  readonly clock?: () => number;
  /** Problems no turn owns: keys replaced as corrupt by a write, journal write failures and drops. */
  readonly onError?: (error: Error) => void;
}

type Reply = readonly unknown[];

const asArray = (value: unknown, what: string): Reply => {
  if (!Array.isArray(value)) throw new CorruptStoreValueError(`${what}: unexpected reply from Redis`);
  return value;
};
/** An approval's expiry as `remember` writes it: a decimal time in ms. */
const EXPIRY = /^\d{1,16}(?:\.\d+)?$/;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : value instanceof Uint8Array ? new TextDecoder().decode(value) : undefined;

/** A flat `[field, value, …]` reply as an object (string values only). */
function fieldsOf(value: unknown): Record<string, string> | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < value.length; i += 2) {
    const key = text(value[i]);
    const item = text(value[i + 1]);
    if (key !== undefined && item !== undefined) out[key] = item;
  }
  return out;
}

/** Opens the stores on a connected client. */
export function redisStores(client: RedisCommandClient, options: RedisStoreOptions = {}): DurableStores {
  const prefix = options.prefix ?? 'zhin:';
  const timeoutMs = positive(options.timeoutMs, 'timeoutMs', 1000)!;
  const sessionTtl = positive(options.sessionTtlMs, 'sessionTtlMs', undefined) ?? 0;
  const approvalTtl = positive(options.approvalTtlMs, 'approvalTtlMs', undefined);
  const journalTtl = positive(options.journalTtlMs, 'journalTtlMs', undefined) ?? 0;
  const maxLen = positive(options.journalMaxLenPerSession, 'journalMaxLenPerSession', undefined) ?? 0;
  const clock = options.clock ?? Date.now;
  const onError = options.onError ?? (() => {});
  const key = {
    tools: (session: string) => `${prefix}session:${session}:tools`,
    skills: (session: string) => `${prefix}session:${session}:skills`,
    approvals: (session: string) => `${prefix}approvals:${session}`,
    stream: (session: string) => `${prefix}journal:session:${session}`,
    turn: (turnId: string) => `${prefix}journal:turn:${turnId}`,
  };

  const shas = new Map<string, Promise<string>>();
  const load = (script: string): Promise<string> => {
    let sha = shas.get(script);
    if (!sha) {
      sha = client.sendCommand(['SCRIPT', 'LOAD', script]).then((reply) => {
        const value = text(reply);
        if (value === undefined) throw new Error('SCRIPT LOAD returned no sha');
        return value;
      });
      sha.catch(() => shas.delete(script));
      shas.set(script, sha);
    }
    return sha;
  };
  /** EVALSHA, loading the script first and again after NOSCRIPT (a restarted or flushed server). */
  const evaluate = (what: string, script: string, keys: readonly string[], args: readonly string[]) =>
    withTimeout(
      async () => {
        const call = async () =>
          client.sendCommand(['EVALSHA', await load(script), String(keys.length), ...keys, ...args]);
        try {
          return await call();
        } catch (error) {
          if (!messageOf(error).includes('NOSCRIPT')) throw error;
          shas.delete(script);
          return call();
        }
      },
      timeoutMs,
      `redis ${what}`,
    );
  const report = (notes: unknown): string[] => {
    const list = Array.isArray(notes) ? notes.map((note) => text(note) ?? String(note)) : [];
    for (const note of list) onError(new Error(`redis store: ${note}`));
    return list;
  };

  const sessions: DeferredToolSessionStore = {
    async get(session) {
      const reply = asArray(
        await evaluate('session read', SESSION_GET, [key.tools(session), key.skills(session)], []),
        'session',
      );
      const [toolsType, skillsType, tools, skills] = reply;
      for (const [type, want, name] of [
        [toolsType, 'zset', key.tools(session)],
        [skillsType, 'list', key.skills(session)],
      ] as const)
        if (text(type) !== 'none' && text(type) !== want)
          throw new CorruptStoreValueError(`${name} holds a ${text(type)}, not a ${want} (ignored)`);
      const flat = asArray(tools, 'session tools');
      // Scores come back as text: a non-number is left for readSnapshot to report. Entries, never
      // assignments: a tool may be named `__proto__` (a seam or MCP tool's name allows it).
      const loadedTools: Record<string, unknown> = Object.fromEntries(
        Array.from({ length: flat.length >> 1 }, (_, i) => [text(flat[2 * i]) ?? '', Number(text(flat[2 * i + 1]))]),
      );
      if (text(toolsType) === 'none' && text(skillsType) === 'none') return undefined;
      return { loadedTools, loadedSkills: asArray(skills, 'session skills').map(text) } as DeferredToolSessionSnapshot;
    },
    async set(session, snapshot) {
      // A plain write is a merge that keeps nothing stored: drop every stored name first.
      const current = await sessions.get(session);
      const drop = current ? [...Object.keys(current.loadedTools), ...current.loadedSkills] : [];
      await sessions.merge!(session, {
        tools: snapshot.loadedTools,
        skills: snapshot.loadedSkills,
        drop,
      });
    },
    async merge(session, update) {
      const tools = Object.entries(update.tools);
      const args = [
        String(sessionTtl),
        String(tools.length),
        ...tools.flatMap(([name, at]) => [name, String(at)]),
        String(update.drop.length),
        ...update.drop,
        ...update.skills,
      ];
      return report(await evaluate('session merge', SESSION_MERGE, [key.tools(session), key.skills(session)], args));
    },
  };

  const approvals: ApprovalStore = {
    async has(scopeKey) {
      const { sessionKey, toolName } = splitScopeKey(scopeKey);
      const name = key.approvals(sessionKey);
      const [type, value] = asArray(await evaluate('approval read', APPROVAL_GET, [name], [toolName]), 'approval');
      if (text(type) === 'none') return false;
      if (text(type) !== 'hash') throw new CorruptStoreValueError(`${name} holds a ${text(type)}, not a hash`);
      const stored = text(value);
      if (stored === undefined) return false;
      if (stored === 'never') return true;
      // Only what `remember` writes (a decimal time) is an expiry: `Number` would take hex, blanks, exponents.
      const expiry = EXPIRY.test(stored) ? Number(stored) : Number.NaN;
      if (!Number.isFinite(expiry))
        throw new CorruptStoreValueError(`${name} field ${toolName}: "${stored.slice(0, 40)}" is not an expiry`);
      return expiry > clock();
    },
    async remember(scopeKey) {
      const { sessionKey, toolName } = splitScopeKey(scopeKey);
      const expiry = approvalExpiry(clock(), approvalTtl);
      const args = [toolName, expiry === undefined ? 'never' : String(expiry), String(approvalTtl ?? 0)];
      report(await evaluate('approval write', APPROVAL_REMEMBER, [key.approvals(sessionKey)], args));
    },
    async forgetSession(sessionKey) {
      await withTimeout(
        () => client.sendCommand(['DEL', key.approvals(sessionKey)]),
        timeoutMs,
        'redis approval revoke',
      );
    },
  };

  const writeBatch = async (batch: readonly JournalRecord[]) => {
    const keys: string[] = [];
    const args = [String(maxLen), String(journalTtl)];
    for (const { entry, sessionKey, traceId, principal } of batch) {
      keys.push(key.stream(sessionKey), key.turn(entry.turnId));
      const fields = [
        String(entry.seq),
        sessionKey,
        entry.turnId,
        traceId,
        principal === undefined ? '' : encodeJson(principal),
      ];
      args.push(...fields, entry.toolName, entry.type, String(entry.at), encodeEntry(entry));
    }
    if (args.length !== 2 + batch.length * APPEND_FIELDS) throw new Error('journal batch: field count mismatch');
    const [, notes] = asArray(await evaluate('journal append', JOURNAL_APPEND, keys, args), 'journal append');
    report(notes);
  };

  const decode = (
    rows: readonly { where: string; fields: Record<string, string> | undefined }[],
  ): JournalReadResult => {
    const entries: StoredJournalEntry[] = [];
    const ignored: string[] = [];
    for (const { where, fields } of rows) {
      if (!fields) {
        ignored.push(`${where}: missing (trimmed by MAXLEN or expired)`);
        continue;
      }
      const entry = decodeEntry(fields['entry'], where);
      if (typeof entry === 'string') ignored.push(entry);
      else if (entry.turnId !== fields['turn'] || String(entry.seq) !== fields['seq'])
        ignored.push(`${where}: entry does not match its turn / seq fields`);
      else {
        const principal = decodePrincipal(fields['principal']);
        const stored = { entry, sessionKey: fields['session'] ?? '', traceId: fields['trace'] ?? '' };
        entries.push(Object.freeze({ ...stored, ...(principal !== undefined ? { principal } : {}) }));
      }
    }
    return Object.freeze({ entries: Object.freeze(entries), ignored: Object.freeze(ignored) });
  };

  const journal: JournalStore = {
    sink: createBufferedJournalSink(writeBatch, { ...options.journal, onError: options.journal?.onError ?? onError }),
    async readTurn(turnId) {
      const turnKey = key.turn(turnId);
      const session = text(
        await withTimeout(() => client.sendCommand(['HGET', turnKey, '_session']), timeoutMs, 'redis journal read'),
      );
      if (session === undefined) return Object.freeze({ entries: [], ignored: [] });
      const [type, items] = asArray(
        await evaluate('journal read', JOURNAL_TURN, [turnKey, key.stream(session)], []),
        'journal turn',
      );
      if (text(type) !== 'hash') return Object.freeze({ entries: [], ignored: [`${turnKey} holds a ${text(type)}`] });
      const rows = asArray(items, 'journal turn')
        .map((item) => asArray(item, 'journal turn row'))
        .map(([seq, id, fields]) => ({ seq: Number(text(seq)), id: text(id), fields: fieldsOf(fields) }))
        .sort((a, b) => a.seq - b.seq);
      return decode(
        rows.map((row) => ({
          where: `${key.stream(session)} ${row.id} (seq ${row.seq})`,
          fields: row.fields && { ...row.fields, session },
        })),
      );
    },
    async readSession(sessionKey, readOptions = {}) {
      const limit = positive(readOptions.limit, 'limit', 1000)!;
      const stream = key.stream(sessionKey);
      const [type, items] = asArray(
        await evaluate('journal read', JOURNAL_SESSION, [stream], [String(limit)]),
        'journal session',
      );
      if (text(type) === 'none') return Object.freeze({ entries: [], ignored: [] });
      if (text(type) !== 'stream') return Object.freeze({ entries: [], ignored: [`${stream} holds a ${text(type)}`] });
      const rows = asArray(items, 'journal session')
        .map((item) => asArray(item, 'journal session row'))
        .reverse()
        .map(([id, fields]) => {
          const parsed = fieldsOf(fields);
          return { where: `${stream} ${text(id)}`, fields: parsed && { ...parsed, session: sessionKey } };
        });
      return decode(rows);
    },
  };

  return Object.freeze({
    sessions,
    approvals,
    journal,
    host: Object.freeze({ sessions, approvalMemory: approvals, journal: journal.sink }),
  });
}
