/**
 * Disclosure (docs/catalog.md): what exists for the model in one turn.
 *
 * - disclosed: plugin-placed tools always; agent-private tools and skills once the agent is
 *   selected; skill-private tools once the skill is loaded (`isInScope` / `isSkillInScope`);
 * - admitted: `canAccessTool` for the turn's message and permission host;
 * - listed: disclosed, admitted, not `hidden`, and for `ask_user` only when the turn can ask.
 *
 * Access is decided once per distinct restriction signature per turn (tools with equal
 * platforms/scopes/permissions share a signature, most share "unrestricted"), lazily, so a turn
 * pays for the signatures it actually touches, not for every tool. Decisions are not shared
 * across turns: permission checkers may depend on live state (a group admin list).
 */
import { canAccessTool, isUnrestricted, type AccessRestrictions } from './access.js';
import { ASK_USER } from '../turn/ask-user.js';
import type { CatalogSkill, CatalogTool, GenerationCatalog } from '../deferred/catalog.js';
import { toPermissionSubject, type ImMessage, type PermissionHost } from './permissions.js';
import { isInScope, type TurnScope } from './scope.js';
import { isSkillInScope } from '../generation/skills.js';

/** Why a capability is not in a turn's lists (operator-facing: `zhin-gen catalog`, never the model). */
export type OmissionReason =
  | { readonly code: 'agent-not-selected'; readonly agent: string; readonly detail: string }
  | { readonly code: 'skill-not-loaded'; readonly skill: string; readonly detail: string }
  | { readonly code: 'excluded-for-agent'; readonly agent: string; readonly detail: string }
  | { readonly code: 'no-message'; readonly detail: string }
  | {
      readonly code: 'platform';
      readonly platforms: readonly string[];
      readonly actual: string;
      readonly detail: string;
    }
  | { readonly code: 'scope'; readonly scopes: readonly string[]; readonly actual: string; readonly detail: string }
  | { readonly code: 'permission'; readonly permit: string; readonly detail: string }
  | { readonly code: 'hidden'; readonly detail: string }
  | { readonly code: 'no-question-port'; readonly detail: string };

/** What disclosure needs from a turn. `message` is set only for IM turns (as for execution). */
export interface DisclosureView {
  readonly scope: TurnScope;
  readonly message: ImMessage | undefined;
  readonly permissions: PermissionHost | undefined;
  /** An attended turn with a QuestionPort: only then is `ask_user` offered. */
  readonly canAsk: boolean;
}

/** Per-turn, per-signature access memo. */
export class TurnAdmission {
  readonly #decided: (boolean | undefined)[] = [];
  readonly #pending = new Map<number, Promise<boolean>>();

  constructor(
    private readonly catalog: GenerationCatalog,
    private readonly view: DisclosureView,
  ) {}

  /** Synchronous when the answer is known or needs no permission check. */
  admits(signature: number): boolean | Promise<boolean> {
    const known = this.#decided[signature];
    if (known !== undefined) return known;
    const restrictions = this.catalog.signatures[signature]!;
    if (isUnrestricted(restrictions) || !restrictions.permissions?.length) {
      const decided = decideStatic(restrictions, this.view.message);
      this.#decided[signature] = decided;
      return decided;
    }
    let pending = this.#pending.get(signature);
    if (!pending) {
      pending = canAccessTool(restrictions, this.view.message, this.view.permissions).then(
        (ok) => ok === true,
        () => false,
      );
      pending.then((ok) => (this.#decided[signature] = ok));
      this.#pending.set(signature, pending);
    }
    return pending;
  }
}

/** `canAccessTool` without permissions, synchronously (same rules, same order). */
function decideStatic(tool: AccessRestrictions, message: ImMessage | undefined): boolean {
  if (!message) return isUnrestricted(tool);
  if (tool.platforms?.length && !tool.platforms.includes(String(message.$adapter))) return false;
  if (tool.scopes?.length && !(tool.scopes as readonly string[]).includes(message.$channel?.type || 'private'))
    return false;
  return true;
}

export function toolDisclosed(entry: CatalogTool, scope: TurnScope): boolean {
  return isInScope(entry.binding, scope);
}

export function skillDisclosed(entry: CatalogSkill, scope: TurnScope): boolean {
  return isSkillInScope(entry.skill, scope);
}

/** Disclosed, admitted, not hidden, askable: the one predicate behind every model-facing list. */
export function toolListed(
  entry: CatalogTool,
  view: DisclosureView,
  admission: TurnAdmission,
): boolean | Promise<boolean> {
  if (entry.binding.hidden || !toolDisclosed(entry, view.scope)) return false;
  if (entry.needsQuestionPort && !view.canAsk) return false;
  return admission.admits(entry.access);
}

export function skillListed(
  entry: CatalogSkill,
  view: DisclosureView,
  admission: TurnAdmission,
): boolean | Promise<boolean> {
  if (!skillDisclosed(entry, view.scope)) return false;
  return admission.admits(entry.access);
}

/** The first access rule a restriction set fails, with the failing permit named. */
export async function explainAccess(
  restrictions: AccessRestrictions,
  message: ImMessage | undefined,
  permissions: PermissionHost | undefined,
): Promise<OmissionReason | undefined> {
  if (!message) {
    return isUnrestricted(restrictions)
      ? undefined
      : {
          code: 'no-message',
          detail: 'restricted, and this turn has no IM message (non-IM turns only see unrestricted tools)',
        };
  }
  const adapter = String(message.$adapter);
  if (restrictions.platforms?.length && !restrictions.platforms.includes(adapter)) {
    return {
      code: 'platform',
      platforms: restrictions.platforms,
      actual: adapter,
      detail: `platform "${adapter}" is not in [${restrictions.platforms.join(', ')}]`,
    };
  }
  const scene = message.$channel?.type || 'private';
  if (restrictions.scopes?.length && !(restrictions.scopes as readonly string[]).includes(scene)) {
    return {
      code: 'scope',
      scopes: restrictions.scopes,
      actual: scene,
      detail: `scope "${scene}" is not in [${restrictions.scopes.join(', ')}]`,
    };
  }
  for (const permit of restrictions.permissions ?? []) {
    if (!permissions)
      return { code: 'permission', permit, detail: `permit ${permit} failed: no permission host is installed` };
    const ok = await permissions.check(permit, toPermissionSubject(message)).catch(() => false);
    if (ok !== true) {
      const why = permit.startsWith('platform(')
        ? ' (decided by the platform checker registered for that adapter)'
        : '';
      return { code: 'permission', permit, detail: `permit ${permit} failed${why}` };
    }
  }
  return undefined;
}

/** Why a tool is not listed in this turn, or undefined when it is listed. */
export async function explainTool(entry: CatalogTool, view: DisclosureView): Promise<OmissionReason | undefined> {
  const binding = entry.binding;
  const selected = view.scope.agent?.qualifiedName;
  if (selected !== undefined && binding.exceptAgents?.includes(selected)) {
    return {
      code: 'excluded-for-agent',
      agent: selected,
      detail: `replaced for agent ${selected} by a scoped provider`,
    };
  }
  const disclosure = entry.disclosure;
  if (disclosure.kind === 'agent' && !toolDisclosed(entry, view.scope)) {
    return {
      code: 'agent-not-selected',
      agent: disclosure.agent,
      detail: `not yet disclosed: agent ${disclosure.agent} is not selected`,
    };
  }
  if (disclosure.kind === 'skill' && !toolDisclosed(entry, view.scope)) {
    if (disclosure.agent !== undefined && view.scope.agent?.qualifiedName !== disclosure.agent) {
      return {
        code: 'agent-not-selected',
        agent: disclosure.agent,
        detail: `not yet disclosed: agent ${disclosure.agent} is not selected`,
      };
    }
    return {
      code: 'skill-not-loaded',
      skill: disclosure.skill,
      detail: `not yet disclosed: skill ${disclosure.skill} is not loaded`,
    };
  }
  const access = await explainAccess(binding, view.message, view.permissions);
  if (access) return access;
  if (binding.hidden) return { code: 'hidden', detail: 'hidden: never listed, executable by name' };
  if (entry.needsQuestionPort && !view.canAsk) {
    return { code: 'no-question-port', detail: `${ASK_USER} is offered only to attended turns with a QuestionPort` };
  }
  return undefined;
}

export async function explainSkill(entry: CatalogSkill, view: DisclosureView): Promise<OmissionReason | undefined> {
  const selected = view.scope.agent?.qualifiedName;
  if (selected !== undefined && entry.skill.exceptAgents?.includes(selected)) {
    return {
      code: 'excluded-for-agent',
      agent: selected,
      detail: `replaced for agent ${selected} by a scoped provider`,
    };
  }
  if (entry.agent !== undefined && !skillDisclosed(entry, view.scope)) {
    return {
      code: 'agent-not-selected',
      agent: entry.agent,
      detail: `not yet disclosed: agent ${entry.agent} is not selected`,
    };
  }
  return explainAccess(entry.skill, view.message, view.permissions);
}
