/**
 * What the unit cache (cache/units.ts) says of a unit's inputs and result as digests: its files'
 * hash, the content of everything it depends on, and the print of the model made from it. Read
 * from the index while it stands in for the entries, from the entry once its body is held: the
 * same answer either way. Pure functions over the cache's state.
 */
import type { UnitResult } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import { stampsContent } from './flat-stamps.js';
import type { UnitState } from './unit-state.js';

/** The unit's files' hash (cache/unit-entry.ts `sha`), '' when the cache has no such unit. */
export function unitHash(state: UnitState, key: string): string {
  const entry = state.entries.get(key);
  if (state.index && !(state.single && entry)) return state.index.units.get(key)?.hash ?? '';
  return entry?.hash ?? '';
}

/** Content of everything the unit's result depends on (its files and its dependencies). */
export function unitContent(state: UnitState, key: string): string {
  const entry = state.entries.get(key);
  // The same text from an entry as from its indexed unit: both hold the stamps flat.
  if (state.index && !(state.single && entry)) return stampsContent(state.index.units.get(key)?.stamps);
  return stampsContent(entry?.stamps);
}

/**
 * What a tool's generated text depends on from its entry (emit/shards.ts fingerprints), when
 * this result and schema outcome are the entry's own (by identity): digests taken when they
 * were set, so a fresh process never serialises them again. Undefined otherwise.
 */
export function unitModelPrint(
  state: UnitState,
  key: string,
  result: UnitResult,
  outcome: SchemaOutcome | undefined,
): string | undefined {
  // A unit read from its record: the digests are the record's, taken from the same entry.
  const held = state.single?.held(key);
  const own =
    held?.result === result ? { result, schema: held.outcome, ...held.result.record } : state.entries.get(key);
  if (own === undefined || own.result !== result || own.resultPrint === undefined) return undefined;
  if (outcome === undefined) return `${own.resultPrint}:-`;
  if (own.schema !== outcome || own.schemaPrint === undefined) return undefined;
  return `${own.resultPrint}:${own.schemaPrint}`;
}

/** The unit's schema outcome: a held record's, else its entry's. */
export function unitSchema(state: UnitState, key: string): SchemaOutcome | undefined {
  const held = state.single?.held(key);
  if (held) return held.outcome;
  return state.entries.get(key)?.schema;
}
