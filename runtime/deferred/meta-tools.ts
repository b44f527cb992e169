/**
 * The controller's meta tools `discover`, `load_tool`, `load_skill` (docs/catalog.md). They are
 * per-turn `ToolBinding`s (source `runtime`) executed through `turn.execute`, i.e. the same
 * pipeline as every tool: journal, hooks, validation. Their inputs are validated by a small
 * Standard Schema here instead of Ajv: no schema compile per turn, and fixed messages.
 */
import type { ExecutableTool, ToolBinding } from '../generation/capability.js';
import type { StandardSchemaLike } from '../contract/define.js';
import type { JsonSchema } from '../contract/manifest.js';
import { DISCOVER, LOAD_SKILL, LOAD_TOOL, META_TOOL_NAMES, type MetaToolName } from '../contract/names.js';
import { ProjectedTool } from './providers.js';

// The names are reserved with the others in runtime/contract/names.ts; re-exported for the controller.
export { DISCOVER, LOAD_SKILL, LOAD_TOOL, META_TOOL_NAMES, type MetaToolName };

export type DiscoverKind = 'tool' | 'skill' | 'all';

export interface DiscoverInput {
  readonly query: string;
  readonly kind?: DiscoverKind;
  readonly mcp_server?: string;
}
export interface LoadToolInput {
  readonly name: string;
}
export interface LoadSkillInput {
  readonly name: string;
}
export type MetaToolInput<N extends MetaToolName> = N extends 'discover'
  ? DiscoverInput
  : N extends 'load_tool'
    ? LoadToolInput
    : LoadSkillInput;

export interface DiscoverResult {
  readonly name: string;
  readonly kind: 'tool' | 'skill';
  readonly brief: string;
  /** Already loaded (tools) / already loaded in this session (skills). */
  readonly loaded: boolean;
  readonly mcp_server?: string;
}

export interface DiscoverOutput {
  readonly query: string;
  readonly results: readonly DiscoverResult[];
  /** Only when nothing matched: a fixed sentence. */
  readonly message?: string;
}

export interface LoadToolOutput {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
  /** Names now callable (for Anthropic: send them back as `tool_reference` blocks). */
  readonly loaded: readonly string[];
}

export interface LoadSkillOutput {
  readonly name: string;
  readonly description: string;
  readonly instructions: string;
  /** The skill's associated tools now loaded (declared `tools`, then private tools). */
  readonly loaded: readonly string[];
}

const NAME_INPUT = Object.freeze({
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, description: 'Exact name as returned by discover' } },
  required: ['name'],
  additionalProperties: false,
});

/**
 * A `discover` query is a few words; a longer one is refused as invalid input (a 200,000-character
 * query came back twice in the answer, echoed in `query` and in the no-match message).
 */
export const MAX_QUERY = 500;

/** What the model reads for a name it may not use (the same for one that does not exist) and for no match. */
export const notFoundTool = (name: string) =>
  `No tool named "${name}" is available in this turn. Use discover to search for tools.`;
export const notFoundSkill = (name: string) =>
  `No skill named "${name}" is available in this turn. Use discover to search for skills.`;
export const noMatch = (query: string) => `No tools or skills match "${query}". Try other words.`;

const SCHEMAS: Record<MetaToolName, JsonSchema> = {
  discover: Object.freeze({
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: MAX_QUERY, description: 'What you need, in a few words' },
      kind: {
        type: 'string',
        enum: ['tool', 'skill', 'all'],
        description: 'Restrict to tools or skills (default all)',
      },
      mcp_server: { type: 'string', description: 'Only capabilities of this MCP server' },
    },
    required: ['query'],
    additionalProperties: false,
  }),
  load_tool: NAME_INPUT,
  load_skill: NAME_INPUT,
};

const DESCRIPTIONS: Record<MetaToolName, string> = {
  discover:
    'Search the tools and skills available in this conversation that are not loaded yet. Returns names with a one-line brief; then call load_tool or load_skill.',
  load_tool: 'Load one tool by its exact name (from discover) so it can be called. Returns its input schema.',
  load_skill:
    'Load one skill by its exact name (from discover): returns its full instructions and loads the tools it uses.',
};

/** Projected once per process: meta tools are the same in every generation. */
export const META_PROJECTED: Readonly<Record<MetaToolName, ProjectedTool>> = Object.freeze({
  discover: new ProjectedTool(DISCOVER, DESCRIPTIONS.discover, SCHEMAS.discover),
  load_tool: new ProjectedTool(LOAD_TOOL, DESCRIPTIONS.load_tool, SCHEMAS.load_tool),
  load_skill: new ProjectedTool(LOAD_SKILL, DESCRIPTIONS.load_skill, SCHEMAS.load_skill),
});

type Issue = { readonly message: string; readonly path: readonly string[] };

function objectInput(value: unknown, allowed: readonly string[]): Issue | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { message: 'expected an object', path: [] };
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) return { message: `unexpected property "${key}"`, path: [key] };
  return undefined;
}

function text(value: unknown, key: string, required: boolean, max = Number.POSITIVE_INFINITY): Issue | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || (required && value.trim() === ''))
    return { message: 'expected a non-empty string', path: [key] };
  if (value.length > max) return { message: `expected at most ${max} characters`, path: [key] };
  return undefined;
}

function standard(check: (value: unknown) => Issue | undefined): StandardSchemaLike {
  return Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'zhin-gen',
      validate: (value: unknown) => {
        const issue = check(value);
        return issue ? { issues: [issue] } : { value };
      },
    }),
  });
}

const VALIDATORS: Record<MetaToolName, StandardSchemaLike> = {
  discover: standard((value) => {
    const input = value as Record<string, unknown>;
    return (
      objectInput(value, ['query', 'kind', 'mcp_server']) ??
      text(input.query, 'query', true, MAX_QUERY) ??
      (input.kind === undefined || input.kind === 'tool' || input.kind === 'skill' || input.kind === 'all'
        ? undefined
        : { message: 'expected "tool", "skill" or "all"', path: ['kind'] }) ??
      text(input.mcp_server, 'mcp_server', false)
    );
  }),
  load_tool: standard(
    (value) => objectInput(value, ['name']) ?? text((value as Record<string, unknown>).name, 'name', true),
  ),
  load_skill: standard(
    (value) => objectInput(value, ['name']) ?? text((value as Record<string, unknown>).name, 'name', true),
  ),
};

export interface MetaHandlers {
  discover(input: DiscoverInput): Promise<DiscoverOutput>;
  loadTool(name: string): Promise<LoadToolOutput>;
  loadSkill(name: string): Promise<LoadSkillOutput>;
}

const NONE: readonly never[] = Object.freeze([]);

/** Three small bindings per turn, closed over that turn's controller (their constant parts are shared). */
export function metaToolBindings(handlers: MetaHandlers, enabled: (name: MetaToolName) => boolean): ToolBinding[] {
  const run: Record<MetaToolName, (input: unknown) => Promise<unknown>> = {
    discover: (input) => handlers.discover(input as DiscoverInput),
    load_tool: (input) => handlers.loadTool((input as LoadToolInput).name),
    load_skill: (input) => handlers.loadSkill((input as LoadSkillInput).name),
  };
  return META_TOOL_NAMES.filter(enabled).map((name) => {
    const executable: ExecutableTool = Object.freeze({
      execute: (input: unknown) => run[name](input),
      standardSchema: VALIDATORS[name],
    });
    return metaBinding(name, executable);
  });
}

const REHEARSED: DiscoverOutput = Object.freeze({
  query: 'rehearsal',
  results: Object.freeze([]),
  message: 'rehearsal',
});
const REHEARSAL_EXECUTABLE: ExecutableTool = Object.freeze({
  execute: () => Promise.resolve(REHEARSED),
  standardSchema: VALIDATORS.discover,
});

/** What runtime/turn/rehearsal.ts calls `rehearsalBinding()` with: a well-formed `discover` input. */
export const REHEARSAL_INPUT: DiscoverInput = Object.freeze({ query: 'rehearsal' });

/**
 * A `discover` as the pipeline sees it — the same validator, placement and approval — whose
 * `execute` returns a fixed empty answer and reads nothing: what the catalog's prefetch runs
 * through the pipeline off every turn (runtime/turn/rehearsal.ts).
 */
export function rehearsalBinding(): ToolBinding {
  return metaBinding(DISCOVER, REHEARSAL_EXECUTABLE);
}

/** A meta-tool's binding: its description, schema and approval are the same in every turn. */
function metaBinding(name: MetaToolName, executable: ExecutableTool): ToolBinding {
  return Object.freeze({
    qualifiedName: name,
    localName: name,
    owner: '',
    source: 'runtime' as const,
    placement: 'plugin' as const,
    description: DESCRIPTIONS[name],
    inputSchema: SCHEMAS[name],
    // Reading the catalog changes nothing outside the turn; confirming it would be noise.
    requiresApproval: 'never' as const,
    platforms: NONE,
    scopes: NONE,
    permissions: NONE,
    hidden: false,
    keywords: NONE,
    resolve: () => Promise.resolve(executable),
  });
}
