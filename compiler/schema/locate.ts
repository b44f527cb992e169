/**
 * Schema paths → source positions (types and lookup only: no TypeScript import, so the
 * orchestrator can use it on runs that parse nothing).
 */
export interface SchemaLocation {
  readonly line: number;
  readonly column: number;
}

export type SchemaLocations = Readonly<Record<string, SchemaLocation>>;

/** The most specific known location for a JSON Schema path (its longest recorded prefix). */
export function locateSchemaPath(
  locations: SchemaLocations,
  path: readonly (string | number)[],
): SchemaLocation | undefined {
  for (let length = path.length; length > 0; length--) {
    const found = locations[path.slice(0, length).join('.')];
    if (found) return found;
  }
  return undefined;
}
