/**
 * Final conversion of an evaluated `inputSchema` value to the emitted JSON Schema. Zod values are
 * projected by project.ts; plain values are JSON Schemas checked here against the draft 2020-12
 * meta-schema (one ajv instance, whose meta-schema validator is compiled once) and then compiled
 * once, which also catches what the meta-schema cannot see (an unresolvable `$ref`, an invalid
 * `pattern`). Runs in the compiler process only.
 */
// The named export: ajv is CommonJS and its default export differs between Node ESM and bundlers.
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { lazyRequire } from '../util/lazy.js';
import {
  cleanSchema,
  type NonKeyword,
  nonKeywordFailure,
  project,
  type JsonValue,
  type Projection,
} from './project.js';
import type { ConvertResult, JsonSchema } from './types.js';

/** The schema of a tool without `inputSchema`: exactly what `z.object({})` projects to (input side). */
export { EMPTY_INPUT_SCHEMA } from './empty.js';
import { EMPTY_INPUT_SCHEMA } from './empty.js';
import { protoPropertyFailure } from './proto-property.js';

// Only JSON Schema literals need ajv: a tree of Zod schemas never loads it.
const ajv2020 = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
let ajv: Ajv2020 | undefined;

function getAjv(): Ajv2020 {
  // strict: false because unknown keywords are legal annotations in 2020-12; formats are
  // annotations too unless a format vocabulary is asserted, so they are not validated here.
  ajv ??= new (ajv2020().Ajv2020)({ strict: false, allErrors: true, validateFormats: false });
  return ajv;
}

/** `undefined` for an absent schema (the caller uses {@link EMPTY_INPUT_SCHEMA}). */
export function convertSchemaValue(value: unknown): ConvertResult | undefined {
  return finishProjection(project(value));
}

export function finishProjection(projection: Projection): ConvertResult | undefined {
  if (projection.kind === 'absent') return undefined;
  const result = projection.kind === 'done' ? projection.result : convertJsonSchema(projection.value);
  return result.ok ? (protoPropertyFailure(result.schema) ?? result) : result;
}

export function convertJsonSchema(value: JsonValue): ConvertResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return {
      ok: false,
      code: 'ZG2020',
      message: `inputSchema is ${what}; expected z.object({ ... }) or a JSON Schema with type: "object"`,
    };
  }
  const instance = getAjv();
  if (!instance.validateSchema(value)) {
    const errors = instance.errors ?? [];
    const best = mostSpecific(errors);
    const path =
      best && best.instancePath !== ''
        ? best.instancePath
            .slice(1)
            .split('/')
            .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        : undefined;
    return {
      ok: false,
      code: 'ZG2022',
      message: `Invalid JSON Schema: ${describeErrors(errors)}`,
      ...(path ? { path } : {}),
    };
  }
  if (value.type !== 'object') {
    return {
      ok: false,
      code: 'ZG2020',
      message: `inputSchema has type ${JSON.stringify(value.type ?? null)}; the root must have type: "object"`,
    };
  }
  const nonKeywords: NonKeyword[] = [];
  const cleaned = cleanSchema(value, nonKeywords);
  if (nonKeywords.length > 0) return nonKeywordFailure(nonKeywords, 'json');
  try {
    // `$async: true` makes Ajv's validator return a promise, which the runtime's synchronous check
    // would take as an answer (a promise is truthy): every input would pass. Refused here; the
    // runtime refuses any answer but `true` as well (runtime/turn/validation.ts).
    if ((instance.compile(cleaned as object) as { $async?: unknown }).$async === true)
      return {
        ok: false,
        code: 'ZG2022',
        message:
          "Invalid JSON Schema: `$async: true` makes the validator asynchronous; a tool's input is validated synchronously (remove `$async`)",
        path: ['$async'],
      };
  } catch (error) {
    // Ajv names no place for a pattern that is no regular expression: found here, so the
    // diagnostic points at the keyword, not at the schema's first brace.
    const pattern = /regular expression/i.test(String(error)) ? badPattern(cleaned) : undefined;
    return {
      ok: false,
      code: 'ZG2022',
      message: `Invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      ...(pattern ? { path: pattern } : {}),
    };
  } finally {
    // Keep the instance from accumulating every tool's schema (and clashing `$id`s in watch mode).
    instance.removeSchema(cleaned as object);
  }
  return { ok: true, schema: cleaned as JsonSchema, origin: 'json' };
}

/**
 * The most specific meta-schema error: the deepest instance path, preferring concrete keywords
 * over the `anyOf`/`oneOf` wrappers that repeat it.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const score = (e: ErrorObject): number =>
    e.instancePath.split('/').length * 10 +
    (e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 0 : e.keyword === 'type' ? 1 : 2);
  return [...errors].sort((a, b) => score(b) - score(a))[0];
}

function describeErrors(errors: readonly ErrorObject[]): string {
  const best = mostSpecific(errors);
  if (!best) return 'does not match the draft 2020-12 meta-schema';
  const path = best.instancePath === '' ? '(root)' : best.instancePath;
  const keyword = best.instancePath.split('/').pop() || best.keyword;
  const allowed = (best.params as { allowedValues?: unknown }).allowedValues;
  const detail = Array.isArray(allowed) ? ` (${allowed.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return `keyword \`${keyword}\` at ${path} ${best.message ?? 'is invalid'}${detail}`;
}

const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'default', 'enum', 'examples']);

/**
 * The path of the first `pattern` (or `patternProperties` key) that is no regular expression in
 * Ajv's `u` mode, or undefined.
 */
function badPattern(schema: unknown): string[] | undefined {
  const compiles = (source: string): boolean => {
    try {
      new RegExp(source, 'u');
      return true;
    } catch {
      return false;
    }
  };
  const stack: { value: unknown; path: string[] }[] = [{ value: schema, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.shift()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      // Values, not schemas: a `pattern` key in example data is data.
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof child === 'string' && !compiles(child)) return [...path, key];
      if (key === 'patternProperties' && typeof child === 'object' && child !== null)
        for (const source of Object.keys(child)) if (!compiles(source)) return [...path, key, source];
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}
