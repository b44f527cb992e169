/**
 * The provider-neutral tool-use loop every bridge runs (docs/hosts.md#the-loop-core). A provider
 * adapter (`LoopModel`) only turns the turn's tools and the conversation into one request, and a
 * step's results into the messages that carry them back; everything else is here, once:
 *
 * - every call of a reply goes through `turn.execute` (generation → access → approval →
 *   journal), the calls of one reply in parallel, their results in the reply's order;
 * - the model reads `outcomeText(outcome)` (results.ts) unless the host overrides it;
 * - after a step that loaded something (`load_tool` / `load_skill` completed) the next request
 *   carries the new tools: the list is rebuilt from `turn.modelTools()`;
 * - the system prompt is re-assembled before each request (loaded skills change it);
 * - the loop ends on the provider's end condition (a reply without tool calls), at the step
 *   limit, or when the turn's signal (or the host's) aborts.
 *
 * No SDK is imported here: other transports (MCP sampling, a custom HTTP model) plug in a
 * `LoopModel` of their own.
 */
import {
  LOAD_SKILL,
  LOAD_TOOL,
  type ModelProvider,
  type ModelToolsFor,
  type ToolOutcome,
  type Turn,
} from '../index.js';
import { linkSignals, untilAborted } from '../turn/abort.js';
import { isErrorOutcome, outcomeText } from './results.js';

// The model-visible texts, for loops that build their own result messages.
export { isErrorOutcome, outcomeText };

/** The step limit when neither the host nor the selected agent's `maxSteps` sets one. */
export const DEFAULT_MAX_STEPS = 20;

/** One tool call as the model sent it: names are plain strings until `turn.isToolName` narrows them. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  /** Parsed arguments; a provider's unparseable JSON arrives as the raw string (validation answers). */
  readonly input: unknown;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One model reply, as the adapter read it. `M` is the provider's message type. */
export interface ModelReply<M> {
  /** The assistant message(s) to append to the conversation as they are. */
  readonly messages: readonly M[];
  readonly text: string;
  readonly calls: readonly ModelToolCall[];
  readonly usage: TokenUsage;
  /** The provider's own stop reason (`end_turn`, `tool_calls`, `completed`, …). */
  readonly stopReason: string | null;
  /**
   * The reply was cut off at the output limit (`max_tokens`, `length`, an incomplete response):
   * its last call's arguments may be unfinished, and an SDK's lenient parser may still hand over
   * an object with a field left out. None of its calls runs (each is answered as cancelled).
   */
  readonly truncated?: boolean;
}

export interface ModelRequest<P extends ModelProvider, M> {
  readonly step: number;
  readonly tools: ModelToolsFor<P>;
  readonly messages: readonly M[];
  /** The assembled system prompt, or undefined when the host sends none. */
  readonly system: string | undefined;
  readonly signal: AbortSignal;
}

/** What a provider adapter implements. */
export interface LoopModel<P extends ModelProvider, M> {
  /** Which projection of `turn.modelTools()` the requests carry. */
  readonly provider: P;
  request(request: ModelRequest<P, M>): Promise<ModelReply<M>>;
  /** The message(s) that carry one step's results back, in call order. */
  results(results: readonly ToolCallResult[]): readonly M[];
}

/** One call and what became of it. */
export interface ToolCallResult {
  readonly call: ModelToolCall;
  readonly outcome: ToolOutcome;
  /** What the model reads. */
  readonly text: string;
  /** Everything but `completed` (Anthropic's `is_error`). */
  readonly isError: boolean;
}

export interface LoopStep<M> {
  readonly index: number;
  readonly reply: ModelReply<M>;
  readonly results: readonly ToolCallResult[];
}

/** `stop`: the model answered without calling a tool; `max-steps`: the limit; `aborted`: a signal. */
export type LoopFinishReason = 'stop' | 'max-steps' | 'aborted';

export interface ToolLoopResult<M> {
  readonly finishReason: LoopFinishReason;
  /** The last reply's text ('' when it had none, or nothing was answered before an abort). */
  readonly text: string;
  /** The conversation: the host's messages, then every reply and result message of the loop. */
  readonly messages: readonly M[];
  readonly steps: readonly LoopStep<M>[];
  /** Summed over every reply. */
  readonly usage: TokenUsage;
}

/** Options shared by every bridge. */
export interface ToolLoopOptions<R> {
  readonly turn: Turn<R>;
  /** Upper bound on model requests; the selected agent's `maxSteps` also bounds it (the smaller wins). */
  readonly maxSteps?: number;
  /** Aborts the loop (the turn's own signal always does). */
  readonly signal?: AbortSignal;
  /** `false`: send every admitted tool, none deferred (small bots). Default true. */
  readonly defer?: boolean;
  /**
   * At most this many tools per request (`turn.modelTools`'s `maxTools`): lowers the provider's
   * own limit. The AI SDK bridge defaults it from the model's provider (docs/hosts.md).
   */
  readonly maxTools?: number;
  /** The system prompt; default: `turn.systemPrompt()` before every request. `''` sends none. */
  readonly system?: string;
  /** Replaces the model-visible text of an outcome (default `outcomeText`). */
  readonly resultText?: (call: ModelToolCall, outcome: ToolOutcome) => string;
  /** Called after every step, before the next request (e.g. to stream progress to the chat). */
  readonly onStep?: (step: LoopStep<unknown>) => void | Promise<void>;
}

/** The smaller of the host's and the selected agent's limit; `DEFAULT_MAX_STEPS` when neither. */
export function stepLimit(turn: { readonly maxSteps: number | undefined }, requested: number | undefined): number {
  for (const [label, value] of [
    ['maxSteps', requested],
    ['agent maxSteps', turn.maxSteps],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1))
      throw new TypeError(`${label} must be an integer ≥ 1, got ${String(value)}`);
  }
  const limits = [requested, turn.maxSteps].filter((value): value is number => value !== undefined);
  return limits.length === 0 ? DEFAULT_MAX_STEPS : Math.min(...limits);
}

/** A model's `arguments` string: `''` is `{}`; JSON that does not parse reaches validation as the raw string. */
export function parseArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

export const NO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

type UntypedExecute = (
  name: string,
  input: unknown,
  options: { toolUseId: string; signal: AbortSignal },
) => Promise<ToolOutcome>;

/**
 * Runs one reply's calls in parallel through `turn.execute`. A model's names are untyped by
 * nature; the pipeline is what checks them (an unknown name is denied exactly like a forbidden
 * one), so the call is made with the widened signature instead of a per-name cast.
 */
export async function executeCalls<R>(
  turn: Turn<R>,
  calls: readonly ModelToolCall[],
  signal: AbortSignal,
  resultText: (call: ModelToolCall, outcome: ToolOutcome) => string = (_call, outcome) => outcomeText(outcome),
): Promise<ToolCallResult[]> {
  const execute = turn.execute as unknown as UntypedExecute;
  return Promise.all(
    calls.map(async (call) => {
      let outcome: ToolOutcome;
      try {
        outcome = await execute(call.name, call.input, { toolUseId: call.id, signal });
      } catch (error) {
        // Only a turn that ended under the loop rejects; the call never started.
        if (turn.state === 'active') throw error;
        outcome = { status: 'cancelled', reason: 'the turn has ended' };
      }
      return Object.freeze({ call, outcome, text: resultText(call, outcome), isError: isErrorOutcome(outcome) });
    }),
  );
}

/** Why a truncated reply's calls are not run (the model reads it as the cancellation's reason). */
const CUT_OFF = 'the reply was cut off at the output token limit before its tool calls were complete';

/** The calls of a reply cut off at the output limit: journaled as cancelled, never run, and the model told why. */
export async function cutOffCalls<R>(turn: Turn<R>, calls: readonly ModelToolCall[]): Promise<ToolCallResult[]> {
  const results = await executeCalls(turn, calls, refusedSignal(CUT_OFF));
  return results.map((result) => Object.freeze({ ...result, text: `The call was not run: ${CUT_OFF}; call again.` }));
}

/** An aborted signal: the calls given it are journaled and answered as cancelled, never run. */
export function refusedSignal(reason: string): AbortSignal {
  const controller = new AbortController();
  controller.abort(new Error(reason));
  return controller.signal;
}

/** True when a result loaded tools or a skill: the next request needs a fresh tool list. */
export function loadedSomething(results: readonly ToolCallResult[]): boolean {
  return results.some(
    (result) =>
      (result.call.name === LOAD_TOOL || result.call.name === LOAD_SKILL) && result.outcome.status === 'completed',
  );
}

/** The turn's tools for a provider, deferral on or off. */
export function turnTools<R, P extends ModelProvider>(
  turn: Turn<R>,
  provider: P,
  defer: boolean | undefined,
  maxTools?: number,
): Promise<ModelToolsFor<P>> {
  return turn.modelTools({
    provider,
    ...(defer === false ? { defer: false } : {}),
    ...(maxTools !== undefined ? { maxTools } : {}),
  });
}

/**
 * The system prompt for the next request: the host's fixed text, or the turn's current one. The
 * loop's signal ends the wait (a seam skill's describe() can take its time); the loop then
 * finds the signal aborted and reports `aborted`.
 */
export async function systemText<R>(
  turn: Turn<R>,
  system: string | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (system !== undefined) return system === '' ? undefined : system;
  const { text } = await untilAborted(
    () => turn.systemPrompt(),
    signal,
    () => signal.reason ?? new Error('aborted'),
  );
  return text === '' ? undefined : text;
}

/** The loop. `messages` is the conversation so far (at least the user's message). */
export async function runToolLoop<R, P extends ModelProvider, M>(
  model: LoopModel<P, M>,
  messages: readonly M[],
  options: ToolLoopOptions<R>,
): Promise<ToolLoopResult<M>> {
  const { turn } = options;
  const limit = stepLimit(turn, options.maxSteps);
  const link = linkSignals([turn.signal, options.signal]);
  const signal = link.signal;
  const conversation: M[] = [...messages];
  const steps: LoopStep<M>[] = [];
  let usage = NO_USAGE;
  let text = '';
  const finish = (finishReason: LoopFinishReason): ToolLoopResult<M> =>
    Object.freeze({ finishReason, text, messages: conversation, steps, usage });
  try {
    let tools = await turnTools(turn, model.provider, options.defer, options.maxTools);
    for (let index = 0; index < limit; index += 1) {
      if (signal.aborted) return finish('aborted');
      let reply: ModelReply<M>;
      try {
        reply = await model.request({
          step: index,
          tools,
          messages: conversation,
          system: await systemText(turn, options.system, signal),
          signal,
        });
      } catch (error) {
        // The SDK rejects an aborted request with its own error type; the signal says why.
        if (signal.aborted) return finish('aborted');
        throw error;
      }
      usage = addUsage(usage, reply.usage);
      text = reply.text;
      conversation.push(...reply.messages);
      if (reply.calls.length === 0) {
        steps.push(Object.freeze({ index, reply, results: [] }));
        await options.onStep?.(steps[steps.length - 1]!);
        return finish('stop');
      }
      const results = reply.truncated
        ? await cutOffCalls(turn, reply.calls)
        : await executeCalls(turn, reply.calls, signal, options.resultText);
      conversation.push(...model.results(results));
      const step = Object.freeze({ index, reply, results });
      steps.push(step);
      await options.onStep?.(step);
      if (signal.aborted) return finish('aborted');
      if (loadedSomething(results)) tools = await turnTools(turn, model.provider, options.defer, options.maxTools);
    }
    return finish('max-steps');
  } finally {
    link.dispose();
  }
}
