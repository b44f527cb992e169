/**
 * Golden fixtures: every `fixtures/<case>/` carries its expected output — `expected.gen.ts` for a
 * valid tree, `expected-diagnostics.json` for an invalid one. One loop, no per-case code.
 * Regenerate after an intended change with `UPDATE_GOLDEN=1 npx vitest run test/compiler/fixtures.test.ts`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { FIXTURES } from '../helpers.js';

const update = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .filter(
    (name) =>
      existsSync(join(FIXTURES, name, 'expected.gen.ts')) ||
      existsSync(join(FIXTURES, name, 'expected-diagnostics.json')),
  )
  .sort();

describe('golden fixtures', () => {
  it('has at least 25 invalid fixtures and the example bot', () => {
    expect(cases).toContain('example-bot');
    expect(
      cases.filter((c) => existsSync(join(FIXTURES, c, 'expected-diagnostics.json'))).length,
    ).toBeGreaterThanOrEqual(25);
  });

  for (const name of cases) {
    it(name, async () => {
      const root = join(FIXTURES, name);
      const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
      const diagnostics = result.diagnostics.map(({ code, severity, file, line, column, message }) => ({
        code,
        severity,
        file,
        line,
        column,
        message,
      }));
      const goldenGen = join(root, 'expected.gen.ts');
      const goldenDiag = join(root, 'expected-diagnostics.json');
      if (existsSync(goldenDiag) || diagnostics.some((d) => d.severity === 'error')) {
        if (update) writeFileSync(goldenDiag, `${JSON.stringify(diagnostics, null, 2)}\n`);
        expect(diagnostics).toEqual(JSON.parse(readFileSync(goldenDiag, 'utf8')));
        expect(diagnostics.length).toBeGreaterThan(0);
        // Every diagnostic carries a location and a hint.
        for (const d of result.diagnostics) {
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.column).toBeGreaterThanOrEqual(1);
          expect(d.hint).toBeTruthy();
        }
      }
      if (existsSync(goldenGen)) {
        if (update) writeFileSync(goldenGen, result.code);
        expect(result.errors).toBe(0);
        expect(result.code).toBe(readFileSync(goldenGen, 'utf8'));
      }
    });
  }
});
