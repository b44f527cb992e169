/**
 * The compiler's capability model: what parse produces, validate checks, resolve names and emit
 * prints. Each model extends the manifest entry it becomes (runtime/contract/manifest.ts), so a
 * field of the contract is declared once; a model adds only what the compiler needs besides it
 * (locations, hashes, declared references). Paths are POSIX and relative to the project root;
 * locations point at the construct that defines each value, so every later diagnostic can name
 * file, line and column. Every field is readonly: resolve (resolve/assemble.ts) builds the
 * names and the resolved references into the objects it produces, nothing fills them in later.
 */
import type {
  ManifestAgent,
  ManifestHook,
  ManifestPlugin,
  ManifestPromptSection,
  ManifestSkill,
  ManifestTool,
} from '@zhin-gen/runtime';
import type { SourceLocation } from './diagnostics.js';

export type { SourceLocation };

/** Where a capability sits inside its plugin: owner path, placement, enclosing agent / skill. */
export type Enclosure = Pick<ManifestTool, 'owner' | 'placement' | 'agent' | 'skill'>;

export type SchemaOrigin = 'zod' | 'json' | 'none';

/** A name written in a file (a `tools` entry, a platform), with where it is written. */
export interface LocatedName {
  readonly name: string;
  readonly loc: SourceLocation;
}

/**
 * A tool. `keywords` and `tags` are the author's; emit appends the words of the tool's scope to
 * the manifest's `keywords`. The loaders (`load`, `validator`) exist only in the emitted module.
 */
export interface ToolModel extends Omit<ManifestTool, 'keywords' | 'tags' | 'load' | 'validator'> {
  readonly kind: 'tool';
  readonly related: readonly string[];
  readonly loc: SourceLocation;
  /** Locations of the description and inputSchema values, for diagnostics about them. */
  readonly descriptionLoc?: SourceLocation;
  readonly schemaLoc?: SourceLocation;
  readonly schemaOrigin: SchemaOrigin;
  /**
   * How the compiler obtained the schema: translated statically (no Zod run), evaluated in the
   * VM, from the bundled module, or none (no `inputSchema`, or a conditional tool).
   */
  readonly schemaVia: 'none' | 'static' | 'inline' | 'bundle';
  /** The author's search words for `discover` (the definition's `keywords` and `tags`). */
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  /** Added by `context.addTool()` in plugin.ts: known by name only, registered at runtime. */
  readonly conditional: boolean;
  /** Whether the entry has a default export whose input type can be named (for the type map). */
  readonly typed: boolean;
  readonly hash: string;
}

/** A skill as parsed: everything but its associated tools, which resolve works out. */
export interface ParsedSkillModel extends Omit<ManifestSkill, 'tools'> {
  readonly kind: 'skill';
  readonly loc: SourceLocation;
  /** Declared `tools` (qualifiedNames) with their locations, for resolution diagnostics. */
  readonly declaredTools: readonly LocatedName[];
  readonly hash: string;
}

/** A resolved skill: `tools` holds the declared tools that resolved, then the skill's private tools. */
export interface SkillModel extends ParsedSkillModel, Pick<ManifestSkill, 'tools'> {}

/** An agent: `platforms` and `tools` keep their locations (the manifest lists the names). */
export interface AgentModel extends Omit<ManifestAgent, 'platforms' | 'tools'> {
  readonly kind: 'agent';
  readonly loc: SourceLocation;
  readonly platforms: readonly LocatedName[];
  readonly declaredTools: readonly LocatedName[];
  readonly hash: string;
}

/** A prompt section; its manifest `id` is built from owner and name (promptSectionId). */
export interface PromptSectionModel extends Omit<ManifestPromptSection, 'id' | 'content' | 'load'> {
  readonly kind: 'prompt-section';
  /** Absent: computed by the module, which the manifest loads (emit/item-literals.ts). */
  readonly content?: string;
  readonly loc: SourceLocation;
  readonly hash: string;
}

/** A hook; its manifest `id` is built from its enclosure and name (hookId). */
export interface HookModel extends Omit<ManifestHook, 'id' | 'load'> {
  readonly kind: 'hook';
  readonly loc: SourceLocation;
  readonly hash: string;
}

/** A plugin; AGENTS.md keeps its path (the manifest carries the text). */
export interface PluginModel extends Pick<ManifestPlugin, 'owner' | 'dir' | 'entrySource'> {
  readonly agentsMd?: { readonly source: string; readonly text: string };
}

export interface CapabilityModel {
  readonly plugins: PluginModel[];
  readonly tools: ToolModel[];
  readonly skills: SkillModel[];
  readonly agents: AgentModel[];
  readonly promptSections: PromptSectionModel[];
  readonly hooks: HookModel[];
  /** Host-provided tool names (config `hostProvided`) that skills and agents reference, sorted. */
  readonly hostTools?: readonly string[];
  /** Installed plugin packages whose shipped manifest the generated module imports (scan/shipped.ts). */
  readonly packages?: readonly { readonly owner: string; readonly name: string; readonly specifier: string }[];
}
