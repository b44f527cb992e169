/**
 * `npm run bench`: whole-tree compiler figures for N = 100 / 1,000 / 5,000 tools (`--large` or
 * BENCH_LARGE=1 adds 10,000 and 20,000). Every figure is the median of fresh processes (default 5)
 * taken in rounds — each round one sample of every figure, the floor included, so all of them see
 * the same phases of a shared machine — and printed as a multiple of the floor of those rounds.
 *
 *   floor        walk + read + parse every file, loading TypeScript exactly as the compiler does
 *   read-only    the floor without parsing (walk + read)
 *   walk + stat  the floor's walk with a stat per file, nothing read: the least a run that must
 *                find out whether anything changed pays without a resident process
 *   Node start   a bare `node -e` in the same environment (it only prints its CPU time): the
 *                constant every whole-process figure, the floor's included, carries
 *   cold         `zhin-gen generate` with no cache, parsing on the main thread (ZHIN_GEN_WORKERS=0)
 *   cold, pool   the same with the parse worker pool (ZHIN_GEN_WORKERS unset: sized to the cores)
 *   nothing      `zhin-gen generate` again, nothing changed
 *   one change   `zhin-gen generate` after one tool's schema changed
 *   check        `zhin-gen check` on the up-to-date tree
 *
 * Each as a whole process (what a user waits for) and, for cold / nothing / one change, as work
 * after module loading (`--work`). Peak RSS and minor page faults per figure, with the price of a
 * fault measured in every round (bench/children/faults.mjs): on a virtual machine whose host
 * backs memory on first touch, the memory a run touches is a share of its wall time. The watch figures are measured from
 * outside by bench/watch-cli.ts; peers (a ts-morph generator, tsc, esbuild) by bench/peers.ts.
 *
 * BENCH_SIZES=100,1000 BENCH_RUNS=5; BENCH_COMPARE=/path/to/other/checkout alternates that
 * checkout's build (its dist/) with this one in every round, each on its own copy of the tree
 * (their caches never meet): the before/after figures. Writes bench/results.json.
 * BENCH_MODE=load BENCH_SIZES=1000 npm run bench: `check --load` vs `check` only (bench/load-check.ts).
 * BENCH_FIGURES=warm,check,oneChange takes only those figures (the cold ones cost minutes at 20,000
 * tools on a shared machine); the tables show the others as not measured.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './gen-tree.js';
import { clearUnitCache, median, medianSample, type Sample, timeProcess } from './process.js';
import { benchRuntimeLoad } from './runtime-load.js';
import { table } from './table.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const large = process.argv.includes('--large') || process.env.BENCH_LARGE === '1';
const sizes = (process.env.BENCH_SIZES ?? (large ? '100,1000,5000,10000,20000' : '100,1000,5000'))
  .split(',')
  .map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const compare = process.env.BENCH_COMPARE;
// Runtime start-up is the runtime's figure (eager import of 20,000 tool modules takes minutes).
const runtimeUpTo = Number(process.env.BENCH_RUNTIME_MAX ?? 5000);

// BENCH_MODE=load: only the cost of `check --load` against plain `check` (bench/load-check.ts).
if (process.env.BENCH_MODE === 'load') {
  const { benchLoadCheck } = await import('./load-check.js');
  for (const n of sizes) console.log(JSON.stringify(await benchLoadCheck(n, runs)));
  process.exit(0);
}

const FIGURES = ['cold', 'coldPool', 'warm', 'oneChange', 'check', 'coldWork', 'warmWork', 'oneChangeWork'] as const;
type Figure = (typeof FIGURES)[number];
const chosen = new Set<string>(process.env.BENCH_FIGURES?.split(',') ?? FIGURES);

/** One build (this checkout, or BENCH_COMPARE's) on its own copy of the tree. */
interface Build {
  readonly name: string;
  readonly dist: string;
  readonly root: string;
  readonly samples: Record<Figure, Sample[]>;
}

const BIN = join(HERE, 'children', 'cli.mjs');
/** Bare Node start-up: nothing but reporting its own CPU time, as the other children do. */
const BARE_NODE =
  'const { user, system } = process.cpuUsage(); console.log(JSON.stringify({ cpuMs: (user + system) / 1000 }))';
const results: Record<string, unknown>[] = [];
const loads: number[] = [];
for (const n of sizes) {
  const root = join(HERE, 'trees', `tree-${n}`);
  generateTree(n, root);
  const builds: Build[] = [{ name: 'this', dist: join(REPO, 'dist'), root, samples: emptySamples() }];
  if (compare) {
    const other = join(HERE, 'trees', `tree-${n}-compare`);
    rmSync(other, { recursive: true, force: true });
    cpSync(root, other, { recursive: true });
    builds.push({ name: compare, dist: join(compare, 'dist'), root: other, samples: emptySamples() });
  }
  const floor: Sample[] = [];
  const floorRead: Sample[] = [];
  const floorStat: Sample[] = [];
  const nodeStart: Sample[] = [];
  const faultPrices: number[] = [];
  for (const build of builds) timeProcess([BIN, 'generate', '--root', build.root], { ZHIN_GEN_DIST: build.dist });
  for (let round = 0; round < runs; round++) {
    loads.push(loadavg()[0]!);
    floor.push(timeProcess([join(HERE, 'children', 'floor.mjs'), root]));
    floorRead.push(timeProcess([join(HERE, 'children', 'floor.mjs'), '--read-only', root]));
    floorStat.push(timeProcess([join(HERE, 'children', 'floor.mjs'), '--stat-only', root]));
    nodeStart.push(timeProcess(['-e', BARE_NODE]));
    faultPrices.push(faultPrice());
    for (const build of builds) sampleRound(build, round);
  }
  const f = medianSample(floor);
  const fr = medianSample(floorRead);
  const fs = medianSample(floorStat);
  const ns = medianSample(nodeStart);
  const price = median(faultPrices);
  /** Faults (thousands) and their price in this run's rounds. */
  const faultsOf = (s: Sample): { k: number; ms: number } => ({
    k: +(s.faults / 1000).toFixed(1),
    ms: Math.round((s.faults / 1000) * price),
  });
  const ratio = (ms: number, of = f.ms): number => +(ms / of).toFixed(3);
  const row: Record<string, unknown> = {
    n,
    floor: {
      ms: Math.round(f.ms),
      workMs: Math.round(f.workMs),
      cpuMs: Math.round(f.cpuMs),
      peakRssMb: Math.round(f.rssMb),
      faults: faultsOf(f),
    },
    readOnly: { ms: Math.round(fr.ms), ratio: ratio(fr.ms), workMs: Math.round(fr.workMs) },
    statOnly: { ms: Math.round(fs.ms), ratio: ratio(fs.ms), workMs: Math.round(fs.workMs), faults: faultsOf(fs) },
    faultPrice: { msPer1k: +price.toFixed(2) },
    nodeStart: {
      ms: Math.round(ns.ms),
      ratio: ratio(ns.ms),
      cpuMs: Math.round(ns.cpuMs),
      cpuRatio: ratio(ns.cpuMs, f.cpuMs),
    },
  };
  for (const build of builds) {
    const figures: Record<string, unknown> = {};
    for (const figure of FIGURES) {
      if (build.samples[figure].length === 0) continue;
      const m = medianSample(build.samples[figure]);
      figures[figure] = figure.endsWith('Work')
        ? { ms: Math.round(m.workMs), ratio: ratio(m.workMs, f.workMs) }
        : {
            ms: Math.round(m.ms),
            ratio: ratio(m.ms),
            cpuMs: Math.round(m.cpuMs),
            cpuRatio: ratio(m.cpuMs, f.cpuMs),
            peakRssMb: Math.round(m.rssMb),
            faults: faultsOf(m),
          };
    }
    row[build.name === 'this' ? 'zhinGen' : 'compare'] = figures;
  }
  if (n <= runtimeUpTo) {
    const runtime = await benchRuntimeLoad(n, { runs, root });
    row.runtime = { lazyMs: runtime.lazyMs, eagerMs: runtime.eagerMs, ratio: runtime.ratio };
  }
  results.push(row);
  console.error(JSON.stringify(row));
}

/** Milliseconds per 1,000 first-touch page faults on this machine now (bench/children/faults.mjs). */
function faultPrice(): number {
  const out = execFileSync(process.execPath, [join(HERE, 'children', 'faults.mjs')], { encoding: 'utf8' });
  return (JSON.parse(out) as { msPer1kFaults: number }).msPer1kFaults;
}

function emptySamples(): Record<Figure, Sample[]> {
  return Object.fromEntries(FIGURES.map((f) => [f, []])) as unknown as Record<Figure, Sample[]>;
}

function sampleRound(build: Build, round: number): void {
  const env = { ZHIN_GEN_DIST: build.dist };
  const clearCache = (): void => clearUnitCache(build.root);
  const tool = join(build.root, 'tools', 'weather-0', 'index.ts');
  const original = readFileSync(tool, 'utf8');
  let edit = round * 2;
  const changeOne = (): void => {
    edit++;
    writeFileSync(tool, original.replace('z.object({', `z.object({\n    bench${edit}: z.string().max(${edit}),`));
  };
  const cli = [BIN, 'generate', '--root', build.root];
  const work = [BIN, '--work', build.root];
  const s = build.samples;
  const take = (figure: Figure, sample: () => Sample): void => {
    if (chosen.has(figure)) s[figure].push(sample());
  };
  take('cold', () => timeProcess(cli, { ...env, ZHIN_GEN_WORKERS: '0' }, clearCache));
  take('coldPool', () => timeProcess(cli, env, clearCache));
  // The figures after it expect a cache (and an output) for the tree as it is.
  if (chosen.has('coldPool')) timeProcess(cli, env);
  take('warm', () => timeProcess(cli, env));
  take('check', () => timeProcess([BIN, 'check', '--root', build.root], env));
  take('oneChange', () => timeProcess(cli, env, changeOne));
  take('coldWork', () => timeProcess(work, { ...env, ZHIN_GEN_WORKERS: '0' }, clearCache));
  take('warmWork', () => timeProcess(work, env));
  take('oneChangeWork', () => timeProcess(work, env, changeOne));
  writeFileSync(tool, original);
  // Back to the tree the next round's warm figures expect.
  timeProcess(cli, env);
}

type Faults = { k: number; ms: number };
type Fig = { ms: number; ratio: number; cpuMs?: number; cpuRatio?: number; peakRssMb?: number; faults?: Faults };
type Row = {
  n: number;
  floor: { ms: number; workMs: number; cpuMs: number; peakRssMb: number; faults: Faults };
  readOnly: { ms: number; ratio: number };
  statOnly: { ms: number; ratio: number; faults: Faults };
  faultPrice: { msPer1k: number };
  nodeStart: { ms: number; ratio: number; cpuMs: number; cpuRatio: number };
  zhinGen: Partial<Record<Figure, Fig>>;
  compare?: Partial<Record<Figure, Fig>>;
  runtime?: { lazyMs: number; eagerMs: number; ratio: number };
};
const cell = (f: Fig | undefined): string => (f ? `${f.ms} ms (${f.ratio}×)` : '—');
// CPU time (all threads) against the floor's: what a loaded machine moves least.
const cpuCell = (f: Fig | undefined): string => (f?.cpuMs !== undefined ? `${f.cpuMs} ms (${f.cpuRatio}×)` : '—');
const faultCell = (f: Faults | undefined): string => (f ? `${f.k}k (≈ ${f.ms} ms)` : '—');
const rows = results as Row[];
const n = (r: Row): string => r.n.toLocaleString('en');
const lines = [
  'Whole process (Node start, module loading, work), ratio to the floor:',
  '',
  ...table(
    [
      'N',
      'floor',
      'Node start',
      'read only',
      'walk + stat',
      'cold',
      'cold, pool',
      'nothing changed',
      'one tool changed',
      'check',
      'peak RSS cold / pool / nothing',
    ],
    rows.map((r) => [
      n(r),
      `${r.floor.ms} ms`,
      `${r.nodeStart.ms} ms (${r.nodeStart.ratio}×)`,
      `${r.readOnly.ms} ms (${r.readOnly.ratio}×)`,
      `${r.statOnly.ms} ms (${r.statOnly.ratio}×)`,
      ...(['cold', 'coldPool', 'warm', 'oneChange', 'check'] as const).map((k) => cell(r.zhinGen[k])),
      `${r.zhinGen.cold?.peakRssMb ?? '—'} / ${r.zhinGen.coldPool?.peakRssMb ?? '—'} / ${r.zhinGen.warm?.peakRssMb ?? '—'} MB`,
    ]),
  ),
  '',
  'CPU time of the process (user + system, all threads), ratio to the floor’s CPU time:',
  '',
  ...table(
    ['N', 'floor', 'Node start', 'cold', 'cold, pool', 'nothing changed', 'one tool changed', 'check'],
    rows.map((r) => [
      n(r),
      `${r.floor.cpuMs} ms`,
      `${r.nodeStart.cpuMs} ms (${r.nodeStart.cpuRatio}×)`,
      ...(['cold', 'coldPool', 'warm', 'oneChange', 'check'] as const).map((k) => cpuCell(r.zhinGen[k])),
    ]),
  ),
  '',
  'Minor page faults (pages touched first, thousands) and their price at this machine’s measured cost per fault:',
  '',
  ...table(
    ['N', 'price', 'floor', 'walk + stat', 'cold', 'cold, pool', 'nothing changed', 'one tool changed', 'check'],
    rows.map((r) => [
      n(r),
      `${r.faultPrice.msPer1k} ms / 1k`,
      faultCell(r.floor.faults),
      faultCell(r.statOnly.faults),
      ...(['cold', 'coldPool', 'warm', 'oneChange', 'check'] as const).map((k) => faultCell(r.zhinGen[k]?.faults)),
    ]),
  ),
  '',
  'Work after module loading (the parsers loaded first in both), ratio to the floor’s work:',
  '',
  ...table(
    ['N', 'floor', 'cold', 'nothing changed', 'one tool changed'],
    rows.map((r) => [
      n(r),
      `${r.floor.workMs} ms`,
      ...(['coldWork', 'warmWork', 'oneChangeWork'] as const).map((k) => cell(r.zhinGen[k])),
    ]),
  ),
];
if (compare) {
  const pair = (b: Fig | undefined, a: Fig | undefined): string => (b && a ? `${b.ratio}× → ${a.ratio}×` : '—');
  const cpuPair = (b: Fig | undefined, a: Fig | undefined): string =>
    b?.cpuRatio !== undefined && a?.cpuRatio !== undefined ? `${b.cpuRatio}× → ${a.cpuRatio}×` : '—';
  const wall = ['cold', 'coldPool', 'warm', 'oneChange', 'check'] as const;
  const cpu = ['cold', 'coldPool', 'warm', 'check'] as const;
  lines.push(
    '',
    `Before (${compare}) → after (this checkout), alternating in every round, whole process:`,
    '',
    ...table(
      [
        'N',
        'cold',
        'cold, pool',
        'nothing changed',
        'one tool changed',
        'check',
        'CPU: cold',
        'CPU: cold, pool',
        'CPU: nothing changed',
        'CPU: check',
      ],
      rows.map((r) => [
        n(r),
        ...wall.map((k) => pair(r.compare?.[k], r.zhinGen[k])),
        ...cpu.map((k) => cpuPair(r.compare?.[k], r.zhinGen[k])),
      ]),
    ),
  );
}
const withRuntime = rows.filter((r) => r.runtime);
if (withRuntime.length > 0) {
  lines.push(
    '',
    'Runtime start (import manifest + host.load + first beginTurn) vs importing every tool module:',
    '',
    ...table(
      ['N', 'lazy start', 'eager import', 'eager / lazy'],
      withRuntime.map((r) => [
        n(r),
        `${Math.round(r.runtime!.lazyMs)} ms`,
        `${Math.round(r.runtime!.eagerMs)} ms`,
        `${r.runtime!.ratio.toFixed(1)}×`,
      ]),
    ),
  );
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the rounds`;
console.log(`zhin-gen bench — ${machine}, median of ${runs} fresh processes\n\n${lines.join('\n')}`);
writeFileSync(join(HERE, 'results.json'), `${JSON.stringify({ machine, runs, results }, null, 2)}\n`);
