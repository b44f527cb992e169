/**
 * The turn tool pipeline (SPEC §7.4), the only way any tool runs — feature, setup, runtime and
 * (later) seam tools alike:
 *
 *   generation → permission → tool_call → load + validate → tool:before hooks → approval → execute
 *
 * Decisions where the spec is terse: the module is loaded and the input validated *before*
 * approval, so an approver (and an `on-risk` policy) only ever sees a well-formed concrete call,
 * and a vetoing hook is consulted before a human is bothered. Loading a module is not running
 * the tool: a denied or cancelled call never enters `execute`.
 */
import { canAccessTool } from './access.js';
import {
  APPROVAL_UNAVAILABLE,
  type ApprovalMemory,
  type ApprovalPort,
  type RiskPolicy,
  type ToolCallPolicy,
  approvalQuestion,
  decideApproval,
} from './approval.js';
import { type QuestionPort, ToolUnavailableError } from './ask-user.js';
import { type ExecutableTool, type ToolBinding, describeError, describeTool } from './capability.js';
import type { ResourceToken, ToolExecutionContext, ToolHookEvent } from './define.js';
import type { Generation } from './generation.js';
import { hooksInScope, runAfterHooks, runBeforeHooks } from './hooks.js';
import { beginLiveCall } from './live-calls.js';
import { type JournalEntryInit, type ToolOutcome, type TurnJournal, now } from './journal.js';
import type { ImMessage, PermissionHost } from './permissions.js';
import { type TurnScope, isInScope } from './scope.js';
import { validateInput } from './validation.js';

/** Everything the pipeline needs from the turn; assembled by `turn.ts`. */
export interface CallEnvironment {
  readonly generation: Generation;
  readonly turnId: string;
  readonly traceId: string;
  readonly sessionKey: string;
  readonly origin: string;
  readonly principal: unknown;
  /** Only set for IM turns; access for non-IM turns is decided without a message. */
  readonly message?: ImMessage;
  readonly unattended: boolean;
  readonly approvalPort?: ApprovalPort;
  readonly questionPort?: QuestionPort;
  readonly signal: AbortSignal;
  readonly scope: TurnScope;
  /** Per-turn tools looked up before the generation's table (the deferred catalog's meta tools). */
  readonly turnTools?: ReadonlyMap<string, ToolBinding>;
  readonly journal: TurnJournal;
  readonly permissions?: PermissionHost;
  readonly approvalMemory: ApprovalMemory;
  readonly riskPolicies: readonly RiskPolicy[];
  readonly onError: (error: Error) => void;
  /** Keeps the turn's lease until a tool that outlived its call (ignored abort) settles. */
  track(settled: Promise<unknown>): void;
  nextId(prefix: string): string;
}

export interface CallOptions {
  readonly toolUseId?: string;
  readonly signal?: AbortSignal;
}

/** Answer for unknown *and* inaccessible tools: identical, so nothing leaks existence. */
function notAvailable(name: string): string {
  return `tool "${name}" is not available`;
}

function linkSignals(signals: readonly (AbortSignal | undefined)[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => signal.removeEventListener('abort', onAbort));
  }
  return { signal: controller.signal, dispose: () => cleanups.forEach((cleanup) => cleanup()) };
}

type Settled<T> = { readonly kind: 'value'; readonly value: T } | { readonly kind: 'error'; readonly error: unknown } | { readonly kind: 'aborted' };

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ kind: 'aborted' });
    const onAbort = () => resolve({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'value', value });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'error', error });
      },
    );
  });
}

async function admitted(env: CallEnvironment, binding: ToolBinding): Promise<boolean> {
  if (!isInScope(binding, env.scope)) return false;
  try {
    return await canAccessTool(binding, env.message, env.permissions);
  } catch {
    return false;
  }
}

export async function executeToolCall(env: CallEnvironment, name: string, input: unknown, options: CallOptions = {}): Promise<ToolOutcome> {
  const toolUseId = options.toolUseId ?? env.nextId('toolu');
  const binding = env.turnTools?.get(name) ?? env.generation.tools.get(name);
  const base = { toolName: name, toolUseId, generation: env.generation.id };

  if (!binding || !(await admitted(env, binding))) {
    const reason = notAvailable(name);
    env.journal.append(base, { type: 'tool_denied', policy: 'capability', reason, durationMs: 0 });
    return { status: 'denied', policy: 'capability', reason };
  }

  env.journal.append(base, { type: 'tool_call', input, owner: binding.owner, source: binding.source });
  const startedAt = now();
  const since = () => Math.max(0, now() - startedAt);
  const finish = (init: JournalEntryInit) => env.journal.append(base, init);
  const link = linkSignals([env.signal, options.signal]);
  const signal = link.signal;
  try {
    const cancelled = (reason: string): ToolOutcome => {
      finish({ type: 'tool_cancelled', reason, durationMs: since() });
      return { status: 'cancelled', reason };
    };
    if (signal.aborted) return cancelled('aborted before execution');

    let executable: ExecutableTool;
    try {
      executable = await binding.resolve();
    } catch (error) {
      const toolError = { code: 'load_failed' as const, message: describeError(error) };
      finish({ type: 'tool_failed', error: toolError, retryable: false, durationMs: since() });
      return { status: 'failed', error: toolError, retryable: false };
    }

    const validation = await validateInput(binding, executable, input, env.generation).catch(
      (error: unknown) => ({ ok: false as const, path: '(root)', message: `schema could not be evaluated: ${describeError(error)}` }),
    );
    if (!validation.ok) {
      const toolError = {
        code: 'invalid_input' as const,
        path: validation.path,
        message: `invalid input at ${validation.path}: ${validation.message}`,
      };
      finish({ type: 'tool_failed', error: toolError, retryable: false, durationMs: since() });
      return { status: 'failed', error: toolError, retryable: false };
    }
    const value = validation.value;

    const before: ToolHookEvent = { event: 'tool:before', toolName: name, toolUseId, input: value };
    const verdict = await runBeforeHooks(hooksInScope(env.generation.hooks, env.scope, 'tool:before'), before);
    let outcome: ToolOutcome;
    if (verdict.vetoed) {
      finish({ type: 'tool_denied', policy: 'hook', reason: verdict.reason, durationMs: since() });
      outcome = { status: 'denied', policy: 'hook', reason: verdict.reason };
    } else {
      outcome = await approveAndRun(env, binding, executable, value, { ...base, signal, since, finish, cancelled });
    }
    // Every call that reached tool:before is also shown to tool:after, whatever its outcome.
    const after: ToolHookEvent = { event: 'tool:after', toolName: name, toolUseId, input: value, outcome };
    await runAfterHooks(hooksInScope(env.generation.hooks, env.scope, 'tool:after'), after, env.onError);
    return outcome;
  } finally {
    link.dispose();
  }
}

interface RunState {
  readonly toolName: string;
  readonly toolUseId: string;
  readonly signal: AbortSignal;
  since(): number;
  finish(init: JournalEntryInit): void;
  cancelled(reason: string): ToolOutcome;
}

async function approveAndRun(
  env: CallEnvironment,
  binding: ToolBinding,
  executable: ExecutableTool,
  input: unknown,
  run: RunState,
): Promise<ToolOutcome> {
  const denied = (reason: string): ToolOutcome => {
    run.finish({ type: 'tool_denied', policy: 'approval', reason, durationMs: run.since() });
    return { status: 'denied', policy: 'approval', reason };
  };
  const call = {
    tool: describeTool(binding),
    input,
    sessionKey: env.sessionKey,
    origin: env.origin,
    principal: env.principal,
    ...(env.message ? { message: env.message } : {}),
  };
  const need = await decideApproval(call, env.approvalMemory, env.riskPolicies);
  let policy: ToolCallPolicy;
  if (need.required) {
    const port = env.unattended ? undefined : env.approvalPort;
    if (!port || port.available === false) return denied(APPROVAL_UNAVAILABLE);
    if (run.signal.aborted) return run.cancelled('aborted before approval');
    const asked = await raceAbort(
      Promise.resolve().then(() =>
        port.requestApproval({
          requestId: env.nextId('approval'),
          toolName: run.toolName,
          scopeKey: need.scopeKey,
          question: approvalQuestion(run.toolName, binding.description, input),
          signal: run.signal,
          mode: binding.requiresApproval,
          sessionKey: env.sessionKey,
          input,
        }),
      ),
      run.signal,
    );
    if (asked.kind === 'aborted') return run.cancelled('aborted while waiting for approval');
    if (asked.kind === 'error') return denied(`approval failed: ${describeError(asked.error)}`);
    if (asked.value !== true) return denied('approval denied');
    if (binding.requiresApproval === 'once') env.approvalMemory.remember(need.scopeKey);
    policy = { approval: binding.requiresApproval, decision: 'approved' };
  } else {
    policy = need.policy;
  }
  if (run.signal.aborted) return run.cancelled('aborted before execution');
  return execute(env, binding, executable, input, policy, run);
}

async function execute(
  env: CallEnvironment,
  binding: ToolBinding,
  executable: ExecutableTool,
  input: unknown,
  policy: ToolCallPolicy,
  run: RunState,
): Promise<ToolOutcome> {
  const generation = env.generation;
  const owner = binding.owner;
  const questionPort = env.unattended ? undefined : env.questionPort;
  const context: ToolExecutionContext = Object.freeze({
    config: generation.ownerConfig(owner),
    use: <T>(token: ResourceToken<T>): T => generation.use(owner, token),
    owner,
    generation: generation.id,
    signal: run.signal,
    traceId: env.traceId,
    turnId: env.turnId,
    sessionKey: env.sessionKey,
    origin: env.origin,
    principal: env.principal,
    policy,
    toolName: run.toolName,
    toolUseId: run.toolUseId,
    ...(env.message ? { message: env.message } : {}),
    ...(questionPort
      ? {
          question: Object.freeze({
            ask: (request: { readonly question: string; readonly options?: readonly string[] }) =>
              questionPort.ask({
                requestId: env.nextId('question'),
                question: request.question,
                ...(request.options ? { options: request.options } : {}),
                sessionKey: env.sessionKey,
                principal: env.principal,
                ...(env.message ? { message: env.message } : {}),
                signal: run.signal,
              }),
          }),
        }
      : {}),
  });

  const executionStart = now();
  const endLive = beginLiveCall(context);
  const running = Promise.resolve().then(() => executable.execute(input, context));
  running.then(endLive, endLive);
  const settled = raceAbort(running, run.signal);
  const first = await settled;
  if (first.kind !== 'aborted') return record(first, false);

  // Aborted while running: answer `cancelled` now, journal whatever really happens later.
  env.track(
    running.then(
      (value) => record({ kind: 'value', value }, true),
      (error: unknown) => record({ kind: 'error', error }, true),
    ),
  );
  return { status: 'cancelled', reason: 'aborted during execution' };

  function record(result: Settled<unknown>, afterAbort: boolean): ToolOutcome {
    const executionMs = Math.max(0, now() - executionStart);
    if (result.kind === 'value') {
      run.finish({ type: 'tool_result', output: result.value, executionMs, afterAbort, durationMs: run.since() });
      return { status: 'completed', output: result.value, durationMs: executionMs };
    }
    if (afterAbort || result.kind === 'aborted') {
      const reason = result.kind === 'error' ? `aborted during execution: ${describeError(result.error)}` : 'aborted during execution';
      run.finish({ type: 'tool_cancelled', reason, durationMs: run.since() });
      return { status: 'cancelled', reason };
    }
    const error = result.error;
    const toolError =
      error instanceof ToolUnavailableError
        ? { code: 'unavailable' as const, message: error.message }
        : { code: 'execution_error' as const, message: describeError(error) };
    const retryable = typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
    run.finish({ type: 'tool_failed', error: toolError, retryable, durationMs: run.since() });
    return { status: 'failed', error: toolError, retryable };
  }
}
