/**
 * `SeamIntegration`: the root host's registry of seam providers (docs/seam.md). A root
 * plugin creates one in `setup()` and provides it as a root resource:
 *
 *   resources.provide(capabilitySeamToken, seams, () => seams.dispose())
 *
 * The host projects it into that candidate generation once (seam/projection.ts); the instance
 * then belongs to that generation. Registering into it afterwards changes nothing the
 * generation serves — a new generation (a new `setup()`) is the way to change providers.
 */
import { type ResourceToken, createToken } from '../contract/define.js';
import type { SeamDisposer, SeamScope, SkillService, ToolExecutionResult, ToolService } from './types.js';

export type SeamProviderKind = 'tool' | 'skill';

/** One registration as the projection sees it. `active` turns false when it is disposed. */
export interface SeamRegistration<S> {
  readonly kind: SeamProviderKind;
  readonly scope: SeamScope;
  readonly service: S;
  readonly active: boolean;
}

export interface SeamSnapshot {
  readonly tools: readonly SeamRegistration<ToolService>[];
  readonly skills: readonly SeamRegistration<SkillService>[];
}

/**
 * Registered symbols (`Symbol.for`), so a host and a root plugin that loaded two copies of the
 * runtime (dist and source, or a duplicated install) still agree on the token and the brand.
 */
const BRAND = Symbol.for('zhin-gen.runtime.SeamIntegration');
/** Internal: the projection's one-time claim on an integration. Not exported from the barrel. */
export const SEAM_SNAPSHOT = Symbol.for('zhin-gen.runtime.SeamIntegration.snapshot');

/** The root resource the host reads the seam from. */
export const capabilitySeamToken: ResourceToken<SeamIntegration> = Object.freeze({
  key: Symbol.for('zhin-gen.runtime.capabilitySeam'),
  description: 'capabilitySeam',
});

/**
 * @deprecated Kept for source compatibility only: nothing consumes it. Provide
 * `capabilitySeamToken` instead (the host reports a root that still provides this one).
 */
export const seamIntegrationToken: ResourceToken<SeamIntegration> =
  createToken<SeamIntegration>('seamIntegration (legacy)');

const SCOPE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export function isSeamIntegration(value: unknown): value is SeamIntegration {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

class Registration<S> implements SeamRegistration<S> {
  #active = true;
  constructor(
    readonly kind: SeamProviderKind,
    readonly scope: SeamScope,
    readonly service: S,
  ) {}
  get active(): boolean {
    return this.#active;
  }
  release(): void {
    this.#active = false;
  }
}

function checkScope(scope: unknown): asserts scope is SeamScope {
  if (typeof scope !== 'string' || !SCOPE.test(scope)) {
    throw new TypeError(
      `seam scope must be 'global' or an owner id (an agent qualifiedName), got ${JSON.stringify(scope)}`,
    );
  }
}

function checkService(kind: SeamProviderKind, service: unknown): void {
  const label = kind === 'tool' ? 'registerToolService' : 'registerSkillService';
  if (typeof service !== 'object' || service === null) throw new TypeError(`${label}() expects a service object`);
  const { id, description } = service as { id?: unknown; description?: unknown };
  if (typeof id !== 'string' || id.trim() === '')
    throw new TypeError(`${label}(): service \`id\` must be a non-empty string`);
  if (typeof description !== 'string')
    throw new TypeError(`${label}(): service "${id}" needs a \`description\` string`);
  const methods = kind === 'tool' ? ['schema', 'execute'] : ['catalog', 'describe'];
  for (const method of methods) {
    if (typeof (service as Record<string, unknown>)[method] !== 'function') {
      throw new TypeError(`${label}(): service "${id}" has no ${method}() method`);
    }
  }
}

export class SeamIntegration {
  readonly [BRAND] = true;
  readonly #tools = new Map<string, Map<string, Registration<ToolService>>>();
  readonly #skills = new Map<string, Map<string, Registration<SkillService>>>();
  #disposed = false;
  #projectedBy: number | undefined;

  get disposed(): boolean {
    return this.#disposed;
  }

  registerToolService(scope: SeamScope, service: ToolService): SeamDisposer {
    return this.#register('tool', this.#tools, scope, service);
  }

  registerSkillService(scope: SeamScope, service: SkillService): SeamDisposer {
    return this.#register('skill', this.#skills, scope, service);
  }

  /** Releases every registration (idempotent). Hand this to the resource disposer. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const byScope of [this.#tools, this.#skills]) {
      for (const registrations of byScope.values())
        for (const registration of registrations.values()) registration.release();
      byScope.clear();
    }
  }

  /**
   * Legacy: there is no execution channel beside the turn pipeline. Resolves to a fail-closed
   * migration error and never reaches a provider.
   */
  executeTool(toolName: string, _input?: unknown): Promise<ToolExecutionResult> {
    const name = String(toolName);
    return Promise.resolve({
      success: false as const,
      error:
        `SeamIntegration.executeTool("${name}") is not supported: seam tools run only through the turn tool pipeline ` +
        `(generation → permission → approval → journal). Call turn.execute("${name}", input) on a turn from host.beginTurn().`,
    });
  }

  /** Legacy: a skill is a catalog entry, not a function. Resolves to a fail-closed migration error. */
  invokeSkill(skillName: string, _input?: unknown): Promise<ToolExecutionResult> {
    const name = String(skillName);
    return Promise.resolve({
      success: false as const,
      error:
        `SeamIntegration.invokeSkill("${name}") is not supported: seam skills are declarative catalog entries. ` +
        `Load "${name}" in a turn (load_skill, or generation.skillTable.describe("${name}")) and run its tools with turn.execute() through the turn tool pipeline.`,
    });
  }

  /**
   * Internal (seam/projection.ts): the one generation this integration is projected into claims
   * it and reads its registrations. A second claim (a module-level integration reused by the next
   * generation) or a disposed integration fails the candidate, loudly.
   */
  [SEAM_SNAPSHOT](generation: number): SeamSnapshot {
    if (this.#disposed) throw new Error('the SeamIntegration provided as capabilitySeamToken is already disposed');
    if (this.#projectedBy !== undefined) {
      throw new Error(
        `the SeamIntegration was already projected into generation ${this.#projectedBy}; create a new one in setup() for every generation`,
      );
    }
    this.#projectedBy = generation;
    const flatten = <S>(byScope: Map<string, Map<string, Registration<S>>>) =>
      Object.freeze([...byScope.values()].flatMap((registrations) => [...registrations.values()]));
    return Object.freeze({ tools: flatten(this.#tools), skills: flatten(this.#skills) });
  }

  #register<S>(
    kind: SeamProviderKind,
    byScope: Map<string, Map<string, Registration<S>>>,
    scope: SeamScope,
    service: S,
  ): SeamDisposer {
    if (this.#disposed) throw new Error(`cannot register a ${kind} service: the SeamIntegration is disposed`);
    checkScope(scope);
    checkService(kind, service);
    const id = (service as { id: string }).id;
    const registrations = byScope.get(scope) ?? new Map<string, Registration<S>>();
    if (registrations.has(id)) throw new Error(`${kind} service "${id}" is already registered in scope "${scope}"`);
    const registration = new Registration(kind, scope, service);
    registrations.set(id, registration);
    byScope.set(scope, registrations);
    return () => {
      registration.release();
      // Only its own entry: a later registration with the same id must survive an old disposer.
      if (registrations.get(id) === registration) registrations.delete(id);
    };
  }
}
