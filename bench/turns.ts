/**
 * Runtime turns per provider (docs/bench.md#runtime-turns): on synthetic manifests of N tools
 * (bench/turn-cost.ts: 80 % plugin, 10 % agent-private, 10 % skill-private tools; 10 %
 * scope-restricted, 5 % permit-guarded, 2 % hidden), carrying the shipped discover index the
 * compiler writes (when this build has one), seven sessions with three loaded tools each:
 *
 * - a turn per provider: `beginTurn` + `modelTools({ provider })` + one `discover` + `end`;
 * - the issue's turn: `beginTurn` + `modelTools` for every provider + one `discover` + `end`;
 * - the first `discover` of a generation (fresh host, fresh generation: imports or builds the index);
 * - the first `discover` in a fresh process (`coldFirstDiscover`: plain Node, the built runtime);
 * - the floor, the same sequence with the least work a turn can do: read the session from a Map,
 *   copy an array as long as what the turn sends for each provider (the callers get fresh arrays),
 *   look the query's five results up in a Map, write the session back.
 *
 *   node --import tsx bench/turns.ts [--large]     (BENCH_LARGE=1 adds 10,000 and 20,000; BENCH_SIZES=…;
 *   BENCH_RUNTIME=<a runtime/dist> or `source`; build first: node scripts/build.mjs)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, uptime } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CapabilityManifest, ImMessage } from '@zhin-gen/runtime';
import * as sourceRuntime from '@zhin-gen/runtime';
import { syntheticManifest } from './turn-cost.js';

/**
 * The runtime the turns run on: the built one (`BENCH_RUNTIME`, default this checkout's
 * runtime/dist), as a bot imports it; `BENCH_RUNTIME=source` runs the TypeScript sources through
 * tsx instead, whose name-keeping wrapper costs every closure a turn creates (about a third of a
 * warm turn), so source figures are not what a bot pays.
 */
const RUNTIME_DIST = resolve(process.env.BENCH_RUNTIME ?? join(process.cwd(), 'runtime/dist'));
const FROM_SOURCE = process.env.BENCH_RUNTIME === 'source';
if (!FROM_SOURCE && !existsSync(join(RUNTIME_DIST, 'index.js'))) {
  console.error(
    `bench/turns.ts: no built runtime at ${RUNTIME_DIST}; run node scripts/build.mjs (or BENCH_RUNTIME=source)`,
  );
  process.exit(1);
}
const runtime: typeof sourceRuntime = FROM_SOURCE
  ? sourceRuntime
  : await import(pathToFileURL(join(RUNTIME_DIST, 'index.js')).href);
const { createCapabilityHost, PermissionHost } = runtime;

/** A build older than a runtime source measures old code: say so (run `node scripts/build.mjs`). */
function staleBuild(dist: string): string | undefined {
  const root = resolve(dist, '..');
  const built = statSync(join(dist, 'index.js')).mtimeMs;
  const walk = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'dist' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(path);
        if (found) return found;
      } else if (entry.name.endsWith('.ts') && statSync(path).mtimeMs > built) return path;
    }
    return undefined;
  };
  return walk(root);
}

const MESSAGE: ImMessage = {
  $adapter: 'qq',
  $channel: { id: 'g1', type: 'group' },
  $sender: { id: 'u1', role: 'user' },
};
const QUERIES = ['weather', 'create ticket', 'music search', 'lottery numbers', 'translate news'];
const PROVIDERS = ['anthropic', 'openai', 'generic'] as const;
type Provider = (typeof PROVIDERS)[number];
/**
 * A turn per provider, the every-provider turn, and the every-provider turn whose `discover` query
 * was never asked before (`unseen`: a query word that matches nothing, so the scoring is the same
 * but no kept first page answers it).
 */
type Kind = Provider | 'all' | 'unseen';
const KINDS = [...PROVIDERS, 'all', 'unseen'] as const;
const SESSIONS = 7;

/** A word no catalog holds (letters only, so the tokenizer keeps it whole), different for every turn. */
const unseenWord = (i: number) => `zq${[...String(i)].map((d) => String.fromCharCode(97 + Number(d))).join('')}`;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The manifest as the compiler emits it (tables sorted by name) with the index it would ship
 * beside it (absent in builds without one).
 */
export async function withShippedIndex(unsorted: CapabilityManifest): Promise<CapabilityManifest> {
  const byName = (a: { qualifiedName: string }, b: { qualifiedName: string }) =>
    a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0;
  const manifest = { ...unsorted, tools: [...unsorted.tools].sort(byName), skills: [...unsorted.skills].sort(byName) };
  try {
    const { encodeSearchData, searchDocument } = await import('@zhin-gen/runtime/search');
    const data = encodeSearchData(
      manifest.tools.map((t) => searchDocument(t.qualifiedName, t.keywords, t.tags, t.description)),
      manifest.skills.map((s) => searchDocument(s.qualifiedName, s.keywords, s.tags, s.description)),
    );
    return { ...manifest, search: () => Promise.resolve({ default: data }) };
  } catch {
    return manifest;
  }
}

export interface TurnsResult {
  readonly n: number;
  readonly loadMs: number;
  /** First discover of a fresh generation: with the shipped index, and building it at run time. */
  readonly firstDiscoverMs: number;
  readonly firstDiscoverBuiltMs: number;
  /** µs, medians: a turn per provider, the all-provider turn, and their floors. */
  readonly turnUs: Readonly<Record<Kind, number>>;
  readonly floorUs: Readonly<Record<Kind, number>>;
  /**
   * µs of CPU time (user + system) per turn, the mean over the measured turns: every thread of the
   * process (the collector's and the compiler's helpers too), so it can exceed the wall time.
   */
  readonly cpuUs: Readonly<Record<Kind, number>>;
  readonly sent: Readonly<Record<Provider, number>>;
  /** The first discover in fresh processes (`BENCH_COLD=0` leaves it out). */
  readonly cold: ColdDiscover | undefined;
}

async function firstDiscover(manifest: CapabilityManifest, runs: number): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(manifest);
    const turn = await host.beginTurn({ sessionKey: 'first', message: MESSAGE });
    const started = performance.now();
    await turn.execute('discover', { query: 'weather' });
    times.push(performance.now() - started);
    await turn.end();
    await host.close();
  }
  return +median(times).toFixed(2);
}

/** What a fresh process pays for its first `discover` (see `coldFirstDiscover`). */
export interface ColdDiscover {
  readonly loadMs: number;
  /** Right after `beginTurn`, and after the turn listed its tools and waited 50 ms for the model. */
  readonly firstMs: number;
  readonly firstListedMs: number;
  readonly secondMs: number;
}

/**
 * The first \`discover\` in a fresh process: plain Node and the built runtime (\`BENCH_RUNTIME\`,
 * default this checkout's runtime/dist), the manifest's table and its shipped index as modules on
 * disk, as the compiler writes them. The child times \`host.load\`, the first \`discover\`
 * (importing the index, matching it to the catalog and the query, all on cold code) and a second
 * one. Medians of \`runs\` processes; undefined without a shipped index.
 */
export async function coldFirstDiscover(manifest: CapabilityManifest, runs = 3): Promise<ColdDiscover | undefined> {
  if (typeof manifest.search !== 'function') return undefined;
  const data = (await manifest.search()).default;
  const runtime = pathToFileURL(join(FROM_SOURCE ? join(process.cwd(), 'runtime/dist') : RUNTIME_DIST, 'index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'zhin-turns-'));
  try {
    const tools = manifest.tools.map(({ load: _load, ...tool }) => tool);
    const { search: _search, ...rest } = manifest;
    writeFileSync(join(dir, 'table.mjs'), `export default ${JSON.stringify({ ...rest, tools })};\n`);
    writeFileSync(join(dir, 'search.mjs'), `export default ${JSON.stringify(data)};\n`);
    writeFileSync(
      join(dir, 'child.mjs'),
      [
        `import { createCapabilityHost, PermissionHost } from ${JSON.stringify(runtime.href)};`,
        `import table from './table.mjs';`,
        `const message = ${JSON.stringify(MESSAGE)};`,
        `const never = () => Promise.reject(new Error('bench never executes'));`,
        `const manifest = { ...table, tools: table.tools.map((tool) => ({ ...tool, load: never })), search: () => import('./search.mjs') };`,
        'let started = performance.now();',
        'const host = createCapabilityHost({ permissions: new PermissionHost() });',
        'await host.load(manifest);',
        'const loadMs = performance.now() - started;',
        `const turn = await host.beginTurn({ sessionKey: 'cold', message });`,
        // A bridge lists the tools, then waits for the model (here 50 ms) before its discover.
        `if (process.argv[2] === 'listed') { await turn.modelTools({ provider: 'anthropic' }); await new Promise((r) => setTimeout(r, 50)); }`,
        'started = performance.now();',
        `await turn.execute('discover', { query: 'weather' });`,
        'const firstMs = performance.now() - started;',
        'started = performance.now();',
        `await turn.execute('discover', { query: 'create ticket' });`,
        'const secondMs = performance.now() - started;',
        'console.log(JSON.stringify({ loadMs, firstMs, secondMs }));',
        'await turn.end();',
        'await host.close();',
      ].join('\n'),
    );
    const child = (mode: string) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [...(process.env.BENCH_CHILD_FLAGS?.split(' ') ?? []), join(dir, 'child.mjs'), mode],
          { encoding: 'utf8' },
        ),
      ) as { loadMs: number; firstMs: number; secondMs: number };
    const rows: { loadMs: number; firstMs: number; secondMs: number }[] = [];
    const listed: number[] = [];
    for (let run = 0; run < runs; run++) {
      rows.push(child('plain'));
      listed.push(child('listed').firstMs);
    }
    const pick = (key: 'loadMs' | 'firstMs' | 'secondMs') => +median(rows.map((row) => row[key])).toFixed(2);
    return {
      loadMs: pick('loadMs'),
      firstMs: pick('firstMs'),
      firstListedMs: +median(listed).toFixed(2),
      secondMs: pick('secondMs'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTurns(n: number, iterations = 200): Promise<TurnsResult> {
  const manifest = await withShippedIndex(syntheticManifest(n));
  const { search: _shipped, ...plain } = manifest;
  const permissions = new PermissionHost();
  const loads: number[] = [];
  let host = createCapabilityHost({ permissions });
  for (let run = 0; run < 3; run++) {
    await host.close();
    host = createCapabilityHost({ permissions });
    const started = performance.now();
    await host.load(manifest);
    loads.push(performance.now() - started);
  }
  // Sessions with loaded tools, so the lists carry undeferred entries as in real use.
  const deferred = (
    await (
      await host.beginTurn({ sessionKey: 'x', message: MESSAGE })
    ).modelTools({
      provider: 'anthropic',
    })
  )
    .filter((tool) => tool.defer_loading)
    .map((tool) => tool.name);
  for (let s = 0; s < SESSIONS; s++) {
    const turn = await host.beginTurn({ sessionKey: `s${s}`, message: MESSAGE });
    for (let k = 0; k < 3; k++) await turn.execute('load_tool', { name: deferred[(s * 3 + k) * 7]! });
    await turn.end();
  }

  const turnTimes: Record<Kind, number[]> = { anthropic: [], openai: [], generic: [], all: [], unseen: [] };
  const sent: Record<Provider, number> = { anthropic: 0, openai: 0, generic: 0 };
  const lists: Record<Provider, unknown[]> = { anthropic: [], openai: [], generic: [] };
  const answers = new Map<string, unknown>();
  // CPU time (user + system, µs) summed over the measured turns: moves less with load than wall time.
  const cpuTotals: Record<Kind, number> = { anthropic: 0, openai: 0, generic: 0, all: 0, unseen: 0 };
  for (let i = 0; i < iterations + 20; i++) {
    const query = QUERIES[i % QUERIES.length]!;
    for (const provider of KINDS) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const turn = await host.beginTurn({ sessionKey: `s${i % SESSIONS}`, message: MESSAGE });
      for (const p of provider === 'all' || provider === 'unseen' ? PROVIDERS : [provider]) {
        const tools = await turn.modelTools({ provider: p });
        if (i === 0) {
          sent[p] = tools.length;
          lists[p] = tools;
        }
      }
      const outcome = await turn.execute('discover', {
        query: provider === 'unseen' ? `${query} ${unseenWord(i)}` : query,
      });
      await turn.end();
      const elapsed = (performance.now() - started) * 1000;
      const cpu = process.cpuUsage(cpuBefore);
      if (i >= 20) {
        turnTimes[provider].push(elapsed);
        cpuTotals[provider] += cpu.user + cpu.system;
      }
      if (outcome.status === 'completed') answers.set(query, outcome.output);
    }
  }
  await host.close();

  // The floor: what any turn must do at least, on the same data.
  const store = new Map<string, unknown>(Array.from({ length: SESSIONS }, (_, s) => [`s${s}`, { loaded: [] }]));
  const floorTimes: Record<Kind, number[]> = { anthropic: [], openai: [], generic: [], all: [], unseen: [] };
  let sink = 0;
  for (let i = 0; i < iterations + 20; i++) {
    const query = QUERIES[i % QUERIES.length]!;
    for (const provider of KINDS) {
      const started = performance.now();
      const key = `s${i % SESSIONS}`;
      const session = store.get(key);
      for (const p of provider === 'all' || provider === 'unseen' ? PROVIDERS : [provider])
        sink += lists[p].slice().length;
      sink += answers.get(query) === undefined ? 0 : 1;
      store.set(key, session);
      const elapsed = (performance.now() - started) * 1000;
      if (i >= 20) floorTimes[provider].push(elapsed);
    }
  }
  if (sink < 0) console.log(sink);
  const us = (times: Record<Kind, number[]>) =>
    Object.fromEntries(Object.entries(times).map(([k, v]) => [k, +median(v).toFixed(1)])) as Record<Kind, number>;
  return {
    n,
    loadMs: +median(loads).toFixed(1),
    firstDiscoverMs: await firstDiscover(manifest, 5),
    firstDiscoverBuiltMs: await firstDiscover(plain, 3),
    cold: process.env.BENCH_COLD === '0' ? undefined : await coldFirstDiscover(manifest),
    turnUs: us(turnTimes),
    cpuUs: Object.fromEntries(Object.entries(cpuTotals).map(([k, v]) => [k, +(v / iterations).toFixed(1)])) as Record<
      Kind,
      number
    >,
    floorUs: us(floorTimes),
    sent,
  };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const large = process.argv.includes('--large') || process.env.BENCH_LARGE === '1';
  const sizes = process.env.BENCH_SIZES
    ? process.env.BENCH_SIZES.split(',').map(Number)
    : [1000, 5000, ...(large ? [10_000, 20_000] : [])];
  const stale = FROM_SOURCE ? undefined : staleBuild(RUNTIME_DIST);
  if (stale) console.error(`warning: ${RUNTIME_DIST} is older than ${stale}; run node scripts/build.mjs`);
  await benchTurns(1000, 100); // JIT warm-up, discarded
  const rows: TurnsResult[] = [];
  for (const n of sizes) {
    const row = await benchTurns(n, n >= 10_000 ? 100 : 200);
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, up ${(uptime() / 3600).toFixed(1)} h, load average ${load}; runtime: ${FROM_SOURCE ? 'sources through tsx' : RUNTIME_DIST}`;
  console.log(`runtime turns — ${machine}\n`);
  console.log(
    '| N | host.load | first discover (shipped / built) | cold process: first discover (after listing) | turn: anthropic | openai | generic | every provider | every provider, unseen query | floor (every provider) | tools sent (anthropic) |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const cell = (row: TurnsResult, p: Kind) => `${row.turnUs[p]} µs (${(row.turnUs[p] / row.floorUs[p]).toFixed(1)}×)`;
  for (const row of rows) {
    console.log(
      `| ${row.n.toLocaleString('en')} | ${row.loadMs} ms | ${row.firstDiscoverMs} / ${row.firstDiscoverBuiltMs} ms | ${row.cold ? `${row.cold.firstMs} (${row.cold.firstListedMs}) ms` : '—'} | ${cell(row, 'anthropic')} | ${cell(row, 'openai')} | ${cell(row, 'generic')} | ${cell(row, 'all')} | ${cell(row, 'unseen')} | ${row.floorUs.all} µs | ${row.sent.anthropic} |`,
    );
  }
}
