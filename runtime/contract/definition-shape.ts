/**
 * Whether a value a module exported is the definition the runtime is about to use: an object of
 * the `define*` helper's `kind` whose one field the runtime calls or reads has its type (a tool's
 * `execute`, a hook's `handle`, a plugin's optional `setup`, a section's `content`). One check for
 * every module's default export (generation/setup.ts, generation/capability.ts, turn/hooks.ts,
 * prompt/section-content.ts); anything else is the module's error, reported by the caller.
 */
export function isDefinitionOf(
  value: unknown,
  kind: string,
  field: string,
  type: 'function' | 'string',
  optional = false,
): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record.kind !== kind) return false;
  const found = record[field];
  return (optional && found === undefined) || typeof found === type;
}
