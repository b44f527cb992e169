/**
 * `zhin-gen watch` measured from outside, as a user experiences it: the CLI in a child process on
 * a generated tree, a save by rename (what `sed -i` and JetBrains' safe write do) of one tool,
 * and the time until the generated file holding that tool's text has the new text on disk. Also
 * the watcher's start-up (process start → "watching for changes") on a tree the cache knows
 * (the warm start a developer sees every time) and once on a tree it does not (cold).
 *
 * Each figure is a median, printed beside the floor measured in the same run
 * (bench/children/floor.mjs: walk + read + parse every file) and the load average. With
 * ZHIN_GEN_WATCH_TRACE=1 the CLI prints when each run's first event arrived and when the run
 * started and ended, so a save splits into: save → event (the watcher), event → run (the quiet
 * period), the run (compile + write), and run end → seen here (this process's polling).
 *
 *   node --import tsx bench/watch-cli.ts    (BENCH_SIZES=1000,5000 BENCH_EDITS=15 BENCH_ROUNDS=2)
 *   BENCH_COMPARE=/tmp/old-checkout        alternates that checkout's built CLI with this one's
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './gen-tree.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const sizes = (process.env.BENCH_SIZES ?? '1000,5000').split(',').map(Number);
const edits = Number(process.env.BENCH_EDITS ?? 15);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const builds: readonly { readonly name: string; readonly repo: string }[] = process.env.BENCH_COMPARE
  ? [
      { name: 'compare', repo: process.env.BENCH_COMPARE },
      { name: 'this', repo: REPO },
    ]
  : [{ name: 'this', repo: REPO }];

const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const wall = (): number => performance.timeOrigin + performance.now();
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function floorMs(root: string): number {
  const times = Array.from({ length: 3 }, () => {
    const started = performance.now();
    execFileSync(process.execPath, [join(HERE, 'children', 'floor.mjs'), root], { cwd: REPO, encoding: 'utf8' });
    return performance.now() - started;
  });
  return median(times);
}

interface Watch {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly traces: () => readonly Trace[];
  /** ms from spawn to "watching for changes". */
  readonly startupMs: number;
}

interface Trace {
  readonly event?: number;
  readonly start: number;
  readonly end: number;
  readonly written: boolean;
}

async function startWatch(repo: string, root: string): Promise<Watch> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(repo, 'bin', 'zhin-gen.mjs'), 'watch', '--root', root], {
    env: { ...process.env, NO_COLOR: '1', ZHIN_GEN_WATCH_TRACE: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  while (!stdout.includes('watching for changes')) {
    if (child.exitCode !== null) throw new Error(`watch exited: ${stderr}`);
    await sleep(1);
  }
  const startupMs = performance.now() - started;
  const traces = (): Trace[] =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('zhin-gen: trace '))
      .map((line) => JSON.parse(line.slice('zhin-gen: trace '.length)) as Trace);
  return { child, stdout: () => stdout, traces, startupMs };
}

async function stop(watch: Watch): Promise<void> {
  const exited = new Promise((r) => watch.child.once('exit', r));
  watch.child.kill('SIGTERM');
  await exited;
}

/** The generated file that holds `text` (the manifest, or a shard of it, whichever the build writes). */
function outputHolding(root: string, text: string): string {
  const candidates = [join(root, 'zhin-capabilities.gen.ts')];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else candidates.push(join(dir, entry.name));
  };
  for (const entry of readdirSync(root, { withFileTypes: true }))
    if (entry.isDirectory() && entry.name.startsWith('zhin-capabilities.gen')) walk(join(root, entry.name));
  const found = candidates.find((file) => existsSync(file) && readFileSync(file, 'utf8').includes(text));
  if (!found) throw new Error(`no generated file holds ${text}`);
  return found;
}

interface Sample {
  startupMs: number[];
  saveMs: number[];
  eventMs: number[];
  waitMs: number[];
  runMs: number[];
  seenMs: number[];
}

async function measureEdits(repo: string, root: string, n: number, sample: Sample): Promise<void> {
  const tool = join(root, 'tools', 'weather-0', 'index.ts');
  const original = readFileSync(tool, 'utf8');
  const description = /description: ("|')([^"']*)/.exec(original)![2]!;
  const output = outputHolding(root, description);
  const watch = await startWatch(repo, root);
  sample.startupMs.push(watch.startupMs);
  try {
    for (let i = 1; i <= edits; i++) {
      await sleep(200);
      const needle = `bench edit ${i} of ${n} at ${Date.now()}`;
      const text = original.replace(/description: ("|')/, `description: $1${needle} `);
      const tracesBefore = watch.traces().length;
      const before = statSync(output).mtimeMs;
      const savedWall = wall();
      const saved = performance.now();
      writeFileSync(`${tool}___jb_tmp___`, text);
      renameSync(`${tool}___jb_tmp___`, tool);
      for (;;) {
        if (statSync(output).mtimeMs !== before && readFileSync(output, 'utf8').includes(needle)) break;
        if (performance.now() - saved > 30_000) throw new Error(`edit ${i} never reached ${output}`);
        await sleep(1);
      }
      const seenWall = wall();
      sample.saveMs.push(performance.now() - saved);
      await sleep(20);
      const trace = watch
        .traces()
        .slice(tracesBefore)
        .find((t) => t.written && t.end <= seenWall + 1);
      if (trace?.event !== undefined) {
        sample.eventMs.push(trace.event - savedWall);
        sample.waitMs.push(trace.start - trace.event);
        sample.runMs.push(trace.end - trace.start);
        sample.seenMs.push(seenWall - trace.end);
      }
    }
  } finally {
    await stop(watch);
    writeFileSync(tool, original);
  }
}

const rows: string[] = [];
for (const n of sizes) {
  const root = join(HERE, 'trees', `watch-${n}`);
  if (!existsSync(join(root, 'AGENTS.md'))) generateTree(n, root);
  const samples = new Map(
    builds.map((b) => [
      b.name,
      { startupMs: [], saveMs: [], eventMs: [], waitMs: [], runMs: [], seenMs: [] } as Sample,
    ]),
  );
  const floors: number[] = [];
  for (let round = 0; round < rounds; round++)
    for (const build of builds) {
      floors.push(floorMs(root));
      // The cache knows the tree (the warm start): the previous build's cache is another format.
      execFileSync(process.execPath, [join(build.repo, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root]);
      await measureEdits(build.repo, root, n, samples.get(build.name)!);
    }
  const floor = median(floors);
  for (const build of builds) {
    const s = samples.get(build.name)!;
    const save = median(s.saveMs);
    const startup = median(s.startupMs);
    const split = s.eventMs.length
      ? `${median(s.eventMs).toFixed(1)} / ${median(s.waitMs).toFixed(1)} / ${median(s.runMs).toFixed(1)} / ${median(s.seenMs).toFixed(1)}`
      : '—';
    rows.push(
      `| ${n.toLocaleString('en')} | ${build.name} | ${Math.round(floor)} ms | ${Math.round(startup)} ms (${(startup / floor).toFixed(2)}×) | ${save.toFixed(1)} ms (${(save / floor).toFixed(3)}×) | ${split} | ${load()} |`,
    );
  }
}
console.log(
  '| N tools | build | floor | warm start-up → "watching" | save by rename → written (median) | event / wait / run / seen (ms) | load |',
);
console.log('| ---: | --- | ---: | ---: | ---: | --- | --- |');
for (const row of rows) console.log(row);
