/**
 * Real seam providers for the seam tests: `ToolService` / `SkillService` implementations that
 * record every call, plus a root plugin that provides a `SeamIntegration` the way the seed does.
 */
import {
  SeamIntegration,
  capabilitySeamToken,
  definePlugin,
  type PluginDefinition,
  type SeamScope,
  type SeamToolContext,
  type SkillCatalogEntry,
  type SkillService,
  type ToolExecutionResult,
  type ToolSchema,
  type ToolService,
} from '../../../runtime/index.js';

export interface RecordedCall {
  readonly scope: SeamScope;
  readonly toolName: string;
  readonly input: unknown;
  readonly context: SeamToolContext | undefined;
}

type Behaviour = (call: RecordedCall) => ToolExecutionResult | Promise<ToolExecutionResult>;

/** A remote-search-like provider; the "remote" is an in-process async function. */
export class RecordingToolService implements ToolService {
  readonly calls: RecordedCall[] = [];
  readonly schemaScopes: SeamScope[] = [];

  constructor(
    readonly id: string,
    readonly tools: readonly ToolSchema[],
    private readonly behaviour: Behaviour = (call) => ({
      success: true,
      output: { provider: id, tool: call.toolName, input: call.input },
    }),
    readonly description = `provider ${id}`,
  ) {}

  schema(scope: SeamScope): readonly ToolSchema[] {
    this.schemaScopes.push(scope);
    return this.tools;
  }

  async execute(
    scope: SeamScope,
    toolName: string,
    input: unknown,
    context?: SeamToolContext,
  ): Promise<ToolExecutionResult> {
    const call = { scope, toolName, input, context };
    this.calls.push(call);
    return this.behaviour(call);
  }
}

export function tool(
  name: string,
  extra: Partial<Omit<ToolSchema, 'type' | 'function'>> & { parameters?: ToolSchema['function']['parameters'] } = {},
): ToolSchema {
  const { parameters, ...policy } = extra;
  return {
    type: 'function',
    function: { name, description: `seam tool ${name}`, ...(parameters ? { parameters } : {}) },
    ...policy,
  };
}

export const searchParameters = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1 } },
  required: ['query'],
  additionalProperties: false,
} as const;

export class RecordingSkillService implements SkillService {
  readonly described: { scope: SeamScope; skillId: string }[] = [];

  constructor(
    readonly id: string,
    readonly entries: readonly SkillCatalogEntry[],
    readonly description = `skills ${id}`,
  ) {}

  async catalog(): Promise<readonly SkillCatalogEntry[]> {
    return this.entries;
  }

  async describe(scope: SeamScope, skillId: string): Promise<string> {
    this.described.push({ scope, skillId });
    if (!this.entries.some((entry) => entry.name === skillId)) throw new Error('Skill not found');
    return `# ${skillId}\nInstructions from ${this.id} for scope ${scope}.`;
  }
}

export interface SeamRoot {
  readonly plugin: PluginDefinition;
  /** Every integration this root created (one per generation), newest last. */
  readonly integrations: SeamIntegration[];
  /** Integrations whose resource disposer ran. */
  readonly disposed: SeamIntegration[];
}

/** A root plugin that registers providers into a fresh SeamIntegration in every setup(). */
export function seamRoot(register: (seams: SeamIntegration) => void, options: { provide?: boolean } = {}): SeamRoot {
  const integrations: SeamIntegration[] = [];
  const disposed: SeamIntegration[] = [];
  const plugin = definePlugin({
    name: 'seam-root',
    setup({ resources }) {
      const seams = new SeamIntegration();
      integrations.push(seams);
      register(seams);
      if (options.provide === false) return;
      resources.provide(capabilitySeamToken, seams, () => {
        disposed.push(seams);
        seams.dispose();
      });
    },
  });
  return { plugin, integrations, disposed };
}
