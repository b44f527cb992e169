/**
 * Zod writes a bound of `Infinity`, `-Infinity` or `NaN` (`z.number().max(Infinity)`,
 * `.min(-1e309)`) into its JSON Schema as `null`, which no JSON Schema validator or provider
 * reads as a number: the manifest carried `"maximum": null` and `check` passed. A plain JSON
 * Schema with such a bound is refused (ZG2022), so the Zod one is too, at the property.
 *
 * Part of the projection the schema child process bundles: no Node built-ins here.
 */
import type { JsonValue } from './project.js';

/** The keywords whose value is a number in every draft. */
const NUMERIC = new Set([
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
  'maxContains',
  'minContains',
]);

/** Keywords whose values are data, not schemas: a `null` in a default is a value like any other. */
const DATA = new Set(['default', 'const', 'enum', 'examples']);

export interface NullBound {
  readonly keyword: string;
  /** The JSON Schema path of the schema holding it (`['properties', 'max']`). */
  readonly path: readonly (string | number)[];
}

/** Keywords whose value maps names to schemas: a name there (`default`, `enum`) is no keyword. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** The first numeric keyword whose value is `null` in a projected schema, if any. */
export function nullBound(schema: JsonValue, path: (string | number)[] = []): NullBound | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (Array.isArray(schema)) {
    // A list of schemas (`allOf`, `anyOf`, `prefixItems`, …).
    for (let i = 0; i < schema.length; i++) {
      const found = nullBound(schema[i]!, [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (value === null && NUMERIC.has(key)) return { keyword: key, path };
    if (DATA.has(key) || typeof value !== 'object' || value === null) continue;
    if (SCHEMA_MAPS.has(key) && !Array.isArray(value)) {
      for (const [name, inner] of Object.entries(value)) {
        const found = nullBound(inner, [...path, key, name]);
        if (found) return found;
      }
      continue;
    }
    const found = nullBound(value, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
