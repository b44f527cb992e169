/**
 * What the report shows about the runtime is what the runtime does: a real
 * `createCapabilityHost` loads the manifest the compiler generated (the same in-memory module
 * `zhin-gen catalog` evaluates, loaders replaced, nothing executed), and every listing, stage and
 * request size below comes from real turns of that host (`beginTurn`, `load_skill`,
 * `modelTools`, `host.catalog()`). The access matrix asks the runtime's access decision
 * (./access.ts). Nothing here restates a rule of the runtime.
 */
import type { CapabilityCatalog, CapabilityHost, CapabilityManifest, ModelProvider, Turn } from '@zhin-gen/runtime';
import { manifestFromCode } from '../../cli/catalog.js';
import { accessMatrix, type AccessMatrix } from './access.js';
import { beginTurn, messageOf, reportHost, type Principal } from './host.js';
import { collectStages, type StageSet } from './stages.js';
export type { Principal } from './host.js';
import { addSizes, PROVIDERS, sizeOf, type ProviderSizes, type Size } from './tokens.js';

/** The request cost of a turn start for one principal, per provider. */
export interface TurnStartCost {
  readonly agent: string | null;
  /** With deferral (the default): meta tools and always-loaded tools; deferred ones cost nothing up front. */
  readonly deferred: ProviderSizes;
  /** `modelTools({ defer: false })`: every tool listed at turn start, as loaded. */
  readonly undeferred: ProviderSizes;
  readonly sent: number;
  readonly listed: number;
  readonly error: string | null;
}

export interface RuntimeFacts {
  readonly catalog: CapabilityCatalog;
  /** Per tool qualifiedName: its provider request object's size, and its input schema's. */
  readonly toolSizes: ReadonlyMap<string, { readonly schema: Size; readonly providers: ProviderSizes }>;
  /** Every tool of the bot sent as loaded, per provider (the meta tools not counted). */
  readonly allTools: ProviderSizes;
  readonly turnStart: readonly TurnStartCost[];
  readonly access: AccessMatrix;
  readonly stages: readonly StageSet[];
}

const toolName = (tool: object): string =>
  'function' in tool ? (tool as { function: { name: string } }).function.name : (tool as { name: string }).name;

/** Tokens up front: a deferred Anthropic tool (`defer_loading`) is not in the model's context yet. */
function upFront(tools: readonly object[]): object[] {
  return tools.filter((tool) => !('defer_loading' in tool && tool.defer_loading === true));
}

async function providerSizes(turn: Turn, defer: boolean): Promise<{ sizes: ProviderSizes; sent: number }> {
  const sizes = {} as Record<ModelProvider, Size>;
  let sent = 0;
  for (const provider of PROVIDERS) {
    const tools = upFront((await turn.modelTools({ provider, defer })) as object[]);
    if (provider === 'anthropic') sent = tools.length;
    sizes[provider] = addSizes(tools.map(sizeOf));
  }
  return { sizes, sent };
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const ZERO: Size = { bytes: 0, tokens: 0 };
const ZEROS: ProviderSizes = { anthropic: ZERO, openai: ZERO, generic: ZERO };

/**
 * Every tool's provider projection, by the runtime's own projection: the same tools, made
 * plugin-placed and unrestricted in a manifest of their own, are all listed in one system turn,
 * whose `modelTools({ defer: false })` is what a request carrying them would hold.
 */
async function projectAll(manifest: CapabilityManifest): Promise<RuntimeFacts['toolSizes']> {
  const open: CapabilityManifest = {
    ...manifest,
    hostProvided: undefined,
    packages: undefined,
    skills: [],
    agents: [],
    hooks: [],
    promptSections: [],
    plugins: manifest.plugins.map((plugin) => ({ ...plugin, conditionalTools: [] })),
    tools: manifest.tools.map(({ agent: _agent, skill: _skill, ...tool }) => ({
      ...tool,
      placement: 'plugin' as const,
      platforms: [],
      scopes: [],
      permissions: [],
      hidden: false,
    })),
  };
  const host = await reportHost(open);
  const turn = await beginTurn(host, {});
  try {
    const byProvider = new Map<string, Record<ModelProvider, Size>>();
    const schemas = new Map<string, Size>();
    for (const provider of PROVIDERS) {
      for (const tool of (await turn.modelTools({ provider, defer: false })) as object[]) {
        const name = toolName(tool);
        const entry = byProvider.get(name) ?? ({} as Record<ModelProvider, Size>);
        entry[provider] = sizeOf(tool);
        byProvider.set(name, entry);
        if (provider === 'anthropic') schemas.set(name, sizeOf((tool as { input_schema: unknown }).input_schema));
      }
    }
    const sizes = new Map<string, { schema: Size; providers: ProviderSizes }>();
    for (const tool of manifest.tools) {
      const providers = byProvider.get(tool.qualifiedName);
      if (providers) sizes.set(tool.qualifiedName, { schema: schemas.get(tool.qualifiedName)!, providers });
    }
    return sizes;
  } finally {
    await turn.end();
    await host.close();
  }
}

async function turnStartCost(host: CapabilityHost, principal: Principal) {
  let turn: Turn;
  try {
    turn = await beginTurn(host, { message: messageOf(principal) });
  } catch (error) {
    const failed: TurnStartCost = {
      agent: null,
      deferred: ZEROS,
      undeferred: ZEROS,
      sent: 0,
      listed: 0,
      error: errorText(error),
    };
    return failed;
  }
  try {
    const deferred = await providerSizes(turn, true);
    const undeferred = await providerSizes(turn, false);
    const cost: TurnStartCost = {
      agent: turn.agent ?? null,
      deferred: deferred.sizes,
      undeferred: undeferred.sizes,
      sent: deferred.sent,
      listed: undeferred.sent,
      error: null,
    };
    return cost;
  } finally {
    await turn.end();
  }
}

/** Runs the runtime over the generated module `code` for the given principals. */
export async function collectRuntime(code: string, principals: readonly Principal[]): Promise<RuntimeFacts> {
  const manifest = await manifestFromCode(code);
  const toolSizes = await projectAll(manifest);
  const allTools = {} as Record<ModelProvider, Size>;
  for (const provider of PROVIDERS)
    allTools[provider] = addSizes([...toolSizes.values()].map((s) => s.providers[provider]));
  const host = await reportHost(manifest);
  try {
    const turnStart: TurnStartCost[] = [];
    for (const principal of principals) turnStart.push(await turnStartCost(host, principal));
    return {
      catalog: host.catalog(),
      toolSizes,
      allTools,
      turnStart,
      access: await accessMatrix(manifest, principals),
      stages: await collectStages(host, manifest, principals),
    };
  } finally {
    await host.close();
  }
}
