/**
 * Ready-made services for custom host compositions. None is registered
 * automatically: framework tools and skills reach turns through feature projection, and a second
 * automatic path would be a second set of visibility and lifecycle rules. A host that wants one
 * registers it explicitly, and what it offers then passes the same pipeline as everything else.
 */
import type { ExecutableTool, ToolBinding } from '../generation/capability.js';
import { describeError } from '../generation/capability.js';
import type { ResourceToken, ToolExecutionContext } from '../contract/define.js';
import type { Generation, GenerationLease } from '../generation/generation.js';
import type { SkillEntry, SkillTable } from '../generation/skills.js';
import { noQuestionPort } from '../turn/ask-user.js';
import { validateInput } from '../turn/validation.js';
import { QUESTION_SCHEMA } from '../validators/builtin-schemas.js';
import type {
  SeamScope,
  SkillCatalogEntry,
  SkillService,
  ToolExecutionResult,
  ToolSchema,
  ToolService,
} from './types.js';

export interface BuiltinToolServiceOptions {
  readonly id?: string;
  readonly description?: string;
  /** Default `ask_question` (`ask_user` is the generation-owned runtime tool and reserved). */
  readonly toolName?: string;
}

/**
 * The turn's QuestionPort interaction as a ToolService: one tool that asks the user through the
 * port the turn hands to this call (`context.question`). It deliberately holds no port of its
 * own — a port outside the turn would be a global fallback, which unattended turns must never
 * reach (docs/runtime.md) — so in an unattended turn it answers `success: false`.
 */
export class BuiltinToolService implements ToolService {
  readonly id: string;
  readonly description: string;
  readonly toolName: string;

  constructor(options: BuiltinToolServiceOptions = {}) {
    this.id = options.id ?? 'builtin:question';
    this.description = options.description ?? 'Interactive questions through the turn QuestionPort';
    this.toolName = options.toolName ?? 'ask_question';
  }

  schema(): readonly ToolSchema[] {
    return [
      {
        type: 'function',
        function: {
          name: this.toolName,
          description: 'Ask the user a question in this conversation and wait for the answer.',
          parameters: QUESTION_SCHEMA,
        },
        // Asking is itself the interaction; confirming it first would be circular (as ask_user).
        approval: 'never',
        source: 'builtin:question',
      },
    ];
  }

  async execute(
    _scope: SeamScope,
    toolName: string,
    input: unknown,
    context?: ToolExecutionContext,
  ): Promise<ToolExecutionResult> {
    if (toolName !== this.toolName) return { success: false, error: `Unknown tool: ${toolName}` };
    if (!context?.question) {
      return {
        success: false,
        error: noQuestionPort(toolName),
      };
    }
    const { question, options } = input as { question: string; options?: readonly string[] };
    const answer = await context.question.ask({ question, ...(options ? { options } : {}) });
    return { success: true, output: { answer } };
  }
}

const NO_RUNTIME_VALIDATOR = Object.freeze({});

/** A generation's tool table, or any map of bindings. */
export type ToolRegistry = Generation | ReadonlyMap<string, ToolBinding>;

export interface ToolRegistryAsServiceOptions {
  readonly id?: string;
  readonly description?: string;
  /** Which tools to offer. Default: plugin-placed feature and setup tools (not runtime, not seam). */
  readonly include?: (binding: ToolBinding) => boolean;
}

function isGeneration(registry: ToolRegistry | SkillTable | Generation): registry is Generation {
  return typeof (registry as Generation).acquire === 'function';
}

const publicTools = (binding: ToolBinding) =>
  binding.placement === 'plugin' && (binding.source === 'feature' || binding.source === 'setup');

/**
 * An explicit bridge over a generation-owned tool table (e.g. another host's generation). The
 * schemas carry each tool's policy fields, so the consuming turn enforces access and approval;
 * each call leases the source generation (a retired one refuses) and runs the tool with its own
 * owner's config and resources there. Source-side hooks do not run: the consuming turn's do.
 */
export class ToolRegistryAsService implements ToolService {
  readonly id: string;
  readonly description: string;
  readonly #registry: ToolRegistry;
  readonly #include: (binding: ToolBinding) => boolean;

  constructor(registry: ToolRegistry, options: ToolRegistryAsServiceOptions = {}) {
    this.#registry = registry;
    this.id = options.id ?? 'registry:tools';
    this.description = options.description ?? 'Tools bridged from a generation-owned tool registry';
    this.#include = options.include ?? publicTools;
  }

  #tools(): ReadonlyMap<string, ToolBinding> {
    return isGeneration(this.#registry) ? this.#registry.tools : this.#registry;
  }

  schema(): readonly ToolSchema[] {
    return [...this.#tools().values()].filter(this.#include).map((binding) => ({
      type: 'function' as const,
      function: { name: binding.qualifiedName, description: binding.description, parameters: binding.inputSchema },
      approval: binding.requiresApproval,
      platforms: binding.platforms,
      scopes: binding.scopes,
      permissions: binding.permissions,
      hidden: binding.hidden,
      keywords: binding.keywords,
      source: `registry:${binding.source}`,
    }));
  }

  async execute(
    _scope: SeamScope,
    toolName: string,
    input: unknown,
    context?: ToolExecutionContext,
  ): Promise<ToolExecutionResult> {
    if (!context) return { success: false, error: 'Turn context required' };
    const registry = this.#registry;
    let lease: GenerationLease | undefined;
    if (isGeneration(registry)) {
      try {
        lease = registry.acquire();
      } catch (error) {
        return { success: false, error: `tool registry unavailable: ${describeError(error)}` };
      }
    }
    try {
      const binding = this.#tools().get(toolName);
      if (!binding || !this.#include(binding)) return { success: false, error: `Unknown tool: ${toolName}` };
      const executable: ExecutableTool = await binding.resolve();
      // The definition's own Standard Schema (Zod transforms, defaults) still applies.
      // A bare map of bindings has no host options: only generated and built-in validators apply.
      const validation = await validateInput(binding, executable, input, lease?.generation ?? NO_RUNTIME_VALIDATOR);
      if (!validation.ok)
        return { success: false, error: `invalid input at ${validation.path}: ${validation.message}` };
      const source = lease?.generation;
      const owner = binding.owner;
      const bridged: ToolExecutionContext = Object.freeze({
        ...context,
        owner,
        ...(source
          ? { config: source.ownerConfig(owner), use: <T>(token: ResourceToken<T>): T => source.use(owner, token) }
          : {}),
      });
      return { success: true, output: await executable.execute(validation.value, bridged) };
    } catch (error) {
      return {
        success: false,
        error: describeError(error),
        ...((error as { retryable?: unknown })?.retryable === true ? { retryable: true } : {}),
      };
    } finally {
      await lease?.release();
    }
  }
}

export interface SkillRegistryAsServiceOptions {
  readonly id?: string;
  readonly description?: string;
  /** Which skills to offer. Default: feature skills that are not agent-private. */
  readonly include?: (skill: SkillEntry) => boolean;
}

const publicSkills = (skill: SkillEntry) => skill.source === 'feature' && skill.agent === undefined;

/** An explicit bridge over a generation-owned skill table; `describe` reads the skill document. */
export class SkillRegistryAsService implements SkillService {
  readonly id: string;
  readonly description: string;
  readonly #registry: Generation | SkillTable;
  readonly #include: (skill: SkillEntry) => boolean;

  constructor(registry: Generation | SkillTable, options: SkillRegistryAsServiceOptions = {}) {
    this.#registry = registry;
    this.id = options.id ?? 'registry:skills';
    this.description = options.description ?? 'Skills bridged from a generation-owned skill registry';
    this.#include = options.include ?? publicSkills;
  }

  #table(): SkillTable {
    const registry = this.#registry;
    if (isGeneration(registry)) {
      if (registry.state === 'disposed') throw new Error(`skill registry of generation ${registry.id} is disposed`);
      return registry.skillTable;
    }
    return registry;
  }

  catalog(): readonly SkillCatalogEntry[] {
    return [...this.#table().values()].filter(this.#include).map((skill) => ({
      name: skill.qualifiedName,
      description: skill.description,
      keywords: skill.keywords,
      tags: skill.tags,
      platforms: skill.platforms,
      scopes: skill.scopes,
      permissions: skill.permissions,
      source: `registry:${skill.source}`,
    }));
  }

  async describe(_scope: SeamScope, skillId: string): Promise<string> {
    const table = this.#table();
    const skill = table.get(skillId);
    if (!skill || !this.#include(skill)) throw new Error(`Skill not found: ${skillId}`);
    return table.describe(skillId);
  }
}
