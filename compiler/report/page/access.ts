/**
 * The access matrix: every tool against every principal the author chose, decided by the
 * runtime's access decision for the tool's declared restrictions (platforms, scopes, permits)
 * with the same bare PermissionHost `zhin-gen catalog` uses: builtin permits (`role`, `user`,
 * `group`, …) are decided from the principal, `platform(…)` and custom permits have no checker
 * and fail, which the reason says. Tools with equal restrictions share one decision per
 * principal, so a 5,000-tool bot asks a few dozen questions, not 5,000 × columns.
 */
import { canAccessTool, PermissionHost, type CapabilityManifest, type ChannelScope } from '@zhin-gen/runtime';
import { messageOf, type Principal } from './collect.js';

export interface Restrictions {
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
}

export interface AccessMatrix {
  readonly principals: readonly Principal[];
  readonly signatures: readonly Restrictions[];
  /** Signature index per tool qualifiedName. */
  readonly toolSignature: ReadonlyMap<string, number>;
  /** Per signature, per principal: `null` when admitted, else why not. */
  readonly cells: readonly (readonly (string | null)[])[];
}

const keyOf = (r: Restrictions): string => JSON.stringify([r.platforms, r.scopes, r.permissions]);

/** `null` when admitted, else the reason. */
async function decide(restrictions: Restrictions, principal: Principal, host: PermissionHost): Promise<string | null> {
  return (await canAccessTool(restrictions, messageOf(principal), host)) ? null : 'denied';
}

export async function accessMatrix(
  manifest: CapabilityManifest,
  principals: readonly Principal[],
): Promise<AccessMatrix> {
  const host = new PermissionHost();
  const signatures: Restrictions[] = [];
  const byKey = new Map<string, number>();
  const toolSignature = new Map<string, number>();
  for (const tool of manifest.tools) {
    const restrictions = { platforms: tool.platforms, scopes: tool.scopes, permissions: tool.permissions };
    const key = keyOf(restrictions);
    let index = byKey.get(key);
    if (index === undefined) {
      index = signatures.push(restrictions) - 1;
      byKey.set(key, index);
    }
    toolSignature.set(tool.qualifiedName, index);
  }
  const cells: (string | null)[][] = [];
  for (const signature of signatures) {
    const row: (string | null)[] = [];
    for (const principal of principals) row.push(await decide(signature, principal, host));
    cells.push(row);
  }
  return { principals, signatures, toolSignature, cells };
}
