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
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { createCompiler as createOwnCompiler } from '../compiler/index.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Where the compiler and the plugin under test come from (this checkout, or BENCH_CHECKOUT). */
const CHECKOUT = process.env.BENCH_CHECKOUT ?? join(HERE, '..');

/** The manifest with the tool shards it imports (a large bot's table: compiler/emit/shards.ts). */
function manifestText(root: string, main: string): string {
  const shards = [...main.matchAll(/^import shard\d+ from "\.\/([^"]+)\.js";$/gm)].map((m) =>
    readFileSync(join(root, `${m[1]}.ts`), 'utf8'),
  );
  return [main, ...shards].join('\n');
}

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

const toolSource = (n: number, variant: number): string => `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';

const input = z.object({
  query: z.string().min(1).describe('What to look up (${n})'),
  limit: z.number().int().min(1).max(50).default(10),
  tags: z.array(z.string()).optional(),
  mode: z.enum(['fast', 'full']).optional(),${variant > 0 ? `\n  extra${variant}: z.boolean().optional(),` : ''}
});

export default defineAgentTool<z.input<typeof input>>({
  description: 'Look up records of kind ${n} and summarise them for the user',
  inputSchema: input,
  requiresApproval: 'never',
  async execute({ query, limit }) {
    return { query, limit, kind: ${n} };
  },
});
`;

const md = (title: string, body: string): string => `# ${title}\n\n${body}\n`;

/** Writes an N-tool tree; returns the path of the tool whose schema the benchmark edits. */
export function generateTree(root: string, n: number): string {
  rmSync(root, { recursive: true, force: true });
  const files = new Map<string, string>();
  const perSkill = 10;
  const skillTools = Math.floor(n * 0.15);
  const agentTools = Math.floor(n * 0.15);
  const childTools = Math.floor(n * 0.1);
  const rootTools = n - skillTools - agentTools - childTools;
  let k = 0;
  const pad = (i: number): string => String(i).padStart(5, '0');
  for (let i = 0; i < rootTools; i++) files.set(`tools/lookup-${pad(i)}/index.ts`, toolSource(k++, 0));
  for (let i = 0; i < skillTools; i++) {
    const skill = `skill-${pad(Math.floor(i / perSkill))}`;
    if (i % perSkill === 0)
      files.set(
        `skills/${skill}/SKILL.md`,
        `---\nname: ${skill}\ndescription: Skill ${skill} for the benchmark.\n---\nUse the tools of ${skill}.\n`,
      );
    files.set(`skills/${skill}/tools/op-${pad(i)}/index.ts`, toolSource(k++, 0));
  }
  if (agentTools > 0) files.set('AGENTS.md', md('Bench bot', 'Main agent.'));
  for (let i = 0; i < agentTools; i++) {
    const agent = `agent-${pad(Math.floor(i / perSkill))}`;
    if (i % perSkill === 0) {
      files.set(`agents/${agent}/agent.json`, JSON.stringify({ description: `Agent ${agent} for the benchmark.` }));
      files.set(`agents/${agent}/system.md`, md('System', `You are ${agent}.`));
      files.set(`agents/${agent}/boundaries.md`, md('Boundaries', 'Stay in scope.'));
      files.set(`agents/${agent}/conventions.md`, md(`${agent} conventions`, 'Be brief.'));
    }
    files.set(`agents/${agent}/tools/act-${pad(i)}/index.ts`, toolSource(k++, 0));
  }
  for (let i = 0; i < childTools; i++) files.set(`plugins/svc/tools/svc-${pad(i)}/index.ts`, toolSource(k++, 0));
  for (const [path, content] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return join(root, `tools/lookup-${pad(0)}/index.ts`);
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const round = (ms: number): number => Math.round(ms * 10) / 10;

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

const ENTRY = `import { manifest } from 'virtual:zhin-capabilities';
import { plain } from './plain.ts';
export const tools = manifest.tools.length + plain;
if (import.meta.hot) import.meta.hot.accept();
`;

/** A browser's module requests: static imports of same-origin modules, each URL once. */
class Browser {
  readonly loaded = new Set<string>();
  bytes = 0;
  constructor(private readonly origin: string) {}

  async load(url: string): Promise<number> {
    if (this.loaded.has(url)) return 0;
    this.loaded.add(url);
    const t0 = performance.now();
    const response = await fetch(`${this.origin}${url}`);
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
    const code = await response.text();
    if (process.env.BENCH_DEBUG) console.error(url.slice(0, 90), code.length, Math.round(performance.now() - t0));
    this.bytes += code.length;
    let count = 1;
    // Static imports only (`import x from "/…"`, `export … from "/…"`): dynamic import() loads on use.
    const imports = [...code.matchAll(/\b(?:from|import)\s*["'](\/[^"']+)["']/g)].map((m) => m[1]!);
    const nested = await Promise.all(
      imports.filter((u) => !u.startsWith('/@vite/') && !u.includes('/node_modules/')).map((u) => this.load(u)),
    );
    for (const c of nested) count += c;
    return count;
  }
}

/** Hooks around the measured edits of `benchViteHmr` (profiling: `BENCH_PROFILE`). */
export interface HmrProbe {
  /** Before the first measured edit. */
  start(): void | Promise<void>;
  /** After each edit's modules were served (`started`: when its file was written). */
  edit?(started: number, kind: 'tool' | 'floor'): void;
  /** After the last edit. */
  stop(): void | Promise<void>;
}

/** A CPU profile of the measured edits, and each edit's GC time and heap in use after it. */
function profileProbe(file: string): HmrProbe {
  const session = new Session();
  const gcs: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcs.push({ start: entry.startTime, duration: entry.duration });
  });
  return {
    async start() {
      observer.observe({ entryTypes: ['gc'] });
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    edit(started, kind) {
      const end = performance.now();
      const gc = gcs.filter((g) => g.start >= started && g.start <= end).reduce((sum, g) => sum + g.duration, 0);
      const heap = Math.round(process.memoryUsage().heapUsed / 1e6);
      console.error(`${kind} ${round(end - started)} ms, GC ${round(gc)} ms inside, heap ${heap} MB`);
    },
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      observer.disconnect();
      session.disconnect();
    },
  };
}

/** When each step of one edit's round trip happened, in ms after the file was written. */
export interface HmrPhases {
  /** Vite's watcher reported the edited file. */
  readonly watcher: number;
  /** The compiler's run started (its end minus its own duration) and ended. */
  readonly runStart: number;
  readonly runEnd: number;
  /** Vite's watcher reported the first generated module the run rewrote. */
  readonly written: number;
  /** Vite's `hotUpdate` hooks saw that module (its module graph is invalidated right after). */
  readonly hotUpdate: number;
  /** The HMR client received the update. */
  readonly update: number;
  /** The client environment transformed the rewritten module (requested by the client). */
  readonly transform: number;
  /** Every module the client requested for the update was served. */
  readonly served: number;
}

/** One edit's round trip as consecutive steps (ms): see `HmrPhases`. */
export interface HmrSplit {
  readonly event: number;
  readonly wait: number;
  readonly compile: number;
  readonly toUpdate: number;
  readonly toServed: number;
}

/** A bench-only plugin that timestamps Vite's side of a round trip. */
function tracer(generated: (id: string) => boolean) {
  const marks = { hotUpdate: 0, transform: 0, transformed: [] as string[] };
  const plugin = {
    name: 'bench-trace',
    hotUpdate(this: { environment: { name: string } }, options: { file: string }) {
      if (this.environment.name === 'client' && generated(options.file) && marks.hotUpdate === 0)
        marks.hotUpdate = performance.now();
    },
    transform(this: { environment: { name: string } }, _code: string, id: string) {
      if (this.environment.name !== 'client') return;
      marks.transformed.push(id);
      if (generated(id) && marks.transform === 0) marks.transform = performance.now();
    },
  };
  return { plugin, marks };
}

/**
 * Write → HMR update → the updated modules served, through a listening dev server. The client
 * side is what Vite's client does on an update whose boundary is the entry: import the entry at
 * `?t=<timestamp>`, which requests the modules whose URLs changed; unchanged modules keep their
 * URL and come from the browser's module map. Each step is timestamped (`HmrPhases`).
 */
export async function benchViteHmr(
  root: string,
  edited: string,
  editsCount: number,
  probe?: HmrProbe,
): Promise<{
  hmrMs: number;
  floorMs: number;
  cpuMs: number;
  afterRunCpuMs: number;
  floorCpuMs: number;
  coldMs: number;
  refetched: number;
  bytes: number;
  phases: HmrPhases;
  split: HmrSplit;
  transformed: number;
  updates: number;
}> {
  const { createServer } = await import('vite');
  const { default: zhinGen } = (await import(
    pathToFileURL(join(CHECKOUT, 'vite-plugin', 'vite.ts')).href
  )) as typeof import('../vite-plugin/vite.js');
  const { connectHmr } = await import('../test/vite-plugin/fixture.js');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'main.ts'), ENTRY);
  writeFileSync(join(root, 'src', 'plain.ts'), 'export const plain = 0;\n');
  const generatedDir = join(root, 'zhin-capabilities.gen');
  const generated = (id: string): boolean => id.startsWith(generatedDir);
  const trace = tracer(generated);
  let run = { start: 0, end: 0, cpuEnd: 0 };
  const cpuNow = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1' },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [
      zhinGen({
        onRun: (result) => {
          const end = performance.now();
          if (result.written) run = { start: end - result.stats.ms, end, cpuEnd: cpuNow() };
        },
      }),
      trace.plugin as never,
    ],
  });
  await server.listen();
  const address = server.httpServer!.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const hmr = await connectHmr(`${origin.replace('http', 'ws')}/?token=${server.config.webSocketToken}`);
  let watcherAt = 0;
  let writtenAt = 0;
  server.watcher.on('all', (_type: string, path: string) => {
    if (path === edited && watcherAt === 0) watcherAt = performance.now();
    if (generated(path) && writtenAt === 0) writtenAt = performance.now();
  });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const browser = new Browser(origin);
    let started = performance.now();
    await browser.load('/src/main.ts');
    const coldMs = performance.now() - started;
    const times: number[] = [];
    const floor: number[] = [];
    const cpu: number[] = [];
    const floorCpu: number[] = [];
    const afterRunCpu: number[] = [];
    const phases: Record<keyof HmrPhases, number[]> = {
      watcher: [],
      runStart: [],
      runEnd: [],
      written: [],
      hotUpdate: [],
      update: [],
      transform: [],
      served: [],
    };
    // The same per edit as differences: write → event, event → run start (the quiet period),
    // the run, run end → HMR update received, update → every requested module served.
    const split: Record<keyof HmrSplit, number[]> = { event: [], wait: [], compile: [], toUpdate: [], toServed: [] };
    let refetched = 0;
    let bytes = 0;
    let transformed = 0;
    let updates = 0;
    // Alternately: a tool's edit, and the floor (the same round trip for a plain module of the app).
    for (let j = -2; j < 2 * editsCount; j++) {
      const i = Math.floor(j / 2);
      const isFloor = (j & 1) !== 0;
      await new Promise((r) => setTimeout(r, 200));
      if (j === 0) await probe?.start();
      const from = hmr.messages.length;
      watcherAt = 0;
      writtenAt = 0;
      run = { start: 0, end: 0, cpuEnd: 0 };
      trace.marks.hotUpdate = 0;
      trace.marks.transform = 0;
      trace.marks.transformed.length = 0;
      const cpuStarted = cpuNow();
      started = performance.now();
      if (isFloor) writeFileSync(join(root, 'src', 'plain.ts'), `export const plain = ${j};\n`);
      else writeFileSync(edited, toolSource(0, 200 + i));
      const deadline = Date.now() + 60_000;
      let update: { updates?: { path: string; timestamp: number }[] } | undefined;
      while (!update) {
        if (Date.now() > deadline) throw new Error('no HMR update within 60 s of the edit');
        update = hmr.messages
          .slice(from)
          .find((m) => m.type === 'update' && (m as never as { updates: unknown[] }).updates?.length) as never;
        if (!update) await new Promise((r) => setTimeout(r, 1));
      }
      const updateAt = performance.now();
      const before = browser.bytes;
      let count = 0;
      for (const u of update.updates ?? []) count += await browser.load(`${u.path}?t=${u.timestamp}`);
      const servedAt = performance.now();
      const cpuUsed = cpuNow() - cpuStarted;
      probe?.edit?.(started, isFloor ? 'floor' : 'tool');
      if (i < 0) continue;
      if (isFloor) {
        floor.push(servedAt - started);
        floorCpu.push(cpuUsed);
        continue;
      }
      times.push(servedAt - started);
      cpu.push(cpuUsed);
      afterRunCpu.push(cpuStarted + cpuUsed - run.cpuEnd);
      const at = (t: number): number => (t === 0 ? Number.NaN : t - started);
      phases.watcher.push(at(watcherAt));
      phases.runStart.push(at(run.start));
      phases.runEnd.push(at(run.end));
      phases.written.push(at(writtenAt));
      phases.hotUpdate.push(at(trace.marks.hotUpdate));
      phases.update.push(updateAt - started);
      phases.transform.push(at(trace.marks.transform));
      phases.served.push(servedAt - started);
      split.event.push(watcherAt - started);
      split.wait.push(run.start - watcherAt);
      split.compile.push(run.end - run.start);
      split.toUpdate.push(updateAt - run.end);
      split.toServed.push(servedAt - updateAt);
      refetched = count;
      bytes = browser.bytes - before;
      transformed = trace.marks.transformed.length;
      // Updates that arrived for this edit (a second one would mean the client re-imports twice).
      await new Promise((r) => setTimeout(r, 100));
      updates = hmr.messages.slice(from).filter((m) => m.type === 'update' || m.type === 'full-reload').length;
    }
    await probe?.stop();
    const medians = Object.fromEntries(
      Object.entries(phases).map(([k, v]) => [k, round(median(v.filter((x) => !Number.isNaN(x))))]),
    ) as unknown as HmrPhases;
    const splitMedians = Object.fromEntries(
      Object.entries(split).map(([k, v]) => [k, round(median(v.filter((x) => !Number.isNaN(x))))]),
    ) as unknown as HmrSplit;
    return {
      split: splitMedians,
      hmrMs: median(times),
      floorMs: median(floor),
      cpuMs: median(cpu),
      afterRunCpuMs: median(afterRunCpu),
      floorCpuMs: median(floorCpu),
      coldMs,
      refetched,
      bytes,
      phases: medians,
      transformed,
      updates,
    };
  } finally {
    hmr.close();
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
