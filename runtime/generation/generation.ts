/**
 * Generations (docs/runtime.md). A `CandidateBuilder` is the shadow generation that manifest tools,
 * plugin `setup()` and seam providers write into; `seal()` turns it into an immutable
 * `Generation`. Nothing of a candidate is reachable before the host commits it, so a failure
 * anywhere during prepare leaves no trace except running the candidate's own disposers.
 */
import { manifestIdentity } from '../console/manifest-identity.js';
import type { AgentPromptSection, ResourceToken } from '../contract/define.js';
import type {
  CapabilityManifest,
  ManifestAgent,
  ManifestHook,
  ManifestPromptSection,
  ManifestSkill,
} from '../contract/manifest.js';
import type { ToolBinding, ToolSourceKind } from './capability.js';
import { PROVIDER_SAFE_NAME, foldName, reservedToolName } from '../contract/names.js';
import { ResourceRegistry } from './resources.js';
import { SkillTable, SkillTableBuilder } from './skills.js';
import { missingValidatorMessage } from '../turn/validation.js';
import type { JsonSchemaValidator } from '../validators/types.js';

/** What a generation is built with besides its tables. */
export interface GenerationOptions {
  /** Compiles JSON Schemas the compiler never saw (`createCapabilityHost({ jsonSchemaValidator })`). */
  readonly jsonSchemaValidator?: JsonSchemaValidator;
}

/** Host configuration; `plugins[owner]` is what that owner's `context.config.get()` returns. */
export interface HostConfig {
  readonly plugins?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly [section: string]: unknown;
}

/** A prompt section from the manifest or from `setup()`; identity is `owner:name` (docs/authoring.md). */
export interface PromptSectionEntry {
  readonly id: string;
  readonly owner: string;
  readonly name: string;
  readonly source: Exclude<ToolSourceKind, 'runtime'>;
  readonly section:
    | (Omit<ManifestPromptSection, 'id' | 'name' | 'owner' | 'source' | 'hash' | 'content' | 'load'> & {
        readonly content: string;
      })
    | AgentPromptSection;
}

export class CandidateRejectedError extends Error {
  override readonly name = 'CandidateRejectedError';
  constructor(
    readonly generation: number,
    readonly reason: string,
    options?: { cause?: unknown; serving?: boolean },
  ) {
    // No generation served yet (the first load): none keeps serving, and the message says so.
    const after = options?.serving === false ? 'no generation is serving yet' : 'the previous generation keeps serving';
    super(`capability generation ${generation} rejected: ${reason}; ${after}`, options);
  }
}

/** The shadow generation. Writers call `addTool` / `addPromptSection`; the host seals it. */
export class CandidateBuilder {
  readonly resources = new ResourceRegistry();
  readonly #tools = new Map<string, ToolBinding>();
  readonly #folded = new Map<string, string>();
  readonly #sections = new Map<string, PromptSectionEntry>();
  #skillTable: SkillTableBuilder | undefined;

  constructor(
    readonly id: number,
    readonly manifest: CapabilityManifest,
    readonly config: HostConfig,
    readonly options: GenerationOptions = {},
  ) {}

  /**
   * Adds one tool; throws on an unsafe or reserved name and on any duplicate, including names
   * equal after case folding (docs/authoring.md). Reserved names are compared
   * folded too: the meta tools are per-turn bindings that never enter this table, so the clash
   * check alone would list a seam `Discover` beside `discover`.
   */
  addTool(binding: ToolBinding, options: { reserved?: boolean } = {}): void {
    const name = binding.qualifiedName;
    if (!PROVIDER_SAFE_NAME.test(name))
      throw new Error(`tool name "${name}" is not provider-safe (${PROVIDER_SAFE_NAME.source})`);
    const reserved = options.reserved ? undefined : reservedToolName(name);
    if (reserved !== undefined) {
      const how = reserved === name ? '' : `: it equals "${reserved}" after case folding`;
      throw new Error(`tool name "${name}" is reserved by the runtime${how} (${describeBinding(binding)})`);
    }
    const clash = this.#folded.get(foldName(name));
    if (clash !== undefined) {
      const other = this.#tools.get(clash)!;
      const how = clash === name ? 'duplicate tool name' : `tool name "${name}" equals "${clash}" after case folding`;
      throw new Error(`${how} "${clash}": ${describeBinding(other)} and ${describeBinding(binding)}`);
    }
    // Fail closed at load, not at the first call: a JSON Schema nobody can check is refused here.
    if (
      binding.inputCheck === 'json' &&
      binding.validator === undefined &&
      this.options.jsonSchemaValidator === undefined
    ) {
      throw new Error(missingValidatorMessage(name, describeBinding(binding)));
    }
    this.#tools.set(name, binding);
    this.#folded.set(foldName(name), name);
  }

  addPromptSection(entry: PromptSectionEntry): void {
    if (this.#sections.has(entry.id)) throw new Error(`duplicate prompt section "${entry.id}"`);
    this.#sections.set(entry.id, entry);
  }

  hasTool(name: string): boolean {
    return this.#folded.has(foldName(name));
  }

  /** Manifest skills plus what seams add (runtime/generation/skills.ts); built lazily, most loads add none. */
  get skillTable(): SkillTableBuilder {
    return (this.#skillTable ??= new SkillTableBuilder(this.manifest.skills));
  }

  seal(): Generation {
    this.resources.seal();
    return new Generation(
      this.id,
      this.manifest,
      this.config,
      this.#tools,
      this.#sections,
      this.resources,
      this.#skillTable?.build(),
      this.options,
    );
  }
}

function describeBinding(binding: ToolBinding): string {
  if (binding.seam) {
    const { name, provider, scope, source } = binding.seam;
    return `seam tool "${name}" of provider "${provider}" (scope ${scope}${source ? `, ${source}` : ''})`;
  }
  const owner = binding.owner === '' ? 'root plugin' : `plugin "${binding.owner}"`;
  return `${binding.source} tool "${binding.localName}" of ${owner}`;
}

export interface GenerationLease {
  readonly generation: Generation;
  /** Idempotent; resolves after disposal when this was the last lease of a retired generation. */
  release(): Promise<void>;
}

export type GenerationState = 'serving' | 'retired' | 'disposed';

/** One immutable, committed set of capabilities. */
export class Generation {
  readonly tools: ReadonlyMap<string, ToolBinding>;
  readonly promptSections: ReadonlyMap<string, PromptSectionEntry>;
  readonly skills: ReadonlyMap<string, ManifestSkill>;
  /** Every skill of any source (manifest + seam): `catalog()` and `describe()` (runtime/generation/skills.ts). */
  readonly skillTable: SkillTable;
  readonly agents: ReadonlyMap<string, ManifestAgent>;
  readonly hooks: readonly ManifestHook[];
  /** The host's runtime JSON Schema compiler, if it has one (runtime/turn/validation.ts reads it). */
  readonly jsonSchemaValidator: JsonSchemaValidator | undefined;
  readonly #resources: ResourceRegistry;
  #leases = 0;
  #state: GenerationState = 'serving';
  #disposal: Promise<void> | undefined;
  #onError: (error: Error) => void = () => {};

  /**
   * Which manifest this generation serves, as the catalog shows it (`manifestHash`): the
   * manifest's own `hash`, or one derived from what it serves (console/manifest-identity.ts).
   * Journaled with each call, so instances of one bot on different manifests (a rolling deploy)
   * can be told apart in a shared journal; `id` is only this process's count of loads.
   */
  get manifestHash(): string {
    return this.manifest.hash ?? manifestIdentity(this.manifest);
  }

  constructor(
    readonly id: number,
    readonly manifest: CapabilityManifest,
    readonly config: HostConfig,
    tools: ReadonlyMap<string, ToolBinding>,
    sections: ReadonlyMap<string, PromptSectionEntry>,
    resources: ResourceRegistry,
    skillTable?: SkillTable,
    options: GenerationOptions = {},
  ) {
    this.tools = new Map(tools);
    this.skillTable = skillTable ?? SkillTable.fromManifest(manifest.skills);
    this.promptSections = new Map(sections);
    this.skills = new Map(manifest.skills.map((skill) => [skill.qualifiedName, skill]));
    this.agents = new Map(manifest.agents.map((agent) => [agent.qualifiedName, agent]));
    this.hooks = manifest.hooks;
    this.jsonSchemaValidator = options.jsonSchemaValidator;
    this.#resources = resources;
    Object.freeze(this);
  }

  get state(): GenerationState {
    return this.#state;
  }

  get leases(): number {
    return this.#leases;
  }

  ownerConfig(owner: string): Readonly<Record<string, unknown>> {
    return this.config.plugins?.[owner] ?? EMPTY_CONFIG;
  }

  use<T>(owner: string, token: ResourceToken<T>): T {
    return this.#resources.use(owner, token);
  }

  acquire(): GenerationLease {
    if (this.#state !== 'serving') throw new Error(`generation ${this.id} is ${this.#state} and cannot be leased`);
    this.#leases += 1;
    let released = false;
    return {
      generation: this,
      release: () => {
        if (released) return this.#disposal ?? Promise.resolve();
        released = true;
        this.#leases -= 1;
        return this.#maybeDispose();
      },
    };
  }

  /** Called by the host once a newer generation is committed. */
  retire(onError: (error: Error) => void): Promise<void> {
    if (this.#state !== 'serving') return this.#disposal ?? Promise.resolve();
    this.#state = 'retired';
    this.#onError = onError;
    return this.#maybeDispose();
  }

  #maybeDispose(): Promise<void> {
    if (this.#state === 'serving' || this.#leases > 0) return Promise.resolve();
    this.#state = 'disposed';
    this.#disposal ??= this.#resources.dispose(this.#onError);
    return this.#disposal;
  }
}

const EMPTY_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({});
