/**
 * Cost of `zhin-gen check --load` against plain `check` (issue 13, item 10), on the synthetic
 * tree the other benches use (bench/gen-tree.ts). Plain `check` on a generated tree is the warm
 * path (cache, no module code run); `--load` adds one import of every tool module, with tsx,
 * in child processes. Both are fresh CLI processes (bin/zhin-gen.mjs),
 * measured in alternating rounds; the figure that matters is the ratio. Also the in-process
 * `verifyLoad()` alone with one child and with the default pool, to show what the pool buys.
 *
 *   BENCH_MODE=load BENCH_SIZES=1000 BENCH_RUNS=3 npm run bench
 *   node --import tsx bench/load-check.ts [N] [runs]
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCompiler, verifyLoad } from '../compiler/index.js';
import { generateTree } from './gen-tree.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const BIN = join(REPO, 'bin', 'zhin-gen.mjs');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of one fresh CLI process (bin/zhin-gen.mjs); a failure shows its error lines. */
function timeCli(args: readonly string[]): number {
  const started = performance.now();
  try {
    execFileSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '');
    throw new Error(
      `zhin-gen ${args.join(' ')} failed:\n${stderr
        .split('\n')
        .filter((l) => l.includes(' error '))
        .slice(0, 5)
        .join('\n')}`,
    );
  }
  return performance.now() - started;
}

export interface LoadCheckResult {
  readonly n: number;
  readonly checkMs: number;
  readonly loadMs: number;
  /** loadMs / checkMs. */
  readonly ratio: number;
  /** `verifyLoad()` alone, in process, with one child and with the default pool. */
  readonly verifyOneChildMs: number;
  readonly verifyPoolMs: number;
  readonly perModuleMs: number;
}

export async function benchLoadCheck(n: number, runs: number): Promise<LoadCheckResult> {
  const root = join(HERE, 'trees', `tree-${n}`);
  generateTree(n, root);
  timeCli(['generate', '--root', root]);
  timeCli(['check', '--root', root, '--load']); // tsx's transform cache exists before the timed rounds
  const plain: number[] = [];
  const load: number[] = [];
  for (let round = 0; round < runs; round++) {
    plain.push(timeCli(['check', '--root', root]));
    load.push(timeCli(['check', '--root', root, '--load']));
  }
  const compiler = createCompiler({ root });
  const result = await compiler.run({ write: false });
  const one = await verifyLoad(result, { concurrency: 1 });
  const pool = await verifyLoad(result);
  await compiler.dispose();
  if (one.errors + pool.errors > 0)
    throw new Error(`verifyLoad reported errors on the bench tree: ${JSON.stringify(pool.diagnostics.slice(0, 3))}`);
  const checkMs = median(plain);
  const loadMs = median(load);
  return {
    n,
    checkMs: Math.round(checkMs),
    loadMs: Math.round(loadMs),
    ratio: +(loadMs / checkMs).toFixed(1),
    verifyOneChildMs: Math.round(one.ms),
    verifyPoolMs: Math.round(pool.ms),
    perModuleMs: +(pool.ms / pool.modules).toFixed(2),
  };
}

if (process.argv[1]?.endsWith('load-check.ts')) {
  const sizes = process.argv[2]
    ? [Number(process.argv[2])]
    : (process.env.BENCH_SIZES ?? '1000').split(',').map(Number);
  const runs = Number(process.argv[3] ?? process.env.BENCH_RUNS ?? 3);
  const rows: LoadCheckResult[] = [];
  for (const n of sizes) {
    const row = await benchLoadCheck(n, runs);
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  console.log(`zhin-gen check --load — ${machine}, median of ${runs} fresh processes\n`);
  console.log('| N | check | check --load | --load / check | verifyLoad, 1 child | verifyLoad, pool | per module |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.n.toLocaleString('en')} | ${r.checkMs} ms | ${r.loadMs} ms | ${r.ratio}× | ${r.verifyOneChildMs} ms | ${r.verifyPoolMs} ms | ${r.perModuleMs} ms |`,
    );
  }
}
