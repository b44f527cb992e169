/**
 * What the access decision answers (decision.ts): admitted, or the first rule not met. The
 * reasons are operator-facing (`zhin-gen catalog`, the report page, `turn.deferred.omissions()`),
 * never shown to the model: a model is answered "not available" whatever the reason.
 */

/** Why a capability is not in a turn's lists. */
export type OmissionReason =
  | { readonly code: 'agent-not-selected'; readonly agent: string; readonly detail: string }
  | { readonly code: 'skill-not-loaded'; readonly skill: string; readonly detail: string }
  | { readonly code: 'excluded-for-agent'; readonly agent: string; readonly detail: string }
  | { readonly code: 'unknown-placement'; readonly placement: string; readonly detail: string }
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

/** Admitted, or the first rule that is not met. */
export type AccessDecision =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly reason: OmissionReason };

export const ADMITTED: AccessDecision = Object.freeze({ admitted: true });

export function denied(reason: OmissionReason): AccessDecision {
  return Object.freeze({ admitted: false, reason: Object.freeze(reason) });
}
