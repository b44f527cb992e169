/**
 * `@zhin-gen/runtime/ai-sdk`: the turn's tools for the Vercel AI SDK (`ai` ≥ 6), which runs the
 * loop itself (docs/hosts.md#vercel-ai-sdk). This is the one bridge that imports its SDK as a
 * value (`tool`, `jsonSchema`, `stepCountIs`, …), so only hosts that import this subpath load it.
 *
 * - `tools` holds the turn's loaded set (`turn.modelTools({ provider: 'generic' })`), each tool
 *   executing through `turn.execute`; `prepareStep` brings it up to date in place after a step
 *   that loaded something, so the SDK checks the model's choice too.
 * - A call the SDK refuses (a name not in this step's tools: unknown, forbidden, not loaded) never
 *   runs; the model reads the SDK's own "unavailable tool" text, the same for all of them, and
 *   `experimental_repairToolCall` still records it in the turn's journal through `turn.execute`
 *   with an already aborted signal: `tool_denied` for names the turn does not admit (exactly as in
 *   the other bridges), `tool_call` + `tool_cancelled` for a known tool that was not offered.
 * - `stopWhen` is the step limit (host and agent `maxSteps`, the smaller wins).
 */
import {
  generateText,
  jsonSchema,
  InvalidToolInputError,
  NoSuchToolError,
  stepCountIs,
  streamText,
  tool,
  type CallSettings,
  type LanguageModel,
  type ModelMessage,
  type PrepareStepFunction,
  type StepResult,
  type StopCondition,
  type Tool,
  type ToolCallRepairFunction,
} from 'ai';
import type { GenericModelTool, ToolOutcome, Turn } from '../index.js';
import { ANTHROPIC_MAX_TOOLS, OPENAI_MAX_TOOLS } from '../deferred/providers.js';
import { linkSignals } from '../turn/abort.js';
import {
  addUsage,
  cutOffCalls,
  executeCalls,
  type LoopFinishReason,
  type LoopStep,
  type ModelToolCall,
  NO_USAGE,
  parseArguments,
  refusedSignal,
  stepLimit,
  systemText,
  type ToolCallResult,
  type ToolLoopOptions,
  type ToolLoopResult,
  turnTools,
} from './loop.js';
import { isErrorOutcome, outcomeText } from './results.js';

/** Tools whose output is the call's `ToolOutcome` (typed in every step's `toolResults`). */
export type TurnToolSet = Record<string, Tool<unknown, ToolOutcome>>;

/** Spread into `generateText` / `streamText`: `generateText({ model, messages, ...settings })`. */
export interface AiSdkTurnSettings {
  /**
   * The tools the next step offers, kept current by `prepareStep` (a step that loaded something
   * changes it); never holds a tool the turn does not list. No prototype, and no `activeTools`
   * beside it: the SDK looks a call's tool up as `tools[name]`, and in the plain object it
   * filters `activeTools` into, a call of `constructor` or `toString` found Object's and ended
   * the turn silently instead of being refused.
   */
  readonly tools: TurnToolSet;
  readonly prepareStep: PrepareStepFunction<TurnToolSet>;
  readonly stopWhen: StopCondition<TurnToolSet>;
  readonly experimental_repairToolCall: ToolCallRepairFunction<TurnToolSet>;
  readonly abortSignal: AbortSignal;
}

export type AiSdkToolOptions<R> = ToolLoopOptions<R>;

/** Already aborted: a refused call goes through the pipeline's gates but can never start. */

const NOT_OFFERED = 'the AI SDK refused this call: the tool was not offered in this step';
const NOT_JSON = 'the AI SDK refused this call: its arguments are not JSON';

/** Sees every call with its outcome: executed ones, and the ones the SDK refused (journaled, never run). */
export interface CallObserver {
  executed?(call: ModelToolCall, outcome: ToolOutcome): void;
  refused?(call: ModelToolCall, outcome: ToolOutcome): void;
}

/** The settings that let the AI SDK run the turn's loop. */
export async function aiSdkTurnSettings<R>(
  options: AiSdkToolOptions<R>,
  observer: CallObserver = {},
): Promise<AiSdkTurnSettings> {
  const { turn } = options;
  const limit = stepLimit(turn, options.maxSteps);
  const resultText = options.resultText ?? ((_call: ModelToolCall, outcome: ToolOutcome) => outcomeText(outcome));
  const link = linkSignals([turn.signal, options.signal]);
  // The host's signal may outlive the turn: let go of it when the turn ends (turn.end() aborts its signal).
  if (turn.signal.aborted) link.dispose();
  else turn.signal.addEventListener('abort', () => link.dispose(), { once: true });
  const tools = Object.create(null) as TurnToolSet;
  const made = new Map<string, TurnToolSet[string]>();

  const definitionOf = (projected: GenericModelTool): TurnToolSet[string] => {
    const known = made.get(projected.name);
    if (known) return known;
    const name = projected.name;
    const definition = tool<unknown, ToolOutcome>({
      description: projected.description,
      // No validate function: the SDK passes the input on as it is and the pipeline validates it.
      inputSchema: jsonSchema<unknown>(projected.inputSchema),
      execute: async (input, { toolCallId, abortSignal }) => {
        const signal = abortSignal ?? link.signal;
        const call = { id: toolCallId, name, input };
        const [result] = await executeCalls(turn, [call], signal, resultText);
        observer.executed?.(call, result!.outcome);
        return result!.outcome;
      },
      toModelOutput: ({ toolCallId, input, output }) => {
        const text = resultText({ id: toolCallId, name, input }, output);
        return isErrorOutcome(output) ? { type: 'error-text', value: text } : { type: 'text', value: text };
      },
    });
    made.set(name, definition);
    return definition;
  };
  /** The step's tools, in place: the SDK holds this object. A tool may be named `__proto__`. */
  const refresh = async (): Promise<void> => {
    const projected = await turnTools(turn, 'generic', options.defer, options.maxTools);
    const names = new Set(projected.map((entry) => entry.name));
    for (const name of Object.keys(tools)) if (!names.has(name)) delete tools[name];
    for (const entry of projected)
      Object.defineProperty(tools, entry.name, {
        value: definitionOf(entry),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  };

  await refresh();
  return {
    tools,
    async prepareStep({ steps }) {
      const last = steps[steps.length - 1];
      if (last && loadedIn(last)) await refresh();
      const system = await systemText(turn, options.system, link.signal);
      return system !== undefined ? { system } : {};
    },
    stopWhen: stepCountIs(limit),
    async experimental_repairToolCall({ toolCall, error }) {
      // Arguments that are not JSON (the SDK parses them before anything runs) reach the
      // pipeline as the raw string, as in the other bridges, so the journal records the call.
      const unparsed = InvalidToolInputError.isInstance(error);
      if (!unparsed && !NoSuchToolError.isInstance(error)) return null;
      const input = unparsed ? toolCall.input : parseArguments(toolCall.input);
      const call = { id: toolCall.toolCallId, name: toolCall.toolName, input };
      const [result] = await executeCalls(turn, [call], refusedSignal(unparsed ? NOT_JSON : NOT_OFFERED), resultText);
      observer.refused?.(call, result!.outcome);
      return null;
    },
    abortSignal: link.signal,
  };
}

function loadedIn(step: StepResult<TurnToolSet>): boolean {
  return step.toolResults.some(
    (result) =>
      (result.toolName === 'load_tool' || result.toolName === 'load_skill') &&
      (result.output as ToolOutcome | undefined)?.status === 'completed',
  );
}

export interface AiSdkLoopOptions<R> extends AiSdkToolOptions<R> {
  readonly model: LanguageModel;
  /** The conversation so far, ending with the user's message. */
  readonly messages: readonly ModelMessage[];
  /** Use `streamText`; `onText` receives text deltas. */
  readonly stream?: boolean | { readonly onText?: (delta: string) => void };
  /** Other call settings (`temperature`, `maxOutputTokens`, `providerOptions`, …). */
  readonly settings?: CallSettings & {
    readonly providerOptions?: Parameters<typeof generateText>[0]['providerOptions'];
  };
}

export type AiSdkLoopResult = ToolLoopResult<ModelMessage>;

/** One SDK step as a loop step: calls in order, refused ones with their journaled outcome and the SDK's text. */
function loopStep(
  step: StepResult<TurnToolSet>,
  index: number,
  refused: ReadonlyMap<string, ToolOutcome>,
  messages: readonly ModelMessage[],
  resultText: (call: ModelToolCall, outcome: ToolOutcome) => string,
  cutOff: ReadonlyMap<string, ToolCallResult>,
): LoopStep<ModelMessage> {
  const calls: ModelToolCall[] = [];
  const results: ToolCallResult[] = [];
  for (const part of step.content) {
    if (part.type === 'tool-call') calls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
  }
  for (const call of calls) {
    const part = step.content.find(
      (entry) => (entry.type === 'tool-result' || entry.type === 'tool-error') && entry.toolCallId === call.id,
    );
    const unrun = cutOff.get(call.id);
    if (unrun) results.push(unrun);
    else if (part?.type === 'tool-result') {
      const outcome = part.output as ToolOutcome;
      results.push({ call, outcome, text: resultText(call, outcome), isError: isErrorOutcome(outcome) });
    } else if (part?.type === 'tool-error') {
      const outcome = refused.get(call.id) ?? {
        status: 'failed' as const,
        error: { code: 'execution_error' as const, message: String(part.error) },
        retryable: false,
      };
      results.push({
        call,
        outcome,
        text: part.error instanceof Error ? part.error.message : String(part.error),
        isError: true,
      });
    }
  }
  const usage = { inputTokens: step.usage.inputTokens ?? 0, outputTokens: step.usage.outputTokens ?? 0 };
  return Object.freeze({
    index,
    reply: { messages, text: step.text, calls, usage, stopReason: step.finishReason },
    results,
  });
}

/** Runs the turn's loop with `generateText` (or `streamText`) and reports it like the other bridges. */
/**
 * The tool limit of the provider behind an AI SDK model, read from its `provider` id
 * (`openai.chat`, `openai.responses`, `anthropic.messages`, …); undefined when unknown.
 */
function providerMaxTools(model: LanguageModel): number | undefined {
  const id = typeof model === 'string' ? model : model.provider;
  if (/^openai[./]/.test(id) || id === 'openai') return OPENAI_MAX_TOOLS;
  if (/^anthropic[./]/.test(id) || id === 'anthropic') return ANTHROPIC_MAX_TOOLS;
  return undefined;
}

export async function runAiSdkTurn<R>(options: AiSdkLoopOptions<R>): Promise<AiSdkLoopResult> {
  const turn: Turn<R> = options.turn;
  const refused = new Map<string, ToolOutcome>();
  // Calls that ran but whose step the SDK has not reported (yet): an abort can end the stream first.
  const unreported = new Map<string, ToolCallResult>();
  /** The calls of the streamed reply, in its order. */
  const replyOrder: string[] = [];
  const resultText = options.resultText ?? ((_call: ModelToolCall, outcome: ToolOutcome) => outcomeText(outcome));
  const settings = await aiSdkTurnSettings(
    { ...options, maxTools: options.maxTools ?? providerMaxTools(options.model) },
    {
      refused: (call, outcome) => refused.set(call.id, outcome),
      executed: (call, outcome) =>
        unreported.set(call.id, { call, outcome, text: resultText(call, outcome), isError: isErrorOutcome(outcome) }),
    },
  );
  const steps: LoopStep<ModelMessage>[] = [];
  let seen = 0;
  const onStepFinish = async (step: StepResult<TurnToolSet>) => {
    for (const part of step.toolCalls) unreported.delete(part.toolCallId);
    // A reply cut off at the output limit: the SDK runs none of its calls (it runs tools only for
    // the finish reasons 'stop' and 'tool-calls'), and the loop ends. Its complete calls are
    // journaled as cancelled, as the other bridges do, so no tool_call is left without an end.
    const answered = new Set(
      step.content.filter((p) => p.type === 'tool-result' || p.type === 'tool-error').map((p) => p.toolCallId),
    );
    const unrun = step.toolCalls
      .filter((part) => !answered.has(part.toolCallId) && !refused.has(part.toolCallId))
      .map((part) => ({ id: part.toolCallId, name: part.toolName, input: part.input }));
    const cutOff = new Map(
      (unrun.length > 0 ? await cutOffCalls(turn, unrun) : []).map((result) => [result.call.id, result]),
    );
    // `response.messages` accumulates over the steps: this step's messages are the new tail.
    const all = step.response.messages;
    const mapped = loopStep(step, steps.length, refused, all.slice(seen), resultText, cutOff);
    seen = all.length;
    steps.push(mapped);
    await options.onStep?.(mapped);
  };
  const call = {
    ...options.settings,
    ...settings,
    model: options.model,
    messages: [...options.messages],
    onStepFinish,
  };
  const finish = (finishReason: LoopFinishReason): AiSdkLoopResult => {
    if (unreported.size > 0) {
      // The step the abort cut short: its calls and outcomes, without a reply message, in the
      // reply's order (the map has them as they finished).
      const at = (result: ToolCallResult) => {
        const index = replyOrder.indexOf(result.call.id);
        return index === -1 ? replyOrder.length : index;
      };
      const results = [...unreported.values()].sort((a, b) => at(a) - at(b));
      unreported.clear();
      const reply = {
        messages: [],
        text: '',
        calls: results.map((result) => result.call),
        usage: NO_USAGE,
        stopReason: null,
      };
      steps.push(Object.freeze({ index: steps.length, reply, results }));
    }
    const usage = steps.reduce((sum, step) => addUsage(sum, step.reply.usage), NO_USAGE);
    const messages = [...options.messages, ...steps.flatMap((step) => step.reply.messages)];
    return Object.freeze({ finishReason, text: steps[steps.length - 1]?.reply.text ?? '', messages, steps, usage });
  };
  const limit = stepLimit(turn, options.maxSteps);
  const done = (): AiSdkLoopResult => {
    const last = steps[steps.length - 1];
    return finish(last && last.reply.calls.length > 0 && steps.length >= limit ? 'max-steps' : 'stop');
  };
  try {
    if (!options.stream) {
      await generateText(call);
      return done();
    }
    const onText = typeof options.stream === 'object' ? options.stream.onText : undefined;
    const result = streamText({ ...call, onError: () => undefined });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') onText?.(part.text);
      else if (part.type === 'tool-call') replyOrder.push(part.toolCallId);
      else if (part.type === 'error') throw part.error;
      else if (part.type === 'abort') break;
    }
    return settings.abortSignal.aborted ? finish('aborted') : done();
  } catch (error) {
    if (settings.abortSignal.aborted) return finish('aborted');
    throw error;
  }
}
