/**
 * Authoring helpers. The compiler checks the same rules statically (with file/line/column);
 * these runtime checks exist for definitions the compiler cannot see (`setup()` with computed
 * values, seams) and throw clear `TypeError`s. Every definition is frozen so a generation's
 * capability table cannot be mutated after prepare.
 */
import type {
  ApprovalMode,
  ChannelScope,
  HookEvent,
  JsonSchema,
  PromptLayer,
  PromptProfile,
  PromptRetention,
} from './manifest.js';
import {
  APPROVAL_MODES,
  CHANNEL_SCOPES,
  DEFAULT_PROMPT_PROFILES,
  HOOK_EVENTS,
  PROMPT_LAYERS,
  PROMPT_PROFILES,
  PROMPT_RETENTIONS,
} from './enums.js';
import { parsePermitSyntax } from './permit-syntax.js';
import type { ToolCallPolicy } from '../turn/approval.js';
import type { ImMessage } from '../access/permissions.js';

// A tool's access and approval fields as the runtime reads them (compiler/verify/compare.ts too).
export { TOOL_POLICY_DEFAULTS, type ToolPolicy } from './tool-policy.js';
// The enumerations live in enums.ts; they are re-exported here, where the compiler takes them.
export {
  APPROVAL_MODES,
  CHANNEL_SCOPES,
  DEFAULT_APPROVAL_MODE,
  DEFAULT_PROMPT_PROFILES,
  DEFAULT_SYSTEM_PROMPT_MAX_CHARS,
  HOOK_EVENTS,
  MODEL_PROVIDERS,
  PROMPT_SEPARATOR,
  PROMPT_LAYERS,
  PROMPT_PROFILES,
  PROMPT_RETENTIONS,
  TOOL_PLACEMENTS,
} from './enums.js';

/** Minimal Standard Schema v1 surface (Zod 4 implements it); kept local to avoid a zod import. */
export interface StandardSchemaLike<TInput = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    // `| undefined`: Standard Schema declares it so (Zod does), and under a user's
    // exactOptionalPropertyTypes a schema would otherwise not be assignable here.
    readonly types?: { readonly input: TInput; readonly output: unknown } | undefined;
  };
}

/** The turn-bound question channel a tool sees (the turn's QuestionPort, session filled in). */
export interface ToolQuestion {
  ask(request: { readonly question: string; readonly options?: readonly string[] }): Promise<string>;
}

/**
 * What a tool's `execute` receives besides its input (docs/authoring.md). `config` and `use(token)`
 * are always the tool's own owner's, fixed to the generation the turn leased, never the
 * caller's.
 */
export interface ToolExecutionContext {
  readonly config: Readonly<Record<string, unknown>>;
  use<T>(token: ResourceToken<T>): T;
  readonly owner: string;
  readonly generation: number;
  readonly signal: AbortSignal;
  readonly traceId: string;
  readonly turnId: string;
  readonly sessionKey: string;
  /** Where the turn came from: `'im'` for message turns, otherwise what the host passed. */
  readonly origin: string;
  readonly principal: unknown;
  /** How this call passed approval. */
  readonly policy: ToolCallPolicy;
  /** Absent in unattended turns; tools must handle that instead of reaching for globals. */
  readonly question?: ToolQuestion;
  readonly toolName: string;
  readonly toolUseId: string;
  /** The IM message of the turn, when it has one. */
  readonly message?: ImMessage;
}

export interface ResourceToken<T> {
  readonly key: symbol;
  readonly description: string;
  /** Phantom: carries T for `use(token)`. */
  readonly __type?: T;
}

export function createToken<T>(description: string): ResourceToken<T> {
  return Object.freeze({ key: Symbol(description), description }) as ResourceToken<T>;
}

export interface AgentToolInit<TInput> {
  readonly description: string;
  readonly inputSchema?: StandardSchemaLike<TInput> | JsonSchema;
  readonly requiresApproval?: ApprovalMode;
  readonly platforms?: readonly string[];
  readonly scopes?: readonly ChannelScope[];
  readonly permissions?: readonly string[];
  readonly hidden?: boolean;
  /** Words `discover` matches besides the name and description (docs/catalog.md). */
  readonly keywords?: readonly string[];
  /** Topic labels; `discover` searches them like keywords. */
  readonly tags?: readonly string[];
  execute(input: TInput, context: ToolExecutionContext): unknown;
}

declare const inputBrand: unique symbol;

export interface AgentToolDefinition<TInput = unknown> extends AgentToolInit<TInput> {
  readonly kind: 'agent-tool';
  /** Phantom type carrier read by the generated manifest's input-type map. */
  readonly [inputBrand]?: TInput;
}

/** Input type of a tool definition (used by generated manifests through `import type`). */
export type InputOf<T> = T extends AgentToolDefinition<infer I> ? I : unknown;

function fail(what: string, message: string): never {
  throw new TypeError(`${what}: ${message}`);
}

function checkStringList(what: string, field: string, value: unknown, allowed?: readonly string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(what, `\`${field}\` must be an array of strings`);
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string' || item.trim() === '') fail(what, `\`${field}\` entries must be non-empty strings`);
    if (allowed && !allowed.includes(item)) {
      fail(what, `\`${field}\` entry "${item}" is not one of ${allowed.join(', ')}`);
    }
    if (seen.has(item)) fail(what, `\`${field}\` lists "${item}" twice`);
    seen.add(item);
  }
}

function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

export function defineAgentTool<TInput = Record<string, unknown>>(
  init: AgentToolInit<TInput>,
): AgentToolDefinition<TInput> {
  const what = 'defineAgentTool';
  if (typeof init !== 'object' || init === null) fail(what, 'expected a definition object');
  // Each field read once, and the lists and a JSON Schema copied before they are checked: the
  // definition holds what was validated. Frozen on the surface only, the caller's own
  // `permissions` array stayed the tool's: emptied after define, an admin-only setup() tool ran
  // for anyone, and a permit pushed afterwards was never parsed.
  const fields: AgentToolInit<TInput> = { ...init };
  if (typeof fields.description !== 'string' || fields.description.trim() === '') {
    fail(what, '`description` must be a non-empty string');
  }
  if (typeof fields.execute !== 'function') fail(what, '`execute` must be a function');
  if (fields.requiresApproval !== undefined && !APPROVAL_MODES.includes(fields.requiresApproval)) {
    fail(what, `\`requiresApproval\` must be one of ${APPROVAL_MODES.join(', ')}`);
  }
  const lists: Partial<Record<ToolListField, readonly string[]>> = {};
  for (const field of TOOL_LISTS) {
    const list = frozenList(fields[field]);
    checkStringList(what, field, list, field === 'scopes' ? CHANNEL_SCOPES : undefined);
    if (list !== undefined) lists[field] = list;
  }
  for (const permit of lists.permissions ?? []) {
    const parsed = parsePermitSyntax(permit);
    if (!parsed.ok) fail(what, `permission "${permit}" does not parse: ${parsed.reason}`);
  }
  if (fields.hidden !== undefined && typeof fields.hidden !== 'boolean') fail(what, '`hidden` must be a boolean');
  // zhin.js's earlier name of requiresApproval: refused, never ignored (ignoring it would make the tool 'on-risk').
  if ('approval' in fields) fail(what, '`approval` is the earlier name of `requiresApproval`; rename it');
  // zhin.js's `adapter` (its define helpers made it `platforms: [adapter]`): ignored, the tool would be offered everywhere.
  if ('adapter' in fields)
    fail(what, "`adapter` is the earlier way to write `platforms`; write `platforms: ['<adapter>']`");
  let schema = fields.inputSchema;
  if (schema !== undefined && !isStandardSchema(schema)) {
    if (typeof schema !== 'object' || schema === null || (schema as JsonSchema).type !== 'object') {
      fail(what, '`inputSchema` must be a Zod object schema or a JSON Schema with `type: "object"`');
    }
    // A JSON Schema is data: copied and frozen whole (a Standard Schema is the library's object).
    schema = frozenJson(schema, what) as typeof schema;
  }
  return Object.freeze({
    ...fields,
    ...lists,
    ...(schema !== undefined ? { inputSchema: schema } : {}),
    kind: 'agent-tool' as const,
  }) as AgentToolDefinition<TInput>;
}

const TOOL_LISTS = ['platforms', 'scopes', 'permissions', 'keywords', 'tags'] as const;
type ToolListField = (typeof TOOL_LISTS)[number];

/** A frozen copy of an array (anything else as it is, for checkStringList to refuse). */
function frozenList<T>(value: T): T {
  return (Array.isArray(value) ? Object.freeze([...(value as unknown[])]) : value) as T;
}

/**
 * A frozen deep copy of JSON data: arrays and plain objects copied (own keys, `__proto__` too, as
 * an own key), anything else as it is. A cycle or nesting past 256 levels is refused.
 */
function frozenJson(value: unknown, what: string, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 256) fail(what, '`inputSchema` nests deeper than 256 levels (or refers to itself)');
  if (Array.isArray(value)) return Object.freeze(value.map((item) => frozenJson(item, what, depth + 1)));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.freeze(
    Object.fromEntries(Object.entries(value).map(([key, item]) => [key, frozenJson(item, what, depth + 1)])),
  );
}

export interface AgentPromptSectionInit {
  readonly title: string;
  readonly content: string;
  readonly layer?: PromptLayer;
  readonly order?: number;
  readonly retention?: PromptRetention;
  readonly maxChars?: number;
  readonly profiles?: readonly PromptProfile[];
  readonly platforms?: readonly string[];
}

export interface AgentPromptSection extends Required<Omit<AgentPromptSectionInit, 'maxChars' | 'platforms'>> {
  readonly kind: 'prompt-section';
  readonly maxChars?: number;
  readonly platforms: readonly string[];
}

export function defineAgentPromptSection(init: AgentPromptSectionInit): AgentPromptSection {
  const what = 'defineAgentPromptSection';
  if (typeof init !== 'object' || init === null) fail(what, 'expected a definition object');
  if (typeof init.title !== 'string' || init.title.trim() === '') fail(what, '`title` must be a non-empty string');
  if (typeof init.content !== 'string') fail(what, '`content` must be a string');
  if (init.layer !== undefined && !PROMPT_LAYERS.includes(init.layer)) {
    fail(what, `\`layer\` must be one of ${PROMPT_LAYERS.join(', ')}`);
  }
  if (init.order !== undefined && !Number.isSafeInteger(init.order)) fail(what, '`order` must be a safe integer');
  if (init.retention !== undefined && !PROMPT_RETENTIONS.includes(init.retention)) {
    fail(what, `\`retention\` must be one of ${PROMPT_RETENTIONS.join(', ')}`);
  }
  if (init.maxChars !== undefined && (!Number.isSafeInteger(init.maxChars) || init.maxChars <= 0)) {
    fail(what, '`maxChars` must be a positive safe integer');
  }
  if (init.profiles !== undefined && init.profiles.length === 0) fail(what, '`profiles` must not be empty');
  checkStringList(what, 'profiles', init.profiles, PROMPT_PROFILES);
  if (init.platforms !== undefined && init.platforms.length === 0)
    fail(what, '`platforms` must not be empty when given');
  checkStringList(what, 'platforms', init.platforms);
  // Same rule as the compiler's ZG2031: required content is never cut, so it could never render.
  if (init.retention === 'required' && init.maxChars !== undefined && init.content.length > init.maxChars) {
    fail(what, `required content is ${init.content.length} characters but \`maxChars\` is ${init.maxChars}`);
  }
  return Object.freeze({
    kind: 'prompt-section' as const,
    title: init.title,
    content: init.content,
    layer: init.layer ?? 'context',
    order: init.order ?? 50,
    retention: init.retention ?? 'preferred',
    ...(init.maxChars !== undefined ? { maxChars: init.maxChars } : {}),
    profiles: Object.freeze([...(init.profiles ?? DEFAULT_PROMPT_PROFILES)]),
    platforms: Object.freeze([...(init.platforms ?? [])]),
  });
}

/** What a hook sees for one tool call. `tool:before` may veto; hooks never grant anything. */
export interface ToolHookEvent {
  readonly event: HookEvent;
  readonly toolName: string;
  readonly toolUseId: string;
  readonly input: unknown;
  /** Present on `tool:after`. */
  readonly outcome?: unknown;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing (void) must type-check, not only one returning undefined
export type ToolHookResult = void | undefined | { readonly veto: string };

export interface AgentHookInit {
  readonly events: readonly HookEvent[];
  handle(event: ToolHookEvent): ToolHookResult | Promise<ToolHookResult>;
}

export interface AgentHook extends AgentHookInit {
  readonly kind: 'agent-hook';
}

export function defineAgentHook(init: AgentHookInit): AgentHook {
  const what = 'defineAgentHook';
  if (typeof init !== 'object' || init === null) fail(what, 'expected a definition object');
  if (!Array.isArray(init.events) || init.events.length === 0) fail(what, '`events` must be a non-empty array');
  checkStringList(what, 'events', init.events, HOOK_EVENTS);
  if (typeof init.handle !== 'function') fail(what, '`handle` must be a function');
  return Object.freeze({ ...init, events: Object.freeze([...init.events]), kind: 'agent-hook' as const });
}

/** The context a plugin's `setup()` receives; writes go to the candidate generation only. */
export interface PluginSetupContext {
  readonly owner: string;
  readonly config: { get(): Record<string, unknown> };
  addTool(localName: string, tool: AgentToolDefinition<unknown>): void;
  addPromptSection(localName: string, section: AgentPromptSection): void;
  readonly resources: {
    provide<T>(token: ResourceToken<T>, value: T, dispose?: () => void | Promise<void>): void;
    use<T>(token: ResourceToken<T>): T;
  };
}

export interface PluginInit {
  readonly name: string;
  setup?(context: PluginSetupContext): void | Promise<void>;
}

export interface PluginDefinition extends PluginInit {
  readonly kind: 'plugin';
}

export function definePlugin(init: PluginInit): PluginDefinition {
  const what = 'definePlugin';
  if (typeof init !== 'object' || init === null) fail(what, 'expected a definition object');
  if (typeof init.name !== 'string' || init.name.trim() === '') fail(what, '`name` must be a non-empty string');
  if (init.setup !== undefined && typeof init.setup !== 'function') fail(what, '`setup` must be a function');
  return Object.freeze({ ...init, kind: 'plugin' as const });
}
