/**
 * The turn's tool lists, reused by later turns of the same generation (docs/catalog.md#per-turn-cost).
 *
 * A turn's listed tools are decided by the one access decision per tool: the listing rules
 * (`hidden`, `ask_user` only when the turn can ask), then placement (the selected agent, the
 * active skills), then the restrictions of the tool's signature for the turn's message and
 * permission host. The first two read only the turn's scope, so the tools in scope are built
 * once per generation and *scope key* (the selected agent object, the set of active skills,
 * whether the turn can ask). The restrictions are decided per turn, once per signature the
 * scope uses (TurnAdmission; never reused across turns: permission checkers may read live
 * state), and the resulting admitted/denied pattern is the second key. A turn therefore finds
 * its list by two lookups keyed by everything the decision reads, and pays O(signatures) for
 * the keys; only a key never seen before walks the catalog. The provider arrays are built from
 * the list once and copied per turn (callers get fresh, mutable arrays).
 */
import type { ManifestAgent } from '../contract/manifest.js';
import { type DisclosureView, skillListed, type TurnAdmission, toolInScope } from '../access/disclosure.js';
import type { AccessSignature, CatalogTool, GenerationCatalog } from './catalog.js';
import type {
  AnthropicModelTool,
  AnthropicRequestTools,
  GenericModelTool,
  OpenAIModelTool,
  ProjectedTool,
} from './providers.js';

/** Scope keys and admission patterns kept per generation (least recently used dropped beyond). */
const MAX_SCOPES = 32;
const MAX_PATTERNS_PER_SCOPE = 16;

/** The listed tools of every turn that shares one scope key and one admission pattern. */
export class ListedTools {
  /** Catalog order. */
  readonly entries: readonly CatalogTool[];
  /** Listed tools that are always loaded (never deferred). */
  readonly alwaysLoadedCount: number;
  /**
   * `atDoc[doc]`: 1 + the position in `entries` of catalog document `doc`, 0 when not listed.
   * Filled in the loop that makes the list (a name-keyed map cost 12,600 inserts at 20,000
   * tools on a fresh process's first listing); names are found through the catalog's own map.
   */
  readonly #atDoc: Int32Array;
  readonly #docOf: (name: string) => number | undefined;
  /** Positions in `anthropic()` of the tools never deferred: the meta tools, then always-loaded ones. */
  readonly #alwaysLoadedAt: number[] = [];
  #anthropic: readonly AnthropicModelTool[] | undefined;
  #anthropicLoaded: readonly AnthropicModelTool[] | undefined;
  #openai: readonly OpenAIModelTool[] | undefined;
  #generic: readonly GenericModelTool[] | undefined;

  /**
   * The `discover` documents this list lets a search hand out (`SearchIndex.search`'s `accept`):
   * its own tools, and every skill (a turn takes out those it may not list: `searchableWithout`).
   * The search ranks by these documents' statistics alone (search-mask.ts). Tools out of the
   * turn's scope or denied by its restrictions are then never scored or ranked, so a query whose
   * best matches belong to another agent costs what its listed matches cost. Marked in the loop
   * that makes the list: a separate walk on the first `discover` ran as cold code in a fresh
   * process (5-10 ms at 12,000 listed tools before V8 compiled it).
   */
  readonly searchable: Uint8Array;
  /** `searchable` without the skills a turn may not list, by those skills' documents (few keys). */
  readonly #withoutSkills = new Map<string, Uint8Array>();

  /** `documents`: the catalog's tool and skill counts (the search's document ids) and its tools by name. */
  constructor(
    entries: readonly CatalogTool[],
    private readonly metas: readonly ProjectedTool[],
    documents: {
      readonly tools: number;
      readonly skills: number;
      readonly docOf: (name: string) => number | undefined;
    },
  ) {
    this.entries = entries;
    for (let i = 0; i < metas.length; i += 1) this.#alwaysLoadedAt.push(i);
    const accept = new Uint8Array(documents.tools + documents.skills);
    const atDoc = new Int32Array(documents.tools);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index]!;
      accept[entry.doc] = 1;
      atDoc[entry.doc] = index + 1;
      if (entry.alwaysLoaded) this.#alwaysLoadedAt.push(metas.length + index);
    }
    accept.fill(1, documents.tools);
    this.searchable = accept;
    this.#atDoc = atDoc;
    this.#docOf = documents.docOf;
    this.alwaysLoadedCount = this.#alwaysLoadedAt.length - metas.length;
  }

  /**
   * The search mask of a turn that may not list the skills of these documents: `searchable` with
   * them taken out, the same array for the same skills (a mask keeps its statistics and pages).
   */
  searchableWithout(skillDocs: readonly number[]): Uint8Array {
    if (skillDocs.length === 0) return this.searchable;
    const key = skillDocs.join(' ');
    let mask = this.#withoutSkills.get(key);
    if (mask === undefined) {
      mask = this.searchable.slice();
      for (const doc of skillDocs) mask[doc] = 0;
      this.#withoutSkills.set(key, mask);
      if (this.#withoutSkills.size > 16) this.#withoutSkills.delete(this.#withoutSkills.keys().next().value!);
    }
    return mask;
  }

  /** Position in `entries` of a listed tool; undefined for a tool this list does not hold. */
  position(name: string): number | undefined {
    const doc = this.#docOf(name);
    const at = doc === undefined ? 0 : this.#atDoc[doc]!;
    return at === 0 ? undefined : at - 1;
  }

  // The arrays stay private and are never frozen: callers get copies (`slice()`), and V8 copies a
  // frozen array element by element (~1 ms for 12,000 tools) where it copies a plain one in bulk.

  /** Meta tools, then every listed tool, deferred unless always loaded. */
  anthropic(): readonly AnthropicModelTool[] {
    return (this.#anthropic ??= [
      ...this.metas.map((meta) => meta.anthropic(false)),
      ...this.entries.map((entry) => entry.projected.anthropic(!entry.alwaysLoaded)),
    ]);
  }

  /**
   * This turn's Anthropic list: `anthropic()` with the turn's pinned and loaded tools sent
   * undeferred (listed ones only); at least one tool is never deferred, as the API needs. Not
   * copied here: the cut copies it once (providers.ts `capAnthropicTools`).
   */
  anthropicFor(pinned: ReadonlySet<string>, loaded: ReadonlyMap<string, number>): AnthropicRequestTools {
    const tools = this.anthropic();
    const offset = this.metas.length;
    const undeferred = [...this.#alwaysLoadedAt];
    const undefer = (name: string) => {
      const at = this.position(name);
      if (at === undefined || this.entries[at]!.alwaysLoaded) return;
      undeferred.push(offset + at);
    };
    for (const name of pinned) undefer(name);
    for (const name of loaded.keys()) if (!pinned.has(name)) undefer(name);
    if (undeferred.length === 0 && tools.length > 0) undeferred.push(0);
    return {
      tools,
      undeferred: undeferred.sort((a, b) => a - b),
      undefer: (at) => (at < offset ? tools[at]! : this.entries[at - offset]!.projected.anthropic(false)),
    };
  }

  /** Meta tools, then every listed tool, none deferred (`defer: false`). */
  anthropicLoaded(): readonly AnthropicModelTool[] {
    return (this.#anthropicLoaded ??= [...this.metas, ...this.entries.map((entry) => entry.projected)].map((tool) =>
      tool.anthropic(false),
    ));
  }

  openai(): readonly OpenAIModelTool[] {
    return (this.#openai ??= [...this.metas, ...this.entries.map((entry) => entry.projected)].map((tool) =>
      tool.openai(),
    ));
  }

  generic(): readonly GenericModelTool[] {
    return (this.#generic ??= [...this.metas, ...this.entries.map((entry) => entry.projected)].map((tool) =>
      tool.generic(),
    ));
  }
}

/** The tools of one scope key: in scope and listable, before the restrictions step. */
class ScopeTools {
  readonly candidates: readonly CatalogTool[];
  /** The distinct signatures the candidates use, by id: the admission pattern is read in this order. */
  readonly signatures: readonly AccessSignature[];
  readonly #patterns = new Map<string, ListedTools>();
  readonly #documents: ConstructorParameters<typeof ListedTools>[2];

  constructor(
    catalog: GenerationCatalog,
    view: DisclosureView,
    private readonly metas: readonly ProjectedTool[],
  ) {
    this.#documents = {
      tools: catalog.tools.length,
      skills: catalog.skills.length,
      docOf: (name) => catalog.toolsByName.get(name)?.doc,
    };
    const candidates: CatalogTool[] = [];
    const used = new Map<number, AccessSignature>();
    for (const entry of catalog.tools) {
      if (!toolInScope(entry, view)) continue;
      candidates.push(entry);
      used.set(entry.access.id, entry.access);
    }
    this.candidates = candidates;
    this.signatures = [...used.values()].sort((a, b) => a.id - b.id);
  }

  /** `admitted[i]` answers `signatures[i]` for the asking turn. */
  listed(admitted: readonly boolean[]): ListedTools {
    const key = admitted.map((yes) => (yes ? '1' : '0')).join('');
    let listed = this.#patterns.get(key);
    if (listed !== undefined) {
      this.#patterns.delete(key);
      this.#patterns.set(key, listed);
      return listed;
    }
    const allowed = new Set<number>();
    this.signatures.forEach((signature, index) => {
      if (admitted[index]) allowed.add(signature.id);
    });
    listed = new ListedTools(
      allowed.size === this.signatures.length
        ? this.candidates
        : this.candidates.filter((entry) => allowed.has(entry.access.id)),
      this.metas,
      this.#documents,
    );
    remember(this.#patterns, key, listed, MAX_PATTERNS_PER_SCOPE);
    return listed;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/**
 * One generation's scope keys. The agent is keyed by object identity (two agents can never
 * share a key), the active skills by their sorted names, `canAsk` by a flag.
 */
export class TurnProjections {
  readonly #byAgent = new Map<ManifestAgent | undefined, Map<string, ScopeTools>>();
  #scopes = 0;

  constructor(private readonly catalog: GenerationCatalog) {}

  #scope(view: DisclosureView, metas: readonly ProjectedTool[], build: boolean): ScopeTools | undefined {
    const agent = view.scope.agent;
    const key = `${view.canAsk ? 'a' : 'n'}${metas.length}\n${[...view.scope.activeSkills].sort().join('\n')}`;
    let byKey = this.#byAgent.get(agent);
    let scope = byKey?.get(key);
    if (scope !== undefined || !build) return scope;
    if (byKey === undefined) this.#byAgent.set(agent, (byKey = new Map()));
    if (this.#scopes >= MAX_SCOPES) {
      // Bounded: start over rather than track recency across agents (a bot with that many
      // distinct scopes in play pays one catalog walk per new scope, as before this cache).
      this.#byAgent.clear();
      this.#byAgent.set(agent, byKey);
      byKey.clear();
      this.#scopes = 0;
    }
    scope = new ScopeTools(this.catalog, view, metas);
    byKey.set(key, scope);
    this.#scopes += 1;
    return scope;
  }

  /** The listed tools for this turn now (its scope and its admission decide which list). */
  listed(view: DisclosureView, admission: TurnAdmission, metas: readonly ProjectedTool[]): Promise<ListedTools> {
    return this.#listed(this.#scope(view, metas, true)!, admission);
  }

  /** What this turn's `discover` searches: its listed tools and the skills it may list (search-mask.ts). */
  async searchable(
    view: DisclosureView,
    admission: TurnAdmission,
    metas: readonly ProjectedTool[],
  ): Promise<Uint8Array> {
    const listed = await this.listed(view, admission, metas);
    const denied: number[] = [];
    for (const skill of this.catalog.skills) {
      const decided = skillListed(skill, view, admission);
      if (decided === false || (decided !== true && !(await decided))) denied.push(skill.doc);
    }
    return listed.searchableWithout(denied);
  }

  async #listed(scope: ScopeTools, admission: TurnAdmission): Promise<ListedTools> {
    const admitted: boolean[] = [];
    for (const signature of scope.signatures) {
      const decision = admission.restrictions(signature);
      admitted.push(decision instanceof Promise ? (await decision).admitted : decision.admitted);
    }
    return scope.listed(admitted);
  }
}
