/**
 * Golden fixtures: every `fixtures/<case>/` carries its expected output — `expected.gen.ts` for a
 * valid tree (and, for a tree large enough that its tool table goes into shards, its shards,
 * `types.ts` and `items.ts` as written, in `expected.gen.validators/`), `expected-diagnostics.json` for an
 * invalid one. One loop, no per-case code.
 * Regenerate after an intended change with `UPDATE_GOLDEN=1 npx vitest run test/compiler/fixtures.test.ts`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { copyFixture, FIXTURES, removeDir } from '../helpers.js';

/** The tool table's shards, types.ts and items.ts as generate writes them (compiler/emit/shards.ts). */
const SHARD_FILE = /^(?:tools-[01]+|types|items)\.ts$/;
function shardFiles(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort())
    if (SHARD_FILE.test(name)) out[name] = readFileSync(join(dir, name), 'utf8');
  return out;
}

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
        // The files beside it, as written to disk (with their seals).
        const copy = copyFixture(name, `golden-${name}`);
        try {
          expect((await createCompiler({ root: copy, cacheFile: false }).run()).errors).toBe(0);
          const written = shardFiles(join(copy, 'zhin-capabilities.gen.validators'));
          const goldenDir = join(root, 'expected.gen.validators');
          if (update) {
            rmSync(goldenDir, { recursive: true, force: true });
            if (Object.keys(written).length > 0) mkdirSync(goldenDir);
            for (const [file, text] of Object.entries(written)) writeFileSync(join(goldenDir, file), text);
          }
          expect(written).toEqual(shardFiles(goldenDir));
        } finally {
          removeDir(copy);
        }
      }
    });
  }
});
