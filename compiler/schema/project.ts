/**
 * Projection of an evaluated `inputSchema` value, shared by the in-process fast path and the
 * child process of the fallback (which bundles this file, so it must stay free of ajv and of
 * Node built-ins). Zod schemas are projected completely here; plain objects are only copied to
 * JSON so the parent can check them against the meta-schema (convert.ts).
 */
import { z } from 'zod';
import type { ConvertResult, JsonSchema } from './types.js';
import { keywordLike, SCHEMA_KEYWORDS } from './keywords.js';
import { nullBound } from './infinite-bounds.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type Projection =
  | { readonly kind: 'absent' }
  | { readonly kind: 'done'; readonly result: ConvertResult }
  /** A plain object or other JSON value: still to be checked as a JSON Schema. */
  | { readonly kind: 'json'; readonly value: JsonValue };

interface ZodLike {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly in?: unknown;
      readonly getter?: () => unknown;
      readonly shape?: Record<string, unknown>;
    };
  };
}

export function isZodSchema(value: unknown): value is ZodLike {
  if (typeof value !== 'object' || value === null || !('_zod' in value)) return false;
  const internals = (value as { _zod: unknown })._zod;
  return (
    typeof internals === 'object' && internals !== null && typeof (internals as { def?: unknown }).def === 'object'
  );
}

function fail(code: 'ZG2020' | 'ZG2021' | 'ZG2022' | 'ZG2023', message: string, hint?: string): Projection {
  return { kind: 'done', result: { ok: false, code, message, ...(hint ? { hint } : {}) } };
}

export function project(value: unknown): Projection {
  if (value === undefined) return { kind: 'absent' };
  if (isZodSchema(value)) return { kind: 'done', result: projectZod(value) };
  if (isForeignStandardSchema(value)) {
    const vendor = String((value as { '~standard'?: { vendor?: unknown } })['~standard']?.vendor ?? 'unknown');
    return fail(
      'ZG2020',
      `inputSchema is a Standard Schema from "${vendor}", not a Zod 4 schema or a JSON Schema`,
      'zhin-gen projects Zod 4 schemas (import { z } from "zod") and plain JSON Schema objects; Zod 3 and other libraries cannot be converted.',
    );
  }
  try {
    return { kind: 'json', value: toJson(withoutInternals(value), 'inputSchema', []) };
  } catch (error) {
    if (error instanceof NotJson) return fail('ZG2022', error.message);
    throw error;
  }
}

/**
 * A Standard Schema from another library (Zod 3, Valibot, ArkType...): `~standard.validate` is a
 * function and it does not look like a JSON Schema. A JSON Schema object that merely carries a
 * `~standard` key (libraries that emit both) is a JSON Schema; the key is dropped.
 */
function isForeignStandardSchema(value: unknown): boolean {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null || !('~standard' in value)) return false;
  const standard = (value as { '~standard'?: { validate?: unknown } })['~standard'];
  return typeof standard?.validate === 'function' && typeof (value as { type?: unknown }).type !== 'string';
}

/** The type a value of the schema has on the input side (pipes: their input). */
function inputRootType(schema: ZodLike): string {
  let current: ZodLike = schema;
  for (let hops = 0; hops < 32; hops++) {
    const def = current._zod.def;
    if (def.type === 'pipe' && isZodSchema(def.in)) current = def.in;
    else if (def.type === 'lazy' && def.getter) {
      const next = def.getter();
      if (!isZodSchema(next)) break;
      current = next;
    } else return def.type;
  }
  return 'unknown';
}

function projectZod(schema: ZodLike): ConvertResult {
  const rootType = inputRootType(schema);
  if (rootType !== 'object') {
    return {
      ok: false,
      code: 'ZG2020',
      message: `inputSchema is a Zod ${rootType} schema; the root must be z.object({ ... })`,
    };
  }
  // Every site, not the first: the conversion goes on past each (with `{}` in its place, never
  // emitted), so one run names every unrepresentable type (SPEC: all problems are collected).
  const sites: { path: readonly (string | number)[]; message: string }[] = [];
  let json: unknown;
  try {
    json = z.toJSONSchema(schema as unknown as z.ZodType, {
      target: 'draft-2020-12',
      io: 'input',
      // Zod's error message carries no path: the handler is told where.
      unrepresentable: (info) => {
        sites.push({ path: info.path, message: info.message });
        return 'any';
      },
    });
  } catch (error) {
    // Zod converts recursively: a schema built nested thousands of levels deep (in a loop, say)
    // runs it out of stack. That is the schema's depth, not a failure to evaluate.
    const site = sites[0];
    if (error instanceof RangeError && site === undefined)
      return {
        ok: false,
        code: 'ZG2022',
        message: 'inputSchema is nested too deeply to convert to JSON Schema (a schema may nest at most 256 levels)',
      };
    const message = error instanceof Error ? error.message : String(error);
    const path = site?.path ?? findUnrepresentable(schema);
    if (site || path || /represent/i.test(message)) {
      return {
        ok: false,
        code: 'ZG2021',
        message: `\`${pathText(path ?? [])}\`: ${site?.message ?? message.replace(/^\[toJSONSchema\]:\s*/, '')}`,
        ...(path && path.length > 0 ? { path } : {}),
      };
    }
    return { ok: false, code: 'ZG2023', message: `z.toJSONSchema failed: ${message}` };
  }
  if (sites.length > 0) {
    const first = sites[0]!.path;
    return {
      ok: false,
      code: 'ZG2021',
      message: sites.map((s) => `\`${pathText(s.path)}\`: ${s.message}`).join('; '),
      ...(first.length > 0 ? { path: first } : {}),
    };
  }
  let cleaned: JsonValue;
  try {
    // A copy that is pure JSON of this realm. Zod 4.6 already serialises `.meta()` values and
    // defaults through JSON; this keeps that a checked guarantee rather than an assumption.
    const found: NonKeyword[] = [];
    cleaned = cleanSchema(toJson(json, 'inputSchema', []), found);
    if (found.length > 0) return nonKeywordFailure(found, 'zod');
  } catch (error) {
    if (error instanceof TooDeep)
      return {
        ok: false,
        code: 'ZG2022',
        message: 'inputSchema nests more than 256 levels as JSON Schema (a schema may nest at most 256 levels)',
      };
    if (error instanceof NotJson)
      return { ok: false, code: 'ZG2021', message: `${error.message} (from .meta() or .describe())` };
    throw error;
  }
  if (!isObject(cleaned) || cleaned.type !== 'object') {
    return { ok: false, code: 'ZG2020', message: 'inputSchema does not project to a JSON Schema with type "object"' };
  }
  const bound = nullBound(cleaned);
  if (bound)
    return {
      ok: false,
      code: 'ZG2022',
      message: `\`${pathText(bound.path)}\`: a bound of Infinity or NaN has no JSON Schema form (Zod writes \`"${bound.keyword}": null\`); remove the bound, or give a finite one`,
      ...(bound.path.length > 0 ? { path: bound.path } : {}),
    };
  return { ok: true, schema: cleaned as JsonSchema, origin: 'zod' };
}

/** For errors Zod raises without a path: the first object property that fails on its own. */
function findUnrepresentable(
  schema: ZodLike,
  path: (string | number)[] = [],
  depth = 0,
): (string | number)[] | undefined {
  const shape = schema._zod.def.type === 'object' ? schema._zod.def.shape : undefined;
  if (!shape || depth > 16) return undefined;
  for (const [key, child] of Object.entries(shape)) {
    if (!isZodSchema(child)) continue;
    try {
      z.toJSONSchema(child as unknown as z.ZodType, { io: 'input', unrepresentable: 'throw' });
    } catch {
      return findUnrepresentable(child, [...path, 'properties', key], depth + 1) ?? [...path, 'properties', key];
    }
  }
  return undefined;
}

class NotJson extends Error {}
class TooDeep extends Error {}

/** Root `~` keys (`~standard` and the like) are library internals, not schema: not even copied. */
function withoutInternals(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (!Object.keys(value).some((k) => k.startsWith('~'))) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== null && Object.getPrototypeOf(proto) !== null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !k.startsWith('~')));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (isZodSchema(value)) return 'a Zod schema (use z.object at the root, or plain JSON Schema throughout)';
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name ? `a ${name}` : 'an object';
}

/**
 * Copies a plain value to JSON, or throws `NotJson` naming the first non-JSON part. Objects from
 * the vm realm have a different `Object.prototype`, so "plain" is judged by prototype depth.
 */
function toJson(value: unknown, path: string, stack: unknown[]): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw new NotJson(`${path} is ${value}, which JSON cannot represent`);
  }
  if (typeof value !== 'object') throw new NotJson(`${path} is ${describe(value)}, not a JSON value`);
  if (stack.includes(value)) throw new NotJson(`${path} is circular`);
  // The schema's own depth, not a `.meta()` value (ZG2022, as the static reader says it).
  if (stack.length > 256) throw new TooDeep();
  stack.push(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        if (item === undefined) throw new NotJson(`${path}[${i}] is undefined, not a JSON value`);
        return toJson(item, `${path}[${i}]`, stack);
      });
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== null && Object.getPrototypeOf(proto) !== null)
      throw new NotJson(`${path} is ${describe(value)}, not a JSON value`);
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) setKey(out, key, toJson(item, `${path}.${key}`, stack));
    }
    return out;
  } finally {
    stack.pop();
  }
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own data property even for "__proto__" (a plain assignment would change the prototype). */
function setKey(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

// `dependencies` (draft 7, which Ajv still enforces) maps to a schema or a list of names.
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
const SCHEMA_VALUES = new Set([
  'items',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** A schema path as ZG2021 names it: `properties.when`, or `(root)`. */
function pathText(path: readonly (string | number)[]): string {
  return path.length > 0 ? path.join('.') : '(root)';
}

/** Where a key that is no schema keyword stood (schema/keywords.ts), and the key. */
export interface NonKeyword {
  readonly key: string;
  readonly path: readonly (string | number)[];
}

/**
 * A fresh copy without `$schema` and `~`-prefixed keys (`~standard` and other library
 * internals), walking only schema positions: property names and `enum`/`const`/`default` data
 * are user data and stay untouched. Key order is the input's, so output is deterministic. A key
 * at a schema position that is no keyword is left out and reported in `found` (the callers
 * refuse the schema with it: nonKeywordFailure).
 */
export function cleanSchema(
  schema: JsonValue,
  found: NonKeyword[] = [],
  path: readonly (string | number)[] = [],
): JsonValue {
  if (!isObject(schema)) return schema;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key]!;
    // `$schema` is dropped everywhere: a tool schema is never a resource root of its own.
    if (key.startsWith('~') || key === '$schema') continue;
    if (!SCHEMA_KEYWORDS.has(key)) {
      found.push({ key, path: [...path, key] });
      continue;
    }
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: { [key: string]: JsonValue } = {};
      for (const name of Object.keys(value)) setKey(map, name, cleanSchema(value[name]!, found, [...path, key, name]));
      setKey(out, key, map);
    } else if (SCHEMA_VALUES.has(key) || SCHEMA_LISTS.has(key)) {
      setKey(
        out,
        key,
        Array.isArray(value)
          ? value.map((item, i) => cleanSchema(item, found, [...path, key, i]))
          : cleanSchema(value, found, [...path, key]),
      );
    } else setKey(out, key, value);
  }
  return out;
}

/** ZG2022 for the keys cleanSchema found that are no keywords, located at the first. */
export function nonKeywordFailure(found: readonly NonKeyword[], origin: 'zod' | 'json'): ConvertResult {
  const pointer = (p: readonly (string | number)[]): string =>
    p.length <= 1
      ? '(root)'
      : `/${p
          .slice(0, -1)
          .map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1'))
          .join('/')}`;
  const named = found.map(({ key, path }) => {
    const like = keywordLike(key);
    return `\`${key}\` at ${pointer(path)}${like ? ` (did you mean \`${like}\`?)` : ''}`;
  });
  return {
    ok: false,
    code: 'ZG2022',
    message: `Invalid JSON Schema: ${named.join(', ')} ${found.length === 1 ? 'is not a JSON Schema keyword' : 'are not JSON Schema keywords'}${origin === 'zod' ? ' (from .meta())' : ''}`,
    hint: `The schema the model is sent and the input is validated with carries JSON Schema keywords only: a key the validator does not know validates nothing (a misspelt \`minlength\` checks no length). Fix its spelling, or remove it (a note for the model belongs in \`description\`, one for readers in \`$comment\`).${
      origin === 'zod'
        ? ' `.meta()` writes into the JSON Schema: keep metadata of your own in a registry of your own (`const info = z.registry<{ ui: string }>(); info.add(schema, { ui: "slider" })`).'
        : ''
    }`,
    path: found[0]!.path,
  };
}
