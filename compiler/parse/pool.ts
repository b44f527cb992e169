/**
 * Parsing spread over threads: a cold run of a large tree parses thousands of units, each
 * independent of the others. The main thread parses too: worker threads take batches from the
 * front of the list while the main thread takes small ones from the back, until they meet. So a
 * pool sized to the cores is the main thread plus one worker per other core, the main thread is
 * never idle waiting for workers, and a worker's start-up (loading its own parsers, ~0.2 s) is
 * hidden behind the main thread's work. The results are stored in unit order, exactly as a
 * single-threaded run stores them: the output is byte-identical.
 *
 * ZHIN_GEN_WORKERS: `0` never starts a worker; a number N starts N workers (beside the main
 * thread) for any run that parses two units or more (tests, measurements); unset: one worker
 * per core after the first, above the threshold below, and only as many as the cores the rest
 * of the machine leaves idle (`idleCores`).
 */
import { availableParallelism, cpus } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileReader } from '../cache/reader.js';
import type { CapabilityUnit } from '../scan/layout.js';
import { resultPrint } from '../util/hash.js';
import type { UnitResult } from './units.js';

/**
 * Below this many units to parse, a worker costs more than it saves. Measured on 2 cores
 * (cold runs, unit cache cleared, alternating): one worker at 5,000 units cost +0.2 s wall and
 * +1.2 s CPU; at 20,000 it saved ~1 s wall (of 7.4 s) for +1.6 s CPU.
 */
export const POOL_MIN_UNITS = 8000;
/** Largest batch a worker gets: large enough that messaging is noise, small enough to balance. */
const MAX_BATCH = 32;
/** Units the main thread parses between two looks at the workers' messages. */
const MAIN_BATCH = 8;
/** Batches a worker holds at once: the next is already queued when it sends a result back. */
const IN_FLIGHT = 2;

export interface PoolSetup {
  readonly root: string;
  readonly modules: readonly string[];
  readonly permits: readonly string[];
  readonly agentsMd: readonly (readonly [pluginDir: string, file: string])[];
}

/** A unit to parse, or (no `unit`) a plugin entry file. */
export interface PoolJob {
  readonly index: number;
  readonly unit?: CapabilityUnit;
  readonly files: readonly string[];
}

export interface PoolOutput {
  readonly index: number;
  readonly result: UnitResult;
  /**
   * file, content hash, changedMs, size, inode: what a worker read, as the unit cache stamps it.
   * Absent for a unit the main thread parsed: the run's own reader has those.
   */
  readonly files?: readonly (readonly [string, string, number, number, number])[];
  /**
   * The result's `resultPrint` (util/hash.ts), taken by the thread that parsed it: in the
   * parallel part of the run, not in the main thread's serial store of every result after it.
   */
  readonly print: string;
}

/** How many worker threads to start for this many units (0: parse on the main thread alone). */
export function poolSize(jobs: number): number {
  // Running from the sources (tests under a TypeScript loader) there is no built worker module.
  if (!import.meta.url.endsWith('.js')) return 0;
  const setting = process.env.ZHIN_GEN_WORKERS;
  if (setting !== undefined && setting !== '') {
    const n = Number(setting);
    return Number.isInteger(n) && n > 0 && jobs >= 2 ? Math.min(n, Math.ceil(jobs / 2)) : 0;
  }
  const cores = availableParallelism();
  return cores >= 2 && jobs >= POOL_MIN_UNITS ? Math.min(cores - 1, Math.floor(jobs / (POOL_MIN_UNITS / 2))) : 0;
}

/** Whether the machine decides the workers (ZHIN_GEN_WORKERS unset): the pool then looks at the load first. */
export function decidesByLoad(): boolean {
  const setting = process.env.ZHIN_GEN_WORKERS;
  return setting === undefined || setting === '';
}

/** How long this thread parses alone while it measures how busy the cores are. */
const PROBE_MS = 100;

interface CpuSample {
  readonly idle: number;
  readonly total: number;
  /** This process's CPU time (ms, every thread) and the wall clock (ms), for `idleCores`. */
  readonly own?: number;
  readonly at?: number;
}

function sampleCpus(): CpuSample {
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  const { user, system } = process.cpuUsage();
  return { idle, total, own: (user + system) / 1000, at: performance.now() };
}

/**
 * Cores that no other process used between two samples, beside this thread, of `cores`: while
 * this thread parses, an otherwise idle 2-core machine has one. This process's own background
 * threads count as idle: in the first moments of parsing V8's optimizing compiler takes most
 * of the second core, and counting it as load meant no worker at 20,000 units (where one
 * saves a second) and one at random at 1,000. A worker started on a machine with none only
 * competes with this thread for a core, and adds its start-up and a second heap.
 */
export function idleCores(from: CpuSample, to: CpuSample, cores: number): number {
  const total = to.total - from.total;
  // No figures (a platform that reports no CPUs): nothing is known to be busy.
  if (!(total > 0)) return Number.POSITIVE_INFINITY;
  // Background threads: this process's CPU time beyond this (busy) thread's wall time.
  const own = to.own !== undefined && from.own !== undefined ? to.own - from.own : 0;
  const wall = to.at !== undefined && from.at !== undefined ? to.at - from.at : own;
  const background = Math.max(0, own - wall);
  return Math.min(cores, ((to.idle - from.idle + background) / total) * cores);
}

/**
 * Parses the jobs in up to `size` workers and on this thread (`parseHere`); outputs by job
 * index, and how many workers ran. Every worker is handed its first batch before this thread
 * goes on, so each takes part. `probe`: this thread first parses alone for a moment and starts
 * only as many workers as there were idle cores meanwhile.
 */
export async function parseInPool(
  jobs: readonly PoolJob[],
  setup: PoolSetup,
  size: number,
  parseHere: (job: PoolJob) => UnitResult,
  probe = false,
): Promise<{ outputs: PoolOutput[]; workers: number }> {
  const outputs: PoolOutput[] = new Array(jobs.length);
  // Workers take [front, back), this thread takes from `back` downwards.
  let front = 0;
  let back = jobs.length;
  const parseBatch = (): void => {
    const stop = Math.max(front, back - MAIN_BATCH);
    for (let i = back - 1; i >= stop; i--) {
      const result = parseHere(jobs[i]!);
      outputs[i] = { index: i, result, print: resultPrint(result) };
    }
    back = stop;
  };
  let started = size;
  if (probe) {
    const from = sampleCpus();
    const since = performance.now();
    while (front < back && performance.now() - since < PROBE_MS) parseBatch();
    started = front < back ? Math.min(size, Math.round(idleCores(from, sampleCpus(), cpus().length))) : 0;
  }
  // Smaller batches as the list runs out, so no thread waits long for another's last batch.
  const batch = (): number => Math.max(1, Math.min(MAX_BATCH, Math.ceil((back - front) / ((started + 1) * 4))));
  const workers: Worker[] = [];
  let failed: Error | undefined;
  const finished = Array.from({ length: started }, () => {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: setup });
    workers.push(worker);
    return new Promise<void>((resolve, reject) => {
      let held = 0;
      const fail = (error: Error): void => {
        failed ??= error;
        reject(error);
      };
      const send = (): void => {
        while (held < IN_FLIGHT && front < back && !failed) {
          const end = Math.min(front + batch(), back);
          worker.postMessage(jobs.slice(front, end));
          front = end;
          held++;
        }
        if (held === 0) resolve();
      };
      worker.on('message', (message: 'ready' | PoolOutput[]) => {
        if (message !== 'ready') {
          for (const out of message) outputs[out.index] = out;
          held--;
        }
        send();
      });
      worker.once('error', fail);
      worker.once('exit', (code) => {
        if (held > 0 || code !== 0) fail(new Error(`zhin-gen: a parse worker stopped (exit code ${code})`));
      });
      // Queued until the worker listens: its first batch is reserved before this thread starts.
      send();
    });
  });
  // A rejection is reported once, by the await below; never as an unhandled one meanwhile.
  for (const done of finished) done.catch(() => {});
  try {
    while (front < back && !failed) {
      parseBatch();
      // Lets the workers' results in and their next batches out.
      if (started > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(finished);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { outputs, workers: started };
}

/** The reader the unit cache stores a result with: the stamps and hashes the worker saw, if a worker parsed it. */
export function pooledReader(output: PoolOutput, fallback: FileReader): FileReader {
  if (!output.files) return fallback;
  const seen = new Map(
    output.files.map(([file, hash, changedMs, size, ino]) => [file, { hash, changedMs, size, ino }]),
  );
  return {
    read: (path) => fallback.read(path),
    problem: (path) => fallback.problem(path),
    missing: (path) => !seen.has(path) && fallback.missing(path),
    hashOf: (path) => seen.get(path)?.hash ?? fallback.hashOf(path),
    stampOf: (path) => {
      const s = seen.get(path);
      return s ? { changedMs: s.changedMs, size: s.size, ino: s.ino } : fallback.stampOf(path);
    },
  };
}
