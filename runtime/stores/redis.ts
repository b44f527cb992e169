/**
 * `@zhin-gen/runtime/redis`: sessions, `once` approvals and the journal in Redis, shared by every
 * bot instance that uses the same server and prefix (docs/stores.md). The host creates and
 * connects the client (the official `redis` package; anything with `sendCommand(args)` works)
 * and passes it in, so the runtime imports no driver and no Node built-in. Every read and write
 * of the store's keys is one Lua script (EVALSHA, reloaded after a server restart), so writes
 * from several instances merge atomically on the server; every call has a timeout, and a call
 * that fails or times out is a fault the runtime fails closed on. A call that timed out may
 * still reach the server later (a stalled socket, node-redis's offline queue): session merges
 * and journal appends are safe to land late; an approval write is refused by the server once
 * it is late or a revocation came after it (see `remember`). Approvals expire by the server's
 * `TIME`, never an instance's own clock.
 */
import {
  unexpiringApprovalCounts,
  type DeferredToolSessionSnapshot,
  type DeferredToolSessionStore,
  splitScopeKey,
} from '../index.js';
import { createBufferedJournalSink, type JournalBufferOptions, type JournalRecord } from './journal-buffer.js';
import { asArray, fieldsOf, missingBecause, type Row, STREAM_ID, text } from './redis-reply.js';
import {
  APPEND_FIELDS,
  APPEND_HEADER,
  APPROVAL_GET,
  APPROVAL_REMEMBER,
  APPROVAL_REVOKE,
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
  seqGaps,
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
  /** A `once` approval expires this long after it was given, by the server's clock. Default: never. */
  readonly approvalTtlMs?: number;
  /**
   * Each journal entry is kept this long after it was written: reads leave older entries out,
   * the session's next append removes them, and a key with no newer entry expires. Default: kept.
   */
  readonly journalTtlMs?: number;
  /** Keep the newest this many entries per session (older ones leave their turn's index too). Default: all. */
  readonly journalMaxLenPerSession?: number;
  /** Per call; a slower answer counts as a failure. Default 1,000 ms. */
  readonly timeoutMs?: number;
  /** Journal buffering (bound, batch size, retry). */
  readonly journal?: JournalBufferOptions;
  /**
   * Not used: approval expiry follows the server's `TIME`, the clock every instance shares (an
   * instance's own clock set ahead would stretch its approvals on all the others). Accepted so
   * options written for the SQLite store still fit.
   */
  readonly clock?: () => number;
  /** Problems no turn owns: keys replaced as corrupt by a write, journal write failures and drops. */
  readonly onError?: (error: Error) => void;
}

/** An approval's expiry as `remember` writes it: a decimal time in ms. */
const EXPIRY = /^\d{1,16}(?:\.\d+)?$/;
/**
 * The longest an approval write may take to reach the server and still be kept (less when
 * `timeoutMs` is shorter). A revocation is kept twice as long, so it outlives every write that
 * was decided before it.
 */
const REMEMBER_WINDOW_MS = 60_000;
const REVOCATION_KEEP_MS = 2 * REMEMBER_WINDOW_MS;
/** Monotonic ms (a wall clock set back would stretch a write's deadline). */
const monotonic = (): number => globalThis.performance?.now() ?? Date.now();
/** Opens the stores on a connected client. */
export function redisStores(client: RedisCommandClient, options: RedisStoreOptions = {}): DurableStores {
  const prefix = options.prefix ?? 'zhin:';
  const timeoutMs = positive(options.timeoutMs, 'timeoutMs', 1000)!;
  const sessionTtl = positive(options.sessionTtlMs, 'sessionTtlMs', undefined) ?? 0;
  const approvalTtl = positive(options.approvalTtlMs, 'approvalTtlMs', undefined);
  const journalTtl = positive(options.journalTtlMs, 'journalTtlMs', undefined) ?? 0;
  const maxLen = positive(options.journalMaxLenPerSession, 'journalMaxLenPerSession', undefined) ?? 0;
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
  const evaluate = (what: string, script: string, keys: readonly string[], args: readonly string[], ms = timeoutMs) =>
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
      ms,
      `redis ${what}`,
    );
  const report = (notes: unknown): string[] => {
    const list = Array.isArray(notes) ? notes.map((note) => text(note) ?? String(note)) : [];
    for (const note of list) onError(new Error(`redis store: ${note}`));
    return list;
  };

  const write = async (
    session: string,
    loaded: Readonly<Record<string, number>>,
    drop: readonly string[],
    skills: readonly string[],
  ): Promise<string[]> => {
    const tools = Object.entries(loaded).flatMap(([name, at]) => [name, String(at)]);
    const args = [String(sessionTtl), String(tools.length / 2), ...tools, ...drop, ...skills];
    return report(await evaluate('session merge', SESSION_MERGE, [key.tools(session), key.skills(session)], args));
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
    // A plain write drops everything stored in the same script (a corrupt key, a merge meanwhile).
    async set(session, snapshot) {
      await write(session, snapshot.loadedTools, ['-1'], snapshot.loadedSkills);
    },
    merge: (session, update) =>
      write(session, update.tools, [String(update.drop.length), ...update.drop], update.skills),
  };

  const approvals: ApprovalStore = {
    async has(scopeKey) {
      const { sessionKey, toolName } = splitScopeKey(scopeKey);
      const name = key.approvals(sessionKey);
      const [type, value, now, givenAt] = asArray(
        await evaluate('approval read', APPROVAL_GET, [name], [toolName]),
        'approval',
      );
      if (text(type) === 'none') return false;
      if (text(type) !== 'hash') throw new CorruptStoreValueError(`${name} holds a ${text(type)}, not a hash`);
      const stored = text(value);
      if (stored === undefined) return false;
      if (stored === 'never') return unexpiringApprovalCounts(approvalTtl);
      // Only what `remember` writes (a decimal time) is an expiry: `Number` would take hex, blanks, exponents.
      const expiry = EXPIRY.test(stored) ? Number(stored) : Number.NaN;
      if (!Number.isFinite(expiry))
        throw new CorruptStoreValueError(`${name} field ${toolName}: "${stored.slice(0, 40)}" is not an expiry`);
      // The server's time, as the expiry is: instances' own clocks need not agree.
      const serverNow = Number(text(now));
      if (!Number.isFinite(serverNow)) throw new Error('redis approval read: no server time');
      if (expiry <= serverNow) return false;
      if (approvalTtl === undefined) return true;
      // This instance's TTL, from when the approval was given: a TTL shortened in a deploy
      // shortens approvals given before it. One written by an earlier version has no time of
      // its own: it is asked again (once), never granted for longer than this TTL allows.
      const given = text(givenAt);
      if (given === undefined) return false;
      if (!EXPIRY.test(given))
        throw new CorruptStoreValueError(`${name} field ${toolName}: "${given.slice(0, 40)}" is not a time`);
      return Number(given) + approvalTtl > serverNow;
    },
    async remember(scopeKey) {
      const { sessionKey, toolName } = splitScopeKey(scopeKey);
      const name = key.approvals(sessionKey);
      const started = monotonic();
      // The server's time before anything is sent: a revocation that comes later (on any host:
      // the server's clock is the one they share) refuses this write, wherever it is held.
      const now = asArray(await withTimeout(() => client.sendCommand(['TIME']), timeoutMs, 'redis time'), 'TIME');
      const [seconds, micros] = now.map((part) => Number(text(part)));
      if (!Number.isSafeInteger(seconds) || !Number.isSafeInteger(micros)) throw new Error('redis TIME: not a time');
      const decidedAt = seconds! * 1e6 + micros!;
      // The write may land only while this call still waits for it: once it is reported as timed
      // out (asked again next time) it must never grant later, so the server refuses it past this.
      const budget = Math.min(Math.floor(timeoutMs - (monotonic() - started)), REMEMBER_WINDOW_MS);
      if (budget <= 0) throw new Error(`redis approval write timed out after ${timeoutMs} ms`);
      // The expiry is `decidedAt` + approvalTtlMs, computed by the script (approvalExpiry's rule).
      const args = [toolName, String(approvalTtl ?? 0), String(decidedAt), String(decidedAt + budget * 1000)];
      const [outcome, notes] = asArray(
        await evaluate('approval write', APPROVAL_REMEMBER, [name], args, budget),
        'approval write',
      );
      report(notes);
      if (text(outcome) === 'revoked') throw new Error(`${name}: revoked while the approval was being written`);
      if (text(outcome) !== 'kept') throw new Error(`${name}: the approval reached Redis after ${budget} ms`);
    },
    async forgetSession(sessionKey) {
      // Not a DEL: the revocation's time stays with the session, so a write decided before it
      // that is still on its way (a stalled socket, an offline queue) is refused when it lands.
      await evaluate('approval revoke', APPROVAL_REVOKE, [key.approvals(sessionKey)], [String(REVOCATION_KEEP_MS)]);
    },
  };

  const writeBatch = async (batch: readonly JournalRecord[]) => {
    const keys: string[] = [];
    const args = [String(maxLen), String(journalTtl), prefix];
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
    if (args.length !== APPEND_HEADER + batch.length * APPEND_FIELDS)
      throw new Error('journal batch: field count mismatch');
    const [, notes] = asArray(await evaluate('journal append', JOURNAL_APPEND, keys, args), 'journal append');
    report(notes);
  };

  /** `gaps`: entries missing inside a turn (seqGaps), reported after the rows. */
  const decode = (rows: readonly Row[], gaps: readonly string[]): JournalReadResult => {
    const entries: StoredJournalEntry[] = [];
    const ignored: string[] = [];
    for (const { where, fields, missing, expect } of rows) {
      if (!fields) {
        ignored.push(`${where}: ${missing ?? 'missing'}`);
        continue;
      }
      const entry = decodeEntry(fields['entry'], where);
      if (typeof entry === 'string') ignored.push(entry);
      else if (entry.turnId !== fields['turn'] || String(entry.seq) !== fields['seq'])
        ignored.push(`${where}: entry does not match its turn / seq fields`);
      // A turn's index pointing into another turn (or another session's stream) lists nothing of it.
      else if (expect !== undefined && (entry.turnId !== expect.turnId || entry.seq !== expect.seq))
        ignored.push(`${where}: an entry of turn ${entry.turnId} (seq ${entry.seq}), not of this one`);
      else {
        const principal = decodePrincipal(fields['principal']);
        const stored = { entry, sessionKey: fields['session'] ?? '', traceId: fields['trace'] ?? '' };
        entries.push(Object.freeze({ ...stored, ...(principal !== undefined ? { principal } : {}) }));
      }
    }
    return Object.freeze({ entries: Object.freeze(entries), ignored: Object.freeze([...ignored, ...gaps]) });
  };
  const none = (...ignored: string[]): JournalReadResult => Object.freeze({ entries: [], ignored });

  const journal: JournalStore = {
    sink: createBufferedJournalSink(writeBatch, { ...options.journal, onError: options.journal?.onError ?? onError }),
    async readTurn(turnId) {
      // One script: the turn hash is read with its type checked first (a wrong-typed key is
      // reported in `ignored`, never a WRONGTYPE error), then its session's stream.
      const turnKey = key.turn(turnId);
      const [type, session, streamType, items] = asArray(
        await evaluate('journal read', JOURNAL_TURN, [turnKey], ['', String(journalTtl), prefix]),
        'journal turn',
      ).map((item) => (Array.isArray(item) ? item : text(item)));
      if (type === 'none') return none();
      if (type !== 'hash') return none(`${turnKey} holds a ${type}, not a hash`);
      if (typeof session !== 'string') return none(`${turnKey}: no _session field`);
      const stream = key.stream(session);
      if (streamType !== 'stream' && streamType !== 'none') return none(`${stream} holds a ${streamType}`);
      const rows = asArray(items, 'journal turn')
        .map((item) => asArray(item, 'journal turn row'))
        .map(([seq, id, fields]) => ({ seq: Number(text(seq)), id: text(id), fields: fieldsOf(fields) }))
        .sort((a, b) => a.seq - b.seq);
      return decode(
        rows.map((row) => ({
          where: STREAM_ID.test(row.id ?? '') ? `${stream} ${row.id} (seq ${row.seq})` : `${turnKey} (seq ${row.seq})`,
          fields: row.fields && { ...row.fields, session },
          missing: missingBecause(row.id, streamType),
          expect: { turnId, seq: row.seq },
        })),
        // Every seq the turn hash knows (trimmed and corrupt ones are reported above, not as gaps).
        seqGaps(
          () => turnKey,
          rows.map((row) => ({ turnId, seq: row.seq })),
          true,
        ),
      );
    },
    async readSession(sessionKey, readOptions = {}) {
      const limit = positive(readOptions.limit, 'limit', 1000)!;
      const stream = key.stream(sessionKey);
      const [type, items] = asArray(
        await evaluate('journal read', JOURNAL_SESSION, [stream], [String(limit), String(journalTtl), prefix]),
        'journal session',
      );
      if (text(type) === 'none') return none();
      if (text(type) !== 'stream') return none(`${stream} holds a ${text(type)}`);
      const rows = asArray(items, 'journal session')
        .map((item) => asArray(item, 'journal session row'))
        .reverse()
        .map(([id, fields]): Row => {
          const parsed = fieldsOf(fields);
          return { where: `${stream} ${text(id)}`, fields: parsed && { ...parsed, session: sessionKey } };
        });
      const known = rows.map((row) => ({ turnId: row.fields?.['turn'], seq: row.fields?.['seq'] }));
      return decode(
        rows,
        seqGaps((turnId) => `${stream} turn ${turnId}`, known, false),
      );
    },
  };

  return Object.freeze({
    sessions,
    approvals,
    journal,
    host: Object.freeze({ sessions, approvalMemory: approvals, journal: journal.sink }),
  });
}
