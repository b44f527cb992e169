/**
 * What one compiler's watch-mode runs of the parse and schema stages carry over to the next:
 * the last run's results and schema outcomes, and which units each file can concern, so a save
 * looks up the units its changed files name instead of every unit of the tree.
 *
 * Why it is sound: in watch mode the unit cache answers a lookup from file events alone
 * (`UnitCache.lookup` with `dirty`): an entry is current unless one of the files it stamped is
 * dirty, and entries change only when these two stages store a result or set a schema. So while
 * the units are the same list (the layout memo keeps the object while the tree's shape holds),
 * every unit none of whose files is dirty gets back the very result object, and the very schema
 * outcome, the last run had. The file index here is a superset of what the cache stamps: a
 * unit's own files, its result's dependencies and the sources its schema read (paths are never
 * dropped when a unit stops using them: a stale path costs one lookup that hits, never a result
 * kept wrongly). Anything else — a fresh walk, another unit list, a run that threw — starts over
 * with the full loops.
 *
 * After a full loop the file index is built when a delta asks for it (`plan`), or in idle time
 * a moment after the run (`prepare`), which a compiler disposed by then (a one-shot CLI run)
 * cancels: at 20,000 tools the index (~47,000 paths) cost ~60 ms and its garbage ~17 ms of a
 * one-change run, and a watching compiler's first save would pay it if it waited for the plan.
 */
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import type { SchemaOutcome } from '../schema/types.js';
import type { UnitResult } from './units.js';

/** How long after a full loop the file index waits to be built in idle time. */
const PREPARE_DELAY_MS = 250;

/** A unit's place in the results until its parse fills it (every miss is parsed or the run throws). */
export const PENDING: UnitResult = { diagnostics: [], dependencies: [] };

interface Last {
  readonly units: readonly CapabilityUnit[];
  readonly plugins: Layout['plugins'];
  /** Unit order; patched in place by the next run. */
  readonly results: Map<CapabilityUnit, UnitResult>;
  /** Plugin entry results by plugin directory, in plugin order. */
  readonly entries: Map<string, UnitResult>;
  /** The schema stage's outcomes for `results` (set once it ran on them). */
  outcomes?: Map<CapabilityUnit, SchemaOutcome>;
}

/** The units and plugin entries a watch-mode run must look up, and the last run's maps to patch. */
export interface DeltaPlan {
  readonly units: ReadonlySet<CapabilityUnit>;
  /** Plugin directories whose entry file (or a dependency of it) is dirty. */
  readonly plugins: ReadonlySet<string>;
  readonly results: Map<CapabilityUnit, UnitResult>;
  readonly entries: Map<string, UnitResult>;
}

export class UnitDelta {
  private last?: Last;
  /** File (POSIX, relative) → the units whose cache entry may stamp it. */
  private byFile = new Map<string, CapabilityUnit[]>();
  /** File → plugin directories whose entry's result may depend on it. */
  private entryByFile = new Map<string, string[]>();
  /** The units whose results the current run replaced (the schema stage looks at these only). */
  private fresh?: ReadonlySet<CapabilityUnit>;
  /**
   * This run started the index over (the full loops): every unit comes once, so nothing is
   * checked for duplicates (a file shared by every tool would make that quadratic).
   */
  private full = true;
  /** The last outcomes, taken by a delta plan for the schema stage of the same run. */
  private carried?: Map<CapabilityUnit, SchemaOutcome>;
  /** What a full loop's run left to index, until a delta asks for it (see above). */
  private unindexed?: {
    readonly units: ReadonlySet<CapabilityUnit>;
    readonly results: ReadonlyMap<CapabilityUnit, UnitResult>;
    readonly entries: ReadonlyMap<string, UnitResult>;
    readonly freshEntries: readonly (readonly [dir: string, entry: string])[];
    readonly filesOf: (unit: CapabilityUnit) => readonly string[];
    readonly sources: (readonly [CapabilityUnit, readonly string[]])[];
  };

  private timer?: ReturnType<typeof setTimeout>;

  /** Builds the file index a full loop left for later (idle time, or the next delta's plan). */
  prepare(): void {
    this.cancel();
    const pending = this.unindexed;
    if (!pending) return;
    this.unindexed = undefined;
    for (const unit of pending.units) {
      for (const file of pending.filesOf(unit)) index(this.byFile, file, unit, false);
      for (const file of pending.results.get(unit)?.dependencies ?? []) index(this.byFile, file, unit, false);
    }
    for (const [dir, entry] of pending.freshEntries) {
      index(this.entryByFile, entry, dir, false);
      for (const file of pending.entries.get(dir)?.dependencies ?? []) index(this.entryByFile, file, dir, false);
    }
    for (const [unit, files] of pending.sources) for (const file of files) index(this.byFile, file, unit, false);
  }

  /** Drops the idle-time build (the compiler is disposed); a later plan still builds the index. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Whether the file index is built (for tests: a one-shot run leaves it unbuilt). */
  get indexed(): boolean {
    return this.unindexed === undefined;
  }

  /**
   * What this run must look up, or undefined to run the full loops. Either way the memo is
   * taken: until `parsed` records this run's outcome, nothing carries over (a run that throws
   * leaves no half-patched maps behind for the next one).
   */
  plan(
    units: readonly CapabilityUnit[],
    plugins: Layout['plugins'],
    dirty: ReadonlySet<string> | undefined,
  ): DeltaPlan | undefined {
    const last = this.last;
    this.last = undefined;
    this.fresh = undefined;
    this.carried = undefined;
    if (!last || !dirty || last.units !== units || last.plugins !== plugins || last.outcomes === undefined) {
      this.byFile = new Map();
      this.entryByFile = new Map();
      this.unindexed = undefined;
      this.cancel();
      this.full = true;
      return undefined;
    }
    this.prepare();
    this.full = false;
    this.carried = last.outcomes;
    const named = new Set<CapabilityUnit>();
    const entries = new Set<string>();
    for (const file of dirty) {
      for (const unit of this.byFile.get(file) ?? []) named.add(unit);
      for (const dir of this.entryByFile.get(file) ?? []) entries.add(dir);
    }
    return { units: named, plugins: entries, results: last.results, entries: last.entries };
  }

  /**
   * The parse stage's outcome. `fresh`: the units whose results it replaced (every unit after
   * the full loop), `freshEntries` likewise for plugin entries; their files join the index.
   */
  parsed(
    units: readonly CapabilityUnit[],
    plugins: Layout['plugins'],
    results: Map<CapabilityUnit, UnitResult>,
    entries: Map<string, UnitResult>,
    fresh: Iterable<CapabilityUnit>,
    freshEntries: Iterable<readonly [dir: string, entry: string]>,
    filesOf: (unit: CapabilityUnit) => readonly string[],
  ): void {
    const seen = new Set<CapabilityUnit>(fresh);
    if (this.full) {
      // Every unit comes once: indexed later, from the same maps (nothing patches them before).
      this.unindexed = { units: seen, results, entries, freshEntries: [...freshEntries], filesOf, sources: [] };
      this.cancel();
      this.timer = setTimeout(() => this.prepare(), PREPARE_DELAY_MS);
      // Never what keeps a process alive.
      this.timer.unref?.();
    } else {
      for (const unit of seen) {
        for (const file of filesOf(unit)) index(this.byFile, file, unit, true);
        for (const file of results.get(unit)?.dependencies ?? []) index(this.byFile, file, unit, true);
      }
      for (const [dir, entry] of freshEntries) {
        index(this.entryByFile, entry, dir, true);
        for (const file of entries.get(dir)?.dependencies ?? []) index(this.entryByFile, file, dir, true);
      }
    }
    this.fresh = seen;
    this.last = { units, plugins, results, entries, ...(this.carried ? { outcomes: this.carried } : {}) };
    this.carried = undefined;
  }

  /**
   * The last schema outcomes to patch, and the units whose outcome this run must work out; or
   * undefined (the full loop) when the parse stage ran its full loop or these are other results.
   */
  schemaPlan(
    results: ReadonlyMap<CapabilityUnit, UnitResult>,
  ):
    | { readonly outcomes: Map<CapabilityUnit, SchemaOutcome>; readonly units: ReadonlySet<CapabilityUnit> }
    | undefined {
    const last = this.last;
    if (!last || last.results !== results || !this.fresh) return undefined;
    const outcomes = last.outcomes;
    last.outcomes = undefined;
    return outcomes && { outcomes, units: this.fresh };
  }

  /** The schema stage's outcomes for the recorded results; `sources` of the units it evaluated join the index. */
  evaluated(
    results: ReadonlyMap<CapabilityUnit, UnitResult>,
    outcomes: Map<CapabilityUnit, SchemaOutcome>,
    sources: Iterable<readonly [CapabilityUnit, readonly string[]]>,
  ): void {
    const last = this.last;
    if (!last || last.results !== results) return;
    if (this.unindexed) for (const source of sources) this.unindexed.sources.push(source);
    else for (const [unit, files] of sources) for (const file of files) index(this.byFile, file, unit, !this.full);
    last.outcomes = outcomes;
  }
}

function index<T>(map: Map<string, T[]>, file: string, value: T, check: boolean): void {
  const list = map.get(file);
  if (!list) map.set(file, [value]);
  else if (!check || !list.includes(value)) list.push(value);
}
