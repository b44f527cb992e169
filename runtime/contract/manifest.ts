/**
 * The capability manifest: the one data contract between the compiler (which emits it as a
 * generated module) and the runtime (which only ever reads it). Everything here is plain,
 * readonly data plus lazy loaders, so that importing a manifest costs the same whatever the
 * number of tool modules behind it.
 */
import type { JsonValidateFunction } from '../validators/types.js';
import type {
  ApprovalMode,
  ChannelScope,
  HookEvent,
  PromptLayer,
  PromptProfile,
  PromptRetention,
  ToolPlacement,
} from './enums.js';

// The enumerations are defined (as frozen tuples) and their types derived in enums.ts.
export type { ApprovalMode, ChannelScope, HookEvent, PromptLayer, PromptProfile, PromptRetention, ToolPlacement };
export type HookPlacement = ToolPlacement;

/** A JSON Schema object as emitted by the compiler (draft 2020-12, no `$schema`). */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

/** A lazily imported module whose default export is the definition. */
export type LazyModule<T> = () => Promise<{ readonly default: T }>;

export interface ManifestTool {
  /** Identity the model sees; unique per generation (docs/authoring.md). */
  readonly qualifiedName: string;
  /** Directory name inside its owner. */
  readonly localName: string;
  /** Owner path: child-plugin keys from the root joined with `/`; `''` for the root plugin. */
  readonly owner: string;
  readonly placement: ToolPlacement;
  /** Local directory name of the enclosing agent, for `agent` and `agent-skill` placements. */
  readonly agent?: string;
  /** Local directory name of the enclosing skill, for `skill` and `agent-skill` placements. */
  readonly skill?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly requiresApproval: ApprovalMode;
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly hidden: boolean;
  /**
   * Search keywords used by `discover`: the definition's own `keywords` first, then the words of
   * the tool's agent / skill / owner names.
   */
  readonly keywords: readonly string[];
  /** The definition's `tags` (searched by `discover` like keywords); absent when it has none. */
  readonly tags?: readonly string[];
  /** POSIX path of the entry file, relative to the project root. */
  readonly source: string;
  /**
   * The tool's content hash: a digest of the other fields of its entry (what the manifest serves
   * of the tool), so equal hashes mean equal metadata. Not of the module's code: a body-only edit
   * leaves it. Generated manifests carry it (`host.catalog()` lists it); a hand-made one may not.
   */
  readonly hash?: string;
  readonly load: LazyModule<unknown>;
  /**
   * The validator the compiler generated from `inputSchema` (a module of plain code, imported on
   * the tool's first validation). Absent for tools with a Zod schema: their module's Standard
   * Schema validates. A tool with neither needs the host's `jsonSchemaValidator`.
   */
  readonly validator?: LazyModule<JsonValidateFunction>;
}

export interface ManifestSkill {
  /** `research`, `maps__research`, `reviewer__review` (docs/authoring.md). */
  readonly qualifiedName: string;
  /** Directory name (== front matter `name`). */
  readonly name: string;
  readonly owner: string;
  /** Local name of the enclosing agent for agent-private skills. */
  readonly agent?: string;
  readonly description: string;
  /** Associated tool qualifiedNames: declared `tools` first, then the skill's private tools. */
  readonly tools: readonly string[];
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly always: boolean;
  /** The Markdown body of SKILL.md (front matter removed). */
  readonly instructions: string;
  readonly source: string;
  /** Agent Skills keys the runtime does not use, passed through as written for the host. */
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** `allowed-tools` as the Agent Skills specification writes it: one space-separated string. */
  readonly allowedTools?: string;
}

export interface ManifestAgent {
  /** `reviewer`, `maps__reviewer`. */
  readonly qualifiedName: string;
  readonly name: string;
  readonly owner: string;
  readonly description: string;
  /** Non-empty: a platform agent, auto-selected for turns from these adapters. */
  readonly platforms: readonly string[];
  /** Extra public (plugin-placed) tool qualifiedNames that join when the agent is selected. */
  readonly tools: readonly string[];
  readonly model?: string;
  readonly maxSteps?: number;
  readonly system: string;
  readonly boundaries: string;
  readonly conventions: string;
  /** POSIX paths relative to the project root, sorted. */
  readonly workflows: readonly string[];
  readonly knowledge: readonly string[];
  /** Path of agent.json. */
  readonly source: string;
}

export interface ManifestPromptSection {
  /** `owner:name` — identity is owner path + directory name, never hand-written. */
  readonly id: string;
  readonly name: string;
  readonly owner: string;
  readonly title: string;
  /**
   * The content, when it is a literal of the module. A section whose module computes it
   * (`content: RULES.join('\n')`) has `load` instead: `host.load` imports the module once per
   * generation and reads `content` from its `defineAgentPromptSection(...)` (exactly one of the two).
   */
  readonly content?: string;
  readonly load?: LazyModule<unknown>;
  readonly layer: PromptLayer;
  readonly order: number;
  readonly retention: PromptRetention;
  readonly maxChars?: number;
  readonly profiles: readonly PromptProfile[];
  readonly platforms: readonly string[];
  readonly source: string;
}

export interface ManifestHook {
  /** `owner:placement:agent/skill:name`, unique per manifest. */
  readonly id: string;
  readonly name: string;
  readonly owner: string;
  readonly placement: HookPlacement;
  readonly agent?: string;
  readonly skill?: string;
  readonly events: readonly HookEvent[];
  readonly source: string;
  readonly load: LazyModule<unknown>;
}

/** A tool a plugin adds in `setup()` with a literal name; known statically for conflict checks. */
export interface ManifestConditionalTool {
  readonly qualifiedName: string;
  readonly localName: string;
  readonly source: string;
}

export interface ManifestPlugin {
  /** Owner path ('' for the root plugin). */
  readonly owner: string;
  /** POSIX directory of the plugin relative to the project root ('.' for the root). */
  readonly dir: string;
  /** Text of the plugin's AGENTS.md (the main agent's instructions), if present. */
  readonly agentsMd?: string;
  /** The plugin entry (`plugin.ts`) whose default export is `definePlugin(...)`, if present. */
  readonly entry?: LazyModule<unknown>;
  readonly entrySource?: string;
  readonly conditionalTools: readonly ManifestConditionalTool[];
}

export interface CapabilityManifest {
  readonly version: 1;
  /**
   * An identity a host may give a hand-made manifest (shown as `manifestHash` in the capability
   * catalog). Generated manifests carry none (a manifest-wide line would change with every edit
   * and conflict in every two pull requests): the catalog derives one from what the manifest
   * serves, each tool's content `hash` first (runtime/console/manifest-identity.ts).
   */
  readonly hash?: string;
  readonly plugins: readonly ManifestPlugin[];
  readonly tools: readonly ManifestTool[];
  readonly skills: readonly ManifestSkill[];
  readonly agents: readonly ManifestAgent[];
  readonly promptSections: readonly ManifestPromptSection[];
  readonly hooks: readonly ManifestHook[];
  /**
   * Tools the manifest's skills and agents reference that no file of the tree defines: declared
   * host-provided in the compiler config (framework built-ins, installed packages, seam
   * providers; `ask_user`, `spawn_task`). `host.load` rejects a generation in which any is missing.
   */
  readonly hostProvided?: { readonly tools: readonly string[] };
  /**
   * Installed plugin packages that ship their own generated manifest, named in the bot's
   * `plugins`: merged at `host.load` under their instance key, as the child plugin `<owner>`
   * (runtime/generation/packages.ts).
   */
  readonly packages?: readonly ManifestPackage[];
  /**
   * The `discover` index over this manifest's own tools and skills, built by the compiler and
   * imported on a generation's first `discover` (docs/catalog.md#the-search-index). Absent, or
   * not matching the generation's tools, the runtime builds the index itself.
   */
  readonly search?: () => Promise<{ readonly default: string }>;
}

export interface ManifestPackage {
  /** Instance key: the package's capabilities are owned by `<owner>` and named `<owner>__…`. */
  readonly owner: string;
  /** Package name, for messages and sources. */
  readonly name: string;
  readonly manifest: CapabilityManifest;
}

/**
 * Augmented by every generated manifest module (`declare module 'zhin-gen/runtime'`), so that
 * runtime calls such as `turn.execute(name, input)` are typed by name. Empty when no manifest
 * is in the program: then names are plain strings and inputs `unknown`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: an interface, so generated manifests can augment it (declaration merging)
export interface CapabilityRegistry {}

type RegistryToolInputs = CapabilityRegistry extends { readonly toolInputs: infer T } ? T : never;

/** Literal union of every tool qualifiedName of the generated manifest (or `string`). */
export type ToolName = [RegistryToolInputs] extends [never] ? string : keyof RegistryToolInputs & string;

/** Input type of a tool by qualifiedName (or `unknown`). */
export type ToolInput<N extends string> = [RegistryToolInputs] extends [never]
  ? unknown
  : N extends keyof RegistryToolInputs
    ? RegistryToolInputs[N]
    : unknown;
