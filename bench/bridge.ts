/**
 * Bridge overhead per step, in process, at 1,000 tools (docs/hosts.md#cost).
 *
 * One turn = 10 model requests: `discover`, `load_tool`, seven calls of the loaded tool, a final
 * answer. The model is an in-process stand-in (no HTTP, no SDK transport): a fake client object
 * for the core bridges, `MockLanguageModelV3` for the AI SDK. Measured per turn (beginTurn → loop
 * → end), in CPU time of the process, divided by the 10 steps, median of many turns:
 *
 *   floor             the work any correct host does: `turn.systemPrompt()` before each request,
 *                     `turn.modelTools()` at the start and after the load, `turn.execute` per call
 *   anthropic, …      the bridge with the same replies, building every request body and result
 *
 *   node --import tsx bench/bridge.ts [n=1000] [turns=200]   → table on stdout, JSON on stderr
 */
import { cpus } from 'node:os';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import {
  createCapabilityHost,
  defineAgentTool,
  PermissionHost,
  type CapabilityHost,
  type ImMessage,
  type Turn,
} from '@zhin-gen/runtime';
import { runAiSdkTurn } from '@zhin-gen/runtime/ai-sdk';
import { runAnthropicTurn } from '@zhin-gen/runtime/anthropic';
import { runOpenAIChatTurn, runOpenAIResponsesTurn } from '@zhin-gen/runtime/openai';
import { ajvValidator } from '../runtime/validators/ajv.js';
import { syntheticManifest } from './turn-cost.js';

const MESSAGE: ImMessage = {
  $adapter: 'qq',
  $channel: { id: 'g1', type: 'group' },
  $sender: { id: 'u1', role: 'user' },
};
const STEPS = 10;
const TOOL = defineAgentTool({ description: 'bench', execute: (input) => ({ ok: true, input }) });

interface Call {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

function script(tool: string): (Call[] | string)[] {
  const calls: (Call[] | string)[] = [
    [{ id: 'c0', name: 'discover', input: { query: 'weather' } }],
    [{ id: 'c1', name: 'load_tool', input: { name: tool } }],
  ];
  for (let i = 2; i < STEPS - 1; i++) calls.push([{ id: `c${i}`, name: tool, input: { id: `w${i}` } }]);
  calls.push('done');
  return calls;
}

export async function benchHost(n: number): Promise<{ host: CapabilityHost; tool: string }> {
  const manifest = syntheticManifest(n);
  const tools = manifest.tools.map((tool) => ({ ...tool, load: () => Promise.resolve({ default: TOOL }) }));
  const host = createCapabilityHost({ permissions: new PermissionHost(), jsonSchemaValidator: ajvValidator() });
  await host.load({ ...manifest, tools });
  const tool = tools.find(
    (entry) =>
      entry.placement === 'plugin' && entry.permissions.length === 0 && entry.scopes.length === 0 && !entry.hidden,
  )!;
  return { host, tool: tool.qualifiedName };
}

type Execute = (name: string, input: unknown, options: { toolUseId: string }) => Promise<unknown>;

/** The necessary work, written by hand: what every bridge must at least do (per provider projection). */
async function floor(turn: Turn, replies: (Call[] | string)[], provider: 'anthropic' | 'openai'): Promise<void> {
  const execute = turn.execute as unknown as Execute;
  let tools = await turn.modelTools({ provider });
  for (const reply of replies) {
    await turn.systemPrompt();
    if (typeof reply === 'string') return;
    const outcomes = await Promise.all(reply.map((call) => execute(call.name, call.input, { toolUseId: call.id })));
    if (reply.some((call) => call.name === 'load_tool')) tools = await turn.modelTools({ provider });
    if (outcomes.length === 0 || tools.length === 0) throw new Error('unreachable');
  }
}

/** The AI SDK's own loop with hand-made tools over the loaded tool (what the SDK costs without the bridge). */
async function aiFloor(turn: Turn, replies: (Call[] | string)[], tool: string): Promise<void> {
  const execute = turn.execute as unknown as Execute;
  const names = ['discover', 'load_tool', tool];
  const tools = Object.fromEntries(
    names.map((name) => [
      name,
      aiTool({
        inputSchema: jsonSchema({ type: 'object' }),
        execute: (input: unknown, { toolCallId }) => execute(name, input, { toolUseId: toolCallId }),
      }),
    ]),
  );
  await generateText({
    model: aiModel(replies),
    messages: [{ role: 'user', content: 'hi' }],
    tools,
    stopWhen: stepCountIs(STEPS),
  });
}

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: null, cache_read_input_tokens: null };
function anthropicClient(replies: (Call[] | string)[]): Anthropic {
  let i = 0;
  const create = async () => {
    const reply = replies[i++]!;
    const content =
      typeof reply === 'string'
        ? [{ type: 'text', text: reply, citations: null }]
        : reply.map((call) => ({ type: 'tool_use', ...call }));
    return {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content,
      stop_reason: typeof reply === 'string' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage,
    };
  };
  return { messages: { create } } as unknown as Anthropic;
}

function chatClient(replies: (Call[] | string)[]): OpenAI {
  let i = 0;
  const create = async () => {
    const reply = replies[i++]!;
    const message =
      typeof reply === 'string'
        ? { role: 'assistant', content: reply, refusal: null }
        : {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: reply.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.input) },
            })),
          };
    return {
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message, finish_reason: 'stop', logprobs: null }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  };
  return { chat: { completions: { create } } } as unknown as OpenAI;
}

function responsesClient(replies: (Call[] | string)[]): OpenAI {
  let i = 0;
  const create = async () => {
    const reply = replies[i++]!;
    const output =
      typeof reply === 'string'
        ? [
            {
              type: 'message',
              id: 'm',
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text: reply, annotations: [] }],
            },
          ]
        : reply.map((call) => ({
            type: 'function_call',
            id: `fc_${call.id}`,
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.input),
            status: 'completed',
          }));
    return {
      id: 'r',
      object: 'response',
      status: 'completed',
      output,
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    };
  };
  return { responses: { create } } as unknown as OpenAI;
}

function aiModel(replies: (Call[] | string)[]): MockLanguageModelV3 {
  let i = 0;
  const tokens = {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  };
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const reply = replies[i++]!;
      const content =
        typeof reply === 'string'
          ? [{ type: 'text' as const, text: reply }]
          : reply.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: JSON.stringify(call.input),
            }));
      return {
        content,
        finishReason: { unified: typeof reply === 'string' ? 'stop' : 'tool-calls', raw: undefined },
        usage: tokens,
        warnings: [],
      };
    },
  });
}

type Variant =
  | 'floor-anthropic'
  | 'anthropic'
  | 'floor-openai'
  | 'openai-chat'
  | 'openai-responses'
  | 'floor-ai-sdk'
  | 'ai-sdk';
const VARIANTS: readonly Variant[] = [
  'floor-anthropic',
  'anthropic',
  'floor-openai',
  'openai-chat',
  'openai-responses',
  'floor-ai-sdk',
  'ai-sdk',
];
/** The floor each variant is compared with. */
const FLOOR: Readonly<Record<Variant, Variant>> = {
  'floor-anthropic': 'floor-anthropic',
  anthropic: 'floor-anthropic',
  'floor-openai': 'floor-openai',
  'openai-chat': 'floor-openai',
  'openai-responses': 'floor-openai',
  'floor-ai-sdk': 'floor-ai-sdk',
  'ai-sdk': 'floor-ai-sdk',
};

export async function oneTurn(host: CapabilityHost, variant: Variant, tool: string, session: number): Promise<number> {
  const replies = script(tool);
  // CPU time of this process, not wall time: the machine is shared, and waiting for a core is not
  // the bridge's cost (everything here is in-process and synchronous apart from microtasks).
  const started = process.cpuUsage();
  const turn = await host.beginTurn({ sessionKey: `s${session}`, message: MESSAGE });
  const common = { turn, maxSteps: STEPS };
  if (variant === 'floor-anthropic') await floor(turn, replies, 'anthropic');
  else if (variant === 'floor-openai') await floor(turn, replies, 'openai');
  else if (variant === 'floor-ai-sdk') await aiFloor(turn, replies, tool);
  else if (variant === 'anthropic')
    await runAnthropicTurn({
      ...common,
      client: anthropicClient(replies),
      request: { model: 'm', max_tokens: 64 },
      messages: [{ role: 'user', content: 'hi' }],
    });
  else if (variant === 'openai-chat')
    await runOpenAIChatTurn({
      ...common,
      client: chatClient(replies),
      request: { model: 'm' },
      messages: [{ role: 'user', content: 'hi' }],
    });
  else if (variant === 'openai-responses')
    await runOpenAIResponsesTurn({ ...common, client: responsesClient(replies), request: { model: 'm' }, input: 'hi' });
  else await runAiSdkTurn({ ...common, model: aiModel(replies), messages: [{ role: 'user', content: 'hi' }] });
  if (turn.journal.filter((entry) => entry.type === 'tool_result').length !== STEPS - 1)
    throw new Error(`${variant}: not every call completed`);
  await turn.end();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface BridgeCost {
  readonly n: number;
  readonly turns: number;
  /** Median µs per step (one model request and its calls). */
  readonly perStepUs: Readonly<Record<Variant, number>>;
}

export async function benchBridge(n = 1000, turns = 200): Promise<BridgeCost> {
  const { host, tool } = await benchHost(n);
  const samples = Object.fromEntries(VARIANTS.map((variant) => [variant, [] as number[]])) as Record<Variant, number[]>;
  let session = 0;
  // Warm up every path (module imports, the search index, JIT), then interleave the variants so
  // machine noise hits them alike.
  for (let i = 0; i < 20; i++) for (const variant of VARIANTS) await oneTurn(host, variant, tool, session++);
  for (let i = 0; i < turns; i++)
    for (const variant of VARIANTS) samples[variant].push(await oneTurn(host, variant, tool, session++));
  await host.close();
  const perStepUs = Object.fromEntries(
    VARIANTS.map((variant) => [variant, Math.round((median(samples[variant]) * 1000) / STEPS)]),
  ) as Record<Variant, number>;
  return { n, turns, perStepUs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 1000);
  const turns = Number(process.argv[3] ?? 200);
  const result = await benchBridge(n, turns);
  console.log(
    `bridge overhead per step — ${n} tools, ${turns} turns of ${STEPS} steps, ${cpus()[0]?.model ?? '?'}, Node ${process.version}`,
  );
  console.log('| variant | µs / step | × its floor | overhead µs / step |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const variant of VARIANTS) {
    const us = result.perStepUs[variant];
    const base = result.perStepUs[FLOOR[variant]];
    console.log(
      `| ${variant} | ${us} | ${(us / base).toFixed(2)}× | ${FLOOR[variant] === variant ? '—' : us - base} |`,
    );
  }
  console.error(JSON.stringify(result));
}
