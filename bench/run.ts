/**
 * `npm run bench`: the performance budget of issue #6, for N = 100 / 1,000 / 5,000 tools.
 * Every figure is the median of fresh processes (default 5) with peak RSS, and is also printed as
 * a multiple of the floor measured in the same rounds (machines are noisy; ratios are the budget).
 *
 *   floor        walk + read + parse every file with the same parsers, nothing else
 *   cold         `zhin-gen generate` with no cache (exact JSON Schemas)
 *   warm         `zhin-gen generate` again, nothing changed (persisted unit cache)
 *   one-change   `zhin-gen generate` after one tool's schema changed
 *   watch        in-process regeneration after editing one tool (file event → manifest written)
 *   runtime      import manifest + host.load + first beginTurn, vs importing every tool module
 *
 * Options: BENCH_SIZES=100,1000 BENCH_RUNS=5 npm run bench. Writes bench/results.json.
 * BENCH_MODE=load BENCH_SIZES=1000 npm run bench: `check --load` vs `check` only (bench/load-check.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheFile } from '../compiler/cache/units.js';
import { generateTree } from './gen-tree.js';
import { benchRuntimeLoad } from './runtime-load.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const sizes = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 5);

// BENCH_MODE=load: only the cost of `check --load` against plain `check` (bench/load-check.ts).
if (process.env.BENCH_MODE === 'load') {
  const { benchLoadCheck } = await import('./load-check.js');
  for (const n of sizes) console.log(JSON.stringify(await benchLoadCheck(n, runs)));
  process.exit(0);
}

interface Sample {
  readonly ms: number;
  readonly rssMb: number;
  /** In-process work after module loading, when the child reports it. */
  readonly workMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of a fresh process, and the peak RSS the child reports. */
function timeProcess(args: readonly string[], before?: () => void): Sample {
  before?.();
  const started = performance.now();
  const out = execFileSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  const rss = /"rssKb":(\d+)/.exec(out);
  const work = /"workMs":([\d.]+)/.exec(out);
  return { ms, rssMb: rss ? Number(rss[1]) / 1024 : NaN, workMs: work ? Number(work[1]) : NaN };
}

function medianSample(samples: readonly Sample[]): Sample {
  return {
    ms: median(samples.map((s) => s.ms)),
    rssMb: Math.max(...samples.map((s) => s.rssMb)),
    workMs: median(samples.map((s) => s.workMs)),
  };
}

// The CLI's own code in a child that also reports its peak RSS (bin/zhin-gen.mjs runs the same main()).
const BIN = join(HERE, 'children', 'cli.mjs');
const results: Record<string, unknown>[] = [];
for (const n of sizes) {
  const root = join(HERE, 'trees', `tree-${n}`);
  generateTree(n, root);
  const cacheFile = defaultCacheFile(root);
  const clearCache = (): void => rmSync(cacheFile, { force: true });
  const tool = join(root, 'tools', 'weather-0', 'index.ts');
  const original = readFileSync(tool, 'utf8');
  let edit = 0;
  const changeOne = (): void => {
    edit++;
    writeFileSync(tool, original.replace('z.object({', `z.object({\n    bench${edit}: z.string().max(${edit}),`));
  };

  // Rounds, not blocks: each round takes one sample of every figure, the floor included, so
  // the floor and what is compared with it see the same phases of a shared, noisy machine.
  const floorArgs = [join(HERE, 'children', 'floor.mjs'), root];
  const cliArgs = [BIN, 'generate', '--root', root];
  const workArgs = [BIN, '--work', root];
  const samples = {
    floor: [] as Sample[],
    cold: [] as Sample[],
    warm: [] as Sample[],
    oneChange: [] as Sample[],
    coldWork: [] as Sample[],
    warmWork: [] as Sample[],
    oneChangeWork: [] as Sample[],
  };
  timeProcess(cliArgs); // the TypeScript code cache exists before the first timed round
  for (let round = 0; round < runs; round++) {
    samples.floor.push(timeProcess(floorArgs));
    samples.cold.push(timeProcess(cliArgs, clearCache));
    samples.warm.push(timeProcess(cliArgs));
    samples.oneChange.push(timeProcess(cliArgs, changeOne));
    // The same three runs measured as work after module loading (see children/cli.mjs --work).
    samples.coldWork.push(timeProcess(workArgs, clearCache));
    samples.warmWork.push(timeProcess(workArgs));
    samples.oneChangeWork.push(timeProcess(workArgs, changeOne));
  }
  const floor = medianSample(samples.floor);
  const cold = medianSample(samples.cold);
  const warm = medianSample(samples.warm);
  const oneChange = medianSample(samples.oneChange);
  const coldWork = medianSample(samples.coldWork);
  const warmWork = medianSample(samples.warmWork);
  const oneChangeWork = medianSample(samples.oneChangeWork);
  writeFileSync(tool, original);
  const watchRuns = Array.from(
    { length: Math.min(runs, 3) },
    () =>
      JSON.parse(
        execFileSync(process.execPath, [join(HERE, 'children', 'watch.mjs'), root, '20'], {
          cwd: REPO,
          encoding: 'utf8',
        }),
      ) as { regenMs: number; parsedPerEdit: number },
  );
  const watchMs = median(watchRuns.map((r) => r.regenMs));
  const runtime = await benchRuntimeLoad(n, { runs, root });
  const row = {
    n,
    floorMs: Math.round(floor.ms),
    floorWorkMs: Math.round(floor.workMs),
    work: {
      cold: { ms: Math.round(coldWork.workMs), ratio: +(coldWork.workMs / floor.workMs).toFixed(2) },
      warm: { ms: Math.round(warmWork.workMs), ratio: +(warmWork.workMs / floor.workMs).toFixed(2) },
      oneChange: { ms: Math.round(oneChangeWork.workMs), ratio: +(oneChangeWork.workMs / floor.workMs).toFixed(2) },
    },
    cold: { ms: Math.round(cold.ms), ratio: +(cold.ms / floor.ms).toFixed(2), peakRssMb: Math.round(cold.rssMb) },
    warm: { ms: Math.round(warm.ms), ratio: +(warm.ms / floor.ms).toFixed(2) },
    oneChange: { ms: Math.round(oneChange.ms), ratio: +(oneChange.ms / floor.ms).toFixed(2) },
    watch: { ms: +watchMs.toFixed(1), parsedPerEdit: watchRuns[0]!.parsedPerEdit },
    runtime: { lazyMs: runtime.lazyMs, eagerMs: runtime.eagerMs, ratio: runtime.ratio, ...runtime.lazy },
  };
  results.push(row);
  console.error(JSON.stringify(row));
}

type Row = {
  n: number;
  floorMs: number;
  floorWorkMs: number;
  cold: { ms: number; ratio: number; peakRssMb: number };
  warm: { ms: number; ratio: number };
  oneChange: { ms: number; ratio: number };
  work: Record<'cold' | 'warm' | 'oneChange', { ms: number; ratio: number }>;
  watch: { ms: number };
  runtime: { lazyMs: number; eagerMs: number; ratio: number };
};
const lines = [
  'Whole process (what a user waits for: Node start, module loading, work):',
  '',
  '| N | floor | cold generate | warm, nothing changed | one tool changed | peak RSS (cold) |',
  '| ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const r of results as Row[]) {
  lines.push(
    `| ${r.n.toLocaleString('en')} | ${r.floorMs} ms | ${r.cold.ms} ms (${r.cold.ratio}×) | ${r.warm.ms} ms (${r.warm.ratio}×) | ${r.oneChange.ms} ms (${r.oneChange.ratio}×) | ${r.cold.peakRssMb} MB |`,
  );
}
lines.push(
  '',
  'Work after module loading (the parsers are loaded first in both):',
  '',
  '| N | floor | cold generate | warm, nothing changed | one tool changed | watch regen (in process) |',
  '| ---: | ---: | ---: | ---: | ---: | ---: |',
);
for (const r of results as Row[]) {
  lines.push(
    `| ${r.n.toLocaleString('en')} | ${r.floorWorkMs} ms | ${r.work.cold.ms} ms (${r.work.cold.ratio}×) | ${r.work.warm.ms} ms (${r.work.warm.ratio}×) | ${r.work.oneChange.ms} ms (${r.work.oneChange.ratio}×) | ${r.watch.ms} ms |`,
  );
}
lines.push(
  '',
  'Runtime start (import manifest + host.load + first beginTurn) vs importing every tool module:',
  '',
  '| N | lazy start | eager import | eager / lazy |',
  '| ---: | ---: | ---: | ---: |',
);
for (const r of results as Row[])
  lines.push(
    `| ${r.n.toLocaleString('en')} | ${Math.round(r.runtime.lazyMs)} ms | ${Math.round(r.runtime.eagerMs)} ms | ${r.runtime.ratio.toFixed(1)}× |`,
  );
if (results.length >= 2) {
  const [a, b] = [
    results.at(-2) as { n: number; cold: { ms: number } },
    results.at(-1) as { n: number; cold: { ms: number } },
  ];
  const c = a as unknown as Row;
  const d = b as unknown as Row;
  lines.push(
    '',
    `Growth ${a.n.toLocaleString('en')} → ${b.n.toLocaleString('en')} tools (×${b.n / a.n}): cold generate ×${(b.cold.ms / a.cold.ms).toFixed(2)}, cold work ×${(d.work.cold.ms / c.work.cold.ms).toFixed(2)}, floor work ×${(d.floorWorkMs / c.floorWorkMs).toFixed(2)}, watch regen ×${(d.watch.ms / c.watch.ms).toFixed(2)}.`,
  );
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`zhin-gen bench — ${machine}, median of ${runs} fresh processes\n\n${lines.join('\n')}`);
writeFileSync(join(HERE, 'results.json'), `${JSON.stringify({ machine, runs, results }, null, 2)}\n`);
