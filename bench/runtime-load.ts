/**
 * Runtime start-up bench (issue 6): importing the manifest + `host.load` + the first
 * `beginTurn`, against importing every tool module eagerly (what a bot without zhin-gen does at
 * start-up), on the same synthetic tree the compiler benches use.
 *
 * The tree's real manifest (the compiler's output for it) and its real tool modules (Zod
 * schemas, sibling helpers and schema fragments) are transpiled one file to one file with
 * esbuild into a temp mirror, so the children run on plain `node` with no TypeScript loader
 * hook skewing the per-module cost. The runtime is bundled once and shared by both sides. Each
 * tool entry module counts its own evaluation, so the lazy side proves it imported none.
 *
 *   node --import tsx bench/runtime-load.ts 1000        → {"n":1000,"lazyMs":…,"eagerMs":…,"ratio":…}
 *   (a fresh tree in the temp folder, or `options.root`: that tree, compiled and written in place)
 *   import { benchRuntimeLoad } from './bench/runtime-load.ts'
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transformSync } from 'esbuild';
import { createCompiler } from '../compiler/index.js';
import { generateTree } from './gen-tree.js';

export interface RuntimeLoadResult {
  readonly n: number;
  /** Import manifest + runtime, `host.load`, first `beginTurn` (median, ms). */
  readonly lazyMs: number;
  /** Import manifest + every tool module (median, ms). */
  readonly eagerMs: number;
  /** eagerMs / lazyMs. */
  readonly ratio: number;
  /** Where the lazy time goes (medians, ms): importing runtime + manifest data, `host.load`, `beginTurn`. */
  readonly lazy: { readonly importMs: number; readonly loadMs: number; readonly beginTurnMs: number };
}

export interface RuntimeLoadOptions {
  readonly runs?: number;
  /** The tree to measure (default: a fresh bench/trees/tree-N). */
  readonly root?: string;
  /** Keep the generated directory (for inspection). */
  readonly keep?: boolean;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const NOISE = new Set(['node_modules', 'src', 'docs']);

const LAZY = `const start = performance.now();
const { createCapabilityHost } = await import('./runtime.mjs');
const { manifest } = await import('./MANIFEST');
const imported = performance.now();
const host = createCapabilityHost();
await host.load(manifest);
const loaded = performance.now();
const turn = await host.beginTurn({ sessionKey: 'bench' });
const end = performance.now();
if (turn.generation !== 1) throw new Error('no generation');
console.log(JSON.stringify({
  ms: end - start, importMs: imported - start, loadMs: loaded - imported, beginTurnMs: end - loaded,
  loaded: globalThis.__benchLoaded ?? 0,
}));
`;

const EAGER = `const start = performance.now();
const { manifest } = await import('./MANIFEST');
await Promise.all(manifest.tools.map((tool) => tool.load()));
const ms = performance.now() - start;
console.log(JSON.stringify({ ms, loaded: globalThis.__benchLoaded ?? 0 }));
`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface ChildResult {
  readonly ms: number;
  readonly loaded: number;
  readonly importMs?: number;
  readonly loadMs?: number;
  readonly beginTurnMs?: number;
}

function runChild(dir: string, script: string): ChildResult {
  const output = execFileSync(process.execPath, [join(dir, script)], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop()!) as ChildResult;
}

const round = (value: number) => Math.round(value * 100) / 100;

function* sourceFiles(dir: string, root: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (NOISE.has(entry.name) || entry.name.startsWith('.')) continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(abs, root);
    else if (entry.name.endsWith('.ts')) yield relative(root, abs).split('\\').join('/');
  }
}

/**
 * The tree as plain ESM: each .ts file → the same path with .js (the tree imports siblings as
 * `./x.js` and the manifest uses the `.js` import extension), `(@)zhin-gen/runtime` → the bundle.
 */
function mirrorTree(root: string, dir: string, manifestRel: string, toolSources: ReadonlySet<string>): void {
  for (const rel of sourceFiles(root, root)) {
    if (rel === manifestRel) continue;
    const out = join(dir, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    const runtime = relative(dirname(out), join(dir, 'runtime.mjs')).split('\\').join('/');
    const code = transformSync(readFileSync(join(root, rel), 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'es2022',
    }).code.replace(/(["'])@?zhin-gen\/runtime\1/g, JSON.stringify(runtime.startsWith('.') ? runtime : `./${runtime}`));
    const counter = toolSources.has(rel) ? 'globalThis.__benchLoaded = (globalThis.__benchLoaded ?? 0) + 1;\n' : '';
    writeFileSync(out, counter + code);
  }
}

export async function benchRuntimeLoad(n: number, options: RuntimeLoadOptions = {}): Promise<RuntimeLoadResult> {
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`tool count must be a positive integer, got ${n}`);
  const runs = options.runs ?? 3;
  // A fresh tree of its own by default (bench/trees/ is shared with the other benches).
  const root = options.root ?? mkdtempSync(join(tmpdir(), `zhin-gen-runtime-tree-${n}-`));
  if (!options.root) generateTree(n, root);
  // Written: above 64 tools the manifest imports its tool-table shards and the discover index
  // from the generated folder, which the mirror below transpiles with the tree.
  const compiled = await createCompiler({ root, cacheFile: false }).run({ write: true });
  if (compiled.errors > 0) throw new Error(`the bench tree does not compile: ${compiled.diagnostics[0]?.message}`);
  const dir = mkdtempSync(join(tmpdir(), 'zhin-gen-runtime-bench-'));
  try {
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // As in a real ESM bot: without it Node 20 sniffs every .js file's format (~55 µs per KB).
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    // BENCH_RUNTIME=<checkout>: that checkout's runtime (before/after on the same tree).
    await bundleRuntime(process.env.BENCH_RUNTIME ?? repoRoot, dir);
    mirrorTree(root, dir, compiled.outRel, new Set(compiled.model.tools.map((t) => t.source)));
    const manifestRel = compiled.outRel.replace(/\.ts$/, '.js');
    writeFileSync(
      join(dir, manifestRel),
      transformSync(compiled.code, { loader: 'ts', format: 'esm', target: 'es2022' }).code,
    );
    if (!existsSync(join(dir, manifestRel))) throw new Error('manifest not written');
    writeFileSync(join(dir, 'lazy.mjs'), LAZY.replace('MANIFEST', manifestRel));
    writeFileSync(join(dir, 'eager.mjs'), EAGER.replace('MANIFEST', manifestRel));
    const tools = compiled.model.tools.filter((t) => !t.conditional).length;
    const lazy: number[] = [];
    const eager: number[] = [];
    const parts: ChildResult[] = [];
    for (let run = 0; run < runs; run += 1) {
      const l = runChild(dir, 'lazy.mjs');
      if (l.loaded !== 0) throw new Error(`lazy start-up imported ${l.loaded} tool modules`);
      lazy.push(l.ms);
      parts.push(l);
      const e = runChild(dir, 'eager.mjs');
      if (e.loaded !== tools) throw new Error(`eager run imported ${e.loaded} of ${tools} tool modules`);
      eager.push(e.ms);
    }
    const lazyMs = round(median(lazy));
    const eagerMs = round(median(eager));
    const part = (key: 'importMs' | 'loadMs' | 'beginTurnMs') => round(median(parts.map((p) => p[key] ?? 0)));
    return {
      n,
      lazyMs,
      eagerMs,
      ratio: round(eagerMs / lazyMs),
      lazy: { importMs: part('importMs'), loadMs: part('loadMs'), beginTurnMs: part('beginTurnMs') },
    };
  } finally {
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
    else console.error(`kept ${dir}`);
    if (!options.root) rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = process.argv.slice(2).map(Number);
  for (const n of counts.length ? counts : [100, 1000, 5000]) {
    console.log(JSON.stringify(await benchRuntimeLoad(n)));
  }
}

/**
 * The runtime of `checkout` bundled once into `dir/runtime.mjs`, for both sides of a start-up
 * figure. Ajv and Zod stay imports: Ajv is imported lazily on the first JSON-Schema validation,
 * which start-up never does.
 */
export async function bundleRuntime(checkout: string, dir: string): Promise<void> {
  await build({
    entryPoints: [join(checkout, 'runtime', 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile: join(dir, 'runtime.mjs'),
    external: ['ajv', 'ajv/*', 'zod', 'zod/*'],
    logLevel: 'silent',
  });
}
