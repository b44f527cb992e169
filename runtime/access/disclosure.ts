/**
 * Disclosure (docs/catalog.md): what exists for the model in one turn.
 *
 * - admitted: the access decision (decision.ts): placement (agent selected, skill loaded), then
 *   the restrictions for the turn's message and permission host;
 * - listed: admitted, not `hidden`, and for `ask_user` only when the turn can ask.
 *
 * The restrictions step is decided once per distinct restriction signature per turn (tools with
 * equal platforms/scopes/permissions share a signature, most share "unrestricted"), lazily, so a
 * turn pays for the signatures it actually touches, not for every tool. Decisions are not shared
 * across turns: permission checkers may depend on live state (a group admin list).
 */
import type { AccessSignature, CatalogSkill, CatalogTool } from '../deferred/catalog.js';
import { ASK_USER } from '../turn/ask-user.js';
import { ADMITTED, type AccessDecision, type AccessView, decideAccess, decideRestrictions } from './decision.js';
import type { ImMessage, PermissionHost } from './permissions.js';
import { denied, type OmissionReason } from './reasons.js';

export type { OmissionReason } from './reasons.js';

/** What disclosure needs from a turn. `message` is set only for IM turns (as for execution). */
export interface DisclosureView extends AccessView {
  readonly message: ImMessage | undefined;
  readonly permissions: PermissionHost | undefined;
  /** An attended turn with a QuestionPort: only then is `ask_user` offered. */
  readonly canAsk: boolean;
}

/** Per-turn, per-signature memo of the restrictions step (the access decision's RestrictionMemo). */
export class TurnAdmission {
  readonly #decided: (AccessDecision | undefined)[] = [];
  readonly #pending: (Promise<AccessDecision> | undefined)[] = [];

  constructor(private readonly view: DisclosureView) {}

  /** Synchronous when the answer is known or needs no permission check. */
  restrictions(signature: AccessSignature): AccessDecision | Promise<AccessDecision> {
    const known = this.#decided[signature.id];
    if (known !== undefined) return known;
    const pending = this.#pending[signature.id];
    if (pending !== undefined) return pending;
    const decided = decideRestrictions(signature, this.view.message, this.view.permissions);
    if (!(decided instanceof Promise)) {
      this.#decided[signature.id] = decided;
      return decided;
    }
    // A rejected check has granted nothing (fail closed).
    const settled = decided.then(undefined, () =>
      denied({
        code: 'permission',
        permit: signature.permissions[0] ?? '',
        detail: `permit ${signature.permissions[0]} failed`,
      }),
    );
    void settled.then((decision) => {
      this.#decided[signature.id] = decision;
    });
    this.#pending[signature.id] = settled;
    return settled;
  }
}

/** The access decision for a catalog tool in this turn, its restrictions memoised per signature. */
export function decideTool(
  entry: CatalogTool,
  view: DisclosureView,
  admission: TurnAdmission,
): AccessDecision | Promise<AccessDecision> {
  return decideAccess(entry.placement, entry.access, view, admission);
}

export function decideSkill(
  entry: CatalogSkill,
  view: DisclosureView,
  admission: TurnAdmission,
): AccessDecision | Promise<AccessDecision> {
  return decideAccess(entry.placement, entry.access, view, admission);
}

const HIDDEN: OmissionReason = Object.freeze({ code: 'hidden', detail: 'hidden: never listed, executable by name' });
const NO_QUESTION_PORT: OmissionReason = Object.freeze({
  code: 'no-question-port',
  detail: `${ASK_USER} is offered only to attended turns with a QuestionPort`,
});

/** Why an admitted tool is still not listed: hidden, or `ask_user` in a turn that cannot ask. */
function unlisted(entry: CatalogTool, view: DisclosureView): OmissionReason | undefined {
  if (entry.binding.hidden) return HIDDEN;
  if (entry.needsQuestionPort && !view.canAsk) return NO_QUESTION_PORT;
  return undefined;
}

// The lists ask once per capability per list: a known decision is read without looking for `then`.
function admittedOf(decision: AccessDecision | Promise<AccessDecision>): boolean | Promise<boolean> {
  if (decision === ADMITTED) return true;
  if ((decision as AccessDecision).admitted === false) return false;
  return (decision as Promise<AccessDecision>).then((d) => d.admitted);
}

/**
 * The steps of `toolListed` that read only the turn's scope and `canAsk`: the listing rules, then
 * placement (step 1 of the decision). `toolListed` is this and the restrictions step; the
 * per-generation projections (deferred/projection.ts) key on exactly what this reads.
 */
export function toolInScope(entry: CatalogTool, view: DisclosureView): boolean {
  if (unlisted(entry, view)) return false;
  return entry.placement.decide(view.scope) === ADMITTED;
}

/** Admitted, not hidden, askable: the one predicate behind every model-facing list. */
export function toolListed(
  entry: CatalogTool,
  view: DisclosureView,
  admission: TurnAdmission,
): boolean | Promise<boolean> {
  // The listing rules first: they are free, and a hidden tool needs no permission check to be left out.
  if (unlisted(entry, view)) return false;
  return admittedOf(decideTool(entry, view, admission));
}

export function skillListed(
  entry: CatalogSkill,
  view: DisclosureView,
  admission: TurnAdmission,
): boolean | Promise<boolean> {
  return admittedOf(decideSkill(entry, view, admission));
}

/** Why a tool is not listed in this turn, or undefined when it is listed. */
export async function explainTool(
  entry: CatalogTool,
  view: DisclosureView,
  admission: TurnAdmission = new TurnAdmission(view),
): Promise<OmissionReason | undefined> {
  const decision = await decideTool(entry, view, admission);
  return decision.admitted ? unlisted(entry, view) : decision.reason;
}

export async function explainSkill(
  entry: CatalogSkill,
  view: DisclosureView,
  admission: TurnAdmission = new TurnAdmission(view),
): Promise<OmissionReason | undefined> {
  const decision = await decideSkill(entry, view, admission);
  return decision.admitted ? undefined : decision.reason;
}
