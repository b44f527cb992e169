/**
 * The generation-level catalog: everything `discover`, `load_tool`, `load_skill` and
 * `modelTools` need that does not depend on the turn, built once per generation over the
 * generation's tool and skill tables (all sources: manifest, `setup()`, seams, runtime) and kept
 * in a WeakMap so it dies with the generation. Per turn only disclosure and access remain.
 */
import type { AccessRestrictions } from '../access/access.js';
import { type Disclosure, type Placement, placementOf, skillPlacement } from '../access/scope.js';
import { manifestToolOf, type ToolBinding } from '../generation/capability.js';
import type { Generation } from '../generation/generation.js';
import type { ChannelScope, ManifestAgent } from '../contract/manifest.js';
import { ASK_USER, qualify } from '../contract/names.js';
import type { SkillEntry } from '../generation/skills.js';
import { isAlwaysLoaded, resolveDeferredConfig, type ResolvedDeferredConfig } from './config.js';
import { ProjectedTool } from './providers.js';
import { TurnProjections } from './projection.js';
import { type CatalogSearch, catalogSearch, type ManifestLayout, shippedText } from './catalog-search.js';
import { REHEARSAL_INPUT, rehearsalBinding } from './meta-tools.js';
import { rehearseToolCall } from '../turn/rehearsal.js';

/** When a tool becomes part of the model's catalog (read from its placement by access/scope.ts). */
export type ToolDisclosure = Disclosure;

/** One distinct set of restrictions: tools with equal restrictions share it, and its decision per turn. */
export interface AccessSignature extends AccessRestrictions {
  /** Index in `GenerationCatalog.signatures`; 0 is "unrestricted". */
  readonly id: number;
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
}

export interface CatalogTool {
  readonly kind: 'tool';
  /** Search document id (tools first, then skills). */
  readonly doc: number;
  readonly name: string;
  readonly binding: ToolBinding;
  readonly brief: string;
  /** The tool's restrictions (tools with equal restrictions share one signature). */
  readonly access: AccessSignature;
  /** Where the access decision places it (read once from the binding). */
  readonly placement: Placement;
  readonly disclosure: ToolDisclosure;
  readonly mcpServer: string | undefined;
  /** `deferredTools.alwaysLoadedTools` or the MCP server's override names it. */
  readonly alwaysLoaded: boolean;
  /** `ask_user`: only offered to turns that can actually ask. */
  readonly needsQuestionPort: boolean;
  readonly projected: ProjectedTool;
}

export interface CatalogSkill {
  readonly kind: 'skill';
  readonly doc: number;
  readonly name: string;
  readonly skill: SkillEntry;
  readonly brief: string;
  readonly access: AccessSignature;
  /** Where the access decision places it: agent-private skills are agent-placed, others plugin-placed. */
  readonly placement: Placement;
  /** qualifiedName of the agent that must be selected (agent-private skills). */
  readonly agent: string | undefined;
  readonly mcpServer: string | undefined;
}

export interface GenerationCatalog {
  readonly generation: Generation;
  readonly config: ResolvedDeferredConfig;
  /** Sorted by name. */
  readonly tools: readonly CatalogTool[];
  readonly toolsByName: ReadonlyMap<string, CatalogTool>;
  /** Tools always visible (config); the non-Anthropic projection starts from these. */
  readonly alwaysLoaded: readonly CatalogTool[];
  readonly skills: readonly CatalogSkill[];
  readonly skillsByName: ReadonlyMap<string, CatalogSkill>;
  readonly signatures: readonly AccessSignature[];
  /**
   * The `discover` index, on the first `discover` of the generation: the one the compiler shipped
   * with the manifest where it fits, else built here (catalog-search.ts); shared by every turn.
   */
  search(): Promise<CatalogSearch>;
  /**
   * Starts importing and opening the shipped index, if any (a turn that offers `discover` calls
   * this when it lists its tools, so the work overlaps the model's round trip); building an index
   * at run time is left to the first `search()`.
   */
  prefetchSearch(): void;
  /**
   * Once the shipped index is open, works out a turn's search mask's statistics (search-mask.ts),
   * so its first `discover` does not: called where the turn lists its tools.
   */
  primeSearch(mask: Uint8Array): void;
  /** Platform agents by adapter name (auto-selection candidates). */
  readonly platformAgents: ReadonlyMap<string, readonly ManifestAgent[]>;
  /** The turns' listed tools and provider arrays, by scope and admission (deferred/projection.ts). */
  readonly projections: TurnProjections;
  /** By document id. */
  entry(doc: number): CatalogTool | CatalogSkill;
}

const catalogs = new WeakMap<Generation, GenerationCatalog>();

/** One catalog per generation; the first call builds it (the host calls it at prepare). */
export function generationCatalog(generation: Generation): GenerationCatalog {
  let catalog = catalogs.get(generation);
  if (!catalog) {
    catalog = buildCatalog(generation);
    catalogs.set(generation, catalog);
  }
  return catalog;
}

/** First sentence or line, at most 160 characters: what `discover` returns as the brief. */
export function brief(description: string): string {
  const line = description.trim().split(/\r?\n/, 1)[0] ?? '';
  const sentence = /^(.+?[.!?。！？])(\s|$)/u.exec(line)?.[1] ?? line;
  return sentence.length <= 160 ? sentence : `${sentence.slice(0, 159)}…`;
}

function compareNames(a: { readonly name: string }, b: { readonly name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * A tool of the catalog. A class so that what start-up does not need is computed on first use:
 * the brief (a regex per description), the disclosure and the provider projection. Frozen like the rest of the
 * catalog; the memo lives in private fields, which freezing leaves writable.
 */
class ToolEntry implements CatalogTool {
  readonly kind = 'tool' as const;
  readonly name: string;
  readonly mcpServer: string | undefined;
  readonly needsQuestionPort: boolean;
  #brief: string | undefined;
  #projected: ProjectedTool | undefined;
  #placement: Placement | undefined;

  constructor(
    readonly doc: number,
    readonly binding: ToolBinding,
    readonly access: AccessSignature,
    readonly alwaysLoaded: boolean,
  ) {
    this.name = binding.qualifiedName;
    this.mcpServer = binding.seam?.mcpServer;
    this.needsQuestionPort = binding.qualifiedName === ASK_USER && binding.source === 'runtime';
  }

  get brief(): string {
    return (this.#brief ??= brief(this.binding.description));
  }

  get placement(): Placement {
    return (this.#placement ??= placementOf(this.binding));
  }

  get disclosure(): ToolDisclosure {
    return this.placement.disclosure;
  }

  get projected(): ProjectedTool {
    return (this.#projected ??= new ProjectedTool(
      this.binding.qualifiedName,
      this.binding.description,
      this.binding.inputSchema,
    ));
  }
}

function buildCatalog(generation: Generation): GenerationCatalog {
  const config = resolveDeferredConfig(generation.config.deferredTools);
  const signatures: AccessSignature[] = [];
  const signatureIds = new Map<string, AccessSignature>();
  const signature = (item: AccessRestrictions): AccessSignature => {
    // Most tools are unrestricted: id 0 without building a key.
    if (!item.platforms?.length && !item.scopes?.length && !item.permissions?.length && signatures.length > 0)
      return signatures[0]!;
    const key = JSON.stringify([item.platforms ?? [], item.scopes ?? [], item.permissions ?? []]);
    let known = signatureIds.get(key);
    if (known === undefined) {
      known = Object.freeze({
        id: signatures.length,
        platforms: item.platforms ?? [],
        scopes: item.scopes ?? [],
        permissions: item.permissions ?? [],
      });
      signatures.push(known);
      signatureIds.set(key, known);
    }
    return known;
  };
  signature({}); // id 0: unrestricted

  const bindings = [...generation.tools.values()].sort((a, b) =>
    a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0,
  );
  // Which catalog tool reads which manifest entry, for the shipped search index
  // (catalog-search.ts): both are sorted by name, so the manifest's table is matched in order
  // while the entries are made, and the first discover walks nothing.
  const table = generation.manifest.tools;
  const manifestDocs = new Int32Array(table.length);
  const nameChars = new Int32Array(table.length + 1);
  const otherDocs: number[] = [];
  let matched = 0;
  const tools: CatalogTool[] = bindings.map((binding, doc) => {
    if (matched < table.length && manifestToolOf(binding) === table[matched]) {
      manifestDocs[matched] = doc;
      nameChars[matched + 1] = nameChars[matched]! + binding.qualifiedName.length;
      matched += 1;
    } else otherDocs.push(doc);
    return Object.freeze(
      new ToolEntry(
        doc,
        binding,
        signature(binding),
        isAlwaysLoaded(config, binding.qualifiedName, binding.seam?.mcpServer),
      ),
    );
  });
  const layout: ManifestLayout = {
    manifestDocs: manifestDocs.subarray(0, matched),
    otherDocs,
    nameChars: nameChars.subarray(0, matched + 1),
  };
  const skillBindings = [...generation.skillTable.values()].sort((a, b) =>
    compareNames({ name: a.qualifiedName }, { name: b.qualifiedName }),
  );
  const skills: CatalogSkill[] = skillBindings.map((skill, index) =>
    Object.freeze({
      kind: 'skill' as const,
      doc: tools.length + index,
      name: skill.qualifiedName,
      skill,
      brief: brief(skill.description),
      access: signature(skill),
      placement: skillPlacement(skill),
      agent: skill.agent === undefined ? undefined : qualify(skill.owner, skill.agent),
      mcpServer: skill.seam?.mcpServer,
    }),
  );

  const platformAgents = new Map<string, ManifestAgent[]>();
  for (const agent of generation.agents.values()) {
    for (const platform of agent.platforms) {
      const list = platformAgents.get(platform) ?? [];
      list.push(agent);
      platformAgents.set(platform, list);
    }
  }
  for (const list of platformAgents.values())
    list.sort((a, b) => compareNames({ name: a.qualifiedName }, { name: b.qualifiedName }));

  const entries: readonly (CatalogTool | CatalogSkill)[] = [...tools, ...skills];
  // Lazy: host.load stays cheap (HMR commits generations often); the first discover loads it once.
  let index: Promise<CatalogSearch> | undefined;
  let text: Promise<string | undefined> | undefined;
  const shipped = () => (text ??= shippedText(generation.manifest));
  let projections: TurnProjections | undefined;
  const catalog: GenerationCatalog = Object.freeze({
    generation,
    config,
    tools,
    toolsByName: new Map(tools.map((tool) => [tool.name, tool])),
    alwaysLoaded: tools.filter((tool) => tool.alwaysLoaded),
    skills,
    skillsByName: new Map(skills.map((skill) => [skill.name, skill])),
    signatures,
    search: () => (index ??= catalogSearch(shipped(), generation.manifest, tools, skills, layout)),
    // With shipped data the index is then made too (reading its header) and its query code run
    // once (SearchIndex.warm); without, nothing is built. Then a rehearsal of the tool pipeline
    // (runtime/turn/rehearsal.ts: its own journal, no hooks, a tool that reads nothing) compiles
    // the code the first discover's call runs through. A failure here is the first discover's
    // to report: it awaits the same promise.
    prefetchSearch: () => {
      if (text !== undefined || index !== undefined) return;
      shipped()
        .then(async (data) => {
          if (data !== undefined) (await catalog.search()).index.warm();
        })
        .then(() => rehearseToolCall(generation, rehearsalBinding(), REHEARSAL_INPUT))
        .catch(() => {});
    },
    primeSearch: (mask: Uint8Array) => {
      void shipped()
        .then(async (data) => {
          if (data !== undefined) (await catalog.search()).index.warm(mask);
        })
        .catch(() => {});
    },
    platformAgents,
    get projections() {
      return (projections ??= new TurnProjections(catalog));
    },
    entry: (doc: number) => entries[doc]!,
  });
  return catalog;
}
