/**
 * Parsing spread over worker threads: a cold run of a large tree parses thousands of units, each
 * independent of the others, so the units that missed the cache are handed out in batches to a
 * pool sized to the machine's cores (each worker loads its own parsers, ~0.2 s, so the pool is
 * used only when there is enough to parse to pay for that). The results are stored in unit
 * order, exactly as a single-threaded run stores them: the output is byte-identical.
 *
 * ZHIN_GEN_WORKERS: `0` never uses the pool; a number N uses N workers for any run that parses
 * two units or more (tests, measurements); unset: the cores, above the threshold below.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileReader } from '../cache/reader.js';
import type { CapabilityUnit } from '../scan/layout.js';
import type { UnitResult } from './units.js';

/** Measured (docs/bench.md): below this many units to parse, starting workers costs more than it saves. */
export const POOL_MIN_UNITS = 600;
/** Units per message: large enough that messaging is noise, small enough to balance the workers. */
const BATCH = 48;

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
  /** file, content hash, mtimeMs, size: what the worker read, as the unit cache stamps it. */
  readonly files: readonly (readonly [string, string, number, number])[];
}

/** How many workers to use for this many units (0: parse on the main thread). */
export function poolSize(jobs: number): number {
  // Running from the sources (tests under a TypeScript loader) there is no built worker module.
  if (!import.meta.url.endsWith('.js')) return 0;
  const setting = process.env.ZHIN_GEN_WORKERS;
  if (setting !== undefined && setting !== '') {
    const n = Number(setting);
    return Number.isInteger(n) && n > 0 && jobs >= 2 ? Math.min(n, Math.ceil(jobs / 2)) : 0;
  }
  const cores = availableParallelism();
  return cores >= 2 && jobs >= POOL_MIN_UNITS ? Math.min(cores, Math.ceil(jobs / (POOL_MIN_UNITS / 2))) : 0;
}

/** Parses the jobs in `size` workers; outputs by job index. */
export async function parseInPool(jobs: readonly PoolJob[], setup: PoolSetup, size: number): Promise<PoolOutput[]> {
  const outputs: PoolOutput[] = new Array(jobs.length);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: size }, () => {
        const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: setup });
        workers.push(worker);
        return new Promise<void>((resolve, reject) => {
          const send = (): void => {
            if (next >= jobs.length) {
              resolve();
              return;
            }
            const batch = jobs.slice(next, next + BATCH);
            next += batch.length;
            worker.postMessage(batch);
          };
          worker.on('message', (message: 'ready' | PoolOutput[]) => {
            if (message !== 'ready') for (const out of message) outputs[out.index] = out;
            send();
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (next < jobs.length || code !== 0)
              reject(new Error(`zhin-gen: a parse worker stopped (exit code ${code})`));
          });
        });
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return outputs;
}

/** The reader the unit cache stores a pooled result with: the stamps and hashes the worker saw. */
export function pooledReader(output: PoolOutput, fallback: FileReader): FileReader {
  const seen = new Map(output.files.map(([file, hash, mtimeMs, size]) => [file, { hash, mtimeMs, size }]));
  return {
    read: (path) => fallback.read(path),
    problem: (path) => fallback.problem(path),
    hashOf: (path) => seen.get(path)?.hash ?? fallback.hashOf(path),
    stampOf: (path) => {
      const s = seen.get(path);
      return s ? { mtimeMs: s.mtimeMs, size: s.size } : fallback.stampOf(path);
    },
  };
}
