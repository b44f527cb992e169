/**
 * Declarative shapes for JSON the compiler reads back from its own files (the unit cache): one
 * declaration per type, from which both the type it proves and its check are derived.
 *
 * Not Zod: the cache is read on every run, including the warm "nothing changed" run that loads
 * no parser and no Zod; importing Zod alone costs more than this whole check of a 1,000-tool
 * cache, and Zod's check of it costs several times more again (numbers in docs/config.md).
 * A declaration is compiled once into plain functions with constant property names (what a
 * hand-written check would be): generic closures reading `value[key]` were ~2× slower here,
 * every such read being a megamorphic lookup. A check answers yes or no: whatever fails is
 * discarded and rebuilt, so there is no error report to build.
 *
 * Values are what `JSON.parse` returns: plain objects with `Object.prototype`, no `undefined`.
 * A key the declaration does not name is allowed and never read (nothing typed can see it).
 * Refusing such keys meant enumerating every object: measured on a 1,000-tool cache, that
 * doubled the check (~8 ms more of a warm run) to catch files no version of this compiler writes
 * (a changed entry format gets a new cache version instead).
 */

type Node =
  | { readonly k: 'string' | 'number' | 'boolean' | 'present' | 'jsonObject' }
  | { readonly k: 'oneOf'; readonly values: readonly (string | number | boolean)[] }
  | { readonly k: 'array' | 'record'; readonly item: Node }
  | { readonly k: 'flat'; readonly items: readonly Node[] }
  | { readonly k: 'object'; readonly props: readonly (readonly [key: string, node: Node, optional: boolean])[] }
  | { readonly k: 'variants'; readonly key: string; readonly shapes: readonly (readonly [tag: string, node: Node])[] }
  | { readonly k: 'union'; readonly options: readonly Node[] };

/** A declared shape of a parsed JSON value; T is the type a successful check proves. */
export interface Shape<T> {
  readonly node: Node;
  /** Type only (never set). */
  readonly type?: T;
}

/** The compiled check of a {@link Shape}. */
export type Check<T> = (value: unknown) => value is T;

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
export type InferObject<P extends Props> = Flatten<
  { readonly [K in RequiredKeys<P>]: InferProp<P[K]> } & { readonly [K in OptionalKeys<P>]?: InferProp<P[K]> }
>;

const shape = <T>(node: Node): Shape<T> => ({ node });

export const string: Shape<string> = shape({ k: 'string' });
export const number: Shape<number> = shape({ k: 'number' });
export const boolean: Shape<boolean> = shape({ k: 'boolean' });
/** Any JSON value, unchecked. */
export const present: Shape<unknown> = shape({ k: 'present' });
/** Any JSON object, contents unchecked (JSON Schemas: whatever `JSON.parse` gives is JSON). */
export const jsonObject: Shape<{ readonly [key: string]: unknown }> = shape({ k: 'jsonObject' });

export function optional<T>(of: Shape<T>): Optional<T> {
  return { optional: of };
}

/** One of a fixed list of primitive values (string enums, literal discriminants). */
export function oneOf<const T extends string | number | boolean>(values: readonly T[]): Shape<T> {
  return shape({ k: 'oneOf', values });
}

export function array<T>(item: Shape<T>): Shape<readonly T[]> {
  return shape({ k: 'array', item: item.node });
}

/**
 * Records laid end to end in one array (`[a0, b0, a1, b1, ...]`): its length a multiple of the
 * record's, each element of its column's shape. One array instead of an object per record: the
 * unit cache's file stamps, keyed by path, made a hidden class per path as objects.
 */
export function flat<const S extends readonly Shape<unknown>[]>(...columns: S): Shape<readonly Infer<S[number]>[]> {
  return shape({ k: 'flat', items: columns.map((c) => c.node) });
}

/** An object used as a map: any keys, every value of one shape. */
export function record<T>(item: Shape<T>): Shape<Readonly<Record<string, T>>> {
  return shape({ k: 'record', item: item.node });
}

/** An object with the declared properties (optional ones may be absent; others are ignored). */
export function object<const P extends Props>(props: P): Shape<InferObject<P>> {
  return shape({
    k: 'object',
    props: Object.entries(props).map(([key, prop]) =>
      'optional' in prop ? ([key, prop.optional.node, true] as const) : ([key, prop.node, false] as const),
    ),
  });
}

/** A union of object shapes told apart by one string discriminant property. */
export function variants<const V extends Readonly<Record<string, Shape<unknown>>>>(
  key: string,
  shapes: V,
): Shape<Infer<V[keyof V]>> {
  return shape({ k: 'variants', key, shapes: Object.entries(shapes).map(([tag, s]) => [tag, s.node] as const) });
}

/** Either of several shapes. */
export function union<const S extends readonly Shape<unknown>[]>(...options: S): Shape<Infer<S[number]>> {
  return shape({ k: 'union', options: options.map((o) => o.node) });
}

/** Checked as `of`, typed as T: for a field its owner declares opaque (`unknown`). */
export function opaque<T>(of: Shape<unknown>): Shape<T> {
  return of as Shape<T>;
}

/** Compiles a declaration into its check (once per declaration; keep the result). */
export function compile<T>(declared: Shape<T>): Check<T> {
  const functions: string[] = [];
  const names = new Map<Node, string>();
  const externals: unknown[] = [];
  const isObject = (v: string): string => `typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v})`;
  /** A JS expression that is true when `v` (a variable name) matches `node`. */
  const test = (node: Node, v: string): string => {
    switch (node.k) {
      case 'string':
      case 'number':
      case 'boolean':
        return `typeof ${v} === "${node.k}"`;
      case 'present':
        return `${v} !== undefined`;
      case 'jsonObject':
        return `(${isObject(v)})`;
      case 'oneOf':
        if (node.values.length <= 8)
          return `(${node.values.map((value) => `${v} === ${JSON.stringify(value)}`).join(' || ')})`;
        externals.push(new Set(node.values));
        return `x${externals.length - 1}.has(${v})`;
      case 'union':
        return `(${node.options.map((option) => test(option, v)).join(' || ')})`;
      default:
        return `${fn(node)}(${v})`;
    }
  };
  const fn = (node: Node): string => {
    const known = names.get(node);
    if (known) return known;
    const name = `f${names.size}`;
    names.set(node, name);
    let body: string;
    if (node.k === 'array') {
      body = `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${test(node.item, 'x')})) return false; }\nreturn true;`;
    } else if (node.k === 'flat') {
      const n = node.items.length;
      const columns = node.items.map((item, c) => `x = v[i + ${c}]; if (!(${test(item, 'x')})) return false;`);
      body = `if (!Array.isArray(v) || v.length % ${n} !== 0) return false;\nlet x;\nfor (let i = 0; i < v.length; i += ${n}) { ${columns.join(' ')} }\nreturn true;`;
    } else if (node.k === 'record') {
      body = `if (!(${isObject('v')})) return false;\nfor (const k in v) { const x = v[k]; if (!(${test(node.item, 'x')})) return false; }\nreturn true;`;
    } else if (node.k === 'object') {
      const lines = node.props.map(([key, prop, opt]) => {
        const read = `x = v[${JSON.stringify(key)}];`;
        // No declared key is an Object.prototype member, and JSON has no undefined: undefined = absent.
        return opt
          ? `${read} if (x !== undefined && !(${test(prop, 'x')})) return false;`
          : `${read} if (!(${test(prop, 'x')})) return false;`;
      });
      body = `if (!(${isObject('v')})) return false;\nlet x;\n${lines.join('\n')}\nreturn true;`;
    } else if (node.k === 'variants') {
      const cases = node.shapes.map(([tag, s]) => `case ${JSON.stringify(tag)}: return ${test(s, 'v')};`);
      body = `if (!(${isObject('v')})) return false;\nswitch (v[${JSON.stringify(node.key)}]) {\n${cases.join('\n')}\ndefault: return false;\n}`;
    } else body = `return ${test(node, 'v')};`;
    functions.push(`function ${name}(v) {\n${body}\n}`);
    return name;
  };
  const entry = fn(declared.node);
  const params = externals.map((_, i) => `x${i}`);
  // Generated from the declarations in this process only (keys quoted with JSON.stringify).
  return new Function(...params, `${functions.join('\n')}\nreturn ${entry};`)(...externals) as Check<T>;
}

/** Deep readonly view, so a shape's type and a hand-written interface compare modulo mutability. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * True when A and B are the same type (after {@link DeepReadonly}). Used as a compile-time
 * assertion that a shape declaration and the interface it guards have not drifted apart: a
 * field added to one only is a type error, not a cache that silently misses or lets it through.
 */
export type Same<A, B> =
  (<X>() => X extends DeepReadonly<A> ? 1 : 2) extends <X>() => X extends DeepReadonly<B> ? 1 : 2 ? true : false;
