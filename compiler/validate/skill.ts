/**
 * SKILL.md rule family (docs/authoring.md): a read front matter (compiler/parse/skill-md.ts) → the
 * skill's fields and diagnostics. The shape is checked by SKILL_SCHEMA's validator, generated
 * ahead of time with ajv (compiler/schema/skill-validator.gen.ts: no schema compile per process,
 * ajv is not even loaded); each ajv error is mapped to its diagnostic at the key, value or list entry it concerns. Beside the schema:
 * `name` equals the directory, permits can pass (ZG2008), the Agent Skills specification's forms
 * (warnings) and an empty body (a warning: the specification's smallest skill has none).
 *
 * Pure: no file system; the config's custom permits come in the options.
 */
import type { ChannelScope } from '@zhin-gen/runtime';
import { codePointLength, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS } from '@zhin-gen/runtime/names';
import { compareDiagnostics, diag, type Diagnostic, type DiagnosticCode, type SourceLocation } from '../diagnostics.js';
import { describeValue, permitProblem, type NamedEntry } from '../parse/manifest-values.js';
import { parseSkillMd, pointerSegment, type SkillDocument, type SkillMdInput } from '../parse/skill-md.js';
import { SKILL_KEYS, type SkillKey } from '../schema/skill-schema.js';
import validateFrontMatter from '../schema/skill-validator.gen.js';

export type { SkillKey };
export { SKILL_KEYS };

export interface SkillOptions {
  /** Custom permits from the config: exact strings, or regular expressions written `/src/flags`. */
  readonly customPermits?: readonly string[];
}

export interface ParsedSkill {
  /** The directory name (docs/authoring.md); equals the front matter `name` when valid. */
  readonly name: string;
  /** Trimmed. */
  readonly description: string;
  /** `tools` entries (qualifiedNames) with their positions, resolved later. */
  readonly declaredTools: readonly NamedEntry[];
  readonly platforms: readonly string[];
  readonly scopes: readonly ChannelScope[];
  readonly permissions: readonly string[];
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly always: boolean;
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly allowedTools?: readonly string[];
  /** Body with BOM removed, CRLF → LF, leading blank lines dropped. */
  readonly instructions: string;
  /** The opening "---" of the front matter. */
  readonly loc: SourceLocation;
  /** Where each present key is written, for later diagnostics (e.g. unknown platforms). */
  readonly keyLocs: Readonly<Partial<Record<SkillKey, SourceLocation>>>;
  /** Positions of the valid `platforms` entries, parallel to `platforms`. */
  readonly platformLocs: readonly SourceLocation[];
}

export interface SkillResult {
  readonly skill: ParsedSkill;
  readonly diagnostics: Diagnostic[];
}

/** Read, then validate: the skill whenever the front matter is a readable mapping, and every diagnostic. */
export function checkSkillMd(
  input: SkillMdInput,
  options: SkillOptions = {},
): { readonly skill?: ParsedSkill; readonly diagnostics: Diagnostic[] } {
  const read = parseSkillMd(input);
  if (!read.document) return { diagnostics: read.diagnostics };
  const { skill, diagnostics } = validateSkill(read.document, options);
  return { skill, diagnostics: [...read.diagnostics, ...diagnostics].sort(compareDiagnostics) };
}

/** One error of the generated validator (ajv's own shape). */
type SchemaError = NonNullable<typeof validateFrontMatter.errors>[number];

/** Trimmed before the schema counts them: block scalars end with a line break nobody typed. */
const TRIMMED: readonly SkillKey[] = ['description', 'compatibility'];

export function validateSkill(document: SkillDocument, options: SkillOptions = {}): SkillResult {
  const { data, places, dirName } = document;
  const diagnostics: Diagnostic[] = [];
  const report = (code: DiagnosticCode, at: SourceLocation, message: string): void => {
    diagnostics.push(diag(code, { ...at, message }));
  };
  const keyAt = (key: string): SourceLocation => places[`/${pointerSegment(key)}`]?.key ?? document.loc;
  const valueAt = (pointer: string): SourceLocation => places[pointer]?.value ?? document.loc;
  const known = (key: string): key is SkillKey => (SKILL_KEYS as readonly string[]).includes(key);

  // The instance the schema sees: a known key written with no value counts as not given.
  const instance: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(data)) {
    const value = data[key];
    const why = document.unreadable[key];
    if (known(key) && why !== undefined) {
      report('ZG4006', valueAt(`/${key}`), `\`${key}\` could not be read: ${why}`);
      continue;
    }
    if (known(key) && value === null) continue;
    instance[key] = TRIMMED.includes(key as SkillKey) && typeof value === 'string' ? value.trim() : value;
  }

  const invalid = new Set<string>();
  if (!validateFrontMatter(instance)) {
    for (const error of validateFrontMatter.errors ?? []) {
      const mapped = mapSchemaError(error, instance, dirName);
      if (!mapped || invalid.has(mapped.path)) continue;
      invalid.add(mapped.path);
      report(mapped.code, mapped.at === 'key' ? keyAt(mapped.key) : valueAt(mapped.path), mapped.message);
    }
  }
  const valid = (key: SkillKey): boolean => instance[key] !== undefined && !invalid.has(`/${key}`);

  // name: the identity is the directory; a different name would silently rename the skill.
  if (valid('name') && instance.name !== dirName) {
    report(
      'ZG4002',
      valueAt('/name'),
      `\`name\` is ${JSON.stringify(instance.name)} but the skill directory is ${JSON.stringify(dirName)}; they must be equal`,
    );
  }

  /** The valid entries of a list key, with their positions (bad entries were reported). */
  const entries = (key: SkillKey): NamedEntry[] => {
    const value = instance[key];
    if (!valid(key) || !Array.isArray(value)) return [];
    const out: NamedEntry[] = [];
    value.forEach((item, index) => {
      const pointer = `/${key}/${index}`;
      if (typeof item === 'string' && !invalid.has(pointer)) out.push({ name: item, loc: valueAt(pointer) });
    });
    return out;
  };

  const permissions: string[] = [];
  for (const entry of entries('permissions')) {
    const problem = permitProblem(entry.name, options.customPermits);
    if (problem === undefined) permissions.push(entry.name);
    else report('ZG2008', entry.loc, `permit ${JSON.stringify(entry.name)} can never pass: ${problem}`);
  }

  // The Agent Skills specification's forms: read either way, warned so the skill travels.
  const allowed = instance['allowed-tools'];
  if (valid('allowed-tools') && Array.isArray(allowed)) {
    report(
      'ZG2081',
      valueAt('/allowed-tools'),
      '`allowed-tools` is a YAML list; the Agent Skills specification writes one space-separated string',
    );
  }
  const metadata = instance.metadata;
  if (valid('metadata')) {
    for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
      if (typeof value === 'string') continue;
      const pointer = `/metadata/${pointerSegment(key)}`;
      report(
        'ZG2082',
        valueAt(pointer),
        `\`metadata\` value ${JSON.stringify(key)} is ${describeValue(value)}; the Agent Skills specification allows strings only`,
      );
    }
  }

  if (document.bodyBlank) {
    report(
      'ZG4005',
      document.end,
      'SKILL.md has no instructions below the front matter; write them as Markdown after the closing "---"',
    );
  }

  const keyLocs: Partial<Record<SkillKey, SourceLocation>> = {};
  for (const key of Object.keys(data)) if (known(key)) keyLocs[key] = keyAt(key);
  const text = (key: SkillKey): string | undefined =>
    valid(key) && typeof data[key] === 'string' ? (data[key] as string) : undefined;
  const platforms = entries('platforms');
  const license = text('license');
  const compatibility = text('compatibility');
  const allowedTools = !valid('allowed-tools')
    ? undefined
    : typeof allowed === 'string'
      ? [allowed]
      : entries('allowed-tools').map((e) => e.name);

  const skill: ParsedSkill = {
    name: dirName,
    description: valid('description') ? (instance.description as string) : '',
    declaredTools: entries('tools'),
    platforms: platforms.map((e) => e.name),
    platformLocs: platforms.map((e) => e.loc),
    scopes: entries('scopes').map((e) => e.name as ChannelScope),
    permissions,
    keywords: entries('keywords').map((e) => e.name),
    tags: entries('tags').map((e) => e.name),
    always: valid('always') ? (instance.always as boolean) : false,
    ...(license !== undefined ? { license } : {}),
    ...(compatibility !== undefined ? { compatibility } : {}),
    ...(valid('metadata') ? { metadata: metadata as Record<string, unknown> } : {}),
    ...(allowedTools !== undefined ? { allowedTools } : {}),
    instructions: document.instructions,
    loc: document.loc,
    keyLocs,
  };
  return { skill, diagnostics: diagnostics.sort(compareDiagnostics) };
}

// ── ajv error → diagnostic ────────────────────────────────────────────────────

interface MappedError {
  readonly code: DiagnosticCode;
  /** Instance path, to keep one diagnostic per value (ajv may report several keywords). */
  readonly path: string;
  /** The top-level key concerned. */
  readonly key: string;
  /** Reported at the key (the front matter's start when the key is not written) or at the value at `path`. */
  readonly at: 'key' | 'value';
  readonly message: string;
}

const EXPECTED: Readonly<Partial<Record<SkillKey, string>>> = {
  name: 'a string',
  license: 'a string',
  compatibility: 'a string',
  always: 'true or false',
  metadata: 'a mapping',
  'allowed-tools': 'a string or an array of strings',
};

function mapSchemaError(
  error: SchemaError,
  instance: Record<string, unknown>,
  dirName: string,
): MappedError | undefined {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (segments.length === 0) {
    if (error.keyword === 'additionalProperties') {
      const key = String(error.params['additionalProperty']);
      return {
        code: 'ZG4004',
        path: `/${pointerSegment(key)}`,
        key,
        at: 'key',
        message: `unknown key ${JSON.stringify(key)} in the SKILL.md front matter is ignored; known keys: ${SKILL_KEYS.join(', ')}`,
      };
    }
    if (error.keyword === 'required') {
      const key = String(error.params['missingProperty']);
      // A key written with no value is reported at the key; a missing one at the front matter.
      const at = 'key';
      return key === 'name'
        ? {
            code: 'ZG4002',
            path: '/name',
            key,
            at,
            message: `\`name\` is missing; it must be ${JSON.stringify(dirName)}, the skill directory name`,
          }
        : {
            code: 'ZG4003',
            path: `/${key}`,
            key,
            at,
            message: `\`description\` is missing; give 1 to ${MAX_DESCRIPTION_CHARS} characters saying when to use the skill`,
          };
    }
    return undefined;
  }
  const key = segments[0] as SkillKey;
  const actual = segments.reduce<unknown>((v, seg) => (v as Record<string, unknown> | undefined)?.[seg], instance);
  const base = { path: error.instancePath, key, at: 'value' as const };
  if (key === 'description') {
    const text = typeof actual === 'string' ? actual : undefined;
    const message =
      text === undefined
        ? `\`description\` must be a string, got ${describeValue(actual)}`
        : error.keyword === 'maxLength'
          ? `\`description\` is ${codePointLength(text)} characters long; the limit is ${MAX_DESCRIPTION_CHARS}`
          : `\`description\` is empty; give 1 to ${MAX_DESCRIPTION_CHARS} characters`;
    return { ...base, code: 'ZG4003', message };
  }
  if (key === 'compatibility' && error.keyword === 'maxLength') {
    return {
      ...base,
      code: 'ZG2080',
      message: `\`compatibility\` is ${codePointLength(String(actual))} characters long; the limit is ${MAX_COMPATIBILITY_CHARS}`,
    };
  }
  if (segments.length === 2) {
    if (key === 'scopes' && error.keyword === 'enum')
      return {
        ...base,
        code: 'ZG2007',
        message: `unknown scope ${JSON.stringify(actual)}; scopes are private, group or channel`,
      };
    const index = Number(segments[1]);
    return {
      ...base,
      code: 'ZG4006',
      message: `\`${key}\` entry ${index + 1} must be a non-empty string, got ${describeValue(actual)}`,
    };
  }
  return {
    ...base,
    code: 'ZG4006',
    message: `\`${key}\` must be ${EXPECTED[key] ?? 'an array of strings'}, got ${describeValue(actual)}`,
  };
}
