/**
 * The JSON Schema keywords an input schema uses, for the provider checks (validate/providers.ts).
 * Kept apart from them because the unit cache records each tool's keywords with its entry
 * (cache/unit-record.ts): a run that reads a tool from its record checks it without its schema.
 */

/** Keywords whose values are data, not schemas: `{ default: { oneOf: 1 } }` uses no `oneOf`. */
const DATA_KEYWORDS = new Set(['default', 'examples', 'const', 'enum']);

function keywordsIn(schema: unknown, found: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) keywordsIn(item, found);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const record = schema as Record<string, unknown>;
  for (const key in record) {
    found.add(key);
    const value = record[key];
    if (typeof value !== 'object' || value === null || DATA_KEYWORDS.has(key)) continue;
    // Keys under `properties` are user property names, not keywords.
    if (key === 'properties') {
      const properties = value as Record<string, unknown>;
      for (const name in properties) keywordsIn(properties[name], found);
    } else {
      keywordsIn(value, found);
    }
  }
}

/** Every keyword the schema uses, each once, in the order first met. */
export function schemaKeywords(schema: unknown): string[] {
  const found = new Set<string>();
  keywordsIn(schema, found);
  return [...found];
}
