/**
 * The Capability Seam's service contracts (docs/seam.md). A root host implements these
 * for capabilities that are not files in the plugin tree (a remote search service, an existing
 * registry). They describe and perform; they never decide: access, approval and the journal
 * belong to the turn pipeline, which is the only caller of `ToolService.execute`.
 */
import type { ToolExecutionContext } from '../contract/define.js';
import type { ApprovalMode, ChannelScope, JsonSchema } from '../contract/manifest.js';

/**
 * Where a provider is visible: `'global'` (every owner under the root) or an owner id. Owner ids
 * are agent qualifiedNames (`reviewer`, `maps__reviewer`): the selected agent is who asks in a
 * turn (decision; see docs/seam.md).
 */
export type SeamScope = 'global' | (string & {});

/** The function part of a tool schema (OpenAI-style, as in the seed). */
export interface ToolSchemaFunction {
  /** The tool's name; provider-safe (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  /** Shown to the model; non-empty. */
  readonly description: string;
  /** JSON Schema of the input; its root must be `type: "object"`. Default: an open object. */
  readonly parameters?: JsonSchema;
}

/**
 * One tool a `ToolService` offers. The policy fields become the canonical tool capability, with
 * the same meaning as on `defineAgentTool` (`approval` is `requiresApproval`, default `on-risk`).
 */
export interface ToolSchema {
  readonly type: 'function';
  readonly function: ToolSchemaFunction;
  readonly approval?: ApprovalMode;
  readonly platforms?: readonly string[];
  readonly scopes?: readonly ChannelScope[];
  readonly permissions?: readonly string[];
  readonly hidden?: boolean;
  /** Provenance label, e.g. `remote:acme`, or `mcp:<server>` (then MCP server options apply). */
  readonly source?: string;
  /** Extra search terms for `discover`. */
  readonly keywords?: readonly string[];
}

/** What a provider returns. `success: false` is journaled as `tool_failed`. */
export type ToolExecutionResult =
  | { readonly success: true; readonly output?: unknown }
  | { readonly success: false; readonly error: string; readonly retryable?: boolean };

/**
 * What `ToolService.execute` receives: the turn pipeline's context for this call (its `signal`
 * is aborted when the call or the turn is cancelled). It is only valid while the call runs.
 */
export type SeamToolContext = ToolExecutionContext;

export interface ToolService {
  /** Unique per scope (a duplicate throws at registration). */
  readonly id: string;
  readonly description: string;
  /** The tools this provider offers to `scope`; read once per generation, at projection. */
  schema(scope: SeamScope): readonly ToolSchema[] | Promise<readonly ToolSchema[]>;
  /**
   * Performs one call that already passed the pipeline (access, validation, hooks, approval).
   * `context` is optional in the signature only for source compatibility with older hosts;
   * the runtime always passes it.
   */
  execute(
    scope: SeamScope,
    toolName: string,
    input: unknown,
    context?: SeamToolContext,
  ): ToolExecutionResult | Promise<ToolExecutionResult>;
}

/** One skill of a `SkillService` catalog: name and summary (instructions come from `describe`). */
export interface SkillCatalogEntry {
  /** Provider-safe name (`^[a-zA-Z0-9_-]{1,64}$`). */
  readonly name: string;
  /** Summary shown before the skill is loaded; 1–1024 characters. */
  readonly description: string;
  readonly keywords?: readonly string[];
  readonly tags?: readonly string[];
  readonly platforms?: readonly string[];
  readonly scopes?: readonly ChannelScope[];
  readonly permissions?: readonly string[];
  readonly source?: string;
}

/** A declarative skill catalog. It never executes anything. */
export interface SkillService {
  readonly id: string;
  readonly description: string;
  /** Names and summaries for `scope`; read once per generation, at projection. */
  catalog(scope: SeamScope): readonly SkillCatalogEntry[] | Promise<readonly SkillCatalogEntry[]>;
  /** The full instructions (Markdown) of one skill, read when the skill is loaded. */
  describe(scope: SeamScope, skillId: string): string | Promise<string>;
}

/** Returned by every registration; idempotent, removes exactly its own registration. */
export type SeamDisposer = () => void;

/**
 * Seam tools are not in the generated manifest, so a program whose manifest narrows
 * `turn.execute` names would reject them. A host that knows its seam tools types them here:
 *
 *   declare module 'zhin-gen/runtime' {
 *     interface SeamToolInputs { acme_search: { query: string } }
 *   }
 *
 * Types only: what a turn can run is still decided at runtime by the generation's tool table.
 */
// biome-ignore lint/suspicious/noEmptyInterface: an interface, so generated manifests can augment it (declaration merging)
export interface SeamToolInputs {}
