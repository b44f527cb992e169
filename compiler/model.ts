/**
 * The compiler's capability model: what parse produces, validate checks, resolve names and emit
 * prints. Paths are POSIX and relative to the project root; locations point at the construct
 * that defines each value, so every later diagnostic can name file, line and column.
 */
import type {
  ApprovalMode,
  ChannelScope,
  HookEvent,
  JsonSchema,
  PromptLayer,
  PromptProfile,
  PromptRetention,
  ToolPlacement,
} from '@zhin-gen/runtime';
import type { SourceLocation } from './diagnostics.js';

export type { SourceLocation };

/** Where a capability sits inside its plugin. */
export interface Enclosure {
  /** Owner path: child keys joined by '/', '' for the root plugin. */
  readonly owner: string;
  readonly placement: ToolPlacement;
  readonly agent?: string;
  readonly skill?: string;
}

export type SchemaOrigin = 'zod' | 'json' | 'none';

export interface ToolModel extends Enclosure {
  readonly kind: 'tool';
  readonly localName: string;
  /** Filled by resolve. */
  qualifiedName: string;
  readonly source: string;
  readonly related: readonly string[];
  readonly loc: SourceLocation;
  /** Locations of the description and inputSchema values, for diagnostics about them. */
  readonly descriptionLoc?: SourceLocation;
  readonly schemaLoc?: SourceLocation;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly schemaOrigin: SchemaOrigin;
  /**
   * How the compiler obtained the schema: translated statically (no Zod run), evaluated in the
   * VM, from the bundled module, or none (no `inputSchema`, or a conditional tool).
   */
  readonly schemaVia: 'none' | 'static' | 'inline' | 'bundle';
  readonly requiresApproval: ApprovalMode;
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly hidden: boolean;
  /** The author's search words for `discover` (the definition's `keywords` and `tags`). */
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  /** Added by `context.addTool()` in plugin.ts: known by name only, registered at runtime. */
  readonly conditional: boolean;
  /** Whether the entry has a default export whose input type can be named (for the type map). */
  readonly typed: boolean;
  readonly hash: string;
}

export interface SkillModel {
  readonly kind: 'skill';
  readonly owner: string;
  readonly agent?: string;
  readonly name: string;
  qualifiedName: string;
  readonly source: string;
  readonly loc: SourceLocation;
  readonly description: string;
  /** Declared `tools` (qualifiedNames) with their locations, for resolution diagnostics. */
  readonly declaredTools: readonly { readonly name: string; readonly loc: SourceLocation }[];
  /** Associated tools after resolve: declared then private. */
  tools: readonly string[];
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly always: boolean;
  readonly instructions: string;
  readonly hash: string;
}

export interface AgentModel {
  readonly kind: 'agent';
  readonly owner: string;
  readonly name: string;
  qualifiedName: string;
  readonly source: string;
  readonly loc: SourceLocation;
  readonly description: string;
  readonly platforms: readonly { readonly name: string; readonly loc: SourceLocation }[];
  readonly declaredTools: readonly { readonly name: string; readonly loc: SourceLocation }[];
  readonly model?: string;
  readonly maxSteps?: number;
  readonly system: string;
  readonly boundaries: string;
  readonly conventions: string;
  readonly workflows: readonly string[];
  readonly knowledge: readonly string[];
  readonly hash: string;
}

export interface PromptSectionModel {
  readonly kind: 'prompt-section';
  readonly owner: string;
  readonly name: string;
  readonly source: string;
  readonly loc: SourceLocation;
  readonly title: string;
  readonly content: string;
  readonly layer: PromptLayer;
  readonly order: number;
  readonly retention: PromptRetention;
  readonly maxChars?: number;
  readonly profiles: readonly PromptProfile[];
  readonly platforms: readonly string[];
  readonly hash: string;
}

export interface HookModel extends Enclosure {
  readonly kind: 'hook';
  readonly name: string;
  readonly source: string;
  readonly loc: SourceLocation;
  readonly events: readonly HookEvent[];
  readonly hash: string;
}

export interface PluginModel {
  readonly owner: string;
  readonly dir: string;
  readonly agentsMd?: { readonly source: string; readonly text: string };
  readonly entrySource?: string;
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
