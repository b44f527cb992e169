/**
 * A turn: one agent turn holding a lease on the generation it started on (docs/runtime.md). All
 * tool calls go through `executeToolCall`; the turn carries identity, ports, the selected agent,
 * the active skills, its deferred catalog (docs/catalog.md) and its system prompt (docs/prompt.md).
 */
import type { AccessRestrictions } from '../access/access.js';
import { decideAccess } from '../access/decision.js';
import type { ApprovalMemory, ApprovalPort, RiskPolicy, ToolDescriptor } from './approval.js';
import { describeTool } from '../generation/capability.js';
import type { ASK_USER, AskUserInput, QuestionPort } from './ask-user.js';
import type { GenerationLease } from '../generation/generation.js';
import { type JournalEntry, type JournalSink, type ToolOutcome, TurnJournal } from './journal.js';
import type { CapabilityRegistry, ManifestAgent } from '../contract/manifest.js';
import type { ImMessage, PermissionHost } from '../access/permissions.js';
import { type CallEnvironment, type CallOptions, executeToolCall } from './pipeline.js';
import { untilAborted } from './abort.js';
import { checkTurnOwner, resolveTurnOwner } from '../prompt/sections.js';
import { type SystemPrompt, buildSystemPrompt } from '../prompt/system-prompt.js';
import { type Placement, placementOf, skillPlacement, type TurnScope } from '../access/scope.js';
import { type AgentSelection, selectAgent } from './agent-selection.js';
import type { ToolBinding } from '../generation/capability.js';
import { generationCatalog } from '../deferred/catalog.js';
import {
  type ControllerSeed,
  type DeferredToolController,
  forkSeedOf,
  openDeferredController,
} from '../deferred/controller.js';
import type { MetaToolInput, MetaToolName } from '../deferred/meta-tools.js';
import type { ModelProvider, ModelToolsFor, ModelToolsOptions } from '../deferred/providers.js';
import type { SeamToolInputs } from '../seam/types.js';
import type { DeferredToolSessionStore } from '../deferred/session-store.js';
import { type TurnDiagnostic, TurnDiagnostics } from './diagnostics.js';

type InputsOf<R> = R extends { readonly toolInputs: infer T } ? T : never;

/** Tool names of a registry (the generated `CapabilityRegistry` by default), or `string`. */
export type RegistryToolName<R = CapabilityRegistry> = [InputsOf<R>] extends [never]
  ? string
  : keyof InputsOf<R> & string;
export type RegistryToolInput<R, N extends string> = [InputsOf<R>] extends [never]
  ? unknown
  : N extends keyof InputsOf<R>
    ? InputsOf<R>[N]
    : unknown;

/** Every name a turn can execute: the manifest's tools plus generation-owned runtime tools. */
export type TurnToolName<R = CapabilityRegistry> =
  | RegistryToolName<R>
  | typeof ASK_USER
  | MetaToolName
  | (keyof SeamToolInputs & string);
export type TurnToolInput<R, N extends string> = N extends typeof ASK_USER
  ? AskUserInput
  : N extends MetaToolName
    ? MetaToolInput<N>
    : N extends keyof SeamToolInputs
      ? SeamToolInputs[N]
      : RegistryToolInput<R, N>;

/** A subagent's turn: same generation, identity and session; an isolated copy of the loaded state. */
export interface TurnForkOptions {
  /** The subagent's agent (default: the parent's). */
  readonly agent?: string;
  readonly unattended?: boolean;
  readonly approval?: ApprovalPort;
  readonly question?: QuestionPort;
}

export interface TurnInput {
  readonly sessionKey: string;
  readonly message?: ImMessage;
  /** Default `'im'` with a message, `'system'` without. Only `'im'` turns use the message for access. */
  readonly origin?: string;
  /** Default: `{ adapter, userId }` of the message sender, if any. */
  readonly principal?: unknown;
  /** qualifiedName of the selected agent. */
  readonly agent?: string;
  /** Plugin (owner path) the host routed this turn to; only used without a selected agent (docs/prompt.md). */
  readonly owner?: string;
  /** Schedules and other turns nobody watches: no approval, no questions (fail closed). */
  readonly unattended?: boolean;
  /** Overrides the host's approval port for this turn. */
  readonly approval?: ApprovalPort;
  readonly question?: QuestionPort;
  readonly signal?: AbortSignal;
  /** Skills to activate at start (e.g. restored from a session snapshot); unknown ones are dropped. */
  readonly skills?: readonly string[];
  readonly traceId?: string;
}

export type TurnState = 'active' | 'ending' | 'ended';

export interface Turn<R = CapabilityRegistry> {
  readonly id: string;
  readonly traceId: string;
  readonly sessionKey: string;
  /** The leased generation's number; fixed for the turn's life. */
  readonly generation: number;
  readonly origin: string;
  readonly principal: unknown;
  readonly message: ImMessage | undefined;
  readonly agent: string | undefined;
  /** Owner path for prompt-section overrides: the selected agent's plugin, else `TurnInput.owner`, else ''. */
  readonly owner: string;
  readonly unattended: boolean;
  readonly signal: AbortSignal;
  readonly state: TurnState;
  readonly journal: readonly JournalEntry[];
  /** Store faults this turn met and how it carried on (docs/stores.md#when-a-store-is-down). */
  readonly diagnostics: readonly TurnDiagnostic[];
  readonly activeSkills: ReadonlySet<string>;
  /** Activates a skill (its private tools and hooks join the scope). False if not admitted. */
  activateSkill(qualifiedName: string): Promise<boolean>;
  /** Tools in scope and accessible to this turn's principal, excluding `hidden` ones. */
  admittedTools(): Promise<readonly ToolDescriptor[]>;
  /**
   * Assembles the system prompt from the leased generation (docs/prompt.md). Call it before each
   * model call; rejects with `PromptBudgetError` when required text cannot fit (fail the turn then).
   */
  systemPrompt(): Promise<SystemPrompt>;
  execute<N extends TurnToolName<R>>(name: N, input: TurnToolInput<R, N>, options?: CallOptions): Promise<ToolOutcome>;
  /**
   * Narrows a model-supplied name to the registry's names: true when the leased generation (or
   * this turn's meta tools) has a tool of that name. It says nothing about access — `execute`
   * decides that, and answers an unknown name exactly like a forbidden one — so never let the
   * model see the difference.
   */
  isToolName(name: string): name is TurnToolName<R>;
  /** The selected agent's `agent.json` `maxSteps` (the bridges' step limit; docs/hosts.md). */
  readonly maxSteps: number | undefined;
  /** How `agent` was chosen: `beginTurn({ agent })`, the adapter's platform agent, or none (docs/catalog.md). */
  readonly agentSelection: AgentSelection;
  /** This turn's deferred catalog controller: discover / load_tool / load_skill state (docs/catalog.md). */
  readonly deferred: DeferredToolController;
  /** The tools to send to the model now, for one provider's request shape. */
  modelTools<P extends ModelProvider>(options: ModelToolsOptions<P>): Promise<ModelToolsFor<P>>;
  /** A subagent turn on the same lease; its loads never write this session. Ended with this turn. */
  fork(options?: TurnForkOptions): Promise<Turn<R>>;
  /** Aborts outstanding calls, waits for them (and tools that ignored the abort), releases the lease. */
  end(): Promise<void>;
}

export interface TurnDependencies {
  readonly lease: GenerationLease;
  readonly permissions?: PermissionHost;
  readonly approval?: ApprovalPort;
  readonly journal?: JournalSink;
  readonly approvalMemory: ApprovalMemory;
  readonly riskPolicies: readonly RiskPolicy[];
  readonly onError: (error: Error) => void;
  nextId(prefix: string): string;
  /** Where loaded tools persist per session (absent: nothing persists). */
  readonly sessions?: DeferredToolSessionStore;
  readonly clock?: () => number;
  /** Set for forks: start from the parent's loaded state and never write the session. */
  readonly forkSeed?: ControllerSeed;
}

/**
 * The turn's active skills as callers see them: live (a skill activated later shows up) but
 * read-only (no `add`/`delete`). A class, so a turn makes one object rather than seven closures.
 */
class LiveSkills {
  readonly #skills: Set<string>;
  constructor(skills: Set<string>) {
    this.#skills = skills;
  }
  has(name: string): boolean {
    return this.#skills.has(name);
  }
  get size(): number {
    return this.#skills.size;
  }
  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const value of this.#skills) callback.call(thisArg, value, value, this as unknown as ReadonlySet<string>);
  }
  entries(): IterableIterator<[string, string]> {
    return this.#skills.entries();
  }
  keys(): IterableIterator<string> {
    return this.#skills.keys();
  }
  values(): IterableIterator<string> {
    return this.#skills.values();
  }
  [Symbol.iterator](): IterableIterator<string> {
    return this.#skills.values();
  }
}

function defaultPrincipal(message: ImMessage | undefined): unknown {
  if (!message?.$sender) return undefined;
  return Object.freeze({ adapter: String(message.$adapter), userId: String(message.$sender.id) });
}

export async function createTurn<R>(input: TurnInput, deps: TurnDependencies): Promise<Turn<R>> {
  if (typeof input?.sessionKey !== 'string' || input.sessionKey === '')
    throw new TypeError('beginTurn() needs a non-empty sessionKey');
  const generation = deps.lease.generation;
  const catalog = generationCatalog(generation);
  // Only IM turns (origin 'im', the default with a message) route by adapter, as for access.
  const imMessage = (input.origin ?? (input.message ? 'im' : 'system')) === 'im' ? input.message : undefined;
  const selected = selectAgent(generation, catalog.platformAgents, input.agent, imMessage);
  const agent: ManifestAgent | undefined = selected.agent;
  const ownerProblem = checkTurnOwner(generation, input.owner);
  if (ownerProblem) throw new Error(ownerProblem);
  const origin = input.origin ?? (input.message ? 'im' : 'system');
  const accessMessage = origin === 'im' ? input.message : undefined;
  const id = deps.nextId('turn');
  const traceId = input.traceId ?? deps.nextId('trace');
  const controller = new AbortController();
  const ended = () => new Error(`turn ${id} has ended; begin a new turn`);
  const onOuterAbort = () => controller.abort(input.signal?.reason);
  if (input.signal?.aborted) controller.abort(input.signal.reason);
  else input.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const skills = new Set<string>();
  const scope: TurnScope = { ...(agent ? { agent } : {}), activeSkills: skills };
  const principal = input.principal ?? defaultPrincipal(input.message);
  const diagnostics = new TurnDiagnostics();
  const journal = new TurnJournal(
    { turnId: id, sessionKey: input.sessionKey, traceId, principal },
    deps.journal,
    deps.onError,
  );
  const inFlight = new Set<Promise<unknown>>();
  const turnTools = new Map<string, ToolBinding>();
  const children = new Set<Turn<R>>();
  const track = (pending: Promise<unknown>) => {
    const settled = pending.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
  };
  const env: CallEnvironment = {
    generation,
    turnId: id,
    traceId,
    sessionKey: input.sessionKey,
    origin,
    principal,
    ...(accessMessage ? { message: accessMessage } : {}),
    unattended: input.unattended === true,
    ...((input.approval ?? deps.approval) ? { approvalPort: input.approval ?? deps.approval } : {}),
    ...(input.question ? { questionPort: input.question } : {}),
    signal: controller.signal,
    scope,
    turnTools,
    journal,
    ...(deps.permissions ? { permissions: deps.permissions } : {}),
    approvalMemory: deps.approvalMemory,
    riskPolicies: deps.riskPolicies,
    onError: deps.onError,
    diagnose: (source, message) => diagnostics.add(source, message),
    track,
    nextId: deps.nextId,
  };

  // The one access decision (access/decision.ts), as the pipeline and the catalog make it.
  const accessView = { scope, message: accessMessage, permissions: deps.permissions };
  const admits = async (placement: Placement, item: AccessRestrictions) => {
    try {
      return (await decideAccess(placement, item, accessView)).admitted;
    } catch {
      return false;
    }
  };
  const activateSkill = async (name: string): Promise<boolean> => {
    // The generation's skill table holds feature and seam skills alike.
    const skill = generation.skillTable.get(name);
    if (!skill || !(await admits(skillPlacement(skill), skill))) return false;
    skills.add(name);
    return true;
  };
  for (const name of input.skills ?? []) await activateSkill(name);
  const deferred = await openDeferredController({
    catalog,
    view: {
      scope,
      message: accessMessage,
      permissions: deps.permissions,
      canAsk: !env.unattended && input.question !== undefined,
    },
    sessionKey: input.sessionKey,
    store: deps.forkSeed ? undefined : deps.sessions,
    clock: deps.clock ?? Date.now,
    activate: (name) => skills.add(name),
    onError: deps.onError,
    diagnose: (message) => diagnostics.add('sessions', message),
    capped: (message) => diagnostics.add('catalog', message),
    ...(deps.forkSeed ? { seed: deps.forkSeed } : {}),
  });
  for (const binding of deferred.metaTools) turnTools.set(binding.qualifiedName, binding);

  let state: TurnState = 'active';
  let ending: Promise<void> | undefined;
  const skillsView = new LiveSkills(skills) as unknown as ReadonlySet<string>;

  const turn: Turn<R> = {
    id,
    traceId,
    sessionKey: input.sessionKey,
    generation: generation.id,
    origin,
    principal: env.principal,
    message: input.message,
    agent: agent?.qualifiedName,
    get owner() {
      return resolveTurnOwner(turn.agent === undefined ? undefined : generation.agents.get(turn.agent), input.owner);
    },
    unattended: env.unattended,
    signal: controller.signal,
    get state() {
      return state;
    },
    journal: journal.entries,
    get diagnostics() {
      return diagnostics.items;
    },
    activeSkills: skillsView,
    activateSkill,
    async admittedTools() {
      const admitted: ToolDescriptor[] = [];
      for (const binding of generation.tools.values()) {
        if (!binding.hidden && (await admits(placementOf(binding), binding))) admitted.push(describeTool(binding));
      }
      return admitted;
    },
    async systemPrompt() {
      if (state !== 'active') throw ended();
      // Read from the turn each time: the agent and the loaded skills are the turn's current ones.
      const prompt = { skills: turn.activeSkills, origin, ...(accessMessage ? { message: accessMessage } : {}) };
      const selectedAgent = turn.agent ? { agent: turn.agent } : {};
      const owner = input.owner !== undefined ? { owner: input.owner } : {};
      const build = () => buildSystemPrompt(generation, { ...prompt, ...selectedAgent, ...owner });
      // `end()` ends the wait too: a seam provider's describe() that never answers is not awaited past it.
      return untilAborted(build, controller.signal, ended);
    },
    execute(name, toolInput, options) {
      if (state !== 'active') return Promise.reject(ended());
      const pending = executeToolCall(env, name, toolInput, options);
      track(pending);
      pending.then(
        (outcome) => outcome.status === 'completed' && deferred.touch(name),
        () => undefined,
      );
      return pending;
    },
    isToolName: (name): name is TurnToolName<R> => turnTools.has(name) || generation.tools.has(name),
    maxSteps: agent?.maxSteps,
    agentSelection: selected.selection,
    deferred,
    modelTools: (options) => deferred.modelTools(options.provider, options.defer !== false, options.maxTools),
    async fork(options = {}) {
      if (state !== 'active') throw ended();
      const forkAgent = options.agent ?? agent?.qualifiedName;
      const approval = options.approval ?? input.approval;
      const question = options.question ?? input.question;
      const child = await createTurn<R>(
        {
          sessionKey: input.sessionKey,
          ...(input.message ? { message: input.message } : {}),
          origin,
          principal: env.principal,
          ...(forkAgent !== undefined ? { agent: forkAgent } : {}),
          ...(input.owner !== undefined ? { owner: input.owner } : {}),
          unattended: options.unattended ?? env.unattended,
          ...(approval ? { approval } : {}),
          ...(question ? { question } : {}),
          signal: controller.signal,
          skills: [...skills],
          traceId,
        },
        // The fork borrows this turn's lease: this turn ends its forks before releasing it.
        { ...deps, lease: { generation, release: () => Promise.resolve() }, forkSeed: forkSeedOf(deferred) },
      );
      children.add(child);
      return child;
    },
    end() {
      ending ??= (async () => {
        state = 'ending';
        input.signal?.removeEventListener('abort', onOuterAbort);
        controller.abort(new Error('turn ended'));
        await Promise.all([...children].map((child) => child.end()));
        while (inFlight.size > 0) await Promise.all([...inFlight]);
        await deferred.flush();
        state = 'ended';
        await deps.lease.release();
      })();
      return ending;
    },
  };
  return Object.freeze(turn);
}
