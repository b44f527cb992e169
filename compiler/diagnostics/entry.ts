/** The shape of one catalog entry, shared by the catalog's parts (compiler/diagnostics/*.ts). */
export type Severity = 'error' | 'warning';

export interface CatalogEntry {
  readonly severity: Severity;
  readonly title: string;
  readonly hint: string;
}

// Hints state the rules from their one definition (runtime/contract/names.ts, enums.ts).
export const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`);
