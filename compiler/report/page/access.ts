/**
 * The access matrix: every tool against every principal the author chose, decided by the
 * runtime itself. One stand-in tool per distinct restriction set (platforms, scopes, permits) is
 * placed in a manifest of its own, plugin-placed so disclosure never hides it, and one real turn
 * per principal lists it or names the access rule it fails (`turn.deferred.omissions()`, the
 * operator view `zhin-gen catalog` prints; both it and the listing ask the runtime's one access
 * decision, runtime/access/decision.ts, which is not part of the package's public API). The host has the same bare PermissionHost `catalog`
 * uses: builtin permits (`role`, `user`, `group`, …) are decided from the principal,
 * `platform(…)` and custom permits have no checker and fail, which the reason says. Tools with
 * equal restrictions share one decision, so a 5,000-tool bot asks a few dozen questions.
 */
import type { CapabilityManifest, ChannelScope, ManifestTool } from '@zhin-gen/runtime';
import { beginTurn, messageOf, reportHost, type Principal } from './host.js';

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
const standIn = (index: number): string => `signature-${index}`;

export async function accessMatrix(
  manifest: CapabilityManifest,
  principals: readonly Principal[],
): Promise<AccessMatrix> {
  const signatures: Restrictions[] = [];
  const byKey = new Map<string, number>();
  const toolSignature = new Map<string, number>();
  const standIns: ManifestTool[] = [];
  for (const tool of manifest.tools) {
    const restrictions = { platforms: tool.platforms, scopes: tool.scopes, permissions: tool.permissions };
    const key = keyOf(restrictions);
    let index = byKey.get(key);
    if (index === undefined) {
      index = signatures.push(restrictions) - 1;
      byKey.set(key, index);
      const { agent: _agent, skill: _skill, ...rest } = tool;
      standIns.push({
        ...rest,
        qualifiedName: standIn(index),
        localName: standIn(index),
        placement: 'plugin',
        hidden: false,
      });
    }
    toolSignature.set(tool.qualifiedName, index);
  }
  const host = await reportHost({
    ...manifest,
    hostProvided: undefined,
    packages: undefined,
    plugins: manifest.plugins.map((plugin) => ({ ...plugin, conditionalTools: [] })),
    tools: standIns,
    skills: [],
    agents: [],
    hooks: [],
    promptSections: [],
  });
  const cells: (string | null)[][] = signatures.map(() => []);
  try {
    for (const principal of principals) {
      const turn = await beginTurn(host, { message: messageOf(principal) });
      try {
        const [listing, omissions] = await Promise.all([turn.deferred.listing(), turn.deferred.omissions()]);
        const listed = new Set(listing.tools.map((t) => t.name));
        const reasons = new Map(omissions.map((o) => [o.name, o.reason.detail]));
        signatures.forEach((_, index) => {
          const name = standIn(index);
          cells[index]!.push(listed.has(name) ? null : (reasons.get(name) ?? 'not listed'));
        });
      } finally {
        await turn.end();
      }
    }
  } finally {
    await host.close();
  }
  return { principals, signatures, toolSignature, cells };
}
