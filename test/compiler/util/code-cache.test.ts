/**
 * The TypeScript compiler is loaded with a V8 code cache (compiler/util/code-cache.ts): the first
 * process writes it at exit, later ones use it (and leave it alone), a corrupt cache is replaced,
 * and the parser works in every case. Real processes, a private TMPDIR.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempCacheName } from '../../../compiler/util/temp-cache-dir.js';
import { REPO, removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const PARSE = `const { ts } = await import(${JSON.stringify(join(REPO, 'dist/compiler/util/typescript.js'))});
const sf = ts.createSourceFile('a.ts', 'export const a: number = 1;', ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
console.log(sf.statements.length);`;

function parseInFreshProcess(tmp: string): string {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', PARSE], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp },
  });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('TypeScript code cache', () => {
  it('is written by the first process, used as is by the next, and replaced when corrupt', () => {
    const tmp = tempDir('code-cache');
    dirs.push(tmp);
    expect(parseInFreshProcess(tmp)).toBe('1');
    const dir = join(tmp, tempCacheName());
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

const COMPARE = `import { createRequire } from 'node:module';
const { ts } = await import(${JSON.stringify(join(REPO, 'dist/compiler/util/typescript.js'))});
const require = createRequire(${JSON.stringify(join(REPO, 'package.json'))});
const original = createRequire(require.resolve('ts-morph'))('@ts-morph/common/dist/typescript.js');
const text = ${JSON.stringify(`import { z } from 'zod';\nexport default defineAgentTool({ description: \`a \${1}\`, inputSchema: z.object({ a: z.string().regex(/x\\/y/u) }), async execute(i: { a: string }) { return i?.a ?? <string>'b'; } });\nenum E { A = 1 }\n`)};
const dump = (t) => { const out = []; const sf = t.createSourceFile('a.ts', text, t.ScriptTarget.Latest, true, t.ScriptKind.TS);
  const visit = (n) => { out.push(t.SyntaxKind[n.kind] + ':' + n.pos + '-' + n.end); t.forEachChild(n, visit); }; visit(sf);
  return out.join(' ') + ' | ' + t.transpileModule(text, { compilerOptions: { target: t.ScriptTarget.ES2022 } }).outputText; };
console.log(JSON.stringify({ version: ts.version === original.version, same: dump(ts) === dump(original), minified: ts.createSourceFile.toString().length < original.createSourceFile.toString().length }));`;

function compareIn(dist: string, tmp: string, env: NodeJS.ProcessEnv = {}): unknown {
  const script = COMPARE.replace(
    JSON.stringify(join(REPO, 'dist/compiler/util/typescript.js')),
    JSON.stringify(join(dist, 'typescript.js')),
  );
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp, ...env },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

describe('the minified TypeScript copy (scripts/build.mjs)', () => {
  it('is what the built compiler loads, and parses and transpiles exactly like the original', () => {
    const tmp = tempDir('code-cache-min');
    dirs.push(tmp);
    expect(compareIn(join(REPO, 'dist/compiler/util'), tmp)).toEqual({ version: true, same: true, minified: true });
  });

  it('is loaded without a code cache too (ZHIN_GEN_CODE_CACHE=0), and then none is written', () => {
    const tmp = tempDir('code-cache-off');
    dirs.push(tmp);
    expect(compareIn(join(REPO, 'dist/compiler/util'), tmp, { ZHIN_GEN_CODE_CACHE: '0' })).toEqual({
      version: true,
      same: true,
      minified: true,
    });
    let written: string[] = [];
    try {
      written = readdirSync(join(tmp, tempCacheName())).filter((f) => f.endsWith('.v8'));
    } catch {
      // No cache folder at all.
    }
    expect(written).toEqual([]);
  });

  /** A copy of the built loader and its minified TypeScript in a temp dist, for damaging one of them. */
  function distCopy(tmp: string): string {
    const dist = join(tmp, 'dist', 'compiler');
    mkdirSync(dist, { recursive: true });
    for (const file of [
      'typescript.js',
      'typescript-load.js',
      'code-cache.js',
      'temp-cache-dir.js',
      'typescript.min.wrapped.js',
      'typescript.min.json',
    ])
      copyFileSync(join(REPO, 'dist/compiler/util', file), join(dist, file));
    writeFileSync(join(dist, 'package.json'), '{"type":"module"}');
    return dist;
  }

  it('is not used when it was made from another TypeScript file than the one installed', () => {
    const tmp = tempDir('code-cache-stale');
    dirs.push(tmp);
    // The sidecar names a different source size.
    const dist = distCopy(tmp);
    writeFileSync(join(dist, 'typescript.min.json'), JSON.stringify({ size: 1 }));
    expect(compareIn(dist, tmp)).toEqual({ version: true, same: true, minified: false });
  });

  it('falls back on the installed TypeScript when the copy is not a wrapped module body', () => {
    const tmp = tempDir('code-cache-unwrapped');
    dirs.push(tmp);
    // The same size as the copy the sidecar vouches for, but a plain CommonJS text (the layout before).
    const dist = distCopy(tmp);
    const wrapped = readFileSync(join(dist, 'typescript.min.wrapped.js'), 'latin1');
    writeFileSync(join(dist, 'typescript.min.wrapped.js'), `/*${wrapped.slice(2)}`, 'latin1');
    expect(compareIn(dist, tmp)).toEqual({ version: true, same: true, minified: false });
  });
});
