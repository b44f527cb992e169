/**
 * Peers side by side: `node --import tsx bench/peers.ts` (BENCH_SIZES=1000,5000 by default;
 * BENCH_LARGE=1 or `--large` adds 10,000 and 20,000; BENCH_RUNS=3). On the same tree as
 * bench/run.ts (bench/gen-tree.ts), in rounds (each round one fresh process of every tool, the
 * floor first, so all of them see the same phases of a shared machine), medians as multiples of
 * the floor of those rounds:
 *
 *   floor            walk + read + parse every file (bench/children/floor.mjs)
 *   zhin-gen cold    `zhin-gen generate`, no unit cache, parsing on the main thread
 *   ts-morph         a generator on a ts-morph Project: every tool module added, its definition
 *                    read from the AST into a JSON manifest (syntax only; bench/children/peer.mjs)
 *   ts-morph, typed  the same generator also asking the type checker for each tool's input type
 *                    (what emitting a typed manifest from a Project needs)
 *   esbuild          one bundle of every tool module (zod and the runtime external)
 *   tsc --noEmit     over the tool modules
 *
 * The two that run the type checker stop at BENCH_TSC_MAX tools (default 5,000: minutes above).
 *
 * Whole processes, wall and CPU time (all threads), peak RSS. Prints one JSON line per N and a
 * table; writes nothing into the repository but the trees under bench/trees/.
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTree } from './gen-tree.js';
import { clearUnitCache, medianSample, type Sample, timeProcess } from './process.js';
import { table } from './table.js';
import { writeTscConfig } from './tsc-config.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const large = process.argv.includes('--large') || process.env.BENCH_LARGE === '1';
const sizes = (process.env.BENCH_SIZES ?? (large ? '1000,5000,10000,20000' : '1000,5000')).split(',').map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const tscMax = Number(process.env.BENCH_TSC_MAX ?? 5000);

const PEERS = ['zhinGen', 'tsMorph', 'tsMorphTyped', 'esbuild', 'tsc'] as const;
type Peer = (typeof PEERS)[number];
const LABEL: Record<Peer, string> = {
  zhinGen: 'zhin-gen cold',
  tsMorph: 'ts-morph Project',
  tsMorphTyped: 'ts-morph, typed',
  esbuild: 'esbuild bundle',
  tsc: 'tsc --noEmit',
};

interface Figure {
  readonly ms: number;
  readonly ratio: number;
  readonly cpuMs: number;
  readonly cpuRatio: number;
  readonly peakRssMb: number;
}
interface Row {
  readonly n: number;
  readonly load: readonly number[];
  readonly floor: { readonly ms: number; readonly cpuMs: number; readonly peakRssMb: number };
  readonly peers: Partial<Record<Peer, Figure>>;
}

const PEER = join(HERE, 'children', 'peer.mjs');
const rows: Row[] = [];
for (const n of sizes) {
  const root = join(HERE, 'trees', `peers-${n}`);
  generateTree(n, root);
  const tsconfig = writeTscConfig(root, false);
  const commands: Partial<Record<Peer, { args: string[]; env?: NodeJS.ProcessEnv; before?: () => void }>> = {
    zhinGen: {
      args: [join(HERE, 'children', 'cli.mjs'), 'generate', '--root', root],
      env: { ZHIN_GEN_WORKERS: '0' },
      before: () => clearUnitCache(root),
    },
    tsMorph: { args: [PEER, 'tsmorph', root] },
    esbuild: { args: [PEER, 'esbuild', root] },
    // tsc needs more than Node's default heap on large trees (bench/module.ts does the same).
    ...(n <= tscMax
      ? {
          tsMorphTyped: { args: ['--max-old-space-size=8192', PEER, 'tsmorph-typed', root, tsconfig] },
          tsc: { args: ['--max-old-space-size=8192', PEER, 'tsc', tsconfig] },
        }
      : {}),
  };
  const floor: Sample[] = [];
  const samples: Partial<Record<Peer, Sample[]>> = {};
  const load: number[] = [];
  for (let round = 0; round < runs; round++) {
    load.push(loadavg()[0]!);
    floor.push(timeProcess([join(HERE, 'children', 'floor.mjs'), root]));
    for (const peer of PEERS) {
      const command = commands[peer];
      if (!command) continue;
      (samples[peer] ??= []).push(timeProcess(command.args, command.env, command.before));
    }
  }
  const f = medianSample(floor);
  const peers: Partial<Record<Peer, Figure>> = {};
  for (const peer of PEERS) {
    const taken = samples[peer];
    if (!taken) continue;
    const m = medianSample(taken);
    peers[peer] = {
      ms: Math.round(m.ms),
      ratio: +(m.ms / f.ms).toFixed(2),
      cpuMs: Math.round(m.cpuMs),
      cpuRatio: +(m.cpuMs / f.cpuMs).toFixed(2),
      peakRssMb: Math.round(m.rssMb),
    };
  }
  const row: Row = {
    n,
    load: load.map((l) => +l.toFixed(1)),
    floor: { ms: Math.round(f.ms), cpuMs: Math.round(f.cpuMs), peakRssMb: Math.round(f.rssMb) },
    peers,
  };
  rows.push(row);
  console.log(JSON.stringify(row));
}

const cell = (f: Figure | undefined): string =>
  f ? `${f.ms} ms (${f.ratio}×), CPU ${f.cpuRatio}×, ${f.peakRssMb} MB` : 'not run';
console.log(
  [
    '',
    `Whole processes on ${cpus().length} cores, medians of ${runs}, ratios to the floor of the same rounds:`,
    '',
    ...table(
      ['N', 'floor', ...PEERS.map((p) => LABEL[p]), 'load'],
      rows.map((r) => [
        r.n.toLocaleString('en'),
        `${r.floor.ms} ms, ${r.floor.peakRssMb} MB`,
        ...PEERS.map((p) => cell(r.peers[p])),
        r.load.join(' / '),
      ]),
    ),
  ].join('\n'),
);
