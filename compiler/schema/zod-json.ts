/**
 * JSON Schema of a Zod schema the compiler understood statically (translate.ts), without running
 * Zod: the exact bytes `z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' })` gives
 * after project.ts cleans it, for a closed subset of Zod. Building and projecting real Zod
 * schemas cost ~0.3–0.5 ms per tool (most of a cold run's schema time), this costs microseconds.
 *
 * The rules below restate what Zod 4's emitter does for these types (json-schema-processors.js
 * and to-json-schema.js): a check or `.describe()` clones the schema with a `parent`, and the
 * emitter keeps the clone's own keys (metadata last); a wrapper (`optional`, `default`,
 * `nullable`) puts its own keys first and then the inner schema's; a nullable whose branches are
 * bare types is compacted into `type: [...]` after everything is flattened. The differential
 * test (test/compiler/schema/static.test.ts) holds this to real Zod, key order included.
 */
import { zodPattern, type StringFormat } from './zod-patterns.js';

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
type JsonObject = { [key: string]: Json };

export type { StringFormat };

export type StringCheck =
  | { readonly check: 'min_length' | 'max_length' | 'length_equals'; readonly value: number }
  | { readonly check: 'string_format'; readonly format: StringFormat }
  | { readonly check: 'regex'; readonly source: string }
  /** `trim()`, `toLowerCase()`, `toUpperCase()`: no trace in the JSON Schema. */
  | { readonly check: 'overwrite' };

export type NumberCheck =
  | { readonly check: 'greater_than' | 'less_than'; readonly value: number; readonly inclusive: boolean }
  | { readonly check: 'safeint' };

export type SizeCheck = { readonly check: 'min_size' | 'max_size' | 'size_equals'; readonly value: number };

/** One Zod schema of the subset. `description` is the metadata its parent chain carries. */
export type ZodNode = (
  | { readonly kind: 'string'; readonly checks: readonly StringCheck[] }
  | { readonly kind: 'number'; readonly checks: readonly NumberCheck[] }
  | { readonly kind: 'boolean' | 'any' | 'unknown' | 'null' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null }
  | { readonly kind: 'array'; readonly element: ZodNode; readonly checks: readonly SizeCheck[] }
  | { readonly kind: 'object'; readonly shape: readonly (readonly [string, ZodNode])[]; readonly strict: boolean }
  | { readonly kind: 'union'; readonly options: readonly ZodNode[] }
  /** `z.record(z.string(), value)`: string keys only (other keys have rules of their own in Zod). */
  | { readonly kind: 'record'; readonly value: ZodNode }
  | { readonly kind: 'optional' | 'nullable'; readonly inner: ZodNode }
  | { readonly kind: 'default'; readonly inner: ZodNode; readonly value: Json }
) & { readonly description?: string };

export type WrapperNode = Extract<ZodNode, { readonly inner: ZodNode }>;

/** The limits of `z.number().int()` (Zod's `safeint` format). */
const SAFE_INT: readonly [number, number] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

const FORMAT_KEYWORD: Readonly<Record<StringFormat, string>> = {
  email: 'email',
  url: 'uri',
  uuid: 'uuid',
  guid: 'uuid',
  datetime: 'date-time',
  date: 'date',
};

/** Zod's `narrowMin` / `narrowMax`: the tightest bound wins. */
function narrow(bounds: { min?: number; max?: number }, min: number | undefined, max: number | undefined): void {
  if (min !== undefined && (bounds.min === undefined || min > bounds.min)) bounds.min = min;
  if (max !== undefined && (bounds.max === undefined || max < bounds.max)) bounds.max = max;
}

function sizeBounds(checks: readonly (StringCheck | SizeCheck)[]): { min?: number; max?: number } {
  const bounds: { min?: number; max?: number } = {};
  for (const c of checks) {
    if (c.check === 'min_length' || c.check === 'min_size') narrow(bounds, c.value, undefined);
    else if (c.check === 'max_length' || c.check === 'max_size') narrow(bounds, undefined, c.value);
    else if (c.check === 'length_equals' || c.check === 'size_equals') narrow(bounds, c.value, c.value);
  }
  return bounds;
}

function stringJson(checks: readonly StringCheck[]): JsonObject {
  const json: JsonObject = { type: 'string' };
  const { min, max } = sizeBounds(checks);
  if (min !== undefined) json.minLength = min;
  if (max !== undefined) json.maxLength = max;
  // translate.ts admits at most one format or regex per string, so there is one pattern at most.
  for (const c of checks) {
    if (c.check === 'string_format') {
      json.format = FORMAT_KEYWORD[c.format];
      const pattern = zodPattern(c.format);
      if (pattern !== undefined) json.pattern = pattern;
    } else if (c.check === 'regex') json.pattern = c.source;
  }
  return json;
}

function numberJson(checks: readonly NumberCheck[]): JsonObject {
  const inclusive: { min?: number; max?: number } = {};
  const exclusive: { min?: number; max?: number } = {};
  let isInt = false;
  for (const c of checks) {
    if (c.check === 'safeint') {
      isInt = true;
      narrow(inclusive, SAFE_INT[0], SAFE_INT[1]);
    } else if (c.check === 'greater_than') narrow(c.inclusive ? inclusive : exclusive, c.value, undefined);
    else narrow(c.inclusive ? inclusive : exclusive, undefined, c.value);
  }
  const json: JsonObject = { type: isInt ? 'integer' : 'number' };
  // Both kinds of bound: the more restrictive one is emitted (an equal exclusive one wins).
  if (exclusive.min !== undefined && exclusive.min >= (inclusive.min ?? Number.NEGATIVE_INFINITY))
    json.exclusiveMinimum = exclusive.min;
  else if (inclusive.min !== undefined) json.minimum = inclusive.min;
  if (exclusive.max !== undefined && exclusive.max <= (inclusive.max ?? Number.POSITIVE_INFINITY))
    json.exclusiveMaximum = exclusive.max;
  else if (inclusive.max !== undefined) json.maximum = inclusive.max;
  return json;
}

/** Zod's `optin` on the input side: `undefined` means the key is required. */
function optional(node: ZodNode): boolean {
  if (node.kind === 'optional' || node.kind === 'default') return true;
  if (node.kind === 'nullable') return optional(node.inner);
  // A union is optional when one of its options is.
  if (node.kind === 'union') return node.options.some(optional);
  return false;
}

/** The keys a schema's own processor writes (before metadata and before flattening). */
function own(node: ZodNode): JsonObject {
  switch (node.kind) {
    case 'string':
      return stringJson(node.checks);
    case 'number':
      return numberJson(node.checks);
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'any':
    case 'unknown':
      return {};
    case 'enum':
      return { type: 'string', enum: [...node.values] };
    case 'literal':
      return { type: node.value === null ? 'null' : typeof node.value, const: node.value };
    case 'array': {
      const json: JsonObject = {};
      const { min, max } = sizeBounds(node.checks);
      if (min !== undefined) json.minItems = min;
      if (max !== undefined) json.maxItems = max;
      json.type = 'array';
      json.items = emit(node.element);
      return json;
    }
    case 'object': {
      const properties: JsonObject = {};
      const required: string[] = [];
      for (const [key, child] of node.shape) {
        properties[key] = emit(child);
        if (!optional(child)) required.push(key);
      }
      const json: JsonObject = { type: 'object', properties };
      if (required.length > 0) json.required = required;
      if (node.strict) json.additionalProperties = false;
      return json;
    }
    case 'optional':
      return {};
    case 'default':
      return { default: copy(node.value) };
    case 'nullable':
      return { anyOf: [emit(node.inner), { type: 'null' }] };
    case 'union':
      return { anyOf: node.options.map(emit) };
    case 'record':
      return { type: 'object', propertyNames: { type: 'string' }, additionalProperties: emit(node.value) };
  }
}

/**
 * The flattened, not yet compacted schema: own keys, then metadata, then — for wrappers that
 * reference their inner schema — the inner schema's keys the wrapper does not have itself.
 */
function flat(node: ZodNode): JsonObject {
  const json = own(node);
  if (node.description !== undefined) json.description = node.description;
  if (node.kind === 'optional' || node.kind === 'default') {
    const inner = flat(node.inner);
    for (const key of Object.keys(inner)) if (!(key in json)) json[key] = inner[key]!;
  }
  return json;
}

/**
 * Zod's `compactTypeUnion` (nullable and union alike): `anyOf` of bare types becomes a `type`
 * list, appended last.
 */
function compact(json: JsonObject): JsonObject {
  const options = json.anyOf;
  if (!Array.isArray(options) || options.length === 0 || json.type !== undefined) return json;
  const types: string[] = [];
  for (const option of options as readonly Json[]) {
    if (typeof option !== 'object' || option === null || Array.isArray(option)) return json;
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== 'type') return json;
    const type = (option as JsonObject).type;
    for (const member of Array.isArray(type) ? type : [type]) {
      if (typeof member !== 'string') return json;
      if (!types.includes(member)) types.push(member);
    }
  }
  delete json.anyOf;
  json.type = types.length === 1 ? types[0]! : types;
  return json;
}

/** The final JSON Schema of one node (nested schemas are final too). */
function emit(node: ZodNode): JsonObject {
  return compact(flat(node));
}

/**
 * Nesting the static path hands over: the evaluation path refuses values nested more than 256
 * levels (project.ts), so anything near that is left to it to decide.
 */
const MAX_DEPTH = 200;

function tooDeep(value: Json, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_DEPTH) return true;
  const items = Array.isArray(value) ? (value as readonly Json[]) : Object.values(value);
  return items.some((item) => tooDeep(item, depth + 1));
}

/**
 * The emitted input JSON Schema of a root `z.object(...)`, or `undefined` when it is nested too
 * deeply to be decided here. Every object in it is fresh (a `const` used twice gives two copies,
 * as Zod's closing JSON round trip does); translate.ts has already turned `-0` into `0`, which
 * that round trip does too.
 */
export function zodNodeToJsonSchema(root: ZodNode & { readonly kind: 'object' }): JsonObject | undefined {
  const schema = emit(root);
  return tooDeep(schema, 0) ? undefined : schema;
}

/** A deep copy of JSON data (a `.default()` value may be one `const` shared by many fields). */
function copy(value: Json): Json {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return (value as readonly Json[]).map(copy);
  const out: JsonObject = {};
  for (const key of Object.keys(value)) out[key] = copy((value as JsonObject)[key]!);
  return out;
}
