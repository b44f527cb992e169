import { expect, it } from 'vitest';
import { CATALOG } from '../../../compiler/diagnostics.js';
import { DEFINITIONS } from '../../../compiler/diagnostics/definitions.js';
import { MANIFESTS } from '../../../compiler/diagnostics/manifests.js';
import { NAMES } from '../../../compiler/diagnostics/names.js';
import { PROVIDERS } from '../../../compiler/diagnostics/providers.js';
import { SCAN } from '../../../compiler/diagnostics/scan.js';
import { TOOLING } from '../../../compiler/diagnostics/tooling.js';

// The catalog is spread together from its parts: a code written in two parts would silently keep
// the later one, so every code must sit in exactly one part, the one its range names.
const PARTS = [
  ['scan', SCAN, /^ZG1/],
  ['definitions', DEFINITIONS, /^ZG2/],
  ['names', NAMES, /^ZG3/],
  ['manifests', MANIFESTS, /^ZG4/],
  ['providers', PROVIDERS, /^ZG5/],
  ['tooling', TOOLING, /^ZG[69]/],
] as const;

it('every code sits in one part of the catalog, the one of its range', () => {
  const owner = new Map<string, string>();
  for (const [name, part, range] of PARTS) {
    expect(Object.keys(part).length, name).toBeGreaterThan(0);
    for (const code of Object.keys(part)) {
      expect(owner.get(code), `${code} is in ${owner.get(code)} and ${name}`).toBeUndefined();
      owner.set(code, name);
      expect(code, `${code} in diagnostics/${name}.ts`).toMatch(range);
    }
  }
  expect([...owner.keys()].sort()).toEqual(Object.keys(CATALOG).sort());
});
