/**
 * `zhin-gen watch` measured from outside, as a user experiences it: the CLI in a child process on
 * a generated tree, a save by rename (what `sed -i` and JetBrains' safe write do) of one tool,
 * and the time until the manifest on disk has the new text. Also the watcher's start-up (process
 * start → "watching for changes": the first run plus chokidar's initial scan). Each figure is the
 * median of the edits, printed beside the floor measured in the same run (bench/children/floor.mjs:
 * walk + read + parse every file).
 *
 *   node --import tsx bench/watch-cli.ts            (BENCH_SIZES=100,1000,5000 BENCH_EDITS=15)
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './gen-tree.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const sizes = (process.env.BENCH_SIZES ?? '100,1000,5000').split(',').map(Number);
const edits = Number(process.env.BENCH_EDITS ?? 15);

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function floorMs(root: string): number {
  const times = Array.from({ length: 3 }, () => {
    const started = performance.now();
    execFileSync(process.execPath, [join(HERE, 'children', 'floor.mjs'), root], { cwd: REPO, encoding: 'utf8' });
    return performance.now() - started;
  });
  return median(times);
}

async function measure(n: number): Promise<Record<string, number>> {
  const root = join(HERE, 'trees', `watch-${n}`);
  generateTree(n, root);
  const floor = floorMs(root);
  const manifest = join(root, 'zhin-capabilities.gen.ts');
  const tool = join(root, 'tools', 'weather-0', 'index.ts');
  const original = readFileSync(tool, 'utf8');
  const started = performance.now();
  const child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'watch', '--root', root], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  while (!stdout.includes('watching for changes')) await sleep(2);
  const startupMs = performance.now() - started;
  const latencies: number[] = [];
  try {
    for (let i = 1; i <= edits; i++) {
      await sleep(150);
      const needle = `bench edit ${i} of ${n}`;
      const text = original.replace(/description: ("|')/, `description: $1${needle} `);
      const before = statSync(manifest).mtimeMs;
      const saved = performance.now();
      writeFileSync(`${tool}___jb_tmp___`, text);
      renameSync(`${tool}___jb_tmp___`, tool);
      for (;;) {
        if (statSync(manifest).mtimeMs !== before && readFileSync(manifest, 'utf8').includes(needle)) break;
        if (performance.now() - saved > 30_000) throw new Error(`edit ${i} never reached the manifest`);
        await sleep(1);
      }
      latencies.push(performance.now() - saved);
    }
  } finally {
    child.kill('SIGTERM');
    writeFileSync(tool, original);
  }
  const saveMs = median(latencies);
  return {
    n,
    floorMs: Math.round(floor),
    startupMs: Math.round(startupMs),
    startupRatio: +(startupMs / floor).toFixed(2),
    saveToManifestMs: +saveMs.toFixed(1),
    saveRatio: +(saveMs / floor).toFixed(3),
  };
}

const rows: Record<string, number>[] = [];
for (const n of sizes) rows.push(await measure(n));
console.log('| N tools | floor | watch start-up (→ "watching") | save by rename → manifest written |');
console.log('| ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.n!.toLocaleString('en')} | ${r.floorMs} ms | ${r.startupMs} ms (${r.startupRatio}×) | ${r.saveToManifestMs} ms (${r.saveRatio}×) |`,
  );
