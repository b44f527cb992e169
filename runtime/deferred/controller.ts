/**
 * The deferred tool controller: one per turn, isolated (docs/catalog.md). It owns the turn's loaded state, answers the meta tools and
 * projects the turn's tool list for a provider. Loaded state starts from the session snapshot
 * (or, for a fork, from a copy of the parent's state) and is written back — merged with what
 * the store holds by then — whenever this turn loads something; a fork never writes.
 */
import { describeError, type ToolBinding } from '../generation/capability.js';
import { skillListed, toolListed, TurnAdmission, type DisclosureView } from '../access/disclosure.js';
import type { ManifestAgent } from '../contract/manifest.js';
import type { GenerationCatalog, CatalogTool } from './catalog.js';
import { type LoadedReason, type Omission, type TurnListing, turnListing, turnOmissions } from './listing.js';
import {
  META_PROJECTED,
  META_TOOL_NAMES,
  metaToolBindings,
  type DiscoverInput,
  type DiscoverOutput,
  type DiscoverResult,
  type LoadSkillOutput,
  type LoadToolOutput,
  type MetaToolName,
  noMatch,
  notFoundSkill,
  notFoundTool,
} from './meta-tools.js';
import type { ModelProvider, ModelToolsFor } from './providers.js';
import { RequestCaps } from './request-caps.js';
import { FUTURE_SLACK_MS, LoadedTools } from './loaded-tools.js';
import {
  freezeSnapshot,
  mergeSnapshot,
  readSnapshot,
  readStoredSession,
  type DeferredToolSessionSnapshot,
  type DeferredToolSessionStore,
  type SessionUpdate,
} from './session-store.js';

export type { ListedAgent, ListedSkill, ListedTool, LoadedReason, Omission, TurnListing } from './listing.js';

/** Thrown by `load_tool` / `load_skill` for names this turn cannot see; fixed wording, no hints. */
export class CatalogNotFoundError extends Error {
  override readonly name = 'CatalogNotFoundError';
}

export interface DeferredToolController {
  discover(input: DiscoverInput): Promise<DiscoverOutput>;
  loadTool(name: string): Promise<LoadToolOutput>;
  loadSkill(name: string): Promise<LoadSkillOutput>;
  /** `defer: false` lists every listed tool as loaded (docs/catalog.md#provider-projection-turnmodeltools-provider-). */
  modelTools<P extends ModelProvider>(provider: P, defer?: boolean, maxTools?: number): Promise<ModelToolsFor<P>>;
  /** Tools, skills and agents the model can know about now. */
  listing(): Promise<TurnListing>;
  /** Operator view (`zhin-gen catalog`): every tool and skill left out, with the reason. Never for the model. */
  omissions(): Promise<readonly Omission[]>;
  /**
   * This turn's loaded state (not what the store holds): the tools of its loaded set and the
   * stored skills it may list, never what another principal of a shared session loaded.
   */
  snapshot(): DeferredToolSessionSnapshot;
  isLoaded(name: string): boolean;
  /** Marks a use of an already-loaded tool (LRU). */
  touch(name: string): void;
  /** Writes pending touches; resolves when every write of this turn settled. */
  flush(): Promise<void>;
  /** The per-turn meta tool bindings (only those enabled by `alwaysLoadedTools`). */
  readonly metaTools: readonly ToolBinding[];
}

/**
 * The state a fork starts from: every stored tool and skill, listed by this turn or not (a fork's
 * scope may list others), so it is not on the controller a host sees (`turn.deferred`): in a
 * shared session it names what other principals loaded. Only the turn that forks reads it.
 */
const forkSeeds = new WeakMap<DeferredToolController, () => ControllerSeed>();

/** The seed of a fork of the turn that owns `controller` (turn/turn.ts). */
export function forkSeedOf(controller: DeferredToolController): ControllerSeed {
  return forkSeeds.get(controller)!();
}

export interface ControllerSeed {
  readonly tools: ReadonlyMap<string, number>;
  readonly skills: readonly string[];
}

export interface DeferredControllerOptions {
  readonly catalog: GenerationCatalog;
  /** `scope.activeSkills` is the turn's live set. */
  readonly view: DisclosureView;
  readonly sessionKey: string;
  /** Absent for forks: their loads never reach the session. */
  readonly store: DeferredToolSessionStore | undefined;
  readonly clock: () => number;
  /** Adds a skill to the turn's active skills (after this controller checked it). */
  readonly activate: (skill: string) => void;
  readonly onError: (error: Error) => void;
  /** Records on the turn why its loaded state is not what the store held (docs/stores.md). */
  readonly diagnose?: (message: string) => void;
  /** Records on the turn which tools a provider request left out over the provider's limit. */
  readonly capped?: (message: string) => void;
  readonly seed?: ControllerSeed;
}

async function check(result: boolean | Promise<boolean>): Promise<boolean> {
  return result === true || (result !== false && (await result));
}

export async function openDeferredController(options: DeferredControllerOptions): Promise<DeferredToolController> {
  const { catalog, view, store, sessionKey, onError } = options;
  const config = catalog.config;
  const admission = new TurnAdmission(view);
  const agent: ManifestAgent | undefined = view.scope.agent;
  const state = new LoadedTools(config.maxLoadedPerSession, options.clock);
  /** Tool name → last touched: this turn's loaded set (loaded-tools.ts), refilled in place. */
  const loaded = state.visible;
  const loadedSkills = new Set<string>();
  /** The stored and loaded skills this turn may list: the only ones its snapshot names. */
  const listedSkills = new Set<string>();
  /** Visible without counting: the selected agent's `agent.json` tools, `always` skills' tools. */
  const pinned = new Set<string>(agent?.tools ?? []);
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();

  const countable = (name: string) => {
    const entry = catalog.toolsByName.get(name);
    return entry !== undefined && !entry.alwaysLoaded;
  };
  const problem = (what: string, error?: unknown) => {
    const message = `deferred tools: ${what}`;
    onError(new Error(message, error === undefined ? undefined : { cause: error }));
    options.diagnose?.(message);
  };
  const initial = options.seed
    ? { tools: new Map(options.seed.tools), skills: options.seed.skills, future: [] }
    : await readStoredSession(store, sessionKey, options.clock() + FUTURE_SLACK_MS, problem);
  /** Stored names this generation lacks (or with a time that cannot be): every write of this turn removes them. */
  const stale: string[] = [...initial.future];
  // Entries whose capability is gone from this generation are dropped; always-loaded never count.
  for (const [name, at] of initial.tools) {
    if (!countable(name)) {
      stale.push(name);
      continue;
    }
    state.restore(name, at);
  }
  for (const name of initial.skills)
    if (catalog.skillsByName.has(name)) loadedSkills.add(name);
    else stale.push(name);

  const listedTool = (entry: CatalogTool) => toolListed(entry, view, admission);
  const visibleLoaded = (entry: CatalogTool): LoadedReason | undefined =>
    entry.alwaysLoaded ? 'always' : pinned.has(entry.name) ? 'pinned' : loaded.has(entry.name) ? 'loaded' : undefined;
  const metaEnabled = (name: MetaToolName) => config.alwaysLoadedTools.has(name);
  const metas = META_TOOL_NAMES.filter(metaEnabled).map((name) => META_PROJECTED[name]);

  // Restore: loaded skills that this turn may see become active again; `always` skills load.
  for (const entry of catalog.skills) {
    const restore = loadedSkills.has(entry.name);
    if (!restore && !entry.skill.always) continue;
    if (!(await check(skillListed(entry, view, admission)))) continue;
    if (restore) listedSkills.add(entry.name);
    options.activate(entry.name);
    if (entry.skill.always) for (const tool of entry.skill.tools) pinned.add(tool);
  }
  // The bound counts the stored tools this turn may list (with its skills restored), no other.
  const listable: string[] = [];
  // A stored tool this turn pins (its agent's `agent.json` tools, an `always` skill's) is visible
  // without counting: it takes no slot of the loaded set.
  for (const name of state.all.keys())
    if (!pinned.has(name) && (await check(listedTool(catalog.toolsByName.get(name)!)))) listable.push(name);
  state.count(listable);

  function persist(): void {
    if (!store) return;
    dirty = false;
    const update = (drop: readonly string[]): SessionUpdate => state.update([...loadedSkills], drop);
    writing = writing.then(async () => {
      try {
        if (store.merge) {
          // The store merges atomically (shared by several processes): no read-modify-write here.
          for (const reason of await store.merge(sessionKey, update(stale)))
            problem(`session "${sessionKey}": ignored a stored value: ${reason}`);
          return;
        }
        const stored = readSnapshot(await store.get(sessionKey));
        const drop = [...stored.tools.keys()].filter((name) => !countable(name));
        for (const name of stored.skills) if (!catalog.skillsByName.has(name)) drop.push(name);
        await store.set(sessionKey, mergeSnapshot(stored, update(drop)));
      } catch (error) {
        problem(`writing session "${sessionKey}" failed: ${describeError(error)}`, error);
      }
    });
  }

  function markLoaded(entry: CatalogTool): void {
    if (entry.alwaysLoaded || pinned.has(entry.name)) return;
    state.load(entry.name);
  }

  const caps = new RequestCaps(options.capped);
  /** The turn's search mask is primed once, on its first listing. */
  let primed = false;
  const sendFirst = { metaCount: metas.length, loaded, pinned, alwaysLoaded: catalog.alwaysLoaded };

  const controller: DeferredToolController = {
    async discover(input) {
      const query = input.query.trim();
      const kind = input.kind ?? 'all';
      const results: DiscoverResult[] = [];
      const { index } = await catalog.search();
      // Only what this turn may list is searched, by its own statistics (search-mask.ts): nothing
      // denied changes what is found or its order. Each hit is still decided below.
      const accept = await catalog.projections.searchable(view, admission, metas);
      // Hits past the first few (a kind or server filter) come from a second, identical scoring.
      for (const hit of index.search(query, accept, 2 * config.discoverTopK + 4)) {
        if (results.length >= config.discoverTopK) break;
        const entry = catalog.entry(hit.doc);
        if (kind !== 'all' && entry.kind !== kind) continue;
        if (input.mcp_server !== undefined && entry.mcpServer !== input.mcp_server) continue;
        const listed = entry.kind === 'tool' ? listedTool(entry) : skillListed(entry, view, admission);
        if (!(await check(listed))) continue;
        const isLoaded =
          entry.kind === 'tool' ? visibleLoaded(entry) !== undefined : view.scope.activeSkills.has(entry.name);
        results.push(
          Object.freeze({
            name: entry.name,
            kind: entry.kind,
            brief: entry.brief,
            loaded: isLoaded,
            ...(entry.mcpServer ? { mcp_server: entry.mcpServer } : {}),
          }),
        );
      }
      return Object.freeze({
        query,
        results: Object.freeze(results),
        ...(results.length === 0 ? { message: noMatch(query) } : {}),
      });
    },

    async loadTool(name) {
      if ((META_TOOL_NAMES as readonly string[]).includes(name) && metaEnabled(name as MetaToolName)) {
        const meta = META_PROJECTED[name as MetaToolName];
        return Object.freeze({
          name,
          description: meta.description,
          input_schema: meta.schema,
          loaded: Object.freeze([name]),
        });
      }
      const entry = catalog.toolsByName.get(name);
      if (!entry || !(await check(listedTool(entry)))) throw new CatalogNotFoundError(notFoundTool(name));
      markLoaded(entry);
      persist();
      return Object.freeze({
        name,
        description: entry.binding.description,
        input_schema: entry.binding.inputSchema,
        loaded: Object.freeze([name]),
      });
    },

    async loadSkill(name) {
      const entry = catalog.skillsByName.get(name);
      if (!entry || !(await check(skillListed(entry, view, admission))))
        throw new CatalogNotFoundError(notFoundSkill(name));
      const instructions = await entry.skill.instructions();
      options.activate(name);
      if (!entry.skill.always) {
        loadedSkills.add(name);
        listedSkills.add(name);
      }
      const unlocked: string[] = [];
      for (const toolName of entry.skill.tools) {
        const tool = catalog.toolsByName.get(toolName);
        if (!tool || !(await check(listedTool(tool)))) continue;
        markLoaded(tool);
        unlocked.push(toolName);
      }
      persist();
      return Object.freeze({
        name,
        description: entry.skill.description,
        instructions,
        loaded: Object.freeze(unlocked),
      });
    },

    async modelTools<P extends ModelProvider>(provider: P, defer = true, maxTools?: number): Promise<ModelToolsFor<P>> {
      if (maxTools !== undefined && (!Number.isSafeInteger(maxTools) || maxTools < 1))
        throw new TypeError(`modelTools: maxTools must be an integer ≥ 1, got ${String(maxTools)}`);
      if (metaEnabled('discover')) catalog.prefetchSearch();
      // The listed tools come from the generation's projections, keyed by this turn's scope and
      // admission (projection.ts): no walk over the catalog, only copies of pre-built arrays.
      const listed = await catalog.projections.listed(view, admission, metas);
      if (!primed && metaEnabled('discover')) {
        primed = true;
        catalog.projections.searchable(view, admission, metas).then(catalog.primeSearch, () => undefined);
      }
      const offset = metas.length;
      const listedAt = (name: string) => {
        const at = listed.position(name);
        return at === undefined ? undefined : offset + at;
      };
      if (!defer) {
        // Deferral off: the whole listing, in catalog order, nothing deferred.
        if (provider === 'anthropic') {
          // Nothing is deferred, so the cut keeps what the deferred list sends undeferred: the
          // meta tools, always-loaded, pinned and loaded tools, then the rest in catalog order.
          const keep = new Set<number>();
          for (let i = 0; i < offset; i += 1) keep.add(i);
          for (const name of [...catalog.alwaysLoaded.map((entry) => entry.name), ...pinned, ...loaded.keys()]) {
            const at = listedAt(name);
            if (at !== undefined) keep.add(at);
          }
          const first = [...keep].sort((a, b) => a - b);
          const priority = { send: sendFirst, at: listedAt };
          return caps.anthropic(listed.anthropicLoaded(), maxTools, first, undefined, priority) as ModelToolsFor<P>;
        }
        if (provider === 'generic')
          return caps.byPriority('generic', listed.generic(), sendFirst, listedAt, maxTools) as ModelToolsFor<P>;
        return caps.byPriority('openai', listed.openai(), sendFirst, listedAt, maxTools) as ModelToolsFor<P>;
      }
      if (provider === 'anthropic') {
        const { tools, undeferred, undefer } = listed.anthropicFor(pinned, loaded);
        return caps.anthropic(tools, maxTools, undeferred, undefer, {
          send: sendFirst,
          at: listedAt,
        }) as ModelToolsFor<P>;
      }
      // Only the loaded set: look up the few candidates, never the whole catalog.
      const names = new Set<string>([...catalog.alwaysLoaded.map((entry) => entry.name), ...pinned, ...loaded.keys()]);
      const all = [...metas];
      const positions = new Map<string, number>();
      for (const name of [...names].sort()) {
        const at = listed.position(name);
        if (at === undefined) continue;
        positions.set(name, all.length);
        all.push(listed.entries[at]!.projected);
      }
      const at = (name: string) => positions.get(name);
      if (provider === 'generic')
        return caps.byPriority(
          'generic',
          all.map((tool) => tool.generic()),
          sendFirst,
          at,
          maxTools,
        ) as ModelToolsFor<P>;
      return caps.byPriority(
        'openai',
        all.map((tool) => tool.openai()),
        sendFirst,
        at,
        maxTools,
      ) as ModelToolsFor<P>;
    },

    listing: () => turnListing({ catalog, view, admission, metaEnabled, visibleLoaded, agent }),
    omissions: () => turnOmissions(catalog, view, admission),

    snapshot: () => freezeSnapshot(loaded, listedSkills),
    isLoaded: (name) => {
      const entry = catalog.toolsByName.get(name);
      return entry !== undefined && visibleLoaded(entry) !== undefined;
    },
    touch(name) {
      if (state.touch(name)) dirty = true;
    },
    flush() {
      if (dirty) persist();
      return writing;
    },
    metaTools: Object.freeze(
      metaToolBindings(
        {
          discover: (input) => controller.discover(input),
          loadTool: (name) => controller.loadTool(name),
          loadSkill: (name) => controller.loadSkill(name),
        },
        metaEnabled,
      ),
    ),
  };
  const frozen = Object.freeze(controller);
  forkSeeds.set(frozen, () => Object.freeze({ tools: new Map(state.all), skills: Object.freeze([...loadedSkills]) }));
  return frozen;
}
