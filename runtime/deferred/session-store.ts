/**
 * Per-session loaded state: `DeferredToolSessionSnapshot` through a pluggable store. Keyed by the
 * turn's `sessionKey`, never by an IM message. The in-memory store is the default; hosts persist
 * elsewhere by implementing `get` / `set` (sync or async), and a store shared by several
 * processes also implements `merge`, so the merge rule below runs inside its atomic step
 * (docs/stores.md).
 */

import { describeError } from '../generation/capability.js';
export interface DeferredToolSessionSnapshot {
  /** Loaded tool name → last touched (ms since epoch). Always-loaded tools never appear here. */
  readonly loadedTools: Readonly<Record<string, number>>;
  readonly loadedSkills: readonly string[];
}

/**
 * What one turn writes back (deferred/loaded-tools.ts): the tools it loaded or used, its skills,
 * and the names its generation no longer has.
 */
export interface SessionUpdate {
  /** Tool name → last touched (ms since epoch): the tools this turn loaded or used. */
  readonly tools: Readonly<Record<string, number>>;
  readonly skills: readonly string[];
  /** Stored tool and skill names this turn's generation does not have (or never counts): removed. */
  readonly drop: readonly string[];
}

export interface DeferredToolSessionStore {
  get(sessionKey: string): DeferredToolSessionSnapshot | undefined | Promise<DeferredToolSessionSnapshot | undefined>;
  set(sessionKey: string, snapshot: DeferredToolSessionSnapshot): void | Promise<void>;
  /**
   * Applies `mergeSnapshot` to the stored value atomically (no other write between its read and
   * its write). Without it the turn re-reads with `get`, merges and writes with `set`, which loses
   * one of two concurrent writers in different processes. Resolves to the reasons of stored
   * values it ignored as corrupt (empty when none).
   */
  merge?(sessionKey: string, update: SessionUpdate): readonly string[] | Promise<readonly string[]>;
}

export const EMPTY_SNAPSHOT: DeferredToolSessionSnapshot = Object.freeze({
  loadedTools: Object.freeze({}),
  loadedSkills: Object.freeze([]),
});

export interface MemorySessionStoreOptions {
  /**
   * Sessions kept, the least recently used forgotten first (a forgotten session's turns load
   * their tools again). Default 10,000: a long-running bot's one-off chats never pile up.
   */
  readonly maxSessions?: number;
}

/** Copies on the way in and out, so no caller can mutate what another turn will read. */
export function createMemorySessionStore(
  options: MemorySessionStoreOptions = {},
): DeferredToolSessionStore & { readonly size: number } {
  const max = options.maxSessions ?? 10_000;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('maxSessions must be an integer ≥ 1');
  /** In order of last use: re-inserted on each, the first is the one to forget. */
  const sessions = new Map<string, DeferredToolSessionSnapshot>();
  const put = (key: string, snapshot: DeferredToolSessionSnapshot): void => {
    sessions.delete(key);
    sessions.set(key, snapshot);
    if (sessions.size > max) sessions.delete(sessions.keys().next().value!);
  };
  return {
    get: (key) => {
      const snapshot = sessions.get(key);
      if (snapshot !== undefined) put(key, snapshot);
      return snapshot;
    },
    set: (key, snapshot) => put(key, freezeSnapshot(snapshot.loadedTools, snapshot.loadedSkills)),
    // One thread: a read and a write with no await between them are atomic.
    merge: (key, update) => {
      const stored = readSnapshot(sessions.get(key));
      put(key, mergeSnapshot(stored, update));
      return stored.problems;
    },
    /** Sessions held, for a host's metrics. */
    get size() {
      return sessions.size;
    },
  };
}

/**
 * THE merge rule of a session write, for every store (the Redis script implements the same steps
 * and a differential test keeps the two equal): drop the names the writer's generation lacks;
 * per tool the newest touch wins; skills are the union, stored ones first. Nothing is evicted for
 * a bound: each turn's loaded set is the newest `maxLoadedPerSession` of the stored tools it may
 * list (deferred/loaded-tools.ts), so principals sharing a session never evict each other's
 * tools. What the store holds is bounded by the generation's tools (names it lacks are dropped).
 */
export function mergeSnapshot(
  stored: { readonly tools: ReadonlyMap<string, number>; readonly skills: readonly string[] },
  update: SessionUpdate,
): DeferredToolSessionSnapshot {
  const drop = new Set(update.drop);
  const tools = new Map<string, number>();
  for (const [name, at] of stored.tools) if (!drop.has(name)) tools.set(name, at);
  for (const [name, at] of Object.entries(update.tools)) tools.set(name, Math.max(at, tools.get(name) ?? at));
  const skills = [...stored.skills.filter((name) => !drop.has(name)), ...update.skills];
  return freezeSnapshot(tools, skills);
}

export function freezeSnapshot(
  tools: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  skills: Iterable<string>,
): DeferredToolSessionSnapshot {
  const entries =
    tools instanceof Map ? [...tools.entries()] : Object.entries(tools as Readonly<Record<string, number>>);
  return Object.freeze({
    loadedTools: Object.freeze(Object.fromEntries(entries)),
    loadedSkills: Object.freeze([...new Set(skills)]),
  });
}

/**
 * A defensive read of whatever a host store returned (it may be hand-written JSON): what is not
 * a snapshot is ignored, and `problems` says what and why (the turn records it).
 */
export function readSnapshot(value: unknown): { tools: Map<string, number>; skills: string[]; problems: string[] } {
  const tools = new Map<string, number>();
  const skills: string[] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { tools, skills, problems };
  if (typeof value !== 'object') return { tools, skills, problems: [`snapshot is a ${typeof value}, not an object`] };
  const raw = value as { loadedTools?: unknown; loadedSkills?: unknown };
  if (typeof raw.loadedTools === 'object' && raw.loadedTools !== null && !Array.isArray(raw.loadedTools)) {
    for (const [name, at] of Object.entries(raw.loadedTools as Record<string, unknown>)) {
      if (typeof at === 'number' && Number.isFinite(at)) tools.set(name, at);
      else problems.push(`loadedTools.${name} is not a finite number`);
    }
  } else if (raw.loadedTools !== undefined) problems.push('loadedTools is not an object');
  if (Array.isArray(raw.loadedSkills)) {
    for (const name of raw.loadedSkills)
      if (typeof name === 'string') skills.push(name);
      else problems.push('loadedSkills holds a value that is not a string');
  } else if (raw.loadedSkills !== undefined) problems.push('loadedSkills is not an array');
  return { tools, skills, problems };
}

/**
 * A session as a turn starts from it (deferred/controller.ts): what cannot be trusted is reported
 * and left out — a time after `latest` is listed in `future`, for the turn's writes to remove —
 * and a read that fails is an empty session (fail closed), reported too.
 */
export async function readStoredSession(
  store: DeferredToolSessionStore | undefined,
  sessionKey: string,
  latest: number,
  problem: (what: string, error?: unknown) => void,
): Promise<{ tools: Map<string, number>; skills: readonly string[]; future: readonly string[] }> {
  const ignored = (reason: string) => problem(`session "${sessionKey}": ignored a stored value: ${reason}`);
  let read = readSnapshot(undefined);
  try {
    if (store) read = readSnapshot(await store.get(sessionKey));
  } catch (error) {
    problem(`reading session "${sessionKey}" failed: ${describeError(error)}`, error);
  }
  read.problems.forEach(ignored);
  const future = [...read.tools].filter(([, at]) => at > latest).map(([name]) => name);
  for (const name of future) {
    ignored(`loadedTools.${name} is dated after this clock allows`);
    read.tools.delete(name);
  }
  return { tools: read.tools, skills: read.skills, future };
}
