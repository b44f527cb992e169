/**
 * `zhin-gen watch` measured from outside, as a user experiences it: the CLI in a child process on
 * a generated tree, a save by rename (what `sed -i` and JetBrains' safe write do) of one tool,
 * and the time until the generated file holding that tool's text has the new text on disk. Also
 * the start-up on a tree the cache knows (the warm start a developer sees every time): process
 * start → "watching for changes", and process start → an edit saved at that moment is on disk
 * (whatever the first run and the loading around it cost). The steady edits start once the
 * watcher has been quiet for 1.5 s.
 *
 * Each figure is a median, printed beside the floor measured in the same run
 * (bench/children/floor.mjs: walk + read + parse every file) and the load average. With
 * ZHIN_GEN_WATCH_TRACE=1 the CLI prints when each run's first event arrived and when the run
 * started and ended, so a save splits into: save → event (the watcher), event → run start (the
 * quiet period), run start → the text seen on disk here (compile + write + this process's
 * polling), and what the run does after that write (the rest of the generated files).
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

/** The floor's wall time and CPU time (the child reports its own, all threads), medians of 3. */
function floorMs(root: string): { ms: number; cpuMs: number } {
  const runs = Array.from({ length: 3 }, () => {
    const started = performance.now();
    const out = execFileSync(process.execPath, [join(HERE, 'children', 'floor.mjs'), root], {
      cwd: REPO,
      encoding: 'utf8',
    });
    return { ms: performance.now() - started, cpuMs: Number(/"cpuMs":([\d.]+)/.exec(out)?.[1] ?? Number.NaN) };
  });
  return { ms: median(runs.map((r) => r.ms)), cpuMs: median(runs.map((r) => r.cpuMs)) };
}

/**
 * CPU time a process has used so far, all its threads, in ms (Linux: each task's schedstat,
 * nanoseconds on the CPU). What a loaded machine moves least: waiting for a core is not counted.
 */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  let ns = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return Number.NaN;
  }
  return ns / 1e6;
}

interface Watch {
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly traces: () => readonly Trace[];
  /** ms from spawn to "watching for changes". */
  readonly startupMs: number;
  /** CPU time of the child (all threads) at "watching for changes". */
  readonly startupCpuMs: number;
}

interface Trace {
  readonly event?: number;
  readonly start: number;
  readonly end: number;
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
  const startupCpuMs = cpuMsOf(child.pid);
  const traces = (): Trace[] =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('zhin-gen: trace '))
      .map((line) => JSON.parse(line.slice('zhin-gen: trace '.length)) as Trace);
  return { child, stdout: () => stdout, traces, startupMs, startupCpuMs };
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
  /** Spawn → "watching for changes". */
  startupMs: number[];
  /** The child's CPU time at "watching for changes". */
  startupCpuMs: number[];
  /** The child's CPU time across one save's run (from the save until the run's trace line). */
  saveCpuMs: number[];
  /** Spawn → an edit saved at "watching" is on disk (the first run and anything before it included). */
  firstEditMs: number[];
  saveMs: number[];
  /** Save → the watcher's first event. */
  eventMs: number[];
  /** First event → the run starts (the quiet period, or a run still in flight). */
  waitMs: number[];
  /** Run start → the new text seen on disk from here. */
  writtenMs: number[];
  /** Seen on disk → the run ends (what the run does after that write). */
  tailMs: number[];
}

/** Saves one edit of the tool by rename and waits until `output` holds it; ms from the save. */
async function saveAndWait(tool: string, text: string, needle: string, output: string): Promise<number> {
  const before = statSync(output).mtimeMs;
  const saved = performance.now();
  writeFileSync(`${tool}___jb_tmp___`, text);
  renameSync(`${tool}___jb_tmp___`, tool);
  for (;;) {
    if (statSync(output).mtimeMs !== before && readFileSync(output, 'utf8').includes(needle)) break;
    if (performance.now() - saved > 60_000) throw new Error(`${needle} never reached ${output}`);
    await sleep(1);
  }
  return performance.now() - saved;
}

/** Resolves once the watcher has printed no trace for `quietMs` (its first run and warm-up done). */
async function settled(watch: Watch, quietMs: number): Promise<void> {
  let count = watch.traces().length;
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    await sleep(50);
    if (watch.traces().length !== count) {
      count = watch.traces().length;
      since = performance.now();
    }
  }
}

async function measureEdits(repo: string, root: string, n: number, sample: Sample): Promise<void> {
  const tool = join(root, 'tools', 'weather-0', 'index.ts');
  // A bench stopped mid-edit leaves its needle in the tool: start from the text without it.
  const original = readFileSync(tool, 'utf8').replace(/(?:bench (?:first )?edit [^'"]*? at \d+ )+/g, '');
  const description = /description: ("|')([^"']*)/.exec(original)![2]!;
  const output = outputHolding(root, description);
  const edited = (needle: string): string => original.replace(/description: ("|')/, `description: $1${needle} `);
  const watch = await startWatch(repo, root);
  sample.startupMs.push(watch.startupMs);
  sample.startupCpuMs.push(watch.startupCpuMs);
  try {
    // Saved the moment "watching" is printed: it must not be lost, and shows when watch is really ready.
    const first = `bench first edit of ${n} at ${Date.now()}`;
    sample.firstEditMs.push(watch.startupMs + (await saveAndWait(tool, edited(first), first, output)));
    await settled(watch, 1_500);
    for (let i = 1; i <= edits; i++) {
      await sleep(200);
      const needle = `bench edit ${i} of ${n} at ${Date.now()}`;
      const tracesBefore = watch.traces().length;
      const cpuBefore = cpuMsOf(watch.child.pid);
      const savedWall = wall();
      sample.saveMs.push(await saveAndWait(tool, edited(needle), needle, output));
      const seenWall = wall();
      // The run that wrote it: the first to start after the save (its line comes when it ends).
      let trace: Trace | undefined;
      for (let waited = 0; waited < 5_000 && !trace; waited += 5) {
        trace = watch
          .traces()
          .slice(tracesBefore)
          .find((t) => t.event !== undefined && t.event >= savedWall - 1);
        if (!trace) await sleep(5);
      }
      sample.saveCpuMs.push(cpuMsOf(watch.child.pid) - cpuBefore);
      if (trace?.event !== undefined) {
        sample.eventMs.push(trace.event - savedWall);
        sample.waitMs.push(trace.start - trace.event);
        sample.writtenMs.push(seenWall - trace.start);
        sample.tailMs.push(trace.end - seenWall);
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
      {
        startupMs: [],
        startupCpuMs: [],
        saveCpuMs: [],
        firstEditMs: [],
        saveMs: [],
        eventMs: [],
        waitMs: [],
        writtenMs: [],
        tailMs: [],
      } as Sample,
    ]),
  );
  const floors: { ms: number; cpuMs: number }[] = [];
  for (let round = 0; round < rounds; round++)
    for (const build of builds) {
      floors.push(floorMs(root));
      // The cache knows the tree (the warm start): the previous build's cache is another format.
      execFileSync(process.execPath, [join(build.repo, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root]);
      await measureEdits(build.repo, root, n, samples.get(build.name)!);
    }
  const floor = median(floors.map((f) => f.ms));
  const floorCpu = median(floors.map((f) => f.cpuMs));
  for (const build of builds) {
    const s = samples.get(build.name)!;
    const save = median(s.saveMs);
    const startup = median(s.startupMs);
    const first = median(s.firstEditMs);
    const split = s.eventMs.length
      ? [s.eventMs, s.waitMs, s.writtenMs, s.tailMs].map((v) => median(v).toFixed(1)).join(' / ')
      : '—';
    const ratio = (ms: number, digits = 2): string => `${(ms / floor).toFixed(digits)}×`;
    const startupCpu = median(s.startupCpuMs);
    const saveCpu = median(s.saveCpuMs);
    rows.push(
      `| ${n.toLocaleString('en')} | ${build.name} | ${Math.round(floor)} ms | ${Math.round(startup)} ms (${ratio(startup)}) | ${Math.round(first)} ms (${ratio(first)}) | ${save.toFixed(1)} ms (${ratio(save, 3)}) | ${split} | ${Math.round(floorCpu)} ms | ${Math.round(startupCpu)} ms (${(startupCpu / floorCpu).toFixed(2)}×) | ${saveCpu.toFixed(1)} ms | ${load()} |`,
    );
  }
}
console.log(
  '| N tools | build | floor | start → "watching" | start → first edit written | save by rename → written (median) | event / wait / run until written / after (ms) | floor CPU | CPU start → "watching" | CPU per save (whole run) | load |',
);
console.log('| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |');
for (const row of rows) console.log(row);
