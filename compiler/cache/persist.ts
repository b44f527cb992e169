/**
 * The unit cache's persist step (cache/units.ts `persist`): what changed since the cache was loaded
 * goes to disk as journal lines of the base (cache/file.ts) and of the index
 * (cache/index-journal.ts), or as whole files when a journal cannot carry it. Kept apart from the
 * lookups because it reads none of their logic, only the state they leave (cache/unit-state.ts),
 * which it changes in place: the cache and this step share one object, never a copy.
 *
 * Every write here is an optimisation: one that fails (a read-only node_modules) only costs later
 * runs speed.
 */
import type { EntryRange } from './file.js';
import { persistable, persistableEntries } from './unit-entry.js';
import type { UnitState } from './unit-state.js';
import { sweepStaleTemps } from '../write/temp-files.js';
import { basename, dirname } from 'node:path';

/** Notes the first write that failed (the others are the same disk's), for the caller's one note. */
export function noteWriteFailure(state: UnitState, error: unknown): void {
  state.writeFailure ??= error instanceof Error ? error.message : String(error);
}

export function persistUnits(state: UnitState): void {
  // The reads of this run are done; a later one opens the base again.
  state.single?.close();
  try {
    if (state.emitNoted) state.emitRecord?.save(state.emitNoted);
  } catch (error) {
    noteWriteFailure(state, error);
  }
  state.emitNoted = undefined;
  // Never loaded: nothing to write.
  if (state.pending) return;
  // Without the bodies loaded nothing can have changed but the summary, which a vouched run
  // (the only kind that leaves them unread) never changes.
  if (!state.bodiesLoaded) return;
  // The bodies as the index on disk describes them, before this persist writes them.
  const prev = state.indexStale || state.single ? state.indexFile?.bodiesNow() : undefined;
  if (state.disk && state.changedKeys.size === 0 && !state.out.changed && !state.damaged) {
    if (state.indexStale) saveIndex(state, prev, [], undefined);
    return;
  }
  if (!state.disk) return;
  sweepOnce(state);
  const keys = [...state.changedKeys];
  const changed = () => keys.map((key) => [key, persistable(state.entries.get(key)!)] as const);
  const output = state.out.changed ? state.out.record : undefined;
  state.changedKeys.clear();
  state.out.changed = false;
  state.damaged = false;
  let ranges: ReadonlyMap<string, EntryRange> | undefined;
  try {
    ranges = state.disk.save(
      state.configKey,
      () => {
        readAll(state);
        return { entries: persistableEntries(state.entries), output: state.out.record };
      },
      changed,
      output,
    );
    state.indexStale = true;
  } catch (error) {
    // A read-only node_modules only costs speed.
    noteWriteFailure(state, error);
  }
  saveIndex(state, prev ?? state.indexFile?.bodiesNow(), keys, ranges);
}

/** Every body (before a whole base or index is written): from here on the cache holds them all. */
function readAll(state: UnitState): void {
  if (!state.single) return;
  // Unreadable: left out of what is written, so the unit is parsed again next time.
  if (!state.single.readAll()) state.damaged = true;
  state.single = undefined;
  state.index = undefined;
}

/** Writes the base whole (no journal), for the byte ranges of its entries. */
function rewriteBase(state: UnitState): ReadonlyMap<string, EntryRange> | undefined {
  const all = () => ({ entries: persistableEntries(state.entries), output: state.out.record });
  try {
    return state.disk?.save(state.configKey, all, () => [], undefined, true);
  } catch {
    return undefined;
  }
}

/**
 * The index of what is persisted now (after the bodies were written): the units `changed` since
 * the bodies stamped `prev` appended to its journal when the index on disk is believed current,
 * else the whole index.
 */
function saveIndex(
  state: UnitState,
  prev: string | undefined,
  changed: readonly string[],
  ranges: ReadonlyMap<string, EntryRange> | undefined,
): void {
  if (!state.indexFile || !state.indexStale) return;
  const output = state.out.record;
  const summary = state.out.matchingSummary();
  const { indexFile } = state;
  try {
    // A new base moved every body: the index is written whole, with their new places.
    const appended =
      ranges === undefined &&
      state.indexAppendable &&
      prev !== undefined &&
      indexFile.append(prev, state.entries, changed, output, summary);
    if (!appended) {
      readAll(state);
      // The whole index needs every body's place: a base written now gives them (a base the
      // bodies were loaded from whole has none recorded), so the next run reads them one by one.
      // No base on disk: no index either (saveEntries writes none without one).
      const places = ranges ?? (indexFile.bodiesNow() !== undefined ? rewriteBase(state) : undefined);
      indexFile.saveEntries(state.configKey, state.entries, output, summary, places);
    }
    state.indexStale = false;
    state.indexAppendable = true;
  } catch (error) {
    // As above: only speed.
    noteWriteFailure(state, error);
  }
}

/**
 * A killed run's temp files of this cache's files (its base, journal, index, tree record…: every
 * name starts with the base's), removed once per process that writes the cache.
 */
function sweepOnce(state: UnitState): void {
  if (state.tempsSwept || state.file === undefined) return;
  state.tempsSwept = true;
  const base = basename(state.file);
  sweepStaleTemps(dirname(state.file), (target) => target === base || target.startsWith(`${base}.`));
}
