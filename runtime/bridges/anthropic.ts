/**
 * `@zhin-gen/runtime/anthropic`: the tool-use loop over the Anthropic Messages API
 * (docs/hosts.md#anthropic). Only SDK *types* are imported: the host passes its own client, so
 * this module pulls `@anthropic-ai/sdk` into no bundle.
 *
 * Requests carry `turn.modelTools({ provider: 'anthropic' })`: every listed tool, the ones not
 * loaded with `defer_loading: true`. A completed `load_tool` / `load_skill` answers with its
 * JSON and `tool_reference` blocks for the tools it loaded, which is what lets the model call a
 * deferred tool; the next request then sends those tools undeferred.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicToolReferences, LOAD_SKILL, LOAD_TOOL, type LoadToolOutput } from '../index.js';
import {
  type LoopModel,
  type ModelReply,
  type ModelToolCall,
  runToolLoop,
  type ToolCallResult,
  type ToolLoopOptions,
  type ToolLoopResult,
} from './loop.js';

type MessageParam = Anthropic.Messages.MessageParam;
type ToolResultBlockParam = Anthropic.Messages.ToolResultBlockParam;

/** Everything of a Messages request but what the loop owns (messages, tools, stream; system by default). */
export type AnthropicRequest = Omit<
  Anthropic.Messages.MessageCreateParamsNonStreaming,
  'messages' | 'tools' | 'stream' | 'system'
>;

/** The part of the client the loop uses (a `new Anthropic()` is one). */
export interface AnthropicClient {
  readonly messages: Pick<Anthropic['messages'], 'create' | 'stream'>;
}

export interface AnthropicLoopOptions<R> extends ToolLoopOptions<R> {
  readonly client: AnthropicClient;
  /** `model`, `max_tokens` and any other request field. */
  readonly request: AnthropicRequest;
  /** The conversation so far, ending with the user's message. */
  readonly messages: readonly MessageParam[];
  /** Stream every reply (`messages.stream`); `onText` receives text deltas as they arrive. */
  readonly stream?: boolean | { readonly onText?: (delta: string) => void };
}

export type AnthropicLoopResult = ToolLoopResult<MessageParam>;

function reply(message: Anthropic.Messages.Message): ModelReply<MessageParam> {
  const calls: ModelToolCall[] = [];
  let text = '';
  for (const block of message.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use') calls.push({ id: block.id, name: block.name, input: block.input });
  }
  return {
    messages: [{ role: 'assistant', content: message.content }],
    text,
    calls,
    usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
    stopReason: message.stop_reason,
    truncated: message.stop_reason === 'max_tokens',
  };
}

/** One `tool_result` block per call, in call order; loads also reference the tools they loaded. */
export function anthropicToolResults(results: readonly ToolCallResult[]): ToolResultBlockParam[] {
  return results.map((result) => {
    const loads =
      (result.call.name === LOAD_TOOL || result.call.name === LOAD_SKILL) && result.outcome.status === 'completed';
    const content: ToolResultBlockParam['content'] = loads
      ? [
          { type: 'text', text: result.text },
          ...anthropicToolReferences((result.outcome as { output: LoadToolOutput }).output),
        ]
      : result.text;
    return { type: 'tool_result', tool_use_id: result.call.id, content, ...(result.isError ? { is_error: true } : {}) };
  });
}

/** The `LoopModel` for Anthropic Messages (for hosts that drive `runToolLoop` themselves). */
export function anthropicModel(
  options: Pick<AnthropicLoopOptions<unknown>, 'client' | 'request' | 'stream'>,
): LoopModel<'anthropic', MessageParam> {
  const { client, request, stream } = options;
  return {
    provider: 'anthropic',
    async request({ tools, messages, system, signal }) {
      const body: Anthropic.Messages.MessageCreateParamsNonStreaming = {
        ...request,
        ...(system !== undefined ? { system } : {}),
        messages: [...messages],
        tools,
      };
      if (!stream) return reply(await client.messages.create(body, { signal }));
      const live = client.messages.stream(body, { signal });
      const onText = typeof stream === 'object' ? stream.onText : undefined;
      if (onText) live.on('text', (delta) => onText(delta));
      return reply(await live.finalMessage());
    },
    results: (results) => [{ role: 'user', content: anthropicToolResults(results) }],
  };
}

/** Runs the turn's tool-use loop against the Messages API until the model answers. */
export function runAnthropicTurn<R>(options: AnthropicLoopOptions<R>): Promise<AnthropicLoopResult> {
  return runToolLoop(anthropicModel(options), options.messages, options);
}
