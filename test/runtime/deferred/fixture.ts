/** Hand-built manifests for the deferred-catalog tests: metadata only, loaders that must not run. */
import type { ManifestTool, ToolBinding, CandidatePreparer, SkillEntry } from '../../../runtime/index.js';
import type { ToolOutcome } from '../../../runtime/index.js';

export function catalogTool(qualifiedName: string, meta: Partial<Omit<ManifestTool, 'load'>> = {}): ManifestTool {
  return {
    qualifiedName,
    localName: meta.localName ?? qualifiedName.split('__').pop()!,
    owner: '',
    placement: 'plugin',
    description: `tool ${qualifiedName}`,
    inputSchema: { type: 'object', properties: {} },
    requiresApproval: 'never',
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    keywords: [],
    source: `tools/${qualifiedName}/index.ts`,
    ...meta,
    load: () =>
      Promise.resolve({
        default: {
          kind: 'agent-tool',
          description: 'x',
          // The module says what its entry says: one that asks for more is refused as stale.
          requiresApproval: meta.requiresApproval ?? 'never',
          execute: async (input: unknown) => ({ ran: qualifiedName, input }),
        },
      }),
  };
}

/** A seam-shaped tool (what a Capability Seam projection adds), e.g. from `mcp:github`. */
export function seamTool(name: string, source: string, extra: Partial<ToolBinding> = {}): ToolBinding {
  const mcpServer = source.startsWith('mcp:') ? source.slice(4) : undefined;
  return Object.freeze({
    qualifiedName: name,
    localName: name,
    owner: '',
    source: 'seam' as const,
    placement: 'plugin' as const,
    description: `seam tool ${name}`,
    inputSchema: { type: 'object' },
    requiresApproval: 'never' as const,
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    keywords: [],
    seam: { provider: 'p', scope: 'global', name, source, ...(mcpServer ? { mcpServer } : {}) },
    resolve: () => Promise.resolve({ execute: () => ({ ran: name }) }),
    ...extra,
  });
}

export function seamSkill(name: string, instructions: string, extra: Partial<SkillEntry> = {}): SkillEntry {
  return Object.freeze({
    qualifiedName: name,
    name,
    owner: '',
    description: `seam skill ${name}`,
    tools: [],
    platforms: [],
    scopes: [],
    permissions: [],
    keywords: [],
    tags: [],
    always: false,
    source: 'seam' as const,
    instructions: () => Promise.resolve(instructions),
    ...extra,
  });
}

export function preparer(tools: readonly ToolBinding[], skills: readonly SkillEntry[] = []): CandidatePreparer {
  return {
    name: 'test-seam',
    prepare(candidate) {
      for (const tool of tools) candidate.addTool(tool);
      for (const skill of skills) candidate.skillTable.add(skill);
    },
  };
}

export function output<T>(outcome: ToolOutcome): T {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  return outcome.output as T;
}

export function failure(outcome: ToolOutcome): string {
  if (outcome.status !== 'failed') throw new Error(`expected failed, got ${JSON.stringify(outcome)}`);
  return outcome.error.message;
}

/** A manual clock: every read returns the current value; `advance` moves it. */
export function manualClock(start = 1_000_000): { now(): number; advance(ms: number): void } {
  let value = start;
  return { now: () => value, advance: (ms) => (value += ms) };
}
