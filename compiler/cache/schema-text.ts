/**
 * Schemas as the unit cache keeps them on disk: the JSON Schema of an evaluated tool is persisted
 * as its JSON text (`schemaText`), not as an object, and a fresh process parses it only when
 * something reads `outcome.schema` (or the tool model's `inputSchema`). JSON.parse of a string
 * value is a scan; of an object it builds every node, and the schemas were 40% of the bodies'
 * bytes and most of their objects: a one-change run parsed them all, and collected them, only to
 * re-render one tool. What reads a schema without needing the object (the validator key, the
 * provider keyword check, the fingerprints) asks for the text instead (`schemaTextOf`).
 *
 * The text is `JSON.stringify` of the schema, and `JSON.stringify(JSON.parse(text)) === text`
 * (parse keeps key order, and drops nothing stringify wrote), so a consumer given the text writes
 * the same bytes as one given the parsed object.
 */
import type { JsonSchema, SchemaOutcome } from '../schema/types.js';

/** The persisted form of a schema outcome: a successful one's schema as JSON text. */
export type PersistedOutcome =
  | {
      readonly ok: true;
      readonly schemaText: string;
      readonly origin: Extract<SchemaOutcome, { ok: true }>['origin'];
      readonly via: Extract<SchemaOutcome, { ok: true }>['via'];
      readonly sources?: readonly string[];
    }
  | Extract<SchemaOutcome, { ok: false }>;

/** Where an outcome or a tool model read from the cache keeps its schema's text (not enumerable). */
const SCHEMA_TEXT = Symbol('zhin-gen.schemaText');

/** The JSON text of the schema behind this outcome or tool model, when it came from the cache unparsed. */
export function schemaTextOf(value: object): string | undefined {
  return (value as { readonly [SCHEMA_TEXT]?: string })[SCHEMA_TEXT];
}

/** The text an outcome is persisted with: kept from the cache, or serialised now. */
export function persistedOutcome(outcome: SchemaOutcome): PersistedOutcome {
  if (!outcome.ok) return outcome;
  const schemaText = schemaTextOf(outcome) ?? JSON.stringify(outcome.schema);
  return {
    ok: true,
    schemaText,
    origin: outcome.origin,
    via: outcome.via,
    ...(outcome.sources !== undefined ? { sources: outcome.sources } : {}),
  };
}

/**
 * The in-memory outcome of a persisted one: `schema` an enumerable accessor that parses the text
 * on first read (so equality, spreading and JSON.stringify see a plain value), the same keys in
 * the same order as an outcome the schema stage builds.
 */
export function storedOutcome(persisted: PersistedOutcome, key: string): SchemaOutcome {
  if (!persisted.ok) return persisted;
  const text = persisted.schemaText;
  const outcome = {
    ok: true as const,
    schema: undefined as unknown as JsonSchema,
    origin: persisted.origin,
    via: persisted.via,
    ...(persisted.sources !== undefined ? { sources: persisted.sources } : {}),
  };
  let parsed: JsonSchema | undefined;
  Object.defineProperty(outcome, 'schema', {
    enumerable: true,
    configurable: true,
    get: () => {
      parsed ??= parseSchema(text, key);
      return parsed;
    },
  });
  Object.defineProperty(outcome, SCHEMA_TEXT, { value: text });
  return outcome;
}

/**
 * Gives `target[field]` the outcome's schema, read from the outcome on first use, and the
 * outcome's text: a tool model built from a cached outcome leaves the schema unparsed until
 * something needs the object (rendering its line, writing its validator, `inspect`).
 */
export function linkSchema<T extends object>(target: T, field: keyof T & string, outcome: SchemaOutcome): T {
  const text = schemaTextOf(outcome);
  if (text === undefined || !outcome.ok) return target;
  Object.defineProperty(target, field, { enumerable: true, configurable: true, get: () => outcome.schema });
  Object.defineProperty(target, SCHEMA_TEXT, { value: text });
  return target;
}

/**
 * The shape check of a persisted entry saw a string; a text that is not a JSON object was not
 * written by zhin-gen (a truncated write fails the whole file's parse, and the file is then a
 * miss), so it is reported as a damaged cache rather than guessed at.
 */
function parseSchema(text: string, key: string): JsonSchema {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`zhin-gen: the unit cache holds a damaged schema for ${key}; delete the cache and run again`);
  return value as JsonSchema;
}
