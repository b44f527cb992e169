/**
 * The fields of a tool definition that decide who may call the tool and whether a call is asked
 * about, as the runtime reads them (an absent field is its default). One home for the rule: a
 * tool added by `setup()` is bound with it (generation/capability.ts), a feature tool's module is
 * held to its manifest entry with it when it loads (a stale manifest must not run a module that
 * now asks for approval or a role under the older, weaker policy), and `check --load` compares
 * with it (compiler/verify/compare.ts).
 */
import { DEFAULT_APPROVAL_MODE } from './enums.js';
import type { ApprovalMode, ChannelScope } from './manifest.js';

export interface ToolPolicy {
  readonly requiresApproval: ApprovalMode;
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
}

/** What each policy field is when the definition leaves it out. */
export const TOOL_POLICY_DEFAULTS: ToolPolicy = Object.freeze({
  requiresApproval: DEFAULT_APPROVAL_MODE,
  platforms: Object.freeze([]),
  scopes: Object.freeze([]),
  permissions: Object.freeze([]),
});

/** A definition's policy, absent fields as their defaults (lists copied and frozen). */
export function toolPolicyOf(definition: { readonly [K in keyof ToolPolicy]?: ToolPolicy[K] }): ToolPolicy {
  return {
    requiresApproval: definition.requiresApproval ?? TOOL_POLICY_DEFAULTS.requiresApproval,
    platforms: Object.freeze([...(definition.platforms ?? [])]),
    scopes: Object.freeze([...(definition.scopes ?? [])]),
    permissions: Object.freeze([...(definition.permissions ?? [])]),
  };
}

/**
 * A loaded module's policy as it is held to its manifest entry: its approval with the default (a
 * removed `requiresApproval` is 'on-risk', as the compiler reads it), and a list it leaves out as
 * the entry's (leaving a list out only loosens, so that is the entry's to say).
 */
export function modulePolicy(
  entry: ToolPolicy,
  definition: { readonly [K in keyof ToolPolicy]?: ToolPolicy[K] },
): ToolPolicy {
  return toolPolicyOf({
    requiresApproval: definition.requiresApproval,
    platforms: definition.platforms ?? entry.platforms,
    scopes: definition.scopes ?? entry.scopes,
    permissions: definition.permissions ?? entry.permissions,
  });
}

/**
 * Whether running under the manifest's approval mode asks less than the module's own would. The
 * modes are not a ladder: `on-risk` asks on every call its risk policy flags (every call without
 * one), `once` asks once and then remembers, so neither covers the other. Only `never` in the
 * module (it asks nothing) or `always` in the manifest (it asks every time) is safe to differ.
 */
function asksLess(manifest: ApprovalMode, module: ApprovalMode): boolean {
  return manifest !== module && module !== 'never' && manifest !== 'always';
}

/** Whether a list restriction (empty: no restriction) lets through something `module`'s does not. */
function widens(manifest: readonly string[], module: readonly string[]): boolean {
  if (module.length === 0) return false;
  return manifest.length === 0 || manifest.some((entry) => !module.includes(entry));
}

/**
 * Where the manifest's policy grants what the module's own definition does not (the runtime
 * decides access and approval from the manifest entry): it asks less, lets through a platform or
 * scope the module leaves out, or lacks a permit the module requires (permits all apply). A
 * manifest stricter than its module grants nothing extra and is not drift. Undefined when none.
 */
export function policyDrift(manifest: ToolPolicy, module: ToolPolicy): string | undefined {
  const show = (value: unknown): string => JSON.stringify(value);
  if (asksLess(manifest.requiresApproval, module.requiresApproval))
    return `requiresApproval: the manifest has ${show(manifest.requiresApproval)}, the module ${show(module.requiresApproval)}`;
  for (const field of ['platforms', 'scopes'] as const)
    if (widens(manifest[field], module[field]))
      return `${field}: the manifest has ${show(manifest[field])}, the module ${show(module[field])}`;
  const missing = module.permissions.filter((permit) => !manifest.permissions.includes(permit));
  if (missing.length > 0)
    return `permissions: the manifest lacks ${missing.map(show).join(', ')}, which the module requires`;
  return undefined;
}
