/**
 * Disclosure as stages, from real turns: the turn start of a platform, each agent selected on it,
 * and each skill loaded on top of either (docs/catalog.md "Disclosure"). Every stage is a fresh
 * turn in its own session, so what one stage loads never shows in another. A stage records what
 * it adds to its parent's listing, and which capabilities it discloses that access withholds
 * from this principal (with the runtime's reason).
 */
import type { CapabilityHost, CapabilityManifest, Omission, Turn, TurnListing } from '@zhin-gen/runtime';
import { beginTurn, messageOf, type Principal } from './host.js';

export interface Withheld {
  readonly name: string;
  readonly kind: 'tool' | 'skill';
  readonly detail: string;
}

export interface Stage {
  readonly id: number;
  readonly kind: 'turn-start' | 'agent' | 'skill';
  readonly parent: number | null;
  /** The selected agent's qualifiedName (also when the platform auto-selected it). */
  readonly agent: string | null;
  readonly auto: boolean;
  readonly skill: string | null;
  /** Tools listed, in full for the turn start, else what this stage adds and removes. */
  readonly tools: readonly string[];
  readonly removed: readonly string[];
  readonly toolCount: number;
  readonly skills: readonly string[];
  readonly agents: readonly string[];
  readonly withheld: readonly Withheld[];
  /** The turn could not begin, or the skill could not be loaded (the runtime's message). */
  readonly error: string | null;
}

export interface StageSet {
  readonly principal: Principal;
  readonly stages: readonly Stage[];
}

const ACCESS_CODES = new Set(['platform', 'scope', 'permission', 'no-message']);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface Observed {
  readonly listing: TurnListing;
  readonly omissions: readonly Omission[];
  readonly agent: string | null;
  readonly auto: boolean;
}

async function observe(turn: Turn): Promise<Observed> {
  const [listing, omissions] = await Promise.all([turn.deferred.listing(), turn.deferred.omissions()]);
  return { listing, omissions, agent: turn.agent ?? null, auto: turn.agentSelection === 'platform' };
}

/** The principal stages are shown for: the widest of the matrix (its last role, scope group if chosen). */
export function stagePrincipals(principals: readonly Principal[]): Principal[] {
  if (principals.length === 0) return [];
  const scopes = [...new Set(principals.map((p) => p.scope))];
  const scope = scopes.includes('group') ? 'group' : scopes[0]!;
  const role = principals[principals.length - 1]!.role;
  return [...new Set(principals.map((p) => p.platform))].map((platform) => ({ platform, scope, role }));
}

export async function collectStages(
  host: CapabilityHost,
  manifest: CapabilityManifest,
  principals: readonly Principal[],
): Promise<StageSet[]> {
  const sets: StageSet[] = [];
  for (const principal of stagePrincipals(principals)) {
    const stages: Stage[] = [];
    const message = messageOf(principal);
    const add = (
      kind: Stage['kind'],
      parent: { stage: Stage; seen: Observed } | null,
      seen: Observed | string,
      skill: string | null,
      agent: string | null,
    ): Stage => {
      const base = { id: stages.length, kind, parent: parent?.stage.id ?? null, skill };
      let stage: Stage;
      if (typeof seen === 'string') {
        stage = {
          ...base,
          agent,
          auto: false,
          tools: [],
          removed: [],
          toolCount: 0,
          skills: [],
          agents: [],
          withheld: [],
          error: seen,
        };
      } else {
        const names = seen.listing.tools.map((t) => t.name);
        const before = new Set(parent?.seen.listing.tools.map((t) => t.name) ?? []);
        const now = new Set(names);
        const beforeSkills = new Set(parent?.seen.listing.skills.map((s) => s.name) ?? []);
        const withheldBefore = new Set(parent?.seen.omissions.map((o) => `${o.kind}:${o.name}`) ?? []);
        stage = {
          ...base,
          agent: seen.agent,
          auto: seen.auto,
          tools: parent ? names.filter((n) => !before.has(n)) : names,
          removed: [...before].filter((n) => !now.has(n)),
          toolCount: names.length,
          skills: seen.listing.skills.map((s) => s.name).filter((n) => !beforeSkills.has(n)),
          agents: parent ? [] : seen.listing.agents.map((a) => a.name),
          withheld: seen.omissions
            .filter((o) => ACCESS_CODES.has(o.reason.code) && !withheldBefore.has(`${o.kind}:${o.name}`))
            .map((o) => ({ name: o.name, kind: o.kind, detail: o.reason.detail })),
          error: null,
        };
      }
      stages.push(stage);
      return stage;
    };
    /** A stage with its skills: each listed skill it adds, loaded in a fresh turn of the same agent. */
    const withSkills = async (kind: 'turn-start' | 'agent', agent: string | undefined, parent: Observed | null) => {
      let seen: Observed;
      try {
        const turn = await beginTurn(host, { message, ...(agent ? { agent } : {}) });
        try {
          seen = await observe(turn);
        } finally {
          await turn.end();
        }
      } catch (error) {
        add(kind, null, errorText(error), null, agent ?? null);
        return undefined;
      }
      const stage = add(
        kind,
        parent && stages[0] ? { stage: stages[0], seen: parent } : null,
        seen,
        null,
        agent ?? null,
      );
      for (const skill of stage.skills) {
        const turn = await beginTurn(host, { message, ...(seen.agent ? { agent: seen.agent } : {}) });
        try {
          await turn.deferred.loadSkill(skill);
          add('skill', { stage, seen }, await observe(turn), skill, seen.agent);
        } catch (error) {
          add('skill', { stage, seen }, errorText(error), skill, seen.agent);
        } finally {
          await turn.end();
        }
      }
      return seen;
    };
    const start = await withSkills('turn-start', undefined, null);
    for (const agent of manifest.agents) {
      // A platform agent serves only its own adapters' turns (docs/catalog.md "Agent selection").
      if (agent.platforms.length > 0 && !agent.platforms.includes(principal.platform)) continue;
      if (start?.agent === agent.qualifiedName) continue;
      await withSkills('agent', agent.qualifiedName, start ?? null);
    }
    sets.push({ principal, stages });
  }
  return sets;
}
