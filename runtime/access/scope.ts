/**
 * Which placements are active in a turn (docs/authoring.md, docs/catalog.md): plugin-placed capabilities always;
 * agent-placed ones when that agent is selected; skill-placed ones when that skill is active;
 * agent-skill ones when both hold. Tools outside the turn's scope are answered like unknown
 * tools, and hooks outside it do not run.
 */
import type { ManifestAgent, ToolPlacement } from '../contract/manifest.js';
import { skillQualifiedName } from '../contract/names.js';

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

function agentSelected(item: Placed, scope: TurnScope): boolean {
  return scope.agent !== undefined && scope.agent.owner === item.owner && scope.agent.name === item.agent;
}

export function isInScope(item: Placed, scope: TurnScope): boolean {
  if (scope.agent && item.exceptAgents?.includes(scope.agent.qualifiedName)) return false;
  switch (item.placement) {
    case 'plugin':
      return true;
    case 'agent':
      return agentSelected(item, scope);
    case 'skill':
      return item.skill !== undefined && scope.activeSkills.has(skillQualifiedName(item.owner, item.skill));
    case 'agent-skill':
      return (
        agentSelected(item, scope) &&
        item.skill !== undefined &&
        scope.activeSkills.has(skillQualifiedName(item.owner, item.skill, item.agent))
      );
    default:
      return false;
  }
}
