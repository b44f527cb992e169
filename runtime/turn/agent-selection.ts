/**
 * Which agent a turn runs as (docs/authoring.md, docs/catalog.md).
 *
 * - `beginTurn({ agent })` selects explicitly (unknown → AgentUnavailableError). Explicit
 *   selection is also how a user resolves two platform candidates. A platform agent cannot be
 *   selected explicitly for an IM turn from an adapter it does not serve (the same error, with
 *   the same message as an unknown one): other platforms never see its private skills.
 * - Otherwise, for IM turns, the platform agent whose `platforms` lists the adapter is selected;
 *   two or more candidates are a routing error naming them all.
 * - Non-IM turns (no access message) never auto-select.
 */
import type { Generation } from '../generation/generation.js';
import type { ManifestAgent } from '../contract/manifest.js';
import type { ImMessage } from '../access/permissions.js';

export type AgentSelection = 'explicit' | 'platform' | 'none';

export class AgentRoutingError extends Error {
  override readonly name = 'AgentRoutingError';
  constructor(
    readonly platform: string,
    readonly candidates: readonly string[],
  ) {
    super(
      `agent routing conflict: platform "${platform}" has ${candidates.length} platform agents (${candidates.map((c) => `"${c}"`).join(', ')}); merge them or select one explicitly with beginTurn({ agent })`,
    );
  }
}

/**
 * `beginTurn({ agent })` named an agent this turn cannot run as: none of that name, or a platform
 * agent of other adapters. The message is the same for both on an IM turn ("not available for a
 * "discord" turn"), so a host that relays it to the user reveals neither that an agent exists on
 * another platform nor which platforms it serves; `reason` and `platforms` tell the host's logs.
 */
export class AgentUnavailableError extends Error {
  override readonly name = 'AgentUnavailableError';
  constructor(
    readonly agent: string,
    readonly reason: 'unknown' | 'platform',
    /** The adapter of the turn (an IM turn), if any. */
    readonly adapter: string | undefined,
    /** `reason: 'platform'`: the platforms the agent serves. */
    readonly platforms: readonly string[] = [],
  ) {
    super(
      adapter === undefined ? `unknown agent "${agent}"` : `agent "${agent}" is not available for a "${adapter}" turn`,
    );
  }
}

export interface SelectedAgent {
  readonly agent: ManifestAgent | undefined;
  readonly selection: AgentSelection;
}

/** `platformAgents` maps adapter → platform agents (precomputed per generation). */
export function selectAgent(
  generation: Generation,
  platformAgents: ReadonlyMap<string, readonly ManifestAgent[]>,
  explicit: string | undefined,
  accessMessage: ImMessage | undefined,
): SelectedAgent {
  const adapter = accessMessage === undefined ? undefined : String(accessMessage.$adapter);
  if (explicit !== undefined) {
    const agent = generation.agents.get(explicit);
    if (!agent) throw new AgentUnavailableError(explicit, 'unknown', adapter);
    if (adapter !== undefined && agent.platforms.length > 0 && !agent.platforms.includes(adapter))
      throw new AgentUnavailableError(explicit, 'platform', adapter, agent.platforms);
    return { agent, selection: 'explicit' };
  }
  if (adapter === undefined) return { agent: undefined, selection: 'none' };
  const candidates = platformAgents.get(adapter) ?? [];
  if (candidates.length > 1)
    throw new AgentRoutingError(
      adapter,
      candidates.map((agent) => agent.qualifiedName),
    );
  return candidates.length === 1
    ? { agent: candidates[0], selection: 'platform' }
    : { agent: undefined, selection: 'none' };
}
