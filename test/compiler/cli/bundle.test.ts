/**
 * The bin runs the CLI's code-split bundle (scripts/cli-bundle.mjs, dist/cli/). A run with nothing
 * to do reads a handful of its files and none of the lazy chunks (parsers, schema stage, emit
 * stage, other commands) nor the file-by-file build; a run that parses loads them on demand. The real bin in a
 * subprocess, with a module hook that writes down every module the process loads.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, copyFixture, REPO, removeDir, settleTree } from '../../helpers.js';

let root: string;
let hooks: string;
beforeAll(() => {
  root = copyFixture('example-bot', 'bundle');
  hooks = join(root, 'record-loads.mjs');
  writeFileSync(
    join(root, 'record-hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (process.env.LOAD_LOG) appendFileSync(process.env.LOAD_LOG, url + '\\n');
  return next(url, context);
}
`,
  );
  writeFileSync(hooks, `import { register } from 'node:module';\nregister('./record-hooks.mjs', import.meta.url);\n`);
  settleTree(root);
});
afterAll(() => removeDir(root));

/** The bin as a subprocess; the files (absolute paths) it loaded as modules. */
function run(args: readonly string[], log: string): { status: number | null; loaded: string[] } {
  const result = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(hooks).href, join(REPO, 'bin', 'zhin-gen.mjs'), ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', LOAD_LOG: log },
    },
  );
  expect(result.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  return { status: result.status, loaded: urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)) };
}

const dist = join(REPO, 'dist');
const bundleDir = join(dist, 'cli');
/** The compiler sources a loaded bundle file holds (its source map's `sources`). */
function sourcesOf(files: readonly string[]): string[] {
  return files
    .filter((f) => f.startsWith(bundleDir))
    .flatMap((f) => (JSON.parse(readFileSync(`${f}.map`, 'utf8')) as { sources: string[] }).sources)
    .map((s) => s.replace(/^(\.\.\/)+/, ''));
}

/** What a run with nothing to do must not load. */
const LAZY = [
  'compiler/parse/units.ts',
  'compiler/util/typescript.ts',
  'compiler/schema/index.ts',
  'compiler/schema/convert.ts',
  'compiler/report/page/render.ts',
  'compiler/cli/inspect.ts',
  'compiler/cli/watch.ts',
  'compiler/cli/catalog.ts',
  'compiler/cli/report.ts',
  'compiler/cli/mcp.ts',
  'compiler/cli/init.ts',
  'compiler/cli/new.ts',
  'compiler/verify/index.ts',
  // The emit stage, loaded by the first run that emits (compiler/context.ts).
  'compiler/run-emit.ts',
  'compiler/emit/manifest.ts',
  'compiler/emit/shards.ts',
  'compiler/emit/search-module.ts',
  'compiler/emit/memo.ts',
];

describe('the CLI bundle', () => {
  it('generate and check with nothing changed read a few bundle files and no lazy chunk', () => {
    expect(cli(['generate', '--root', root]).status).toBe(0);
    for (const command of ['generate', 'check']) {
      const { status, loaded } = run([command, '--root', root], join(root, `${command}.log`));
      expect(status).toBe(0);
      const fromDist = loaded.filter((f) => f.startsWith(dist));
      // Only the bundle: not one module of the file-by-file build.
      expect(fromDist.filter((f) => !f.startsWith(bundleDir))).toEqual([]);
      expect(fromDist.length).toBeGreaterThan(0);
      expect(fromDist.length).toBeLessThanOrEqual(20);
      const sources = sourcesOf(fromDist);
      expect(sources).toContain('compiler/cli/main.ts');
      expect(sources).toContain('compiler/cache/tree-check.ts');
      expect(LAZY.filter((s) => sources.includes(s))).toEqual([]);
      // No parser, schema library or YAML reader from node_modules either.
      expect(
        loaded.filter((f) => /node_modules\/(typescript|ts-morph|@ts-morph|zod|yaml|ajv|esbuild)\//.test(f)),
      ).toEqual([]);
      // Nor the runtime's discover index (its encoder is the emit stage's).
      expect(loaded.filter((f) => /runtime\/(dist\/)?deferred\/search/.test(f))).toEqual([]);
    }
  });

  it('asks Node for its module compile cache before the bundle loads, where Node has one (>= 22.1)', () => {
    // This machine's Node 20 has no module.enableCompileCache: a preload gives it one that
    // writes down when it was called, next to the module loads the hook above writes down.
    const log = join(root, 'compile-cache.log');
    const preload = join(root, 'compile-cache.mjs');
    writeFileSync(
      preload,
      `import module from 'node:module';\nimport { appendFileSync } from 'node:fs';\nmodule.enableCompileCache ??= () => { appendFileSync(process.env.LOAD_LOG, 'enableCompileCache\\n'); return { status: 0 }; };\n`,
    );
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        pathToFileURL(hooks).href,
        '--import',
        pathToFileURL(preload).href,
        join(REPO, 'bin', 'zhin-gen.mjs'),
        'check',
        '--root',
        root,
      ],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', LOAD_LOG: log } },
    );
    expect(result.status).toBe(0);
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const asked = lines.indexOf('enableCompileCache');
    const firstBundle = lines.findIndex((l) => l.startsWith('file:') && fileURLToPath(l).startsWith(bundleDir));
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(firstBundle).toBeGreaterThan(asked);
  });

  it('a run that parses loads the parse chunk on demand, and the output is what generate writes', () => {
    const tool = join(root, 'tools', 'echo', 'index.ts');
    writeFileSync(tool, readFileSync(tool, 'utf8').replace('Echo a message back', 'Echo a message back, loudly'));
    const { status, loaded } = run(['generate', '--root', root], join(root, 'edited.log'));
    expect(status).toBe(0);
    expect(sourcesOf(loaded)).toContain('compiler/parse/units.ts');
    expect(sourcesOf(loaded)).toContain('compiler/run-emit.ts');
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('Echo a message back, loudly');
    expect(cli(['check', '--root', root]).status).toBe(0);
  });
});
