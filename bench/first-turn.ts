/**
 * The first turn of a fresh bot process, measured from outside (docs/bench.md#the-first-turn-of-a-fresh-process):
 * a child process on plain Node imports the runtime and the manifest the compiler wrote for a
 * real tree (its main module, tool-table shards and `discover` index, transpiled one file to one
 * file), creates the host and its generation as a bot does, and runs one turn with `discover`,
 * reporting each step's time and its own CPU time.
 *
 * Three ways the first `discover` can come:
 * - `direct`: right after `beginTurn` (nothing listed yet, nothing prefetched);
 * - `listed`: right after the turn listed its tools for Anthropic (no time for the model);
 * - `model`: after the listing and a simulated model round trip of `BENCH_MODEL_MS` (200 ms);
 * - `reload`: as `listed`, then the next generation of the same process (an HMR commit, its index
 *   module imported afresh) runs its first `discover` right after `beginTurn` (warm code, the
 *   import on the path): "the first discover of a generation" in a long-running bot.
 *
 * The **floor** is what any first `discover` must pay at least: importing a module of the same
 * index bytes and finding the query's token in it.
 *
 *   node --import tsx bench/first-turn.ts [N]      (default 20000; the tree is bench/trees/tree-N,
 *                                                   generated and compiled when it has no manifest)
 *   BENCH_ROOT=<tree> BENCH_RUNTIME=<checkout> BENCH_RUNS=5 BENCH_MODES=direct,listed,model
 *   BENCH_ZH=1: the tree described in Chinese (bench/zh-tree.ts, bench/trees/tree-N-zh); its
 *               first discover asks for 天气 instead of weather
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { generateTree } from './gen-tree.js';
import { generateChineseTree } from './zh-tree.js';
import { bundleRuntime } from './runtime-load.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = 'zhin-capabilities.gen';
const MODES = ['direct', 'listed', 'model', 'reload'] as const;
type Mode = (typeof MODES)[number];

/** One child's report (ms). */
export interface FirstTurnSample {
  readonly importRuntime: number;
  readonly importManifest: number;
  readonly load: number;
  readonly beginTurn: number;
  /** The first `modelTools` of the process, each provider (0 in `direct` mode). */
  readonly listAnthropic: number;
  readonly listOpenai: number;
  readonly listGeneric: number;
  readonly firstDiscover: number;
  readonly secondDiscover: number;
  readonly end: number;
  /** Start of the script to the turn's end, and the process's CPU time (user + system) by then. */
  readonly total: number;
  readonly cpu: number;
  readonly hits: number;
  /** CPU time (user + system, all threads) of some steps. */
  readonly cpuFirstDiscover: number;
  readonly cpuSecondDiscover: number;
  readonly cpuLoad: number;
  readonly cpuAnthropic: number;
  /** `reload` mode: the next generation's first `discover` in the same process (0 otherwise). */
  readonly reloadDiscover: number;
  readonly cpuReloadDiscover: number;
}

const CHILD = `const at = () => performance.now();
const cpu0 = process.cpuUsage();
const mode = process.argv[2];
const modelMs = Number(process.argv[3]);
const word = process.argv[4] ?? 'weather';
let t = at();
const start = t;
let c = 0;
const cpu = {};
// Each step's wall time, and its CPU time (user + system, every thread) under cpu[name].
const step = (name) => { const now = at(); const ms = now - t; t = now; const u = process.cpuUsage(cpu0); const used = (u.user + u.system) / 1000; if (name) cpu[name] = used - c; c = used; return ms; };
const { createCapabilityHost, PermissionHost } = await import('./runtime.mjs');
const importRuntime = step('importRuntime');
const { manifest } = await import('./${MANIFEST}.js');
const importManifest = step('importManifest');
const host = createCapabilityHost({ permissions: new PermissionHost() });
await host.load(manifest);
const load = step('load');
const message = { $adapter: 'qq', $channel: { id: 'g1', type: 'group' }, $sender: { id: 'u1', role: 'user' } };
const turn = await host.beginTurn({ sessionKey: 'first', message });
const beginTurn = step('beginTurn');
const lists = { anthropic: 0, openai: 0, generic: 0 };
if (mode !== 'direct') {
  for (const provider of ['anthropic', 'openai', 'generic']) {
    await turn.modelTools({ provider });
    lists[provider] = step(provider);
  }
  if (mode === 'model') { await new Promise((r) => setTimeout(r, modelMs)); step(); }
}
const first = await turn.execute('discover', { query: word });
const firstDiscover = step('firstDiscover');
await turn.execute('discover', { query: 'create ticket' });
const secondDiscover = step('secondDiscover');
await turn.end();
const end = step('end');
const used = process.cpuUsage(cpu0);
let reloadDiscover = 0;
if (mode === 'reload') {
  // The next generation (an HMR commit): its index module imported afresh on its first discover.
  await host.load({ ...manifest, search: () => import('./${MANIFEST}.validators/search.js?generation=2') });
  const next = await host.beginTurn({ sessionKey: 'reload', message });
  step();
  const again = await next.execute('discover', { query: word });
  reloadDiscover = step('reloadDiscover');
  if (again.status !== 'completed' || again.output.results.length !== first.output.results.length) throw new Error('reload: ' + again.status);
  await next.end();
}
if (first.status !== 'completed') throw new Error('discover: ' + first.status);
console.log(JSON.stringify({ importRuntime, importManifest, load, beginTurn, listAnthropic: lists.anthropic,
  listOpenai: lists.openai, listGeneric: lists.generic, firstDiscover, secondDiscover, end,
  total: t - start - (mode === 'model' ? modelMs : 0), cpu: (used.user + used.system) / 1000, hits: first.output.results.length,
  cpuFirstDiscover: cpu.firstDiscover, cpuSecondDiscover: cpu.secondDiscover, cpuLoad: cpu.load, cpuAnthropic: cpu.anthropic ?? 0,
  reloadDiscover, cpuReloadDiscover: cpu.reloadDiscover ?? 0 }));
await host.close();
`;

const FLOOR = `const cpu0 = process.cpuUsage();
const started = performance.now();
const { default: data } = await import('./${MANIFEST}.validators/search.js');
// The character that ends a line: a line feed in the data before format 3, \`|\` since.
const word = process.argv[2] ?? 'weather';
// The token as the index spells it: raw before format 4, code units from ~ up as ~ + four hex digits since.
const spelled = data.startsWith('zhin-gen search 3') ? word : [...word].map((c) => (c.charCodeAt(0) < 0x7e ? c : '~' + c.charCodeAt(0).toString(16).padStart(4, '0'))).join('');
const found = data.indexOf(data.charAt('zhin-gen search 3'.length) + spelled + ' ');
const ms = performance.now() - started;
const used = process.cpuUsage(cpu0);
if (found < 0) throw new Error('no weather token');
console.log(JSON.stringify({ ms, cpu: (used.user + used.system) / 1000 }));
`;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The generated modules of `root` as plain ESM in `dir`, and the runtime of `checkout` bundled beside them. */
async function mirror(root: string, dir: string, checkout: string): Promise<void> {
  const folder = `${MANIFEST}.validators`;
  mkdirSync(join(dir, folder), { recursive: true });
  // As in a real ESM bot: without it Node 20 sniffs every .js file's format.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const transpile = (from: string, to: string, runtime: string) =>
    writeFileSync(
      to,
      transformSync(readFileSync(from, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' }).code.replace(
        /(["'])@?zhin-gen\/runtime\1/g,
        JSON.stringify(runtime),
      ),
    );
  transpile(join(root, `${MANIFEST}.ts`), join(dir, `${MANIFEST}.js`), './runtime.mjs');
  if (existsSync(join(root, folder)))
    for (const name of readdirSync(join(root, folder)))
      if (name.endsWith('.ts'))
        transpile(join(root, folder, name), join(dir, folder, name.replace(/\.ts$/, '.js')), '../runtime.mjs');
  await bundleRuntime(checkout, dir);
}

function child(dir: string, script: string, ...args: string[]): Record<string, number> {
  const output = execFileSync(process.execPath, [join(dir, script), ...args], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop()!) as Record<string, number>;
}

export interface FirstTurnResult {
  readonly n: number;
  readonly floorMs: number;
  /** The floor's CPU time (user + system, every thread). */
  readonly floorCpuMs: number;
  readonly modes: Readonly<Partial<Record<Mode, FirstTurnSample>>>;
}

/** Medians of `runs` fresh processes per mode, the modes and the floor alternating. */
export async function benchFirstTurn(
  root: string,
  options: {
    readonly runs?: number;
    readonly checkout?: string;
    readonly modes?: readonly Mode[];
    /** The first discover's query (one token). */
    readonly word?: string;
  } = {},
): Promise<FirstTurnResult> {
  const runs = options.runs ?? 5;
  const modes = options.modes ?? MODES;
  const modelMs = Number(process.env.BENCH_MODEL_MS ?? 200);
  // BENCH_KEEP=1 keeps the mirror (printed) for profiling a child by hand.
  const dir = mkdtempSync(join(tmpdir(), 'zhin-first-turn-'));
  const keep = process.env.BENCH_KEEP === '1';
  try {
    await mirror(root, dir, options.checkout ?? repoRoot);
    writeFileSync(join(dir, 'turn.mjs'), CHILD);
    writeFileSync(join(dir, 'floor.mjs'), FLOOR);
    const samples = new Map<Mode, Record<string, number>[]>(modes.map((mode) => [mode, []]));
    const floor: number[] = [];
    const floorCpu: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const word = options.word ?? 'weather';
      const least = child(dir, 'floor.mjs', word);
      floor.push(least.ms!);
      floorCpu.push(least.cpu!);
      for (const mode of modes) samples.get(mode)!.push(child(dir, 'turn.mjs', mode, String(modelMs), word));
    }
    // The index's counts line: tools first.
    const n = Number(
      /search \d(?:\\n|\|)(\d+) /.exec(readFileSync(join(root, `${MANIFEST}.validators`, 'search.ts'), 'utf8'))?.[1] ??
        0,
    );
    const result: Partial<Record<Mode, FirstTurnSample>> = {};
    for (const [mode, rows] of samples) {
      const keys = Object.keys(rows[0]!) as (keyof FirstTurnSample)[];
      result[mode] = Object.fromEntries(
        keys.map((key) => [key, +median(rows.map((row) => row[key]!)).toFixed(2)]),
      ) as unknown as FirstTurnSample;
    }
    return { n, floorMs: +median(floor).toFixed(2), floorCpuMs: +median(floorCpu).toFixed(2), modes: result };
  } finally {
    if (keep) console.error(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** bench/trees/tree-N with its manifest written (generated and compiled when missing). */
async function treeOf(n: number, zh: boolean): Promise<string> {
  const root = join(repoRoot, 'bench', 'trees', zh ? `tree-${n}-zh` : `tree-${n}`);
  if (existsSync(join(root, `${MANIFEST}.ts`))) return root;
  if (zh) generateChineseTree(n, root);
  else generateTree(n, root);
  const { createCompiler } = await import('../compiler/index.js');
  const compiled = await createCompiler({ root, cacheFile: false }).run({ write: true });
  if (compiled.errors > 0) throw new Error(`the bench tree does not compile: ${compiled.diagnostics[0]?.message}`);
  return root;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const n = Number(process.argv[2] ?? 20_000);
  const zh = process.env.BENCH_ZH === '1';
  const root = process.env.BENCH_ROOT ? resolve(process.env.BENCH_ROOT) : await treeOf(n, zh);
  const modes = (process.env.BENCH_MODES?.split(',') as Mode[] | undefined) ?? MODES;
  const result = await benchFirstTurn(root, {
    runs: Number(process.env.BENCH_RUNS ?? 5),
    checkout: process.env.BENCH_RUNTIME ? resolve(process.env.BENCH_RUNTIME) : undefined,
    modes,
    word: zh ? '天气' : 'weather',
  });
  console.error(JSON.stringify(result));
  console.log(`first turn of a fresh process — ${root}, load average ${loadavg()[0]!.toFixed(1)}\n`);
  console.log(
    '| mode | import runtime | import manifest | host.load (CPU) | beginTurn | first modelTools: anthropic (CPU) / openai / generic | first discover (CPU) | ÷ floor (CPU) | second discover (CPU) | whole turn | process CPU |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const mode of modes) {
    const s = result.modes[mode]!;
    console.log(
      `| ${mode} | ${s.importRuntime} | ${s.importManifest} | ${s.load} (${s.cpuLoad}) | ${s.beginTurn} | ${s.listAnthropic} (${s.cpuAnthropic}) / ${s.listOpenai} / ${s.listGeneric} | ${s.firstDiscover} (${s.cpuFirstDiscover}) | ${(s.firstDiscover / result.floorMs).toFixed(2)}× (${(s.cpuFirstDiscover / result.floorCpuMs).toFixed(2)}×) | ${s.secondDiscover} (${s.cpuSecondDiscover}) | ${s.total} | ${s.cpu} |`,
    );
  }
  const reload = result.modes.reload;
  if (reload)
    console.log(
      `\nreload: the next generation's first discover ${reload.reloadDiscover} ms (CPU ${reload.cpuReloadDiscover} ms)`,
    );
  console.log(
    `\nfloor (import the index module + find the query's token): ${result.floorMs} ms (CPU ${result.floorCpuMs} ms); times in ms, medians`,
  );
}
