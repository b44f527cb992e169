/**
 * The rule of compiler/util/writable.ts, kept: the builders that make an object per unit or per
 * tool on every run set their optional keys by assignment, never by a spread of `{ x }` or `{}`.
 * Such a spread falls off V8's fast object-clone path and the objects it makes are promoted
 * (measured in docs/bench.md, twelfth pass); the check reads the sources, as the package test
 * reads the built import graph, so a new spread in one of them fails here and not only in a bench.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The per-unit and per-tool builders of a run, by file and function. */
const BUILDERS: readonly (readonly [string, string])[] = [
  ['compiler/cache/unit-record.ts', 'recordOf'],
  ['compiler/cache/unit-record.ts', 'outcomeRecord'],
  ['compiler/cache/index-file.ts', 'stored'],
  ['compiler/cache/index-file.ts', 'unitsOf'],
  ['compiler/cache/index-queries.ts', 'indexedUnitOf'],
  ['compiler/emit/tool-table.ts', 'renderTool'],
  ['compiler/resolve/record-tool.ts', 'enclosureOf'],
  ['compiler/resolve/record-tool.ts', 'plainToolModel'],
  ['compiler/scan/layout.ts', 'unitOf'],
  ['compiler/parse/definition.ts', 'parseCode'],
  ['compiler/parse/units.ts', 'parseCodeUnit'],
  ['compiler/validate/tool.ts', 'validateToolFields'],
  ['compiler/schema/index.ts', 'fromResult'],
];

/** A spread of a conditional whose branches are object literals, one of them empty. */
const CONDITIONAL_SPREAD = /\.\.\.\(\s*[^;]*?\?\s*\{[^;]*?\}\s*:\s*\{\s*\}\s*\)|\.\.\.\(\s*[^;]*?\?\s*\{\s*\}\s*:/;

/** The text of a top-level function (from its declaration to the next line that closes one). */
function functionText(file: string, name: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.search(new RegExp(`^(?:export )?(?:async )?function\\*? ${name}\\b`, 'm'));
  if (start === -1) return '';
  const end = text.indexOf('\n}\n', start);
  return text.slice(start, end === -1 ? undefined : end);
}

describe('per-unit builders assign their optional keys', () => {
  it.each(BUILDERS)('%s %s has no conditional spread', (file, name) => {
    const body = functionText(file, name);
    expect(body, `${file}: function ${name} not found`).not.toBe('');
    expect(body.match(CONDITIONAL_SPREAD)?.[0]).toBeUndefined();
  });

  it('the pattern it looks for is the one the rule forbids', () => {
    expect('return { a, ...(b ? { b } : {}) };').toMatch(CONDITIONAL_SPREAD);
    expect('const o = { ...(x !== undefined ? { x: y.x } : {}), z };').toMatch(CONDITIONAL_SPREAD);
    expect('const o = { ...value, loc };').not.toMatch(CONDITIONAL_SPREAD);
    expect('if (b) out.b = b;').not.toMatch(CONDITIONAL_SPREAD);
  });
});
