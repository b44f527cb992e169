/**
 * CapabilityIngress for the seam: reads the root's `capabilitySeamToken` from the
 * candidate's resources after plugin `setup()` and projects every visible provider into the
 * same capability tables as compiled features — tools into the tool table (source `seam`),
 * skills into the skill table. From then on there is nothing seam-specific about them: the turn
 * pipeline, disclosure and catalogs treat them like any other entry.
 *
 * Visibility: a `global` provider is plugin-placed (every turn); a provider registered for an
 * owner (an agent qualifiedName) becomes that agent's private capability, named like an
 * agent-private tool (docs/authoring.md), and hides the global provider with the
 * same id from that agent's turns. Duplicate names among the providers one owner sees, a clash
 * with a feature name, or a bad schema reject the candidate.
 */
import { ToolUnavailableError } from '../turn/ask-user.js';
import { type ExecutableTool, type SeamOrigin, type ToolBinding, describeError } from '../generation/capability.js';
import type { ResourceToken } from '../contract/define.js';
import { createToken } from '../contract/define.js';
import type { CandidateBuilder } from '../generation/generation.js';
import { isLiveCall } from '../turn/live-calls.js';
import type { ManifestAgent } from '../contract/manifest.js';
import { foldName, qualify } from '../contract/names.js';
import type { SkillEntry } from '../generation/skills.js';
import { builtinValidatorFor } from '../validators/builtin.js';
import { type SeamSkillSpec, type SeamToolSpec, checkSkillEntry, checkToolSchema } from './check.js';
import {
  SEAM_SNAPSHOT,
  type SeamRegistration,
  capabilitySeamToken,
  isSeamIntegration,
  seamIntegrationToken,
} from './integration.js';
import type { SkillService, ToolExecutionResult, ToolService } from './types.js';

export interface SeamProjectionOptions {
  /** Owners that ran `setup()` beside the manifest's plugins (the host's `load({ plugins })`). */
  readonly owners?: readonly string[];
  /** Non-fatal notices (a root still providing the legacy token). */
  readonly onError?: (error: Error) => void;
}

/** Lives as long as the generation: released by a resource disposer when it is disposed. */
interface ProjectionState {
  readonly generation: number;
  released: boolean;
}

const projectionToken: ResourceToken<ProjectionState> = createToken<ProjectionState>('capabilitySeam projection');

interface Projected<Spec, S> {
  readonly registration: SeamRegistration<S>;
  readonly provider: string;
  readonly specs: readonly Spec[];
}

function tryUse<T>(candidate: CandidateBuilder, owner: string, token: ResourceToken<T>): T | undefined {
  try {
    return candidate.resources.use(owner, token);
  } catch {
    return undefined;
  }
}

function origin(
  registration: SeamRegistration<{ readonly id: string }>,
  name: string,
  source: string | undefined,
): SeamOrigin {
  const mcp = source?.startsWith('mcp:') ? source.slice(4) : '';
  return Object.freeze({
    provider: registration.service.id,
    scope: registration.scope,
    name,
    ...(source !== undefined ? { source } : {}),
    ...(mcp !== '' ? { mcpServer: mcp } : {}),
  });
}

/** Reads every provider once (schema / catalog for its scope) and validates the result. */
async function read<Spec, S extends { readonly id: string }>(
  registrations: readonly SeamRegistration<S>[],
  kind: 'tool' | 'skill',
  list: (service: S, scope: string) => unknown,
  check: (provider: string, item: never) => Spec & { readonly name: string },
): Promise<Projected<Spec & { readonly name: string }, S>[]> {
  const out: Projected<Spec & { readonly name: string }, S>[] = [];
  for (const registration of registrations) {
    const provider = registration.service.id;
    const method = kind === 'tool' ? 'schema()' : 'catalog()';
    let items: unknown;
    try {
      items = await list(registration.service, registration.scope);
    } catch (error) {
      throw new Error(
        `${kind} provider "${provider}" (scope ${registration.scope}): ${method} failed: ${describeError(error)}`,
        { cause: error },
      );
    }
    if (!Array.isArray(items))
      throw new TypeError(
        `${kind} provider "${provider}" (scope ${registration.scope}): ${method} must return an array`,
      );
    const specs = items.map((item) => check(provider, item as never));
    const names = new Set<string>();
    for (const spec of specs) {
      if (names.has(foldName(spec.name))) throw new Error(`${kind} provider "${provider}" offers "${spec.name}" twice`);
      names.add(foldName(spec.name));
    }
    out.push({ registration, provider, specs });
  }
  return out;
}

/**
 * Per owner: its own providers plus the global ones it did not replace. Throws when two visible
 * providers offer one name (after case folding). Returns, per global provider id, the owners
 * that replaced it.
 */
function checkViews<Spec extends { readonly name: string }, S>(
  kind: 'tool' | 'skill',
  projected: readonly Projected<Spec, S>[],
  owners: readonly string[],
): Map<string, string[]> {
  const global = projected.filter((p) => p.registration.scope === 'global');
  const replaced = new Map<string, string[]>();
  const views: [string, Projected<Spec, S>[]][] = [['every owner', global]];
  for (const owner of owners) {
    const own = projected.filter((p) => p.registration.scope === owner);
    const ids = new Set(own.map((p) => p.provider));
    for (const id of ids)
      if (global.some((p) => p.provider === id)) replaced.set(id, [...(replaced.get(id) ?? []), owner]);
    views.push([`owner "${owner}"`, [...own, ...global.filter((p) => !ids.has(p.provider))]]);
  }
  for (const [label, visible] of views) {
    const seen = new Map<string, Projected<Spec, S>>();
    for (const p of visible) {
      for (const spec of p.specs) {
        const other = seen.get(foldName(spec.name));
        if (other) {
          throw new Error(
            `seam ${kind} name "${spec.name}" is offered by two providers visible to ${label}: ` +
              `"${other.provider}" (scope ${other.registration.scope}) and "${p.provider}" (scope ${p.registration.scope})`,
          );
        }
        seen.set(foldName(spec.name), p);
      }
    }
  }
  return replaced;
}

function isResult(value: unknown): value is ToolExecutionResult {
  if (typeof value !== 'object' || value === null) return false;
  const { success, error } = value as { success?: unknown; error?: unknown };
  return success === true || (success === false && typeof error === 'string');
}

function seamExecutable(
  registration: SeamRegistration<ToolService>,
  name: string,
  state: ProjectionState,
): ExecutableTool {
  const provider = registration.service.id;
  return Object.freeze({
    async execute(input: unknown, context: Parameters<ExecutableTool['execute']>[1]): Promise<unknown> {
      // Checked on every call: the provider is reachable only from a running pipeline call of
      // its own, still-alive generation, and only while its registration is not disposed.
      if (state.released)
        throw new ToolUnavailableError(
          `seam tool "${name}" of provider "${provider}" is unavailable: its generation ${state.generation} was disposed`,
        );
      if (!isLiveCall(context) || context.generation !== state.generation) {
        throw new ToolUnavailableError(
          `seam tool "${name}" of provider "${provider}" runs only inside a turn tool call (turn.execute)`,
        );
      }
      if (!registration.active)
        throw new ToolUnavailableError(`seam tool "${name}" is unavailable: provider "${provider}" was released`);
      const result: unknown = await registration.service.execute(registration.scope, name, input, context);
      if (!isResult(result))
        throw new Error(`provider "${provider}" returned no valid ToolExecutionResult for "${name}"`);
      if (result.success) return result.output;
      throw Object.assign(new Error(result.error), { retryable: result.retryable === true });
    },
  });
}

function toolBinding(
  spec: SeamToolSpec,
  registration: SeamRegistration<ToolService>,
  agent: ManifestAgent | undefined,
  except: readonly string[],
  state: ProjectionState,
): ToolBinding {
  const executable = seamExecutable(registration, spec.name, state);
  // A provider's JSON Schema: a built-in validator when it is one of the runtime's own schemas,
  // otherwise the host's jsonSchemaValidator (CandidateBuilder.addTool refuses the tool without).
  const validator = builtinValidatorFor(spec.inputSchema);
  return Object.freeze({
    qualifiedName: agent ? qualify(agent.owner, agent.name, spec.name) : spec.name,
    localName: spec.name,
    owner: agent?.owner ?? '',
    source: 'seam' as const,
    placement: agent ? ('agent' as const) : ('plugin' as const),
    ...(agent ? { agent: agent.name } : {}),
    description: spec.description,
    inputSchema: spec.inputSchema,
    inputCheck: 'json' as const,
    ...(validator ? { validator } : {}),
    requiresApproval: spec.requiresApproval,
    platforms: spec.platforms,
    scopes: spec.scopes,
    permissions: spec.permissions,
    hidden: spec.hidden,
    keywords: spec.keywords,
    seam: origin(registration, spec.name, spec.source),
    ...(except.length > 0 ? { exceptAgents: Object.freeze([...except]) } : {}),
    resolve: () => Promise.resolve(executable),
  });
}

function skillEntry(
  spec: SeamSkillSpec,
  registration: SeamRegistration<SkillService>,
  agent: ManifestAgent | undefined,
  except: readonly string[],
  state: ProjectionState,
): SkillEntry {
  const provider = registration.service.id;
  return Object.freeze({
    qualifiedName: agent ? qualify(agent.owner, agent.name, spec.name) : spec.name,
    name: spec.name,
    owner: agent?.owner ?? '',
    ...(agent ? { agent: agent.name } : {}),
    description: spec.description,
    tools: Object.freeze([]),
    platforms: spec.platforms,
    scopes: spec.scopes,
    permissions: spec.permissions,
    keywords: spec.keywords,
    tags: spec.tags,
    always: false,
    source: 'seam' as const,
    seam: origin(registration, spec.name, spec.source),
    ...(except.length > 0 ? { exceptAgents: Object.freeze([...except]) } : {}),
    available: () => !state.released && registration.active,
    async instructions(): Promise<string> {
      if (state.released)
        throw new Error(`seam skill "${spec.name}" is unavailable: its generation ${state.generation} was disposed`);
      if (!registration.active)
        throw new Error(`seam skill "${spec.name}" is unavailable: provider "${provider}" was released`);
      const text: unknown = await registration.service.describe(registration.scope, spec.name);
      if (typeof text !== 'string')
        throw new TypeError(`skill provider "${provider}" returned no instructions for "${spec.name}"`);
      return text;
    },
  });
}

/** Projects the root's seam (if any) into the candidate. Throws to reject the candidate. */
export async function projectCapabilitySeam(
  candidate: CandidateBuilder,
  options: SeamProjectionOptions = {},
): Promise<void> {
  try {
    await project(candidate, options);
  } catch (error) {
    throw new Error(`capability seam: ${describeError(error)}`, { cause: error });
  }
}

async function project(candidate: CandidateBuilder, options: SeamProjectionOptions): Promise<void> {
  const seams = tryUse(candidate, '', capabilitySeamToken);
  const owners = new Set([...candidate.manifest.plugins.map((plugin) => plugin.owner), ...(options.owners ?? [])]);
  for (const owner of owners) {
    if (owner !== '' && tryUse(candidate, owner, capabilitySeamToken) !== seams) {
      throw new Error(
        `capabilitySeamToken is a root resource; plugin "${owner}" provided it (move it to the root plugin's setup())`,
      );
    }
  }
  if (tryUse(candidate, '', seamIntegrationToken) !== undefined) {
    options.onError?.(
      new Error(
        'the root plugin provides the legacy seamIntegrationToken, which nothing consumes; provide capabilitySeamToken instead (docs/seam.md)',
      ),
    );
  }
  if (seams === undefined) return;
  if (!isSeamIntegration(seams)) throw new TypeError('capabilitySeamToken must be provided with a SeamIntegration');

  const snapshot = seams[SEAM_SNAPSHOT](candidate.id);
  const state: ProjectionState = { generation: candidate.id, released: false };
  // Resource disposers run newest first: this one, after setup's, runs before seams.dispose().
  candidate.resources.provide('', projectionToken, state, () => void (state.released = true));

  const agents = new Map(candidate.manifest.agents.map((agent) => [agent.qualifiedName, agent]));
  const scoped = [
    ...new Set([...snapshot.tools, ...snapshot.skills].map((r) => r.scope).filter((s) => s !== 'global')),
  ].sort();
  for (const scope of scoped) {
    if (!agents.has(scope)) {
      const known = [...agents.keys()].join(', ') || 'none';
      throw new Error(
        `seam providers are registered for owner "${scope}", which is not an agent of this generation (agents: ${known})`,
      );
    }
  }

  const tools = await read(snapshot.tools, 'tool', (s, scope) => s.schema(scope), checkToolSchema);
  const skills = await read(snapshot.skills, 'skill', (s, scope) => s.catalog(scope), checkSkillEntry);
  const toolsReplaced = checkViews('tool', tools, scoped);
  const skillsReplaced = checkViews('skill', skills, scoped);

  for (const { registration, provider, specs } of tools) {
    const agent = registration.scope === 'global' ? undefined : agents.get(registration.scope);
    const except = agent ? [] : (toolsReplaced.get(provider) ?? []);
    for (const spec of specs) candidate.addTool(toolBinding(spec, registration, agent, except, state));
  }
  for (const { registration, provider, specs } of skills) {
    const agent = registration.scope === 'global' ? undefined : agents.get(registration.scope);
    const except = agent ? [] : (skillsReplaced.get(provider) ?? []);
    for (const spec of specs) candidate.skillTable.add(skillEntry(spec, registration, agent, except, state));
  }
}
