/**
 * The one schema rule both the evaluated and the statically translated schemas go through
 * (schema/convert.ts, schema/stage.ts): kept apart from convert.ts so that a static run loads
 * neither Zod nor Ajv for it.
 */
import type { ConvertResult } from './types.js';

/**
 * A schema with a property named `__proto__`, which no validator of the runtime checks: Ajv's
 * generated code skips it and Zod drops the key, so the manifest would advertise a property (even
 * a required one) that reaches `execute` unchecked. Refused at build time instead. The path (for
 * the location) of the first such property, as the other schema failures give it.
 */
export function protoPropertyFailure(schema: unknown): Extract<ConvertResult, { ok: false }> | undefined {
  const path = protoPropertyPath(schema, [], 0);
  if (path === undefined) return undefined;
  return {
    ok: false,
    code: 'ZG2022',
    message: `\`${path.join('.')}\`: a property named "__proto__" cannot be validated (the runtime's validators skip or drop it)`,
    hint: 'Rename the property: JavaScript gives "__proto__" a meaning of its own, so neither Ajv nor Zod checks a value under that name, and the tool would get it unchecked.',
    path,
  };
}

/** Walks the schema with one path stack (no array per node: this runs for every schema of a cold run). */
function protoPropertyPath(schema: unknown, path: (string | number)[], depth: number): (string | number)[] | undefined {
  return findProto(schema, path, depth) ? path : undefined;
}

function findProto(schema: unknown, path: (string | number)[], depth: number): boolean {
  if (typeof schema !== 'object' || schema === null || depth > 512) return false;
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) {
      path.push(i);
      if (findProto(schema[i], path, depth + 1)) return true;
      path.pop();
    }
    return false;
  }
  const record = schema as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const value = record[key];
    if (typeof value !== 'object' || value === null) continue;
    if (key === 'properties' && Object.hasOwn(value, '__proto__')) {
      path.push('properties', '__proto__');
      return true;
    }
    if (key === 'required' && Array.isArray(value) && value.includes('__proto__')) {
      path.push('required');
      return true;
    }
    // Data, not schemas: a default object with such a key is no property.
    if (key === 'default' || key === 'examples' || key === 'const' || key === 'enum') continue;
    path.push(key);
    if (findProto(value, path, depth + 1)) return true;
    path.pop();
  }
  return false;
}
