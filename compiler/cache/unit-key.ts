/**
 * The unit cache key of a capability unit (`kind:dir`) and its file list, built once per unit
 * object: watch-mode runs reuse the layout's units, and every stage looks units up on every run.
 */
import type { CapabilityUnit } from '../scan/layout.js';

const keys = new WeakMap<CapabilityUnit, string>();

export function unitKey(unit: CapabilityUnit): string {
  let key = keys.get(unit);
  if (key === undefined) {
    key = `${unit.kind}:${unit.dir}`;
    keys.set(unit, key);
  }
  return key;
}

const filesOfUnit = new WeakMap<CapabilityUnit, readonly string[]>();

/** A unit's files, entry first; memoised per unit object (watch mode reuses the layout's units). */
export function unitFiles(unit: CapabilityUnit): readonly string[] {
  let files = filesOfUnit.get(unit);
  if (!files) {
    files = unit.entry && !unit.files.includes(unit.entry) ? [unit.entry, ...unit.files] : [...unit.files];
    filesOfUnit.set(unit, files);
  }
  return files;
}
