/**
 * Deferred-catalog bench (issue 5).
 *
 * 1. Per-turn cost at 100 / 1,000 / 5,000 tools: `beginTurn` + `modelTools` + one `discover`
 *    (+ `end`), for the Anthropic projection (every admitted tool, deferred flags) and the OpenAI
 *    projection (loaded set only). In-memory synthetic manifests: 80 % plugin tools, 10 %
 *    agent-private, 10 % skill-private; 10 % scope-restricted, 5 % permit-guarded, 2 % hidden.
 *    `host.load` (which builds the catalog and search index once per generation) is timed apart.
 * 2. Prompt bytes: the Anthropic request with deferred loading (what is in the prompt: the tools
 *    not deferred; and the whole `tools` array as sent) against sending every tool schema, for the
 *    example bot and a real 1,000-tool tree (bench/gen-tree.ts, compiled in memory).
 *
 *   node --import tsx bench/turn-cost.ts            → tables on stdout, JSON on stderr
 *   import { benchTurnCost, benchPromptBytes } from './bench/turn-cost.ts'
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCompiler } from '../compiler/index.js';
import { manifestFromCode } from '../compiler/cli/catalog.js';
import {
  PermissionHost,
  createCapabilityHost,
  type CapabilityManifest,
  type ImMessage,
  type ManifestTool,
} from '@zhin-gen/runtime';
import { generateTree, WORDS } from './gen-tree.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'find', 'sync', 'check'];
const MESSAGE: ImMessage = {
  $adapter: 'qq',
  $channel: { id: 'g1', type: 'group' },
  $sender: { id: 'u1', role: 'user' },
};

export function syntheticManifest(n: number): CapabilityManifest {
  const tools: ManifestTool[] = [];
  for (let i = 0; i < n; i++) {
    const noun = WORDS[i % WORDS.length]!;
    const verb = VERBS[Math.floor(i / WORDS.length) % VERBS.length]!;
    const kind = i % 10;
    const placement = kind === 8 ? 'agent' : kind === 9 ? 'skill' : 'plugin';
    const name =
      placement === 'agent'
        ? `agent${i % 5}__${verb}-${noun}-${i}`
        : placement === 'skill'
          ? `skill${i % 10}__${verb}-${noun}-${i}`
          : `${verb}-${noun}-${i}`;
    tools.push({
      qualifiedName: name,
      localName: `${verb}-${noun}-${i}`,
      owner: '',
      placement,
      ...(placement === 'agent' ? { agent: `agent${i % 5}` } : {}),
      ...(placement === 'skill' ? { skill: `skill${i % 10}` } : {}),
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${noun} record for the current ${WORDS[(i + 3) % WORDS.length]} (variant ${i}). Returns the ${noun} as JSON.`,
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', minLength: 1, description: `The ${noun} id` },
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
          mode: { type: 'string', enum: ['fast', 'full'] },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 8 },
        },
        required: ['id'],
        additionalProperties: false,
      },
      requiresApproval: 'never',
      platforms: [],
      scopes: i % 10 === 3 ? ['private'] : [],
      permissions: i % 20 === 7 ? ['role(master)'] : [],
      hidden: i % 50 === 11,
      keywords: [noun],
      source: `tools/${name}/index.ts`,
      load: () => Promise.reject(new Error('bench never executes')),
    });
  }
  return {
    version: 1,
    hash: `synthetic-${n}`,
    plugins: [{ owner: '', dir: '.', conditionalTools: [] }],
    tools,
    skills: Array.from({ length: 10 }, (_, s) => ({
      qualifiedName: `skill${s}`,
      name: `skill${s}`,
      owner: '',
      description: `Workflow ${s} for ${WORDS[s]}`,
      tools: tools
        .filter((t) => t.skill === `skill${s}`)
        .map((t) => t.qualifiedName)
        .slice(0, 5),
      platforms: [],
      scopes: [],
      permissions: [],
      keywords: [WORDS[s]!],
      tags: [],
      always: false,
      instructions: `# Skill ${s}`,
      source: `skills/skill${s}/SKILL.md`,
    })),
    agents: Array.from({ length: 5 }, (_, a) => ({
      qualifiedName: `agent${a}`,
      name: `agent${a}`,
      owner: '',
      description: `Agent ${a}`,
      platforms: [],
      tools: [],
      system: 's',
      boundaries: 'b',
      conventions: 'c',
      workflows: [],
      knowledge: [],
      source: `agents/agent${a}/agent.json`,
    })),
    promptSections: [],
    hooks: [],
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface TurnCost {
  readonly n: number;
  /** `host.load` incl. the per-generation catalog (ms, median of 3). */
  readonly loadMs: number;
  /** The first `discover` of a generation, which builds the search index (ms). */
  readonly firstDiscoverMs: number;
  /** beginTurn + modelTools(anthropic) + discover + end (µs, median). */
  readonly anthropicTurnUs: number;
  /** beginTurn + modelTools(openai) + discover + end (µs, median). */
  readonly openaiTurnUs: number;
  /** The parts of the Anthropic turn (µs, medians). */
  readonly parts: { readonly beginTurnUs: number; readonly modelToolsUs: number; readonly discoverUs: number };
  readonly anthropicToolsSent: number;
}

export async function benchTurnCost(n: number, iterations = 200): Promise<TurnCost> {
  const manifest = syntheticManifest(n);
  const permissions = new PermissionHost();
  const loads: number[] = [];
  let host = createCapabilityHost({ permissions });
  for (let run = 0; run < 3; run++) {
    host = createCapabilityHost({ permissions });
    const started = performance.now();
    await host.load(manifest);
    loads.push(performance.now() - started);
  }
  const first = await host.beginTurn({ sessionKey: 'first', message: MESSAGE });
  const before = performance.now();
  await first.execute('discover', { query: 'weather' });
  const firstDiscoverMs = +(performance.now() - before).toFixed(1);
  await first.end();
  const anthropic: number[] = [];
  const openai: number[] = [];
  const begin: number[] = [];
  const project: number[] = [];
  const search: number[] = [];
  let sent = 0;
  const queries = ['weather', 'create ticket', 'music search', 'lottery numbers', 'translate news'];
  for (let i = 0; i < iterations + 20; i++) {
    for (const provider of ['anthropic', 'openai'] as const) {
      const t0 = performance.now();
      const turn = await host.beginTurn({ sessionKey: `s${i % 7}`, message: MESSAGE });
      const t1 = performance.now();
      const tools = await turn.modelTools({ provider });
      const t2 = performance.now();
      await turn.execute('discover', { query: queries[i % queries.length]! });
      const t3 = performance.now();
      await turn.end();
      const t4 = performance.now();
      if (i < 20) continue; // warm-up
      if (provider === 'anthropic') {
        anthropic.push((t4 - t0) * 1000);
        begin.push((t1 - t0) * 1000);
        project.push((t2 - t1) * 1000);
        search.push((t3 - t2) * 1000);
        sent = tools.length;
      } else openai.push((t4 - t0) * 1000);
    }
  }
  await host.close();
  return {
    n,
    loadMs: +median(loads).toFixed(1),
    firstDiscoverMs,
    anthropicTurnUs: Math.round(median(anthropic)),
    openaiTurnUs: Math.round(median(openai)),
    parts: {
      beginTurnUs: Math.round(median(begin)),
      modelToolsUs: Math.round(median(project)),
      discoverUs: Math.round(median(search)),
    },
    anthropicToolsSent: sent,
  };
}

export interface PromptBytes {
  readonly label: string;
  readonly tools: number;
  /** Every admitted tool with its full schema, nothing deferred (the "send everything" baseline). */
  readonly allSchemasBytes: number;
  /** The Anthropic `tools` array with deferred loading, as sent (deferred tools included). */
  readonly deferredRequestBytes: number;
  /** What enters the prompt: the tools not deferred (meta + loaded). */
  readonly deferredPromptBytes: number;
  /** Same after loading 5 tools with load_tool. */
  readonly afterFiveLoadsPromptBytes: number;
  /** The OpenAI projection (loaded set + meta tools) at turn start. */
  readonly openaiBytes: number;
}

export async function benchPromptBytes(label: string, manifest: CapabilityManifest): Promise<PromptBytes> {
  const host = createCapabilityHost({
    permissions: new PermissionHost(),
    config: { deferredTools: { maxLoadedPerSession: 12 } },
  });
  await host.load(manifest);
  const turn = await host.beginTurn({ sessionKey: 'bytes', message: MESSAGE });
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  const sent = await turn.modelTools({ provider: 'anthropic' });
  const all = sent.map(({ defer_loading: _deferred, ...tool }) => tool);
  const inPrompt = (tools: typeof sent) => tools.filter((tool) => !tool.defer_loading);
  const deferredPromptBytes = bytes(inPrompt(sent));
  const openaiBytes = bytes(await turn.modelTools({ provider: 'openai' }));
  for (const tool of sent.filter((entry) => entry.defer_loading).slice(0, 5))
    await turn.execute('load_tool', { name: tool.name });
  const afterFive = bytes(inPrompt(await turn.modelTools({ provider: 'anthropic' })));
  await turn.end();
  await host.close();
  return {
    label,
    tools: all.length,
    allSchemasBytes: bytes(all),
    deferredRequestBytes: bytes(sent),
    deferredPromptBytes,
    afterFiveLoadsPromptBytes: afterFive,
    openaiBytes,
  };
}

async function compiledManifest(root: string): Promise<CapabilityManifest> {
  const compiler = createCompiler({ root });
  try {
    const result = await compiler.run({ write: false });
    if (result.errors > 0) throw new Error(`${root}: ${result.errors} compile errors`);
    return await manifestFromCode(result.code);
  } finally {
    await compiler.dispose();
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const costs: TurnCost[] = [];
  await benchTurnCost(1000, 300); // JIT warm-up, discarded: otherwise the first size pays for it
  for (const n of [100, 1000, 5000]) {
    const cost = await benchTurnCost(n);
    costs.push(cost);
    console.error(JSON.stringify(cost));
  }
  const treeRoot = join(HERE, 'trees', 'turn-cost-1000');
  generateTree(1000, treeRoot);
  const bytes = [
    await benchPromptBytes('example bot', await compiledManifest(join(HERE, '..', 'fixtures', 'example-bot'))),
    await benchPromptBytes('1,000-tool tree (gen-tree)', await compiledManifest(treeRoot)),
    await benchPromptBytes('5,000 synthetic tools', syntheticManifest(5000)),
  ];
  for (const row of bytes) console.error(JSON.stringify(row));
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  console.log(`turn cost — ${machine}\n`);
  console.log(
    '| tools | host.load (incl. catalog) | first discover (builds index) | turn, anthropic | turn, openai | beginTurn | modelTools (anthropic) | discover | anthropic tools sent |',
  );
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const c of costs) {
    console.log(
      `| ${c.n.toLocaleString('en')} | ${c.loadMs} ms | ${c.firstDiscoverMs} ms | ${c.anthropicTurnUs} µs | ${c.openaiTurnUs} µs | ${c.parts.beginTurnUs} µs | ${c.parts.modelToolsUs} µs | ${c.parts.discoverUs} µs | ${c.anthropicToolsSent} |`,
    );
  }
  console.log(
    '\n| manifest | tools listed | every schema (no deferral) | anthropic request (deferred incl.) | anthropic prompt part | … after 5 load_tool | openai (loaded + meta) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const b of bytes) {
    console.log(
      `| ${b.label} | ${b.tools} | ${kb(b.allSchemasBytes)} | ${kb(b.deferredRequestBytes)} | ${kb(b.deferredPromptBytes)} | ${kb(b.afterFiveLoadsPromptBytes)} | ${kb(b.openaiBytes)} |`,
    );
  }
}
