/**
 * The contract's enumerations, each defined once as a frozen tuple with its type derived from it.
 * The manifest types (manifest.ts), the authoring helpers' runtime checks (define.ts), the seam
 * checks, and the compiler's validators, cache shapes and CLI flags all read these lists, so a
 * value accepted at build time is exactly a value the runtime accepts. No imports: the compiler
 * takes this module for nothing.
 */

/** `requiresApproval`: when a human must approve a call (docs/runtime.md). */
export const APPROVAL_MODES = Object.freeze(['never', 'on-risk', 'once', 'always'] as const);
export type ApprovalMode = (typeof APPROVAL_MODES)[number];
/** What a tool without `requiresApproval` gets. */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'on-risk';

/** `scopes`: the kind of conversation a message comes from (`$channel.type`; none is `private`). */
export const CHANNEL_SCOPES = Object.freeze(['private', 'group', 'channel'] as const);
export type ChannelScope = (typeof CHANNEL_SCOPES)[number];

/** Where a tool or hook sits in its plugin: its folder decides when a turn sees it (docs/authoring.md). */
export const TOOL_PLACEMENTS = Object.freeze(['plugin', 'agent', 'skill', 'agent-skill'] as const);
export type ToolPlacement = (typeof TOOL_PLACEMENTS)[number];

export const HOOK_EVENTS = Object.freeze(['tool:before', 'tool:after'] as const);
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * Prompt section layers, in the order the system prompt renders them: `system` opens it;
 * `role`…`tools` follow the agent instructions; `safety` and `constraints` come after skill
 * instructions so plugin policy has the last word over anything a skill says; `examples` and
 * `memory` close it (docs/prompt.md).
 */
export const PROMPT_LAYERS = Object.freeze([
  'system',
  'role',
  'task',
  'context',
  'tools',
  'safety',
  'constraints',
  'examples',
  'memory',
] as const);
export type PromptLayer = (typeof PROMPT_LAYERS)[number];

export const PROMPT_RETENTIONS = Object.freeze(['required', 'preferred', 'opportunistic'] as const);
export type PromptRetention = (typeof PROMPT_RETENTIONS)[number];

export const PROMPT_PROFILES = Object.freeze(['interactive', 'schedule'] as const);
export type PromptProfile = (typeof PROMPT_PROFILES)[number];
/** What a section without `profiles` is shown to. */
export const DEFAULT_PROMPT_PROFILES: readonly PromptProfile[] = Object.freeze(['interactive'] as const);

/** The request shapes `turn.modelTools({ provider })` projects a turn's tools into. */
export const MODEL_PROVIDERS = Object.freeze(['anthropic', 'openai', 'generic'] as const);
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** Between two rendered blocks of the system prompt; counts against the budget like any other character. */
export const PROMPT_SEPARATOR = '\n\n';
/** `ai.agent.systemPromptMaxChars` when the host config does not set it. */
export const DEFAULT_SYSTEM_PROMPT_MAX_CHARS = 100_000;
