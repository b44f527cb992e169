/**
 * Provider projection of a turn's tool list (docs/catalog.md). The shapes are structural copies of the
 * official request types, checked by type tests against `@anthropic-ai/sdk` (`Messages.Tool`,
 * whose `defer_loading` exists in the non-beta types since SDK 0.6x), `openai`
 * (`ChatCompletionFunctionTool`) and the AI SDK's `jsonSchema()`; the runtime cannot import those
 * packages. Objects are built once per tool per generation and shared by every turn — arrays are
 * fresh per call (the SDK types want mutable arrays), elements are frozen.
 */
import type { ModelProvider } from '../contract/enums.js';
import type { JsonSchema } from '../contract/manifest.js';

export type { ModelProvider };

/**
 * The most tools one Anthropic request may carry (deferred ones included); the API rejects a
 * longer list. `modelTools` never builds one (docs/catalog.md#provider-tool-limits).
 */
export const ANTHROPIC_MAX_TOOLS = 10_000;

/**
 * A turn's Anthropic list without copying it: the generation's shared list, the positions in it
 * of the tools this turn sends undeferred (sorted), and what to send there.
 */
export interface AnthropicRequestTools {
  readonly tools: readonly AnthropicModelTool[];
  readonly undeferred: readonly number[];
  readonly undefer: (at: number) => AnthropicModelTool;
}

/** What a cut left out: how many, and the first names (for the turn's diagnostic). */
export interface AnthropicCut {
  readonly kept: AnthropicModelTool[];
  readonly droppedCount: number;
  readonly firstDropped: readonly string[];
}

/**
 * The cut that keeps a request within ANTHROPIC_MAX_TOOLS: every tool sent undeferred (meta,
 * always-loaded, pinned, loaded) stays, then deferred tools in their order until the limit; with
 * more undeferred tools than the limit (`undeferred` undefined: all of them), the first ones.
 * Order is kept. `tools` is not changed: the positions in `undeferred` are sent as `undefer(at)`
 * (default: as they are), so a turn's list is copied once, only as far as the cut. Found from
 * the undeferred positions alone, without reading every tool.
 */
export function capAnthropicTools(
  tools: readonly AnthropicModelTool[],
  undeferred: readonly number[] | undefined,
  undefer: (at: number) => AnthropicModelTool = (at) => tools[at]!,
  max = ANTHROPIC_MAX_TOOLS,
  names = 20,
): AnthropicCut {
  if (tools.length <= max) {
    const kept = tools.slice();
    if (undeferred !== undefined) for (const at of undeferred) kept[at] = undefer(at);
    return { kept, droppedCount: 0, firstDropped: [] };
  }
  if (undeferred === undefined || undeferred.length >= max) {
    const positions = undeferred === undefined ? undefined : new Set(undeferred.slice(0, max));
    const keep = undeferred === undefined ? tools.slice(0, max) : undeferred.slice(0, max).map(undefer);
    const firstDropped: string[] = [];
    for (let i = 0; i < tools.length && firstDropped.length < names; i += 1)
      if (positions === undefined ? i >= max : !positions.has(i)) firstDropped.push(tools[i]!.name);
    return { kept: keep, droppedCount: tools.length - max, firstDropped };
  }
  // The cut: the first position with `room` deferred tools before it.
  const room = max - undeferred.length;
  let below = 0;
  while (below < undeferred.length && undeferred[below]! < room + below) below += 1;
  const cut = room + below;
  const kept = tools.slice(0, cut);
  for (let k = 0; k < below; k += 1) kept[undeferred[k]!] = undefer(undeferred[k]!);
  for (let k = below; k < undeferred.length; k += 1) kept.push(undefer(undeferred[k]!));
  const firstDropped: string[] = [];
  for (let i = cut, k = below; i < tools.length && firstDropped.length < names; i += 1) {
    if (k < undeferred.length && undeferred[k] === i) k += 1;
    else firstDropped.push(tools[i]!.name);
  }
  return { kept, droppedCount: tools.length - kept.length, firstDropped };
}

/**
 * The most tools one OpenAI request may carry. The openai package (6.x) documents 128 for its
 * function-tool lists ("A max of 128 functions are supported" on the Chat Completions sampling
 * parameters of evals, "a maximum of 128 tools" per assistant); Chat Completions and Responses
 * take the same function tools, so `modelTools({ provider: 'openai' })` never lists more.
 */
export const OPENAI_MAX_TOOLS = 128;

/** What a cut of a list with no deferred entries left out (the list is in request order). */
export interface ToolCut<T> {
  readonly kept: T[];
  readonly droppedCount: number;
  readonly firstDropped: readonly string[];
}

/**
 * Keeps at most `max` of `tools`: first the positions in `first`, in that priority (meta tools,
 * loaded, pinned, always-loaded: what the turn chose to send), then the other tools in list
 * order. What is kept stays in list order; the rest is named (first `names`) for the journal.
 */
export function capByPriority<T extends { readonly name: string } | { readonly function: { readonly name: string } }>(
  tools: readonly T[],
  first: readonly number[],
  max: number,
  names = 20,
): ToolCut<T> {
  if (tools.length <= max) return { kept: tools.slice(), droppedCount: 0, firstDropped: [] };
  const keep = new Uint8Array(tools.length);
  let count = 0;
  for (let k = 0; k < first.length && count < max; k += 1) {
    const at = first[k]!;
    if (at >= 0 && at < tools.length && keep[at] === 0) {
      keep[at] = 1;
      count += 1;
    }
  }
  for (let i = 0; i < tools.length && count < max; i += 1) {
    if (keep[i] === 0) {
      keep[i] = 1;
      count += 1;
    }
  }
  const kept: T[] = [];
  const firstDropped: string[] = [];
  for (let i = 0; i < tools.length; i += 1) {
    const tool = tools[i]!;
    if (keep[i] === 1) kept.push(tool);
    else if (firstDropped.length < names) firstDropped.push('function' in tool ? tool.function.name : tool.name);
  }
  return { kept, droppedCount: tools.length - kept.length, firstDropped };
}

/** A JSON Schema whose root is an object, as every provider requires. */
export interface ProviderInputSchema {
  readonly type: 'object';
  readonly [keyword: string]: unknown;
}

/** Assignable to `Anthropic.Messages.Tool` (and so to `ToolUnion`). */
export interface AnthropicModelTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: ProviderInputSchema;
  /** Present (true) on tools the model has not loaded yet; they are found through `discover`. */
  readonly defer_loading?: true;
}

/** Assignable to OpenAI's `ChatCompletionFunctionTool` / `ChatCompletionTool`. */
export interface OpenAIModelTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: ProviderInputSchema;
  };
}

/** Name, description and JSON Schema; `inputSchema` is accepted by the AI SDK's `jsonSchema()`. */
export interface GenericModelTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ProviderInputSchema;
}

export type ModelToolsFor<P extends ModelProvider> = P extends 'anthropic'
  ? AnthropicModelTool[]
  : P extends 'openai'
    ? OpenAIModelTool[]
    : GenericModelTool[];

export interface ModelToolsOptions<P extends ModelProvider = ModelProvider> {
  readonly provider: P;
  /**
   * `false` sends every listed tool as loaded (Anthropic: no `defer_loading`; OpenAI / generic:
   * all of them, not only the loaded set). For small bots, where the schemas cost less than a
   * `discover` round trip. Default true.
   */
  readonly defer?: boolean;
  /**
   * At most this many tools (an integer ≥ 1), cut by the rules of docs/catalog.md#provider-tool-limits.
   * It only lowers the provider's own limit; for `generic`, whose requests go to a provider this
   * runtime cannot see, it is the only limit (the AI SDK bridge sets it from the model's provider).
   */
  readonly maxTools?: number;
}

/** A `tool_reference` content block (Anthropic): put these in the `load_tool` tool_result. */
export interface AnthropicToolReference {
  readonly type: 'tool_reference';
  readonly tool_name: string;
}

/** Root must be an object (the compiler guarantees it); hand-made schemas without `type` get it. */
export function providerSchema(schema: JsonSchema): ProviderInputSchema {
  if (schema.type === 'object') return schema as ProviderInputSchema;
  return Object.freeze({ ...schema, type: 'object' as const });
}

/** The per-tool, per-generation cache of projected objects (never rebuilt per turn). */
export class ProjectedTool {
  #anthropic: AnthropicModelTool | undefined;
  #anthropicDeferred: AnthropicModelTool | undefined;
  #openai: OpenAIModelTool | undefined;
  #generic: GenericModelTool | undefined;
  #schema: ProviderInputSchema | undefined;

  constructor(
    readonly name: string,
    readonly description: string,
    private readonly rawSchema: JsonSchema,
  ) {}

  get schema(): ProviderInputSchema {
    return (this.#schema ??= providerSchema(this.rawSchema));
  }

  anthropic(deferred: boolean): AnthropicModelTool {
    if (deferred) {
      return (this.#anthropicDeferred ??= Object.freeze({
        name: this.name,
        description: this.description,
        input_schema: this.schema,
        defer_loading: true as const,
      }));
    }
    return (this.#anthropic ??= Object.freeze({
      name: this.name,
      description: this.description,
      input_schema: this.schema,
    }));
  }

  openai(): OpenAIModelTool {
    return (this.#openai ??= Object.freeze({
      type: 'function' as const,
      function: Object.freeze({ name: this.name, description: this.description, parameters: this.schema }),
    }));
  }

  generic(): GenericModelTool {
    return (this.#generic ??= Object.freeze({
      name: this.name,
      description: this.description,
      inputSchema: this.schema,
    }));
  }
}

/** `tool_reference` blocks for names a `load_tool` / `load_skill` call just loaded. */
export function anthropicToolReferences(output: { readonly loaded?: readonly string[] }): AnthropicToolReference[] {
  return (output.loaded ?? []).map((name) => Object.freeze({ type: 'tool_reference' as const, tool_name: name }));
}
