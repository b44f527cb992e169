/**
 * One way to run each bridge with its real SDK client pointed at the fake server, and one way to
 * read each provider's request bodies back into a neutral form (the tools a request offered, the
 * tool results it carried), so the same scenario asserts on every wire format.
 */
import { createOpenAI } from '@ai-sdk/openai';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Turn } from '../../../runtime/index.js';
import { runAiSdkTurn } from '../../../runtime/bridges/ai-sdk.js';
import { runAnthropicTurn } from '../../../runtime/bridges/anthropic.js';
import type { ToolLoopResult } from '../../../runtime/bridges/loop.js';
import { runOpenAIChatTurn, runOpenAIResponsesTurn } from '../../../runtime/bridges/openai.js';
import type { FakeModelServer, RecordedRequest } from './fake-models.js';

export const BRIDGES = [
  'anthropic',
  'anthropic-stream',
  'openai-chat',
  'openai-chat-stream',
  'openai-responses',
  'openai-responses-stream',
  'ai-sdk',
  'ai-sdk-stream',
] as const;
export type Bridge = (typeof BRIDGES)[number];
/** The bridges whose loop is the shared core (the AI SDK runs its own). */
export const CORE_BRIDGES = BRIDGES.filter((bridge) => !bridge.startsWith('ai-sdk'));

export const USER_TEXT = 'What is the weather in Paris?';

export interface RunOptions {
  readonly maxSteps?: number;
  readonly signal?: AbortSignal;
  readonly defer?: boolean;
  readonly system?: string;
}

export interface BridgeRun {
  readonly result: ToolLoopResult<unknown>;
  /** Text deltas streamed to the host's callback. */
  readonly deltas: string[];
}

const KEY = 'test-key';

export async function runBridge(
  bridge: Bridge,
  turn: Turn,
  server: FakeModelServer,
  options: RunOptions = {},
): Promise<BridgeRun> {
  const deltas: string[] = [];
  const stream = bridge.endsWith('-stream') ? { onText: (delta: string) => deltas.push(delta) } : false;
  const common = { turn, system: options.system ?? 'You are a test bot.', ...options };
  let result: ToolLoopResult<unknown>;
  if (bridge.startsWith('anthropic')) {
    const client = new Anthropic({ apiKey: KEY, baseURL: server.baseURL, maxRetries: 0 });
    result = await runAnthropicTurn({
      ...common,
      client,
      request: { model: 'claude-test', max_tokens: 256 },
      messages: [{ role: 'user', content: USER_TEXT }],
      stream,
    });
  } else if (bridge.startsWith('openai-chat')) {
    const client = new OpenAI({ apiKey: KEY, baseURL: `${server.baseURL}/v1`, maxRetries: 0 });
    result = await runOpenAIChatTurn({
      ...common,
      client,
      request: { model: 'gpt-test' },
      messages: [{ role: 'user', content: USER_TEXT }],
      stream,
    });
  } else if (bridge.startsWith('openai-responses')) {
    const client = new OpenAI({ apiKey: KEY, baseURL: `${server.baseURL}/v1`, maxRetries: 0 });
    result = await runOpenAIResponsesTurn({
      ...common,
      client,
      request: { model: 'gpt-test' },
      input: USER_TEXT,
      stream,
    });
  } else {
    const provider = createOpenAI({ apiKey: KEY, baseURL: `${server.baseURL}/v1` });
    result = await runAiSdkTurn({
      ...common,
      model: provider.chat('gpt-test'),
      messages: [{ role: 'user', content: USER_TEXT }],
      stream,
      settings: { maxRetries: 0 },
    });
  }
  return { result, deltas };
}

/** The wire format a bridge speaks (the AI SDK goes through @ai-sdk/openai's chat model). */
function wire(bridge: Bridge): 'anthropic' | 'chat' | 'responses' {
  if (bridge.startsWith('anthropic')) return 'anthropic';
  return bridge.startsWith('openai-responses') ? 'responses' : 'chat';
}

export interface SentTool {
  readonly name: string;
  readonly deferred: boolean;
}

type Json = Record<string, unknown>;

/** The tools one request offered, in order. */
export function sentTools(bridge: Bridge, request: RecordedRequest): SentTool[] {
  const tools = (request.body.tools ?? []) as Json[];
  return tools.map((tool) => {
    const name = (wire(bridge) === 'chat' ? (tool.function as Json).name : tool.name) as string;
    return { name, deferred: tool.defer_loading === true };
  });
}

export interface SentResult {
  readonly id: string;
  readonly text: string;
  /** Anthropic's `is_error` (the OpenAI formats have no flag). */
  readonly isError?: boolean;
  /** Anthropic `tool_reference` blocks. */
  readonly references?: readonly string[];
}

/** The tool results a request carried back: the ones after its last assistant turn, in order. */
export function sentResults(bridge: Bridge, request: RecordedRequest): SentResult[] {
  if (wire(bridge) === 'anthropic') {
    const messages = request.body.messages as Json[];
    const last = messages[messages.length - 1]!;
    if (last.role !== 'user' || typeof last.content === 'string') return [];
    return (last.content as Json[])
      .filter((block) => block.type === 'tool_result')
      .map((block) => {
        const content = block.content as string | Json[];
        const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
        const text = blocks
          .filter((part) => part.type === 'text')
          .map((part) => part.text)
          .join('');
        const references = blocks
          .filter((part) => part.type === 'tool_reference')
          .map((part) => part.tool_name as string);
        return {
          id: block.tool_use_id as string,
          text,
          ...(block.is_error === true ? { isError: true } : {}),
          ...(references.length > 0 ? { references } : {}),
        };
      });
  }
  if (wire(bridge) === 'chat') {
    const messages = request.body.messages as Json[];
    const out: SentResult[] = [];
    for (let index = messages.length - 1; index >= 0 && messages[index]!.role === 'tool'; index -= 1) {
      out.unshift({ id: messages[index]!.tool_call_id as string, text: messages[index]!.content as string });
    }
    return out;
  }
  const input = request.body.input as Json[];
  const out: SentResult[] = [];
  for (let index = input.length - 1; index >= 0 && input[index]!.type === 'function_call_output'; index -= 1) {
    out.unshift({ id: input[index]!.call_id as string, text: input[index]!.output as string });
  }
  return out;
}

/** The system prompt a request carried. */
export function sentSystem(bridge: Bridge, request: RecordedRequest): unknown {
  if (wire(bridge) === 'anthropic') return request.body.system;
  if (wire(bridge) === 'responses') return request.body.instructions;
  const first = (request.body.messages as Json[])[0]!;
  return first.role === 'system' ? first.content : undefined;
}
