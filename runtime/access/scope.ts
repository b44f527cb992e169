/**
 * Which placements are active in a turn (docs/authoring.md, docs/catalog.md): plugin-placed
 * capabilities always; agent-placed ones when that agent is selected; skill-placed ones when that
 * skill is active; agent-skill ones when both hold; none for an agent a scoped seam provider
 * replaced them for. This is the one reading of `placement`: the access decision's first step
 * (decision.ts), hooks (which run only in scope) and the catalog's disclosure all use it. Tools
 * outside the turn's scope are answered like unknown tools, and hooks outside it do not run.
 */
import type { ManifestAgent, ToolPlacement } from '../contract/manifest.js';
import { enclosingNames, qualify, skillQualifiedName } from '../contract/names.js';
import { ADMITTED, type AccessDecision, denied } from './reasons.js';

export interface Placed {
  readonly owner: string;
  readonly placement: ToolPlacement;
  readonly agent?: string;
  readonly skill?: string;
  /** Agent qualifiedNames whose turns do not see it (a scoped seam provider replaced its provider). */
  readonly exceptAgents?: readonly string[];
}

export interface TurnScope {
  /** The selected agent, if any. */
  readonly agent?: ManifestAgent;
  /** qualifiedNames of the skills active in this turn. */
  readonly activeSkills: ReadonlySet<string>;
}

/** When a placed capability becomes part of a turn: what must be selected or loaded first. */
export type Disclosure =
  | { readonly kind: 'plugin' }
  | { readonly kind: 'agent'; readonly agent: string }
  | { readonly kind: 'skill'; readonly skill: string; readonly agent?: string };

const PLUGIN_DISCLOSURE: Disclosure = Object.freeze({ kind: 'plugin' });

function agentSelected(owner: string, agent: string | undefined, scope: TurnScope): boolean {
  return scope.agent !== undefined && scope.agent.owner === owner && scope.agent.name === agent;
}

/**
 * A placement, read once per item: what must be selected or loaded, and the denials that depend
 * on the item alone (built here, never per turn). `decide` is step 1 of the access decision.
 */
export class Placement {
  readonly #placement: string;
  readonly #owner: string;
  readonly #agent: string | undefined;
  /** The qualifiedName of the skill that must be loaded (skill and agent-skill placements). */
  readonly #skill: string | undefined;
  readonly #exceptAgents: readonly string[] | undefined;
  readonly #agentDenied: AccessDecision;
  readonly #skillDenied: AccessDecision;
  readonly disclosure: Disclosure;

  constructor(item: Placed) {
    this.#placement = String(item.placement);
    this.#owner = item.owner;
    this.#agent = item.agent;
    this.#exceptAgents = item.exceptAgents?.length ? item.exceptAgents : undefined;
    const names = enclosingNames(item);
    const agent = names.agent ?? qualify(item.owner, item.agent ?? '');
    const agentSkill = item.placement === 'agent-skill';
    const skill = names.skill ?? skillQualifiedName(item.owner, '');
    // A skill placement without a skill name waits for a skill no turn can load (fail closed).
    this.#skill = item.skill === undefined ? undefined : skill;
    this.disclosure =
      item.placement === 'agent'
        ? Object.freeze({ kind: 'agent', agent })
        : item.placement === 'skill' || agentSkill
          ? Object.freeze({ kind: 'skill', skill, ...(agentSkill ? { agent } : {}) })
          : PLUGIN_DISCLOSURE;
    this.#agentDenied = denied({
      code: 'agent-not-selected',
      agent,
      detail: `not yet disclosed: agent ${agent} is not selected`,
    });
    this.#skillDenied =
      item.placement === 'skill' || agentSkill
        ? denied({ code: 'skill-not-loaded', skill, detail: `not yet disclosed: skill ${skill} is not loaded` })
        : denied({
            code: 'unknown-placement',
            placement: this.#placement,
            detail: `placement "${this.#placement}" is not one the runtime knows; never disclosed`,
          });
    Object.freeze(this);
  }

  /** Is the item in this turn's scope, and if not, why. */
  decide(scope: TurnScope): AccessDecision {
    const selected = scope.agent;
    if (
      this.#exceptAgents !== undefined &&
      selected !== undefined &&
      this.#exceptAgents.includes(selected.qualifiedName)
    ) {
      return denied({
        code: 'excluded-for-agent',
        agent: selected.qualifiedName,
        detail: `replaced for agent ${selected.qualifiedName} by a scoped provider`,
      });
    }
    switch (this.#placement) {
      case 'plugin':
        return ADMITTED;
      case 'agent':
        return agentSelected(this.#owner, this.#agent, scope) ? ADMITTED : this.#agentDenied;
      case 'skill':
        return this.#skill !== undefined && scope.activeSkills.has(this.#skill) ? ADMITTED : this.#skillDenied;
      case 'agent-skill':
        if (!agentSelected(this.#owner, this.#agent, scope)) return this.#agentDenied;
        return this.#skill !== undefined && scope.activeSkills.has(this.#skill) ? ADMITTED : this.#skillDenied;
      default:
        return this.#skillDenied;
    }
  }
}

/** Plugin-placed items not replaced for any agent (most of them) share one placement. */
const EVERYWHERE = new Placement({ owner: '', placement: 'plugin' });
// Placed items are frozen, long-lived bindings, hooks and skills: read once, dropped with them.
const placements = new WeakMap<Placed, Placement>();
/**
 * Items placed alike share one Placement (it reads only the fields of the key): the tools of one
 * skill or agent are thousands at 20,000 tools, and building each its own names and denials was
 * a fifth of a fresh process's first listing. Bounded; started over beyond.
 */
const alike = new Map<string, Placement>();
const MAX_ALIKE = 4096;

function placementKey(item: Placed): string {
  // `null` for an absent agent or skill: distinct from any name, the empty one included.
  return JSON.stringify([item.placement, item.owner, item.agent ?? null, item.skill ?? null, item.exceptAgents ?? []]);
}

export function placementOf(item: Placed): Placement {
  if (item.placement === 'plugin' && !item.exceptAgents?.length) return EVERYWHERE;
  let placement = placements.get(item);
  if (!placement) {
    const key = placementKey(item);
    placement = alike.get(key);
    if (placement === undefined) {
      if (alike.size >= MAX_ALIKE) alike.clear();
      placement = new Placement(item);
      alike.set(key, placement);
    }
    placements.set(item, placement);
  }
  return placement;
}

/** When `item` is disclosed (for the operator views; the decision itself is `Placement.decide`). */
export function disclosureOf(item: Placed): Disclosure {
  return placementOf(item).disclosure;
}

/** Step 1 of the access decision for one item. */
export function placementDecision(item: Placed, scope: TurnScope): AccessDecision {
  return placementOf(item).decide(scope);
}

/** A skill as placements see it: an agent-private skill is agent-placed, every other one plugin-placed. */
export interface PlacedSkill {
  readonly owner: string;
  readonly agent?: string;
  readonly exceptAgents?: readonly string[];
}

const skillPlacements = new WeakMap<PlacedSkill, Placement>();

export function skillPlacement(skill: PlacedSkill): Placement {
  if (skill.agent === undefined && !skill.exceptAgents?.length) return EVERYWHERE;
  let placement = skillPlacements.get(skill);
  if (!placement) {
    placement = new Placement({
      owner: skill.owner,
      placement: skill.agent === undefined ? 'plugin' : 'agent',
      ...(skill.agent !== undefined ? { agent: skill.agent } : {}),
      ...(skill.exceptAgents !== undefined ? { exceptAgents: skill.exceptAgents } : {}),
    });
    skillPlacements.set(skill, placement);
  }
  return placement;
}

export function isInScope(item: Placed, scope: TurnScope): boolean {
  return placementOf(item).decide(scope).admitted;
}
