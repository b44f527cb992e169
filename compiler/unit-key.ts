/**
 * The unit cache key of a capability unit (`kind:dir`), built once per unit object: watch-mode
 * runs reuse the layout's units, and every stage looks units up by this key on every run.
 */
import type { CapabilityUnit } from './scan/layout.js';

const keys = new WeakMap<CapabilityUnit, string>();

export function unitKey(unit: CapabilityUnit): string {
  let key = keys.get(unit);
  if (key === undefined) {
    key = `${unit.kind}:${unit.dir}`;
    keys.set(unit, key);
  }
  return key;
}
