/**
 * The HMR round trip of `bench/dev-regen.ts --hmr`: write → HMR update → the updated modules served,
 * through a listening Vite dev server (the file header of dev-regen.ts says what each figure is).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHECKOUT, round, toolSource } from './dev-tree.js';
import { median } from './process.js';

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
export function profileProbe(file: string): HmrProbe {
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
