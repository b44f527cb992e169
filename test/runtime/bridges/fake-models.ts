/**
 * A local model server on 127.0.0.1 that speaks the real wire formats — Anthropic Messages,
 * OpenAI Chat Completions and Responses, each as JSON or as SSE when the request says `stream`
 * — and answers from a scripted conversation. Only the model's answers are scripted: the real
 * SDK clients build the requests, parse the replies and carry the tool results, and every
 * request body they sent is kept for the test to assert on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /** The arguments' text as sent (OpenAI formats), when it is not `input` as JSON. */
  readonly arguments?: string;
}

/**
 * One model reply: some text, tool calls, or `hang` (never answers; the client must abort).
 * `cutOff`: the reply stopped at the output limit (`max_tokens`, `length`, an incomplete response).
 */
export type ScriptedReply =
  | { readonly text?: string; readonly calls?: readonly ScriptedCall[]; readonly cutOff?: true }
  | { readonly hang: true };
type Answer = { text?: string; calls?: readonly ScriptedCall[]; cutOff?: true };

export interface RecordedRequest {
  readonly path: string;
  readonly body: Record<string, unknown> & { stream?: boolean };
}

export interface FakeModelServer {
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Resolves when a `hang` reply is waiting (the abort can then land mid-request). */
  hanging(): Promise<void>;
  close(): Promise<void>;
}

const USAGE = { input: 11, output: 7 };

function sse(res: ServerResponse, events: readonly { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const { event, data } of events)
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  res.end();
}

function json(res: ServerResponse, data: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(data));
}

function anthropic(res: ServerResponse, reply: Answer, stream: boolean, n: number): void {
  const calls = reply.calls ?? [];
  const content = [
    ...(reply.text !== undefined ? [{ type: 'text' as const, text: reply.text, citations: null }] : []),
    ...calls.map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.name, input: call.input })),
  ];
  const stopReason = reply.cutOff ? 'max_tokens' : calls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: USAGE.input,
    output_tokens: USAGE.output,
    cache_creation_input_tokens: null,
    cache_read_input_tokens: null,
  };
  const message = {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
  if (!stream) return json(res, message);
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } },
      },
    },
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } },
      });
      // Two deltas: the SDK must join them.
      const text = block.text;
      const half = Math.ceil(text.length / 2);
      for (const piece of [text.slice(0, half), text.slice(half)]) {
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
        });
      }
    } else {
      events.push({
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        },
      });
      const args = JSON.stringify(block.input);
      const half = Math.ceil(args.length / 2);
      for (const piece of [args.slice(0, half), args.slice(half)]) {
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
        });
      }
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: USAGE.output },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  sse(res, events);
}

function chat(res: ServerResponse, reply: Answer, stream: boolean, n: number): void {
  const calls = reply.calls ?? [];
  const finish = reply.cutOff ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: USAGE.input,
    completion_tokens: USAGE.output,
    total_tokens: USAGE.input + USAGE.output,
  };
  const base = { id: `chatcmpl_${n}`, created: 1_700_000_000, model: 'gpt-test' };
  const toolCalls = calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments ?? JSON.stringify(call.input) },
  }));
  if (!stream) {
    const message = {
      role: 'assistant',
      content: reply.text ?? null,
      refusal: null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    };
    return json(res, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
      usage,
    });
  }
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    data: {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    },
  });
  const events = [chunk({ role: 'assistant', content: '' })];
  if (reply.text !== undefined) {
    const half = Math.ceil(reply.text.length / 2);
    events.push(chunk({ content: reply.text.slice(0, half) }), chunk({ content: reply.text.slice(half) }));
  }
  toolCalls.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  events.push(chunk({}, finish));
  sse(res, [...events, { data: { ...base, object: 'chat.completion.chunk', choices: [], usage } }, { data: '[DONE]' }]);
}

function responses(res: ServerResponse, reply: Answer, stream: boolean, n: number): void {
  const output: Record<string, unknown>[] = [];
  if (reply.text !== undefined) {
    output.push({
      type: 'message',
      id: `msg_${n}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  for (const call of reply.calls ?? []) {
    output.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: call.arguments ?? JSON.stringify(call.input),
      status: 'completed',
    });
  }
  const usage = {
    input_tokens: USAGE.input,
    output_tokens: USAGE.output,
    total_tokens: USAGE.input + USAGE.output,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  const response = {
    id: `resp_${n}`,
    object: 'response',
    created_at: 1_700_000_000,
    status: reply.cutOff ? 'incomplete' : 'completed',
    model: 'gpt-test',
    output,
    usage,
    error: null,
    incomplete_details: reply.cutOff ? { reason: 'max_output_tokens' } : null,
    parallel_tool_calls: true,
    tools: [],
    tool_choice: 'auto',
  };
  if (!stream) return json(res, response);
  let seq = 0;
  const event = (type: string, data: Record<string, unknown>) => ({
    event: type,
    data: { type, sequence_number: seq++, ...data },
  });
  const events = [event('response.created', { response: { ...response, status: 'in_progress', output: [] } })];
  output.forEach((item, index) => {
    if (item.type === 'message') {
      events.push(event('response.output_item.added', { output_index: index, item: { ...item, content: [] } }));
      events.push(
        event('response.content_part.added', {
          output_index: index,
          item_id: item.id,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      events.push(
        event('response.output_text.delta', {
          output_index: index,
          item_id: item.id,
          content_index: 0,
          delta: reply.text,
        }),
      );
    } else {
      events.push(event('response.output_item.added', { output_index: index, item: { ...item, arguments: '' } }));
      events.push(
        event('response.function_call_arguments.delta', {
          output_index: index,
          item_id: item.id,
          delta: item.arguments,
        }),
      );
    }
    events.push(event('response.output_item.done', { output_index: index, item }));
  });
  events.push(event(reply.cutOff ? 'response.incomplete' : 'response.completed', { response }));
  sse(res, events);
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** Starts a server answering `script` in order, whatever the endpoint; one more request is a 500. */
export async function startFakeModels(script: readonly ScriptedReply[]): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const queue = [...script];
  let onHang: (() => void) | undefined;
  const hung = new Promise<void>((resolve) => (onHang = resolve));
  const open = new Set<ServerResponse>();
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const body = await readBody(req);
    requests.push({ path, body });
    const reply = queue.shift();
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { type: 'api_error', message: 'the script has no more replies' } }));
    }
    if ('hang' in reply) {
      open.add(res);
      res.on('close', () => open.delete(res));
      return onHang?.();
    }
    const stream = body.stream === true;
    if (path.endsWith('/messages')) return anthropic(res, reply, stream, requests.length);
    if (path.endsWith('/chat/completions')) return chat(res, reply, stream, requests.length);
    if (path.endsWith('/responses')) return responses(res, reply, stream, requests.length);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    hanging: () => hung,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
