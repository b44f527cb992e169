/**
 * `@zhin-gen/runtime/openai`: the tool-use loop over OpenAI Chat Completions and Responses
 * (docs/hosts.md#openai). Only SDK *types* are imported: the host passes its own client.
 *
 * Requests carry `turn.modelTools({ provider: 'openai' })`: the meta tools and the loaded set
 * (OpenAI has no deferred listing), rebuilt after every step that loaded something. Neither API
 * has an error flag on a tool result, so the text says it (docs/hosts.md#what-the-model-reads).
 */
import type OpenAI from 'openai';
import type { OpenAIModelTool } from '../index.js';
import {
  type LoopModel,
  type ModelReply,
  type ModelToolCall,
  parseArguments,
  runToolLoop,
  type ToolLoopOptions,
  type ToolLoopResult,
} from './loop.js';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
type ResponseItem = OpenAI.Responses.ResponseInputItem;
type Response = OpenAI.Responses.Response;

// ---- Chat Completions ----------------------------------------------------------------------

/** Everything of a chat request but what the loop owns. */
export type OpenAIChatRequest = Omit<
  OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
  'messages' | 'tools' | 'stream'
>;

export interface OpenAIChatClient {
  readonly chat: { readonly completions: Pick<OpenAI['chat']['completions'], 'create' | 'stream'> };
}

export interface OpenAIChatLoopOptions<R> extends ToolLoopOptions<R> {
  readonly client: OpenAIChatClient;
  readonly request: OpenAIChatRequest;
  /** The conversation so far, ending with the user's message (no system message: see `system`). */
  readonly messages: readonly ChatMessage[];
  /** Role of the system prompt message (default `'system'`; reasoning models take `'developer'`). */
  readonly systemRole?: 'system' | 'developer';
  /** Stream every reply (`chat.completions.stream`); `onText` receives content deltas. */
  readonly stream?: boolean | { readonly onText?: (delta: string) => void };
}

export type OpenAIChatLoopResult = ToolLoopResult<ChatMessage>;

function chatReply(completion: ChatCompletion): ModelReply<ChatMessage> {
  const choice = completion.choices[0];
  const message = choice?.message;
  const calls: ModelToolCall[] = [];
  for (const call of message?.tool_calls ?? []) {
    if (call.type === 'function')
      calls.push({ id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) });
  }
  const toolCalls = message?.tool_calls?.filter((call) => call.type === 'function');
  const assistant: ChatMessage = {
    role: 'assistant',
    content: message?.content ?? null,
    ...(toolCalls && toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return {
    messages: [assistant],
    text: message?.content ?? '',
    calls,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
    stopReason: choice?.finish_reason ?? null,
    truncated: choice?.finish_reason === 'length',
  };
}

/** The `LoopModel` for Chat Completions. */
export function openAIChatModel(
  options: Pick<OpenAIChatLoopOptions<unknown>, 'client' | 'request' | 'stream' | 'systemRole'>,
): LoopModel<'openai', ChatMessage> {
  const { client, request, stream } = options;
  const role = options.systemRole ?? 'system';
  return {
    provider: 'openai',
    async request({ tools, messages, system, signal }) {
      const sent: ChatMessage[] = system === undefined ? [...messages] : [{ role, content: system }, ...messages];
      const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
        ...request,
        messages: sent,
        ...(tools.length > 0 ? { tools } : {}),
      };
      if (!stream) return chatReply(await client.chat.completions.create(body, { signal }));
      const live = client.chat.completions.stream(
        { ...body, stream: true, stream_options: { include_usage: true } },
        { signal },
      );
      const onText = typeof stream === 'object' ? stream.onText : undefined;
      if (onText) live.on('content.delta', (event) => onText(event.delta));
      return chatReply(await live.finalChatCompletion());
    },
    results: (results) =>
      results.map((result): ChatMessage => ({ role: 'tool', tool_call_id: result.call.id, content: result.text })),
  };
}

/** Runs the turn's tool-use loop against Chat Completions until the model answers. */
export function runOpenAIChatTurn<R>(options: OpenAIChatLoopOptions<R>): Promise<OpenAIChatLoopResult> {
  return runToolLoop(openAIChatModel(options), options.messages, options);
}

// ---- Responses -----------------------------------------------------------------------------

/** Everything of a Responses request but what the loop owns (`instructions` carries the system prompt). */
export type OpenAIResponsesRequest = Omit<
  OpenAI.Responses.ResponseCreateParamsNonStreaming,
  'input' | 'tools' | 'stream' | 'instructions'
>;

export interface OpenAIResponsesClient {
  readonly responses: Pick<OpenAI['responses'], 'create' | 'stream'>;
}

export interface OpenAIResponsesLoopOptions<R> extends ToolLoopOptions<R> {
  readonly client: OpenAIResponsesClient;
  readonly request: OpenAIResponsesRequest;
  /** The input so far: a user message as text, or input items. */
  readonly input: string | readonly ResponseItem[];
  /** Stream every reply (`responses.stream`); `onText` receives output text deltas. */
  readonly stream?: boolean | { readonly onText?: (delta: string) => void };
}

export type OpenAIResponsesLoopResult = ToolLoopResult<ResponseItem>;

// Built once per projected tool (the projection itself is per generation).
const functionTools = new WeakMap<OpenAIModelTool, OpenAI.Responses.FunctionTool>();

/** A chat function tool as a Responses function tool; `strict: false` because manifest schemas are not strict-mode schemas. */
export function responsesTool(tool: OpenAIModelTool): OpenAI.Responses.FunctionTool {
  let converted = functionTools.get(tool);
  if (!converted) {
    const fn = tool.function;
    converted = Object.freeze({
      type: 'function' as const,
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
      strict: false,
    });
    functionTools.set(tool, converted);
  }
  return converted;
}

function responsesReply(response: Response): ModelReply<ResponseItem> {
  const calls: ModelToolCall[] = [];
  let text = '';
  for (const item of response.output) {
    if (item.type === 'function_call')
      calls.push({ id: item.call_id, name: item.name, input: parseArguments(item.arguments) });
    else if (item.type === 'message')
      for (const part of item.content) if (part.type === 'output_text') text += part.text;
  }
  return {
    // Output items go back as input items as they are (the documented way to continue without previous_response_id).
    messages: response.output as unknown as ResponseItem[],
    text,
    calls,
    usage: { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0 },
    stopReason: response.status ?? null,
    truncated: response.status === 'incomplete',
  };
}

/** The `LoopModel` for the Responses API. */
export function openAIResponsesModel(
  options: Pick<OpenAIResponsesLoopOptions<unknown>, 'client' | 'request' | 'stream'>,
): LoopModel<'openai', ResponseItem> {
  const { client, request, stream } = options;
  return {
    provider: 'openai',
    async request({ tools, messages, system, signal }) {
      const body: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
        ...request,
        ...(system !== undefined ? { instructions: system } : {}),
        input: [...messages],
        ...(tools.length > 0 ? { tools: tools.map(responsesTool) } : {}),
      };
      if (!stream) return responsesReply(await client.responses.create(body, { signal }));
      const live = client.responses.stream({ ...body, stream: true }, { signal });
      const onText = typeof stream === 'object' ? stream.onText : undefined;
      if (onText) live.on('response.output_text.delta', (event) => onText(event.delta));
      // The SDK's final response of a stream keeps the status `response.created` gave
      // (in_progress) when the stream ends `response.incomplete`: the event says it.
      let incomplete = false;
      live.on('response.incomplete', () => {
        incomplete = true;
      });
      const reply = responsesReply(await live.finalResponse());
      return incomplete ? { ...reply, stopReason: 'incomplete', truncated: true } : reply;
    },
    results: (results) =>
      results.map(
        (result): ResponseItem => ({ type: 'function_call_output', call_id: result.call.id, output: result.text }),
      ),
  };
}

/** Runs the turn's tool-use loop against the Responses API until the model answers. */
export function runOpenAIResponsesTurn<R>(options: OpenAIResponsesLoopOptions<R>): Promise<OpenAIResponsesLoopResult> {
  const input: readonly ResponseItem[] =
    typeof options.input === 'string' ? [{ role: 'user', content: options.input }] : options.input;
  return runToolLoop(openAIResponsesModel(options), input, options);
}
