/**
 * Dev regeneration benchmark: `node --import tsx bench/dev-regen.ts [N] [--vite]`.
 *
 * Generates an N-tool plugin tree (Zod schemas; tools spread over tools/, skills/<s>/tools/,
 * agents/<a>/tools/ and a child plugin), runs the compiler once cold, then edits one tool's schema
 * ten times and measures, in process, from the file event (`compiler.notify`) to the manifest
 * written — what the build plugin does for each coalesced batch in dev. Prints JSON
 * `{ n, coldMs, regenMs }` (regenMs = median of the ten edits).
 *
 * With `--vite`, also starts a real Vite dev server with the plugin on the same tree and
 * measures from writing the file to the rewritten manifest on disk (`devMs`, median): this adds
 * the watcher latency and the plugin's quiet period (30 ms) to `regenMs`.
 *
 * With `--hmr`, the HMR round trip through a listening Vite dev server: a WebSocket client on its
 * HMR socket and a client that loads the module graph as a browser does (the entry, the virtual
 * module, the manifest and the modules it imports statically). Each edit is timed from writing
 * the file to the HMR update received and every module the browser then requests (the updated
 * URLs, `?t=`) served — what a dev-server regeneration costs the developer (`hmrMs`, median; the
 * first load of the graph is `hmrColdMs`); `hmrSplit` is the same round trip as consecutive
 * steps (watcher event, quiet period, the compiler's run, run end → update, update → served) and
 * `BENCH_DEBUG=1` prints each module the client requests with its size and time. The plain-module
 * floor starts no compiler run in a plugin that filters app edits (vite-plugin/state.ts), so old
 * and new floors differ by that run. `BENCH_CHECKOUT=<dir>` takes the compiler and the
 * plugin from another checkout (alternate an old build with this one on the same tree shape).
 * `BENCH_PROFILE=<file.cpuprofile>` writes a CPU profile of the measured edits (the dev server's
 * process from the first measured edit to the last, not its start-up) and prints, per edit, the
 * GC time inside its round trip and the heap in use after it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createCompiler as createOwnCompiler } from '../compiler/index.js';
import { CHECKOUT, generateTree, HERE, manifestText, round, toolSource } from './dev-tree.js';
import { benchViteHmr, type HmrPhases, type HmrProbe, type HmrSplit, profileProbe } from './dev-hmr.js';
import { median } from './process.js';

export interface DevRegenResult {
  readonly n: number;
  readonly coldMs: number;
  readonly regenMs: number;
  /** Per edit: units re-parsed (1 expected). */
  readonly parsedPerEdit: number;
  readonly edits: readonly number[];
  /** `--vite`: file write → manifest rewritten, through a real Vite dev server (median). */
  readonly devMs?: number;
  /** `--vite`: file write → Vite's watcher reports the change (median), included in devMs. */
  readonly watcherMs?: number;
  /** `--hmr`: file write → HMR update received and the updated modules served (median). */
  readonly hmrMs?: number;
  /** `--hmr`: the same round trip for an edit of a plain module of the app (the floor), and hmrMs / it. */
  readonly hmrFloorMs?: number;
  /**
   * `--hmr`: CPU time (user + system, all threads) of the dev server's process from the write to
   * the last module served, for a tool edit and for the floor (medians): moves less with the
   * machine's load than the wall times.
   */
  readonly hmrCpuMs?: number;
  readonly hmrFloorCpuMs?: number;
  /** `--hmr`: the same CPU time from the compiler's run end to the last module served (the plugin's and Vite's part). */
  readonly hmrAfterRunCpuMs?: number;
  readonly hmrRatio?: number;
  /** `--hmr`: the first load of the whole module graph (entry, virtual module, manifest, shards). */
  readonly hmrColdMs?: number;
  /** `--hmr`: modules the client fetched again per edit, and the bytes Vite served for them. */
  readonly hmrRefetched?: number;
  readonly hmrBytes?: number;
  /** `--hmr`: when each step of a tool edit's round trip happened (medians, ms after the write). */
  readonly hmrPhases?: HmrPhases;
  /** `--hmr`: the same as consecutive steps (medians of each step's duration per edit). */
  readonly hmrSplit?: HmrSplit;
  /** `--hmr`: modules the client environment transformed for one edit, and the HMR messages it sent. */
  readonly hmrTransformed?: number;
  readonly hmrUpdates?: number;
}

export async function benchDevRegen(
  n: number,
  options: { root?: string; edits?: number; vite?: boolean; hmr?: boolean; probe?: HmrProbe } = {},
): Promise<DevRegenResult> {
  // Inside the repository so `zod` and `zhin-gen/runtime` resolve (bench/trees/ is git-ignored).
  const root = options.root ?? join(HERE, 'trees', `dev-regen-${n}`);
  const editsCount = options.edits ?? 10;
  const edited = generateTree(root, n);
  try {
    // In its own function: the bare compiler is garbage before the dev server starts, so the dev
    // server's heap and GC are its own (a dev server has one compiler, the plugin's).
    const { coldMs, edits, parsed } = await bareEdits(root, edited, n, editsCount);
    const dev = options.vite ? await benchViteDev(root, edited, editsCount) : undefined;
    const hmr = options.hmr ? await benchViteHmr(root, edited, editsCount, options.probe) : undefined;
    return {
      n,
      coldMs: round(coldMs),
      regenMs: round(median(edits)),
      parsedPerEdit: parsed,
      edits: edits.map(round),
      ...(dev ? { devMs: round(dev.devMs), watcherMs: round(dev.watcherMs) } : {}),
      ...(hmr
        ? {
            hmrMs: round(hmr.hmrMs),
            hmrFloorMs: round(hmr.floorMs),
            hmrCpuMs: round(hmr.cpuMs),
            hmrAfterRunCpuMs: round(hmr.afterRunCpuMs),
            hmrFloorCpuMs: round(hmr.floorCpuMs),
            hmrRatio: Math.round((hmr.hmrMs / hmr.floorMs) * 100) / 100,
            hmrColdMs: round(hmr.coldMs),
            hmrRefetched: hmr.refetched,
            hmrBytes: hmr.bytes,
            hmrPhases: hmr.phases,
            hmrSplit: hmr.split,
            hmrTransformed: hmr.transformed,
            hmrUpdates: hmr.updates,
          }
        : {}),
    };
  } finally {
    if (!options.root) rmSync(root, { recursive: true, force: true });
  }
}

/** The bare compiler: a cold run, then each edit from `notify` to the manifest written (in process). */
async function bareEdits(
  root: string,
  edited: string,
  n: number,
  editsCount: number,
): Promise<{ coldMs: number; edits: number[]; parsed: number }> {
  const { createCompiler } = (await import(pathToFileURL(join(CHECKOUT, 'compiler', 'index.ts')).href)) as {
    createCompiler: typeof createOwnCompiler;
  };
  const compiler = createCompiler({ root, cacheFile: false });
  const coldStart = performance.now();
  const cold = await compiler.run({ write: true });
  const coldMs = performance.now() - coldStart;
  if (cold.errors > 0)
    throw new Error(`benchmark tree has errors: ${cold.diagnostics.find((d) => d.severity === 'error')?.message}`);
  if (cold.model.tools.length !== n) throw new Error(`expected ${n} tools, got ${cold.model.tools.length}`);

  const edits: number[] = [];
  let parsed = 0;
  for (let i = 1; i <= editsCount; i++) {
    writeFileSync(edited, toolSource(0, i));
    const started = performance.now();
    compiler.notify([{ type: 'change', path: edited }]);
    const result = await compiler.run({ write: true });
    edits.push(performance.now() - started);
    if (!result.written || result.errors > 0) throw new Error(`edit ${i} did not rewrite the manifest`);
    if (!manifestText(root, result.code).includes(`"extra${i}"`)) throw new Error(`edit ${i} is not in the manifest`);
    parsed = Math.max(parsed, result.stats.parsed);
  }
  await compiler.dispose();
  return { coldMs, edits, parsed };
}

/** File write → manifest rewritten on disk, through a real Vite dev server and its watcher. */
async function benchViteDev(
  root: string,
  edited: string,
  editsCount: number,
): Promise<{ devMs: number; watcherMs: number }> {
  const { createServer } = await import('vite');
  const { default: zhinGen } = (await import(
    pathToFileURL(join(CHECKOUT, 'vite-plugin', 'vite.ts')).href
  )) as typeof import('../vite-plugin/vite.js');
  let written: (() => void) | undefined;
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    server: { middlewareMode: true, hmr: false },
    plugins: [zhinGen({ onRun: (result) => result.written && written?.() })],
  });
  // Edits made before the watcher has scanned the tree would be missed (by Vite itself too).
  const ready = new Promise<void>((resolve) => server.watcher.once('ready', () => resolve()));
  try {
    await server.environments.client.pluginContainer.buildStart({});
    await Promise.race([ready, new Promise((r) => setTimeout(r, 30_000))]);
    const out = join(root, 'zhin-capabilities.gen.ts');
    const times: number[] = [];
    const latencies: number[] = [];
    let eventAt = 0;
    server.watcher.on('change', (path: string) => {
      if (path === edited) eventAt = performance.now();
    });
    // Two unmeasured edits first: the measured ones see a warmed-up process, as in a dev session.
    for (let i = -1; i <= editsCount; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const done = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no regeneration within 30 s of the edit')), 30_000);
        written = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const started = performance.now();
      writeFileSync(edited, toolSource(0, 100 + i));
      await done;
      if (i < 1) continue;
      times.push(performance.now() - started);
      latencies.push(eventAt - started);
      if (!manifestText(root, readFileSync(out, 'utf8')).includes(`"extra${100 + i}"`))
        throw new Error('dev edit missing from the manifest');
    }
    return { devMs: median(times), watcherMs: median(latencies) };
  } finally {
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1000);
  const result = await benchDevRegen(n, {
    vite: process.argv.includes('--vite'),
    hmr: process.argv.includes('--hmr'),
    ...(process.env.BENCH_ROOT ? { root: process.env.BENCH_ROOT } : {}),
    ...(process.env.BENCH_EDITS ? { edits: Number(process.env.BENCH_EDITS) } : {}),
    ...(process.env.BENCH_PROFILE ? { probe: profileProbe(process.env.BENCH_PROFILE) } : {}),
  });
  const { edits: _edits, ...summary } = result;
  console.log(JSON.stringify(summary));
}
