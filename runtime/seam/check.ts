/**
 * Validation of what providers declare. The compiler never sees a seam, so these are the only
 * checks its schemas get: the same rules as `defineAgentTool` / SKILL.md (docs/authoring.md),
 * applied at projection, so a bad schema rejects the candidate instead of failing a turn.
 */
import { APPROVAL_MODES, CHANNEL_SCOPES, DEFAULT_APPROVAL_MODE } from '../contract/enums.js';
import type { ChannelScope, JsonSchema, ManifestSkill, ManifestTool } from '../contract/manifest.js';
import { codePointLength, MAX_DESCRIPTION_CHARS, PROVIDER_SAFE_NAME } from '../contract/names.js';
import { parsePermitSyntax } from '../contract/permit-syntax.js';
import type { SkillCatalogEntry, ToolSchema } from './types.js';

/** A tool schema after validation, defaults applied: the manifest tool's fields, named by the provider. */
export interface SeamToolSpec
  extends Pick<
    ManifestTool,
    'description' | 'inputSchema' | 'requiresApproval' | 'platforms' | 'scopes' | 'permissions' | 'hidden' | 'keywords'
  > {
  readonly name: string;
  /** Where the provider got it (e.g. `mcp:github`), not a file of the tree. */
  readonly source?: string;
}

export interface SeamSkillSpec
  extends Pick<ManifestSkill, 'description' | 'platforms' | 'scopes' | 'permissions' | 'keywords' | 'tags'> {
  readonly name: string;
  readonly source?: string;
}

function list(what: string, field: string, value: unknown, allowed?: readonly string[]): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) throw new TypeError(`${what}: \`${field}\` must be an array of strings`);
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string' || item.trim() === '')
      throw new TypeError(`${what}: \`${field}\` entries must be non-empty strings`);
    if (allowed && !allowed.includes(item))
      throw new TypeError(`${what}: \`${field}\` entry "${item}" is not one of ${allowed.join(', ')}`);
    if (seen.has(item)) throw new TypeError(`${what}: \`${field}\` lists "${item}" twice`);
    seen.add(item);
  }
  return Object.freeze([...(value as string[])]);
}

function permits(what: string, value: unknown): readonly string[] {
  const entries = list(what, 'permissions', value);
  for (const permit of entries) {
    const parsed = parsePermitSyntax(permit);
    if (!parsed.ok) throw new TypeError(`${what}: permission "${permit}" does not parse: ${parsed.reason}`);
  }
  return entries;
}

function optionalSource(what: string, value: unknown): { source?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string' || value.trim() === '')
    throw new TypeError(`${what}: \`source\` must be a non-empty string`);
  return { source: value };
}

export function checkToolSchema(provider: string, schema: ToolSchema): SeamToolSpec {
  const fn = (schema as { function?: ToolSchema['function'] } | null)?.function;
  const rawName = typeof fn === 'object' && fn !== null ? fn.name : undefined;
  const what = `tool provider "${provider}"${typeof rawName === 'string' ? `, tool "${rawName}"` : ''}`;
  if (
    typeof schema !== 'object' ||
    schema === null ||
    schema.type !== 'function' ||
    typeof fn !== 'object' ||
    fn === null
  ) {
    throw new TypeError(
      `${what}: a tool schema must be { type: 'function', function: { name, description, parameters? } }`,
    );
  }
  if (typeof fn.name !== 'string' || !PROVIDER_SAFE_NAME.test(fn.name)) {
    throw new TypeError(`${what}: tool name must be provider-safe (${PROVIDER_SAFE_NAME.source})`);
  }
  if (typeof fn.description !== 'string' || fn.description.trim() === '')
    throw new TypeError(`${what}: \`description\` must be a non-empty string`);
  const parameters = fn.parameters ?? { type: 'object' };
  if (typeof parameters !== 'object' || parameters === null || (parameters as JsonSchema).type !== 'object') {
    throw new TypeError(`${what}: \`parameters\` must be a JSON Schema with type: "object"`);
  }
  const approval = schema.approval ?? DEFAULT_APPROVAL_MODE;
  if (!APPROVAL_MODES.includes(approval))
    throw new TypeError(`${what}: \`approval\` must be one of ${APPROVAL_MODES.join(', ')}`);
  if (schema.hidden !== undefined && typeof schema.hidden !== 'boolean')
    throw new TypeError(`${what}: \`hidden\` must be a boolean`);
  return Object.freeze({
    name: fn.name,
    description: fn.description,
    inputSchema: parameters,
    requiresApproval: approval,
    platforms: list(what, 'platforms', schema.platforms),
    scopes: list(what, 'scopes', schema.scopes, CHANNEL_SCOPES) as readonly ChannelScope[],
    permissions: permits(what, schema.permissions),
    hidden: schema.hidden ?? false,
    keywords: list(what, 'keywords', schema.keywords),
    ...optionalSource(what, schema.source),
  });
}

export function checkSkillEntry(provider: string, entry: SkillCatalogEntry): SeamSkillSpec {
  const rawName = typeof entry === 'object' && entry !== null ? entry.name : undefined;
  const what = `skill provider "${provider}"${typeof rawName === 'string' ? `, skill "${rawName}"` : ''}`;
  if (typeof entry !== 'object' || entry === null)
    throw new TypeError(`${what}: a catalog entry must be { name, description }`);
  if (typeof entry.name !== 'string' || !PROVIDER_SAFE_NAME.test(entry.name)) {
    throw new TypeError(`${what}: skill name must be provider-safe (${PROVIDER_SAFE_NAME.source})`);
  }
  const description = entry.description;
  // Counted in code points, as the compiler counts a SKILL.md description.
  if (
    typeof description !== 'string' ||
    description.trim() === '' ||
    codePointLength(description) > MAX_DESCRIPTION_CHARS
  ) {
    throw new TypeError(`${what}: \`description\` must be 1–${MAX_DESCRIPTION_CHARS} characters`);
  }
  return Object.freeze({
    name: entry.name,
    description,
    platforms: list(what, 'platforms', entry.platforms),
    scopes: list(what, 'scopes', entry.scopes, CHANNEL_SCOPES) as readonly ChannelScope[],
    permissions: permits(what, entry.permissions),
    keywords: list(what, 'keywords', entry.keywords),
    tags: list(what, 'tags', entry.tags),
    ...optionalSource(what, entry.source),
  });
}
