/**
 * Timing fresh processes for the benches that compare whole runs (bench/run.ts, bench/peers.ts):
 * the parent times the wall clock; the child prints one JSON line with what only it can know
 * (its peak RSS, its CPU time over all its threads, its work time after module loading).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { defaultCacheFile } from '../compiler/cache/units.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Sample {
  readonly ms: number;
  readonly rssMb: number;
  /** In-process work after module loading, when the child reports it. */
  readonly workMs: number;
  /** CPU time of the child, all its threads (user + system). */
  readonly cpuMs: number;
  /** Minor page faults of the child: pages it touched first (bench/children/faults.mjs prices one). */
  readonly faults: number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of a fresh process, and the peak RSS the child reports. */
export function timeProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}, before?: () => void): Sample {
  before?.();
  const started = performance.now();
  const out = execFileSync(process.execPath, args, {
    cwd: REPO,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
    maxBuffer: 64 * 2 ** 20,
  });
  const ms = performance.now() - started;
  const rss = /"rssKb":(\d+)/.exec(out);
  const work = /"workMs":([\d.]+)/.exec(out);
  const cpu = /"cpuMs":([\d.]+)/.exec(out);
  const faults = /"faults":(\d+)/.exec(out);
  return {
    ms,
    rssMb: rss ? Number(rss[1]) / 1024 : NaN,
    workMs: work ? Number(work[1]) : NaN,
    cpuMs: cpu ? Number(cpu[1]) : NaN,
    faults: faults ? Number(faults[1]) : NaN,
  };
}

/** Medians of the times; the largest peak RSS (a peak is a worst case). */
export function medianSample(samples: readonly Sample[]): Sample {
  return {
    ms: median(samples.map((s) => s.ms)),
    rssMb: Math.max(...samples.map((s) => s.rssMb)),
    workMs: median(samples.map((s) => s.workMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    faults: median(samples.map((s) => s.faults)),
  };
}

/**
 * Removes every file of the unit cache of `root` (the bodies and each record beside them: index,
 * journal, emit record, ...): a cold run must find none of them, or it may skip work a first run does.
 */
export function clearUnitCache(root: string): void {
  const cacheFile = defaultCacheFile(root);
  if (cacheFile === undefined) return;
  const prefix = basename(cacheFile);
  if (!existsSync(dirname(cacheFile))) return;
  for (const name of readdirSync(dirname(cacheFile)))
    if (name.startsWith(prefix)) rmSync(join(dirname(cacheFile), name), { force: true });
}
