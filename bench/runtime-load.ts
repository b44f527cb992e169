/**
 * Runtime start-up bench (issue 4): `host.load(manifest)` + first `beginTurn` for N tools,
 * against eagerly importing every tool module.
 *
 * It writes N real tool modules and a manifest module (the shape the compiler emits, with lazy
 * `() => import(...)` loaders) into a temp dir, bundles the runtime once with esbuild so the
 * children run on plain `node` (no TypeScript loader hooks skewing per-module cost), and times
 * each side in a fresh child process (median of `runs`).
 *
 *   node --import tsx bench/runtime-load.ts 1000        → {"n":1000,"lazyMs":…,"eagerMs":…,"ratio":…}
 *   import { benchRuntimeLoad } from './bench/runtime-load.ts'
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transformSync } from 'esbuild';
import { emitManifest } from '../compiler/emit/manifest.js';
import type { ToolModel } from '../compiler/model.js';

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
  /** Keep the generated directory (for inspection). */
  readonly keep?: boolean;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function toolModule(index: number): string {
  return `import { defineAgentTool } from '../../runtime.mjs';
globalThis.__benchLoaded = (globalThis.__benchLoaded ?? 0) + 1;
const units = ['metric', 'imperial'];
function format(city, days) {
  return \`\${city}: \${days} day(s) of forecast from tool ${index}\`;
}
export default defineAgentTool({
  description: 'Benchmark tool ${index}: looks up something by query',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 }, unit: { enum: units } },
    required: ['city'],
    additionalProperties: false,
  },
  requiresApproval: 'never',
  async execute(input) {
    return format(input.city, input.days ?? 1);
  },
});
`;
}

/**
 * The manifest module exactly as the compiler emits it (`emitManifest` over a model of N tools),
 * with TypeScript-only syntax stripped so the child runs it on plain Node.
 */
function manifestModule(n: number): string {
  const schema = { type: 'object', properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 }, unit: { enum: ['metric', 'imperial'] } }, required: ['city'], additionalProperties: false };
  const loc = { file: 'x', line: 1, column: 1 };
  const tools: ToolModel[] = Array.from({ length: n }, (_, i) => ({
    kind: 'tool',
    owner: '',
    placement: 'plugin',
    localName: `t${i}`,
    qualifiedName: `t${i}`,
    source: `tools/t${i}/index.mjs`,
    related: [],
    loc,
    description: `Benchmark tool ${i}: looks up something by query`,
    inputSchema: schema,
    schemaOrigin: 'json',
    requiresApproval: 'never',
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    conditional: false,
    typed: false,
    hash: `h${i}`,
  }));
  const code = emitManifest({ plugins: [{ owner: '', dir: '' }], tools, skills: [], agents: [], promptSections: [], hooks: [] }, { outRel: 'manifest.ts', importExtension: '.js', runtimeModule: 'zhin-gen/runtime' });
  return transformSync(code, { loader: 'ts', format: 'esm' }).code;
}

const LAZY = `const start = performance.now();
const { createCapabilityHost } = await import('./runtime.mjs');
const { manifest } = await import('./manifest.mjs');
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
const { manifest } = await import('./manifest.mjs');
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

export async function benchRuntimeLoad(n: number, options: RuntimeLoadOptions = {}): Promise<RuntimeLoadResult> {
  if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`tool count must be a positive integer, got ${n}`);
  const runs = options.runs ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'zhin-gen-runtime-bench-'));
  try {
    await build({
      entryPoints: [join(repoRoot, 'runtime', 'index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      outfile: join(dir, 'runtime.mjs'),
      // Ajv is imported lazily on the first JSON-Schema validation, which start-up never does.
      external: ['ajv', 'ajv/*'],
      logLevel: 'silent',
    });
    for (let i = 0; i < n; i += 1) {
      mkdirSync(join(dir, 'tools', `t${i}`), { recursive: true });
      writeFileSync(join(dir, 'tools', `t${i}`, 'index.mjs'), toolModule(i));
    }
    writeFileSync(join(dir, 'manifest.mjs'), manifestModule(n));
    writeFileSync(join(dir, 'lazy.mjs'), LAZY);
    writeFileSync(join(dir, 'eager.mjs'), EAGER);
    const lazy: number[] = [];
    const eager: number[] = [];
    const parts: ChildResult[] = [];
    for (let run = 0; run < runs; run += 1) {
      const l = runChild(dir, 'lazy.mjs');
      if (l.loaded !== 0) throw new Error(`lazy start-up imported ${l.loaded} tool modules`);
      lazy.push(l.ms);
      parts.push(l);
      const e = runChild(dir, 'eager.mjs');
      if (e.loaded !== n) throw new Error(`eager run imported ${e.loaded} of ${n} tool modules`);
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
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = process.argv.slice(2).map(Number);
  for (const n of counts.length ? counts : [100, 1000, 5000]) {
    console.log(JSON.stringify(await benchRuntimeLoad(n)));
  }
}
