/**
 * A turn's loaded tools (docs/catalog.md). Several principals may share one session (a group
 * chat), so what the session stores can hold tools this turn may not list. A turn's loaded set is
 * the `maxLoadedPerSession` most recently touched of the stored tools it may list; the others stay
 * stored, untouched. Nothing is ever evicted from the store for a bound: an eviction by one
 * principal's bound would take tools out of another's set, and hint how many tools the first
 * loaded that the second may not see. A write carries the turn's loaded set and what it loaded or
 * used, never a stored tool outside its set: the store keeps those by the merge's newest-wins rule,
 * and a set the store lost meanwhile (an expired session key) is written back whole.
 */
import type { SessionUpdate } from './session-store.js';

/**
 * How far ahead of this instance's clock a stored time may be (instances' clocks differ a little).
 * One further ahead is dropped with a report: every load would stamp after it and still sort
 * older, and the store keeps the greater time, so one bad value would freeze the session's set.
 */
export const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

/** Newest first; equal times keep the name that sorts last (the one the old LRU evicted last). */
function newestFirst(a: readonly [string, number], b: readonly [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0);
}

export class LoadedTools {
  /** Tool name → last touched (ms since the epoch): every stored tool this turn holds, listed or not. */
  readonly #times = new Map<string, number>();
  /** The names this turn may list: the only ones its bound looks at. */
  readonly #listable = new Set<string>();
  readonly #touched = new Set<string>();
  /** This turn's loaded set (name → last touched, oldest first): one map, refilled in place. */
  readonly visible = new Map<string, number>();
  #lastIssued = 0;

  constructor(
    private readonly max: number,
    private readonly clock: () => number,
  ) {}

  /** Every stored tool this turn holds (a fork starts from them all: its scope may list others). */
  get all(): ReadonlyMap<string, number> {
    return this.#times;
  }

  /** A stored entry, as read at the start of the turn (not loaded until `count` finds it listed). */
  restore(name: string, at: number): void {
    this.#times.set(name, at);
    this.#lastIssued = Math.max(this.#lastIssued, at);
  }

  /** The stored names this turn may list: its loaded set is the newest of them. */
  count(listed: Iterable<string>): void {
    for (const name of listed) if (this.#times.has(name)) this.#listable.add(name);
    this.#refill();
  }

  /** `name` loaded now (this turn may list it). */
  load(name: string): void {
    this.#stamp(name);
    this.#listable.add(name);
    this.#refill();
  }

  /** A use of a tool of the loaded set refreshes its time; false when it is not in the set. */
  touch(name: string): boolean {
    if (!this.visible.has(name)) return false;
    this.#stamp(name);
    this.#refill();
    return true;
  }

  /** What this turn writes: its loaded set, its loads and uses, its skills and the names its generation lacks. */
  update(skills: readonly string[], drop: readonly string[]): SessionUpdate {
    const names = new Set([...this.visible.keys(), ...this.#touched]);
    // Entries, never assignments: a tool may be named `__proto__`.
    const tools = Object.fromEntries([...names].map((name) => [name, this.#times.get(name)!]));
    return { tools, skills, drop };
  }

  #stamp(name: string): void {
    // Strictly increasing within a turn, so the order of a turn's touches is its set's order.
    this.#times.set(name, (this.#lastIssued = Math.max(this.clock(), this.#lastIssued + 1)));
    this.#touched.add(name);
  }

  #refill(): void {
    const newest = [...this.#listable]
      .map((name): [string, number] => [name, this.#times.get(name)!])
      .sort(newestFirst)
      .slice(0, this.max)
      .reverse();
    this.visible.clear();
    for (const [name, at] of newest) this.visible.set(name, at);
  }
}
