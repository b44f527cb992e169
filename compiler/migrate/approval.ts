/**
 * The earlier `approval` field and its values, mapped to zhin-gen's `requiresApproval`. A value
 * with no exact counterpart is never guessed: the field stays and is reported, so an approval
 * policy is never weakened by the migration.
 */
export type ApprovalMode = 'never' | 'on-risk' | 'once' | 'always';

const MAPPING: Readonly<Record<string, ApprovalMode>> = {
  never: 'never',
  'on-risk': 'on-risk',
  on_risk: 'on-risk',
  onRisk: 'on-risk',
  once: 'once',
  always: 'always',
};

/** The zhin-gen mode for an earlier value (`true` is `always`, `false` is `never`), if there is one. */
export function approvalMode(value: unknown): ApprovalMode | undefined {
  if (value === true) return 'always';
  if (value === false) return 'never';
  return typeof value === 'string' && Object.hasOwn(MAPPING, value) ? MAPPING[value] : undefined;
}

export const APPROVAL_VALUES = 'never, on-risk (also on_risk, onRisk), once, always, true (always), false (never)';
