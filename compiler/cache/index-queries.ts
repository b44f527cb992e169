/**
 * Questions the unit cache answers from its index (cache/index-file.ts) or, once the bodies are
 * loaded, from its entries: the same answer either way, so a run that finds nothing to do never
 * reads the bodies. Pure functions over the two shapes.
 */
import type { CacheIndex, IndexedUnit } from './index-file.js';
import type { FileStat } from './stat-source.js';
import type { Entry } from './unit-entry.js';
import type { EntryRange } from './file.js';
import { recordOf } from './unit-record.js';
import type { Writable } from '../util/writable.js';
import { eachStamp, type FileStamp, sameStat, STAMP_SLOTS, stampAt } from './flat-stamps.js';

function anyStamped(stamps: readonly (string | number)[], matches: (file: string) => boolean): boolean {
  for (let i = 0; i < stamps.length; i += STAMP_SLOTS) if (matches(stamps[i] as string)) return true;
  return false;
}

/**
 * Whether every unit listed is current by the index alone (its files, and the stamps of
 * everything its result depends on, exactly as recorded).
 */
export function currentByIndex(
  index: CacheIndex,
  units: readonly (readonly [key: string, files: readonly string[]])[],
  stat: (path: string) => FileStat | undefined,
): boolean {
  for (const [key, files] of units) {
    const unit = index.units.get(key);
    if (!unit || unit.files.length !== files.length) return false;
    for (let i = 0; i < files.length; i++) if (unit.files[i] !== files[i]) return false;
    const stamps = unit.stamps;
    for (let i = 0; i < stamps.length; i += STAMP_SLOTS) {
      if (!sameStat(stat(stamps[i] as string), stamps[i + 1], stamps[i + 2], stamps[i + 4])) return false;
    }
  }
  return true;
}

/**
 * Calls `each` with the stamp held for every file and dependency of these units (a file shared by
 * two units comes once per unit); false when a unit is missing.
 */
export function eachStampOfUnits(
  index: CacheIndex | undefined,
  entries: ReadonlyMap<string, Entry>,
  keys: readonly string[],
  each: (path: string, changedMs: number, size: number, ino: number) => void,
  /** The entries read or stored so far come first (a unit cache reading bodies one by one). */
  entriesFirst = false,
): boolean {
  for (const key of keys) {
    const indexed = entriesFirst && entries.has(key) ? undefined : index?.units.get(key);
    const stamps = indexed ? indexed.stamps : index && !entriesFirst ? undefined : entries.get(key)?.stamps;
    if (!stamps) return false;
    eachStamp(stamps, each);
  }
  return true;
}

/** Whether some unit's result depends on this file, or on a file below it when it is a directory. */
export function anyDependsOn(
  index: CacheIndex | undefined,
  entries: ReadonlyMap<string, Entry>,
  path: string,
  /** Both count: the entries read or stored so far, and the index for the rest. */
  both = false,
): boolean {
  const below = `${path}/`;
  const matches = (file: string): boolean => file === path || file.startsWith(below);
  if (index) {
    // With both, an entry read or stored this run is newer than the index's unit of its key: a
    // tool that stopped importing a file no longer depends on it (the index still says it does).
    for (const [key, unit] of index.units) {
      if (both && entries.has(key)) continue;
      if (anyStamped(unit.stamps, matches)) return true;
    }
    if (!both) return false;
  }
  for (const entry of entries.values()) if (anyStamped(entry.stamps, matches)) return true;
  return false;
}

/** Every path some unit stamped (its files, its dependencies, the files it found missing), once, with its stamp. */
export function allStamps(index: CacheIndex | undefined, entries: ReadonlyMap<string, Entry>): Map<string, FileStamp> {
  const out = new Map<string, FileStamp>();
  const add = (stamps: readonly (string | number)[]): void => {
    for (let i = 0; i < stamps.length; i += STAMP_SLOTS) out.set(stamps[i] as string, stampAt(stamps, i));
  };
  // The entries after the index: a unit stored in this process holds the newer stamp.
  if (index) for (const unit of index.units.values()) add(unit.stamps);
  for (const entry of entries.values()) add(entry.stamps);
  return out;
}

/** One entry as the index holds it, with its record and, when the base holds it, its range there. */
export function indexedUnitOf(entry: Entry, at?: EntryRange): IndexedUnit {
  // Assigned, not spread (util/writable.ts): a cold run's index write makes one per unit.
  const unit: Writable<IndexedUnit> = {
    hash: entry.hash,
    files: entry.files,
    stamps: [...entry.stamps],
    record: recordOf(entry),
  };
  if (at) unit.at = at;
  return unit;
}
