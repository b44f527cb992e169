/**
 * The TypeScript compiler is loaded with a V8 code cache (compiler/ts-code-cache.ts): the first
 * process writes it at exit, later ones use it (and leave it alone), a corrupt cache is replaced,
 * and the parser works in every case. Real processes, a private TMPDIR.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir } from '../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const PARSE = `const { ts } = await import(${JSON.stringify(join(REPO, 'dist/compiler/ts.js'))});
const sf = ts.createSourceFile('a.ts', 'export const a: number = 1;', ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
console.log(sf.statements.length);`;

function parseInFreshProcess(tmp: string): string {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', PARSE], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('TypeScript code cache', () => {
  it('is written by the first process, used as is by the next, and replaced when corrupt', () => {
    const tmp = tempDir('code-cache');
    dirs.push(tmp);
    expect(parseInFreshProcess(tmp)).toBe('1');
    const dir = join(tmp, 'zhin-gen-cache');
    const [file] = readdirSync(dir).filter((f) => f.startsWith('code-') && f.endsWith('.v8'));
    expect(file).toBeDefined();
    const cache = join(dir, file!);
    const first = statSync(cache);
    expect(first.size).toBeGreaterThan(100_000);

    expect(parseInFreshProcess(tmp)).toBe('1');
    expect(statSync(cache).mtimeMs).toBe(first.mtimeMs);

    writeFileSync(cache, 'not a code cache');
    expect(parseInFreshProcess(tmp)).toBe('1');
    expect(statSync(cache).size).toBeGreaterThan(100_000);
  });
});
