/**
 * Declarative shapes for JSON the compiler reads back from its own files (the unit cache): one
 * declaration per type, checked structurally, with the type it proves inferred from it.
 *
 * Not Zod: the cache is read on every run, including the warm "nothing changed" run that loads
 * no parser and no Zod; importing Zod alone costs more than this whole check of a 1,000-tool
 * cache (see docs/config.md). A check answers yes or no: whatever fails is discarded and
 * rebuilt, so there is no error report to build.
 *
 * Values are what `JSON.parse` returns: plain objects with `Object.prototype`, no `undefined`.
 * Objects are strict (a key the declaration does not name fails the check): the writer is this
 * compiler, so an unknown key means the file was not written by this version of it.
 */

/** A check of a parsed JSON value that proves its type. */
export type Shape<T> = (value: unknown) => value is T;

export type Infer<S> = S extends Shape<infer T> ? T : never;

/** Marks an object property that may be absent (see {@link object}). */
export interface Optional<T> {
  readonly optional: Shape<T>;
}

type Props = Readonly<Record<string, Shape<unknown> | Optional<unknown>>>;
type OptionalKeys<P extends Props> = { [K in keyof P]: P[K] extends Optional<unknown> ? K : never }[keyof P];
type RequiredKeys<P extends Props> = Exclude<keyof P, OptionalKeys<P>>;
type Flatten<T> = { [K in keyof T]: T[K] };
type InferProp<X> = X extends Optional<infer T> ? T : X extends Shape<infer T> ? T : never;
export type InferObject<P extends Props> = Flatten<{ readonly [K in RequiredKeys<P>]: InferProp<P[K]> } & { readonly [K in OptionalKeys<P>]?: InferProp<P[K]> }>;

export const string: Shape<string> = (value): value is string => typeof value === 'string';
export const number: Shape<number> = (value): value is number => typeof value === 'number';
export const boolean: Shape<boolean> = (value): value is boolean => typeof value === 'boolean';

export function optional<T>(shape: Shape<T>): Optional<T> {
  return { optional: shape };
}

/** One of a fixed list of primitive values (string enums, literal discriminants). */
export function oneOf<const T extends string | number | boolean>(values: readonly T[]): Shape<T> {
  if (values.length === 1) {
    const only = values[0];
    return (value): value is T => value === only;
  }
  const set = new Set<unknown>(values);
  return (value): value is T => set.has(value);
}

export function array<T>(item: Shape<T>): Shape<readonly T[]> {
  return (value): value is readonly T[] => {
    if (!Array.isArray(value)) return false;
    for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
    return true;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any JSON object, contents unchecked (JSON Schemas: whatever `JSON.parse` gives is JSON). */
export const jsonObject: Shape<{ readonly [key: string]: unknown }> = (value): value is { readonly [key: string]: unknown } => isPlainObject(value);

/** An object used as a map: any keys, every value of one shape. */
export function record<T>(item: Shape<T>): Shape<Readonly<Record<string, T>>> {
  return (value): value is Readonly<Record<string, T>> => {
    if (!isPlainObject(value)) return false;
    for (const key in value) if (!item(value[key])) return false;
    return true;
  };
}

/** An object with exactly the declared properties (optional ones may be absent). */
export function object<const P extends Props>(props: P): Shape<InferObject<P>> {
  const keys = Object.keys(props);
  const checks = keys.map((key) => {
    const prop = props[key]!;
    return typeof prop === 'function' ? prop : prop.optional;
  });
  const required = keys.map((key) => typeof props[key] === 'function');
  return (value): value is InferObject<P> => {
    if (!isPlainObject(value)) return false;
    let present = 0;
    for (let i = 0; i < keys.length; i++) {
      // JSON has no undefined, and no declared key is an Object.prototype member: undefined = absent.
      const property = value[keys[i]!];
      if (property === undefined) {
        if (required[i]) return false;
        continue;
      }
      if (!checks[i]!(property)) return false;
      present++;
    }
    // Every present declared key was counted: more keys in the object means an undeclared one.
    let count = 0;
    for (const _ in value) count++;
    return count === present;
  };
}

/** A union of object shapes told apart by one discriminant property. */
export function variants<const V extends Readonly<Record<string, Shape<unknown>>>>(key: string, shapes: V): Shape<Infer<V[keyof V]>> {
  const byTag = new Map<unknown, Shape<unknown>>(Object.entries(shapes));
  return (value): value is Infer<V[keyof V]> => {
    if (!isPlainObject(value)) return false;
    const shape = byTag.get(value[key]);
    return shape !== undefined && shape(value);
  };
}

/** Either of several shapes (for small unions of primitives). */
export function union<const S extends readonly Shape<unknown>[]>(...shapes: S): Shape<Infer<S[number]>> {
  return (value): value is Infer<S[number]> => shapes.some((shape) => shape(value));
}

/** Checked by `shape`, typed as T: for a field its owner declares opaque (`unknown`). */
export function opaque<T>(shape: Shape<unknown>): Shape<T> {
  return shape as Shape<T>;
}

/** Deep readonly view, so a shape's type and a hand-written interface compare modulo mutability. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/**
 * True when A and B are the same type (after {@link DeepReadonly}). Used as a compile-time
 * assertion that a shape declaration and the interface it guards have not drifted apart: a
 * field added to one only is a type error, not a cache that silently misses or lets it through.
 */
export type Same<A, B> = (<X>() => X extends DeepReadonly<A> ? 1 : 2) extends <X>() => X extends DeepReadonly<B> ? 1 : 2 ? true : false;
