/**
 * The per-generation capability table: one `ToolBinding` per qualifiedName, whatever the tool's
 * source (compiled feature, `setup()`, a seam provider later, or the runtime itself). Bindings
 * carry the declared metadata eagerly (access, approval and listing never need the module) and
 * resolve the executable lazily, so start-up cost does not grow with the number of tool modules.
 */
import { isDefinitionOf } from '../contract/definition-shape.js';
import type { ToolDescriptor } from '../turn/approval.js';
import type { AgentToolDefinition, StandardSchemaLike, ToolExecutionContext } from '../contract/define.js';
import type { JsonSchema, ManifestTool } from '../contract/manifest.js';
import { modulePolicy, policyDrift, toolPolicyOf } from '../contract/tool-policy.js';
import { qualify } from '../contract/names.js';
import { builtinValidatorFor } from '../validators/builtin.js';

/** Who contributed a tool to the generation. `runtime` is for generation-owned tools (`ask_user`). */
export type ToolSourceKind = 'feature' | 'setup' | 'seam' | 'runtime';

export interface ExecutableTool {
  execute(input: unknown, context: ToolExecutionContext): unknown;
  /** The definition's own Standard Schema; preferred over `ToolBinding.inputSchema` for validation. */
  readonly standardSchema?: StandardSchemaLike;
}

/** A row of a generation's tool table: the manifest's tool metadata plus where it comes from. */
export interface ToolBinding extends Omit<ManifestTool, 'source' | 'hash' | 'load'> {
  readonly source: ToolSourceKind;
  /** Seam tools only: which provider offers it (runtime/seam/projection.ts). */
  readonly seam?: SeamOrigin;
  /** Agent qualifiedNames whose turns do not see this tool (a scoped seam provider replaced its provider). */
  readonly exceptAgents?: readonly string[];
  /**
   * How the input is validated, where that is known before the module loads: `standard` (the
   * definition's Standard Schema) or `json` (`inputSchema`, through `validator` or else the
   * host's `jsonSchemaValidator`; `host.load` rejects a `json` tool that has neither). Feature
   * tools leave it open: their module decides (a Zod schema is a Standard Schema).
   */
  readonly inputCheck?: 'standard' | 'json';
  /** Resolves the executable (feature tools import their module here, on first execution). */
  resolve(): Promise<ExecutableTool>;
}

/** Provenance of a seam tool or skill, kept on its table entry for catalogs, errors and MCP options. */
export interface SeamOrigin {
  /** The provider's `id`. */
  readonly provider: string;
  /** The scope it was registered in: `'global'` or an owner (agent qualifiedName). */
  readonly scope: string;
  /** The provider's own name for the capability (what `execute` / `describe` receive). */
  readonly name: string;
  /** The schema's `source` label, e.g. `remote:acme` or `mcp:<server>`. */
  readonly source?: string;
  /** `<server>` of an `mcp:<server>` source. */
  readonly mcpServer?: string;
}

/** Owner chain from the owner itself up to the root (`maps/cn` → `maps/cn`, `maps`, ``). */
export function ownerChain(owner: string): readonly string[] {
  const chain = [owner];
  let current = owner;
  while (current !== '') {
    const slash = current.lastIndexOf('/');
    current = slash < 0 ? '' : current.slice(0, slash);
    chain.push(current);
  }
  return chain;
}

export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return typeof value === 'object' && value !== null && '~standard' in value;
}

export function isAgentToolDefinition(value: unknown): value is AgentToolDefinition {
  return isDefinitionOf(value, 'agent-tool', 'execute', 'function');
}

/** The executable view of a definition; the method stays bound to the definition object. */
export function toExecutable(definition: AgentToolDefinition): ExecutableTool {
  const schema = definition.inputSchema;
  return Object.freeze({
    execute: (input: unknown, context: ToolExecutionContext) => definition.execute(input, context),
    ...(isStandardSchema(schema) ? { standardSchema: schema } : {}),
  });
}

/**
 * JSON Schema for a definition made in `setup()` (the compiler never saw it). Standard JSON
 * Schema (Zod ≥ 4.2) is used when the schema offers it; otherwise the listing falls back to an
 * open object while validation still runs through the Standard Schema itself.
 */
export function jsonSchemaOf(definition: AgentToolDefinition): JsonSchema {
  const schema = definition.inputSchema;
  if (schema === undefined) return { type: 'object' };
  if (!isStandardSchema(schema)) return schema as JsonSchema;
  const standard = schema['~standard'] as { jsonSchema?: { input?: (options: { target: string }) => unknown } };
  try {
    const projected = standard.jsonSchema?.input?.({ target: 'draft-2020-12' });
    if (projected && typeof projected === 'object') {
      const { $schema: _dropped, ...rest } = projected as Record<string, unknown>;
      return rest;
    }
  } catch {
    // Unrepresentable types: list as an open object, validate with the Standard Schema.
  }
  return { type: 'object' };
}

// A symbol, not a field of ToolBinding: only the runtime reads it (manifestToolOf).
const MANIFEST_ENTRY = Symbol('manifest entry');

/** A feature tool's module says other than its manifest entry about who may call it (see resolve()). */
export class ManifestStaleError extends Error {
  override readonly name = 'ManifestStaleError';
}

/**
 * A feature tool: metadata read through from the manifest entry, module imported once, on first
 * resolve. A class with prototype getters keeps host.load at two fields per tool, so loading a
 * 5,000-tool manifest allocates almost nothing beyond the index itself.
 */
class ManifestToolBinding implements ToolBinding {
  readonly #tool: ManifestTool;
  #loading: Promise<ExecutableTool> | undefined;

  constructor(tool: ManifestTool) {
    this.#tool = tool;
  }

  /** The manifest entry read through (the shipped search index maps documents by it). */
  get [MANIFEST_ENTRY](): ManifestTool {
    return this.#tool;
  }

  get qualifiedName() {
    return this.#tool.qualifiedName;
  }
  get localName() {
    return this.#tool.localName;
  }
  get owner() {
    return this.#tool.owner;
  }
  get source() {
    return 'feature' as const;
  }
  get placement() {
    return this.#tool.placement;
  }
  get agent() {
    return this.#tool.agent;
  }
  get skill() {
    return this.#tool.skill;
  }
  get description() {
    return this.#tool.description;
  }
  get inputSchema() {
    return this.#tool.inputSchema;
  }
  get requiresApproval() {
    return this.#tool.requiresApproval;
  }
  get platforms() {
    return this.#tool.platforms;
  }
  get scopes() {
    return this.#tool.scopes;
  }
  get permissions() {
    return this.#tool.permissions;
  }
  get hidden() {
    return this.#tool.hidden;
  }
  get keywords() {
    return this.#tool.keywords;
  }
  get tags() {
    return this.#tool.tags;
  }
  get validator() {
    return this.#tool.validator;
  }

  resolve(): Promise<ExecutableTool> {
    const tool = this.#tool;
    const loading = (this.#loading ??= Promise.resolve()
      .then(() => tool.load())
      .then(
        (module) => {
          const definition = module?.default;
          if (!isAgentToolDefinition(definition)) {
            throw new TypeError(`tool module ${tool.source} does not default-export defineAgentTool(...)`);
          }
          // Access and approval were decided from the manifest entry: a module that now asks for
          // more (edited since the manifest was generated) is refused, never run under it.
          const entry = toolPolicyOf(tool);
          const drift = policyDrift(entry, modulePolicy(entry, definition));
          if (drift !== undefined)
            throw new ManifestStaleError(
              `tool module ${tool.source} does not match the manifest (${drift}); the manifest is stale: run zhin-gen generate`,
            );
          return toExecutable(definition);
        },
        (error: unknown) => {
          throw new Error(`tool module ${tool.source} failed to load: ${describeError(error)}`);
        },
      ));
    // A failed import is not cached: a transient failure must not poison the generation.
    loading.catch(() => {
      if (this.#loading === loading) this.#loading = undefined;
    });
    return loading;
  }
}

export function bindManifestTool(tool: ManifestTool): ToolBinding {
  return new ManifestToolBinding(tool);
}

/** The manifest entry a feature tool's binding reads through to; undefined for any other binding. */
export function manifestToolOf(binding: ToolBinding): ManifestTool | undefined {
  return (binding as { readonly [MANIFEST_ENTRY]?: ManifestTool })[MANIFEST_ENTRY];
}

/** A tool added in `setup()`: plugin-placed, definition already in hand. */
export function bindDefinition(
  owner: string,
  localName: string,
  definition: AgentToolDefinition,
  source: ToolSourceKind,
): ToolBinding {
  const executable = toExecutable(definition);
  const inputSchema = jsonSchemaOf(definition);
  // Known now: a Standard Schema validates itself; a JSON Schema (or none: an open object)
  // needs a built-in validator or the host's runtime one (checked by CandidateBuilder.addTool).
  const validator = executable.standardSchema ? undefined : builtinValidatorFor(inputSchema);
  return Object.freeze({
    qualifiedName: qualify(owner, localName),
    localName,
    owner,
    source,
    placement: 'plugin' as const,
    description: definition.description,
    inputSchema,
    inputCheck: executable.standardSchema ? ('standard' as const) : ('json' as const),
    ...(validator ? { validator } : {}),
    ...toolPolicyOf(definition),
    hidden: definition.hidden ?? false,
    keywords: Object.freeze([...(definition.keywords ?? [])]),
    ...(definition.tags && definition.tags.length > 0 ? { tags: Object.freeze([...definition.tags]) } : {}),
    resolve: () => Promise.resolve(executable),
  });
}

/** The metadata-only view handed to policies and listings (no loader). */
export function describeTool(binding: ToolBinding): ToolDescriptor {
  return Object.freeze({
    qualifiedName: binding.qualifiedName,
    localName: binding.localName,
    owner: binding.owner,
    source: binding.source,
    placement: binding.placement,
    description: binding.description,
    inputSchema: binding.inputSchema,
    keywords: binding.keywords,
    requiresApproval: binding.requiresApproval,
    platforms: binding.platforms,
    scopes: binding.scopes,
    permissions: binding.permissions,
    hidden: binding.hidden,
  });
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
