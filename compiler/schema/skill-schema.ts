/**
 * The SKILL.md front matter schema (JSON Schema 2020-12), validated with ajv as agent.json is.
 * It says what zhin-gen reads; compiler/validate/skill.ts maps each failure to its diagnostic and
 * adds the rules a schema cannot state (the directory name, permits against the config, the
 * Agent Skills specification's string-only forms, which are warnings). Built from the limits in
 * runtime/contract/names.ts, so the numbers exist once.
 *
 * `description` and `compatibility` are validated trimmed: YAML block scalars (`|`, `>`) end with
 * a line break nobody typed.
 */
import { CHANNEL_SCOPES } from '@zhin-gen/runtime/define';
import { MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS } from '@zhin-gen/runtime/names';

/** A list entry: a string with at least one non-space character. */
const ENTRY = { type: 'string', minLength: 1, pattern: '\\S' } as const;
const NAME_LIST = { type: 'array', items: ENTRY } as const;

export const SKILL_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'zhin-gen SKILL.md front matter',
  type: 'object',
  required: ['name', 'description'],
  properties: {
    /** Must also equal the skill directory (checked beside the schema). */
    name: { type: 'string' },
    description: { type: 'string', minLength: 1, maxLength: MAX_DESCRIPTION_CHARS },
    tools: NAME_LIST,
    platforms: NAME_LIST,
    scopes: { type: 'array', items: { ...ENTRY, enum: [...CHANNEL_SCOPES] } },
    permissions: NAME_LIST,
    keywords: NAME_LIST,
    tags: NAME_LIST,
    always: { type: 'boolean' },
    license: { type: 'string' },
    compatibility: { type: 'string', maxLength: MAX_COMPATIBILITY_CHARS },
    /** Any mapping is read; values that are not strings are a warning (Agent Skills). */
    metadata: { type: 'object' },
    /** The specification's form is one space-separated string; a YAML list is read with a warning. */
    'allowed-tools': { type: ['string', 'array'], items: ENTRY },
  },
  additionalProperties: false,
} as const;

export type SkillKey = keyof typeof SKILL_SCHEMA.properties;

/**
 * How skill-validator.gen.ts is generated from SKILL_SCHEMA (compiler/emit/validators.ts): every
 * error, since each becomes a diagnostic. A test regenerates it and compares the bytes; after a
 * schema change: `UPDATE_GOLDEN=1 npx vitest run test/compiler/validate/skill.test.ts`.
 */
export const SKILL_VALIDATOR_OPTIONS = {
  typescript: true,
  allErrors: true,
  purpose: 'the SKILL.md front matter validator (compiler/schema/skill-schema.ts)',
} as const;

/** The keys zhin-gen reads, in the order docs/authoring.md lists them. */
export const SKILL_KEYS = Object.freeze(Object.keys(SKILL_SCHEMA.properties)) as readonly SkillKey[];
