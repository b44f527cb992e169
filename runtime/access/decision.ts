/**
 * The one access decision: may this turn see and run this capability? Every caller asks it —
 * the tool pipeline before a call runs, the turn when a skill is activated, the deferred catalog
 * for every list it builds (discover, load_tool, load_skill, modelTools, listing), and the
 * operator's explanation of what is left out (`zhin-gen catalog`, the report page) — so the
 * model, the pipeline and the operator can never disagree. The rules, in the order they are
 * decided (the first that fails is the reason):
 *
 * 1. placement (scope.ts): plugin-placed always; agent-private when that agent is selected;
 *    skill-private when that skill is loaded; agent-skill when both hold; never for an agent a
 *    scoped seam provider replaced it for;
 * 2. restrictions: no IM message (a non-IM turn) admits only unrestricted capabilities;
 *    `platforms` must list `String(message.$adapter)`; `scopes` must list
 *    `message.$channel?.type || 'private'`; every permit in `permissions` must pass (AND), and
 *    no permission host, a failing or throwing checker all deny.
 *
 * Empty lists mean "all". Decided from the declared restrictions alone, so nothing is imported to
 * answer. The answer is synchronous whenever no permission checker has to run, and a denial is a
 * reason object, built once for the reasons that depend only on the capability.
 */
import type { AccessRestrictions } from './access.js';
import { type ImMessage, type PermissionHost, toPermissionSubject } from './permissions.js';
import { ADMITTED, type AccessDecision, denied } from './reasons.js';
import type { Placement, TurnScope } from './scope.js';

export type { AccessDecision, OmissionReason } from './reasons.js';
export { ADMITTED } from './reasons.js';

/** The turn as the decision sees it. `message` is set only for IM turns. */
export interface AccessView {
  readonly scope: TurnScope;
  readonly message?: ImMessage | undefined;
  readonly permissions?: PermissionHost | undefined;
}

/**
 * Decides the restrictions step, e.g. once per distinct restriction set per turn (the deferred
 * catalog's TurnAdmission). It must answer what `decideRestrictions` answers.
 */
export interface RestrictionMemo<R extends AccessRestrictions> {
  restrictions(restrictions: R): AccessDecision | Promise<AccessDecision>;
}

/**
 * The access decision for one capability in one turn (see the rules above): `placement` says
 * where it sits (scope.ts `placementOf(item)`, `skillPlacement(skill)`), `restrictions` what it
 * is restricted to (often the item itself: a tool binding, a skill).
 */
export function decideAccess<R extends AccessRestrictions>(
  placement: Placement,
  restrictions: R,
  view: AccessView,
  memo?: RestrictionMemo<R>,
): AccessDecision | Promise<AccessDecision> {
  const placed = placement.decide(view.scope);
  if (placed !== ADMITTED) return placed;
  return memo ? memo.restrictions(restrictions) : decideRestrictions(restrictions, view.message, view.permissions);
}

export function isUnrestricted(tool: AccessRestrictions): boolean {
  return !tool.platforms?.length && !tool.scopes?.length && !tool.permissions?.length;
}

const NO_MESSAGE = denied({
  code: 'no-message',
  detail: 'restricted, and this turn has no IM message (non-IM turns only see unrestricted tools)',
});

/** Step 2 alone: platforms, scopes, then each permit (synchronous unless a permit must be checked). */
export function decideRestrictions(
  restrictions: AccessRestrictions,
  message: ImMessage | undefined,
  permissions: PermissionHost | undefined,
): AccessDecision | Promise<AccessDecision> {
  if (!message) return isUnrestricted(restrictions) ? ADMITTED : NO_MESSAGE;
  const platforms = restrictions.platforms;
  if (platforms?.length) {
    const adapter = String(message.$adapter);
    if (!platforms.includes(adapter)) {
      return denied({
        code: 'platform',
        platforms,
        actual: adapter,
        detail: `platform "${adapter}" is not in [${platforms.join(', ')}]`,
      });
    }
  }
  const scopes = restrictions.scopes;
  if (scopes?.length) {
    const scene = message.$channel?.type || 'private';
    if (!(scopes as readonly string[]).includes(scene)) {
      return denied({
        code: 'scope',
        scopes,
        actual: scene,
        detail: `scope "${scene}" is not in [${scopes.join(', ')}]`,
      });
    }
  }
  const permits = restrictions.permissions;
  if (!permits?.length) return ADMITTED;
  if (!permissions) {
    return denied({
      code: 'permission',
      permit: permits[0]!,
      detail: `permit ${permits[0]} failed: no permission host is installed`,
    });
  }
  return decidePermits(permits, message, permissions);
}

/** Every permit must pass, in order; the first that does not (or whose checker throws) is the reason. */
async function decidePermits(
  permits: readonly string[],
  message: ImMessage,
  permissions: PermissionHost,
): Promise<AccessDecision> {
  const subject = toPermissionSubject(message);
  for (const permit of permits) {
    let ok: boolean;
    try {
      ok = (await permissions.check(permit, subject)) === true;
    } catch {
      ok = false;
    }
    if (!ok) {
      const why = permit.startsWith('platform(')
        ? ' (decided by the platform checker registered for that adapter)'
        : '';
      return denied({ code: 'permission', permit, detail: `permit ${permit} failed${why}` });
    }
  }
  return ADMITTED;
}
