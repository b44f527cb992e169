/**
 * Per-session loaded state (SPEC §7.3): `DeferredToolSessionSnapshot` through a pluggable store.
 * Keyed by the turn's `sessionKey`, never by an IM message. The in-memory store is the default;
 * hosts persist elsewhere by implementing `get` / `set` (sync or async).
 */

export interface DeferredToolSessionSnapshot {
  /** Loaded tool name → last touched (ms since epoch). Always-loaded tools never appear here. */
  readonly loadedTools: Readonly<Record<string, number>>;
  readonly loadedSkills: readonly string[];
}

export interface DeferredToolSessionStore {
  get(sessionKey: string): DeferredToolSessionSnapshot | undefined | Promise<DeferredToolSessionSnapshot | undefined>;
  set(sessionKey: string, snapshot: DeferredToolSessionSnapshot): void | Promise<void>;
}

export const EMPTY_SNAPSHOT: DeferredToolSessionSnapshot = Object.freeze({
  loadedTools: Object.freeze({}),
  loadedSkills: Object.freeze([]),
});

/** Copies on the way in and out, so no caller can mutate what another turn will read. */
export function createMemorySessionStore(): DeferredToolSessionStore {
  const sessions = new Map<string, DeferredToolSessionSnapshot>();
  return {
    get: (key) => sessions.get(key),
    set: (key, snapshot) => {
      sessions.set(key, freezeSnapshot(snapshot.loadedTools, snapshot.loadedSkills));
    },
  };
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

/** A defensive read of whatever a host store returned (it may be hand-written JSON). */
export function readSnapshot(value: unknown): { tools: Map<string, number>; skills: string[] } {
  const tools = new Map<string, number>();
  const skills: string[] = [];
  if (typeof value !== 'object' || value === null) return { tools, skills };
  const raw = value as { loadedTools?: unknown; loadedSkills?: unknown };
  if (typeof raw.loadedTools === 'object' && raw.loadedTools !== null) {
    for (const [name, at] of Object.entries(raw.loadedTools as Record<string, unknown>)) {
      if (typeof at === 'number' && Number.isFinite(at)) tools.set(name, at);
    }
  }
  if (Array.isArray(raw.loadedSkills))
    for (const name of raw.loadedSkills) if (typeof name === 'string') skills.push(name);
  return { tools, skills };
}

/**
 * Least-recently-used eviction down to `max`: oldest `lastTouched` first; equal times evict the
 * name that sorts first, so the order is deterministic. Returns the evicted names.
 */
export function evictLeastRecentlyUsed(tools: Map<string, number>, max: number): string[] {
  if (tools.size <= max) return [];
  const order = [...tools.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const evicted = order.slice(0, tools.size - max).map(([name]) => name);
  for (const name of evicted) tools.delete(name);
  return evicted;
}
