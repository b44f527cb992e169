/**
 * The turn tool pipeline (docs/runtime.md), the only way any tool runs — feature, setup, runtime and
 * (later) seam tools alike:
 *
 *   generation → permission → tool_call → load + validate → tool:before hooks → approval → execute
 *
 * Decisions where the spec is terse: the module is loaded and the input validated *before*
 * approval, so an approver (and an `on-risk` policy) only ever sees a well-formed concrete call,
 * and a vetoing hook is consulted before a human is bothered. Loading a module is not running
 * the tool: a denied or cancelled call never enters `execute`.
 *
 * Every wait on code the pipeline does not own races the call's signal (runtime/turn/abort.ts), so an
 * abort ends any phase with one terminal entry; and everything after `tool_call` works on frozen
 * snapshots (runtime/turn/snapshot.ts), so no observer can change what is recorded or what runs.
 */
import { decideAccess } from '../access/decision.js';
import { type Settled, linkSignals, raceAbort } from './abort.js';
import {
  APPROVAL_UNAVAILABLE,
  type ApprovalMemory,
  type ApprovalRequest,
  type ApprovalPort,
  type RiskPolicy,
  type ToolCallPolicy,
  approvalQuestion,
  decideApproval,
} from './approval.js';
import { type QuestionPort, ToolUnavailableError } from './ask-user.js';
import { type ExecutableTool, type ToolBinding, describeError, describeTool } from '../generation/capability.js';
import type { ResourceToken, ToolExecutionContext, ToolHookEvent } from '../contract/define.js';
import type { Generation } from '../generation/generation.js';
import { hooksInScope, runAfterHooks, runBeforeHooks } from './hooks.js';
import { beginLiveCall } from './live-calls.js';
import { type JournalEntryInit, type ToolError, type ToolOutcome, type TurnJournal, now } from './journal.js';
import type { ImMessage, PermissionHost } from '../access/permissions.js';
import { placementOf, type TurnScope } from '../access/scope.js';
import { snapshot } from './snapshot.js';
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
  /** Records a store fault on the turn (`turn.diagnostics`); it never decides an outcome. */
  readonly diagnose?: (source: 'approvals', message: string) => void;
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

/** The access decision (access/decision.ts), as the catalog lists it; anything that throws has granted nothing. */
async function admitted(env: CallEnvironment, binding: ToolBinding): Promise<boolean> {
  try {
    return (await decideAccess(placementOf(binding), binding, env)).admitted;
  } catch {
    return false;
  }
}

/**
 * Access for a known tool. Only a permission checker (host code) can keep the decision waiting,
 * so only then is it raced against the abort; an abort that wins leaves the call undecided, and
 * an undecided call is never admitted (fail closed, the same answer as an inaccessible tool).
 */
async function admit(env: CallEnvironment, binding: ToolBinding, signal: AbortSignal): Promise<boolean> {
  const waits = env.message !== undefined && binding.permissions.length > 0;
  if (!waits) return admitted(env, binding);
  const decided = await raceAbort(() => admitted(env, binding), signal);
  return decided.kind === 'value' && decided.value;
}

export async function executeToolCall(
  env: CallEnvironment,
  name: string,
  input: unknown,
  options: CallOptions = {},
): Promise<ToolOutcome> {
  const link = linkSignals([env.signal, options.signal]);
  try {
    return await runCall(env, name, input, options.toolUseId ?? env.nextId('toolu'), link.signal);
  } finally {
    link.dispose();
  }
}

async function runCall(
  env: CallEnvironment,
  name: string,
  input: unknown,
  toolUseId: string,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const binding = env.turnTools?.get(name) ?? env.generation.tools.get(name);
  const base = { toolName: name, toolUseId, generation: env.generation.id };

  if (!binding || !(await admit(env, binding, signal))) {
    const reason = notAvailable(name);
    env.journal.append(base, { type: 'tool_denied', policy: 'capability', reason, durationMs: 0 });
    return { status: 'denied', policy: 'capability', reason };
  }

  // From here on, everything sees this frozen copy, never the caller's object: what is
  // journaled is exactly what is validated, whatever the caller changes afterwards.
  const recorded = snapshot(input);
  env.journal.append(base, {
    type: 'tool_call',
    input: recorded,
    owner: binding.owner,
    source: binding.source,
    manifest: env.generation.manifestHash,
  });
  const startedAt = now();
  const since = () => Math.max(0, now() - startedAt);
  const finish = (init: JournalEntryInit) => env.journal.append(base, init);
  const cancelled = (reason: string): ToolOutcome => {
    finish({ type: 'tool_cancelled', reason, durationMs: since() });
    return { status: 'cancelled', reason };
  };
  const failed = (error: ToolError): ToolOutcome => {
    finish({ type: 'tool_failed', error, retryable: false, durationMs: since() });
    return { status: 'failed', error, retryable: false };
  };
  if (signal.aborted) return cancelled('aborted before execution');

  // A module whose import never settles (top-level await) must not hold the caller past abort.
  const loaded = await raceAbort(() => binding.resolve(), signal);
  if (loaded.kind === 'aborted') return cancelled('aborted while loading the tool module');
  if (loaded.kind === 'error') return failed({ code: 'load_failed', message: describeError(loaded.error) });
  const executable = loaded.value;

  const checked = await raceAbort(() => validateInput(binding, executable, recorded, env.generation), signal);
  if (checked.kind === 'aborted') return cancelled('aborted during input validation');
  // No validator for a JSON Schema in this host: the tool cannot run here (not the input's fault).
  if (checked.kind === 'error' && checked.error instanceof ToolUnavailableError)
    return failed({ code: 'unavailable', message: checked.error.message });
  const validation =
    checked.kind === 'value'
      ? checked.value
      : {
          ok: false as const,
          path: '(root)',
          message: `schema could not be evaluated: ${describeError(checked.error)}`,
        };
  if (!validation.ok) {
    return failed({
      code: 'invalid_input',
      path: validation.path,
      message: `invalid input at ${validation.path}: ${validation.message}`,
    });
  }
  // `value` is what `execute` receives (Zod transforms and defaults included); hooks, risk
  // policies and the approval port get a frozen snapshot of it, so they cannot change what runs.
  const value = validation.value;
  const observed = snapshot(value);

  let reachedBefore = false;
  const before: ToolHookEvent = Object.freeze({ event: 'tool:before', toolName: name, toolUseId, input: observed });
  const verdict = await raceAbort(() => {
    reachedBefore = true;
    return runBeforeHooks(hooksInScope(env.generation.hooks, env.scope, 'tool:before'), before);
  }, signal);
  const hookDenied = (reason: string): ToolOutcome => {
    finish({ type: 'tool_denied', policy: 'hook', reason, durationMs: since() });
    return { status: 'denied', policy: 'hook', reason };
  };
  let outcome: ToolOutcome;
  if (verdict.kind === 'aborted') outcome = cancelled('aborted during tool:before hooks');
  // runBeforeHooks turns a failing hook into a veto; should it throw itself, that fails closed too.
  else if (verdict.kind === 'error') outcome = hookDenied(`tool:before hooks failed: ${describeError(verdict.error)}`);
  else if (verdict.value.vetoed) outcome = hookDenied(verdict.value.reason);
  else
    outcome = await approveAndRun(
      env,
      binding,
      executable,
      { value, observed },
      { ...base, signal, since, finish, cancelled },
    );
  if (!reachedBefore) return outcome;
  // Every call that reached tool:before is also shown to tool:after, whatever its outcome. The
  // hooks always run; after an abort the caller just stops waiting for them (they get no signal).
  const after: ToolHookEvent = Object.freeze({
    event: 'tool:after',
    toolName: name,
    toolUseId,
    input: observed,
    outcome,
  });
  await raceAbort(
    runAfterHooks(hooksInScope(env.generation.hooks, env.scope, 'tool:after'), after, env.onError),
    signal,
  );
  return outcome;
}

/** The validated input: `value` for `execute`, `observed` (its frozen snapshot) for everyone else. */
interface CallInput {
  readonly value: unknown;
  readonly observed: unknown;
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
  input: CallInput,
  run: RunState,
): Promise<ToolOutcome> {
  const denied = (reason: string): ToolOutcome => {
    run.finish({ type: 'tool_denied', policy: 'approval', reason, durationMs: run.since() });
    return { status: 'denied', policy: 'approval', reason };
  };
  const call = {
    tool: describeTool(binding),
    input: input.observed,
    sessionKey: env.sessionKey,
    origin: env.origin,
    principal: env.principal,
    ...(env.message ? { message: env.message } : {}),
  };
  // Risk policies and the approval memory are host code: they may wait, never past the abort.
  const decided = await raceAbort(() => decideApproval(call, env.approvalMemory, env.riskPolicies), run.signal);
  if (decided.kind === 'aborted') return run.cancelled('aborted while waiting for approval');
  if (decided.kind === 'error') return denied(`approval failed: ${describeError(decided.error)}`);
  const need = decided.value;
  let policy: ToolCallPolicy;
  if (need.required && need.memoryFailed !== undefined) {
    const message = `approval memory failed for "${run.toolName}": ${need.memoryFailed} (treated as not approved)`;
    env.diagnose?.('approvals', message);
    env.onError(new Error(message));
  }
  if (need.required) {
    const port = env.unattended ? undefined : env.approvalPort;
    if (!port || port.available === false) return denied(APPROVAL_UNAVAILABLE);
    if (run.signal.aborted) return run.cancelled('aborted before approval');
    const request: ApprovalRequest = Object.freeze({
      requestId: env.nextId('approval'),
      toolName: run.toolName,
      scopeKey: need.scopeKey,
      question: approvalQuestion(run.toolName, binding.description, input.observed),
      signal: run.signal,
      mode: binding.requiresApproval,
      sessionKey: env.sessionKey,
      input: input.observed,
    });
    const asked = await raceAbort(() => port.requestApproval(request), run.signal);
    if (asked.kind === 'aborted') return run.cancelled('aborted while waiting for approval');
    if (asked.kind === 'error') return denied(`approval failed: ${describeError(asked.error)}`);
    if (asked.value !== true) return denied('approval denied');
    if (binding.requiresApproval === 'once') {
      // The user said yes: a memory that cannot keep it only means they are asked again.
      const kept = await raceAbort(() => env.approvalMemory.remember(need.scopeKey), run.signal);
      if (kept.kind === 'aborted') return run.cancelled('aborted after approval');
      if (kept.kind === 'error') {
        const message = `approval memory failed to remember "${run.toolName}": ${describeError(kept.error)}`;
        env.diagnose?.('approvals', message);
        env.onError(new Error(message, { cause: kept.error }));
      }
    }
    policy = { approval: binding.requiresApproval, decision: 'approved' };
  } else {
    policy = need.policy;
  }
  if (run.signal.aborted) return run.cancelled('aborted before execution');
  return execute(env, binding, executable, input.value, policy, run);
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
      const reason =
        result.kind === 'error'
          ? `aborted during execution: ${describeError(result.error)}`
          : 'aborted during execution';
      run.finish({ type: 'tool_cancelled', reason, durationMs: run.since() });
      return { status: 'cancelled', reason };
    }
    const error = result.error;
    const toolError =
      error instanceof ToolUnavailableError
        ? { code: 'unavailable' as const, message: error.message }
        : { code: 'execution_error' as const, message: describeError(error) };
    const retryable =
      typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
    run.finish({ type: 'tool_failed', error: toolError, retryable, durationMs: run.since() });
    return { status: 'failed', error: toolError, retryable };
  }
}
