/**
 * The keywords an input schema may carry: every keyword the runtime's validator knows (Ajv's
 * draft 2020-12 vocabulary, including what Ajv enforces from earlier drafts, such as
 * `dependencies`, and `$anchor`, which its resolver reads), and nothing else. SPEC: the emitted schema never carries `$schema`, `~standard`
 * or other non-keywords. Another key is either a typo (`minlength`, which validates nothing) or
 * metadata the model would be sent as part of the schema; project.ts refuses both with ZG2022.
 * A static list, so a tree of Zod schemas never loads Ajv for it; test/compiler/schema/keywords.test.ts
 * keeps it equal to the keywords of the installed Ajv.
 */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  // Read by Ajv's resolver, not its rules: `{ $ref: '#node' }` finds `{ $anchor: 'node' }`.
  '$anchor',
  '$async',
  '$comment',
  '$defs',
  '$dynamicAnchor',
  '$dynamicRef',
  '$id',
  '$recursiveAnchor',
  '$recursiveRef',
  '$ref',
  '$schema',
  '$vocabulary',
  'additionalProperties',
  'allOf',
  'anyOf',
  'const',
  'contains',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'default',
  'definitions',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'deprecated',
  'description',
  'else',
  'enum',
  'examples',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'format',
  'id',
  'if',
  'items',
  'maxContains',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minContains',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'nullable',
  'oneOf',
  'pattern',
  'patternProperties',
  'prefixItems',
  'properties',
  'propertyNames',
  'readOnly',
  'required',
  'then',
  'title',
  'type',
  'unevaluatedItems',
  'unevaluatedProperties',
  'uniqueItems',
  'writeOnly',
]);

/** The keyword a key differs from only in case (`minlength` → `minLength`), if any. */
export function keywordLike(key: string): string | undefined {
  const lower = key.toLowerCase();
  for (const keyword of SCHEMA_KEYWORDS) if (keyword.toLowerCase() === lower) return keyword;
  return undefined;
}
