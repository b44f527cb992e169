/**
 * Static translation of an `inputSchema` expression into the Zod subset zod-json.ts emits
 * without running Zod: `z.object` / `z.strictObject` of strings, numbers, booleans, enums,
 * literals, arrays and nested objects, with their common checks, `.describe()`, `.optional()`,
 * `.nullable()` and `.default()`, written inline or through `const`s (also imported ones).
 *
 * Anything outside that subset — another method, a computed key, a non-literal argument, a
 * function call, a spread — returns `undefined`, and the tool takes the evaluation path exactly
 * as before. The subset is closed on purpose: each construct in it is checked against real Zod
 * by the differential test, and Zod cannot throw for any of them.
 */
import type { ts as TS } from 'ts-morph';
import { ownText } from '../util/own-text.js';
import { ts } from '../util/typescript.js';
import type { Json, NumberCheck, SizeCheck, StringCheck, StringFormat, ZodNode } from './zod-json.js';

/** What an identifier read in a module refers to, as the extractor resolved it. */
export type StaticResolution<M> =
  | { readonly kind: 'zod' }
  /** A `const` (or `export default`) value: its expression and where it is declared. */
  | { readonly kind: 'value'; readonly mod: M; readonly expression: TS.Expression; readonly declaredAt: number };

export interface StaticScope<M> {
  resolve(mod: M, name: string): StaticResolution<M> | undefined;
}

class NotStatic extends Error {}

const FORMATS: ReadonlySet<string> = new Set<StringFormat>(['email', 'url', 'uuid', 'guid', 'datetime', 'date']);
const LEAVES = new Set(['string', 'number', 'int', 'boolean', 'any', 'unknown', 'null']);
const COERCIBLE = new Set(['string', 'number', 'boolean']);

function fail(): never {
  throw new NotStatic();
}

/** Parentheses and type-only wrappers (`as`, `satisfies`, `!`) do not change the value. */
function unwrap(node: TS.Expression): TS.Expression {
  let e = node;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e)
  ) {
    e = e.expression;
  }
  return e;
}

/**
 * `key: value` entries of an object literal. Keys that an engine would reorder (array indices)
 * or treat specially (`__proto__`), repeated keys, spreads, methods and computed keys are not
 * translated: their object is not simply "these keys in this order".
 */
function plainEntries(literal: TS.ObjectLiteralExpression): [string, TS.Expression][] {
  const entries: [string, TS.Expression][] = [];
  const seen = new Set<string>();
  for (const p of literal.properties) {
    let key: string | undefined;
    let value: TS.Expression | undefined;
    if (ts.isPropertyAssignment(p)) {
      if (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNoSubstitutionTemplateLiteral(p.name))
        key = p.name.text;
      value = p.initializer;
    } else if (ts.isShorthandPropertyAssignment(p) && !p.objectAssignmentInitializer) {
      key = p.name.text;
      value = p.name;
    }
    if (
      key === undefined ||
      value === undefined ||
      key === '__proto__' ||
      /^(?:0|[1-9]\d*)$/.test(key) ||
      seen.has(key)
    )
      fail();
    seen.add(key);
    entries.push([key, value]);
  }
  return entries;
}

/** A finite number as JSON carries it (`-0` is written, and read back, as `0`). */
function finite(value: number): number {
  if (!Number.isFinite(value)) return fail();
  return value === 0 ? 0 : value;
}

function isPlainObject(value: Json | undefined): value is { readonly [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Translator<M> {
  /** One node per declaration, as one Zod object per `const`. */
  private readonly values = new Map<TS.Expression, ZodNode>();
  private readonly constants = new Map<TS.Expression, Json>();

  constructor(private readonly scope: StaticScope<M>) {}

  /**
   * A JSON value written in the source: literals, arrays and objects of them, and `const`s or
   * their properties holding such values (`LIMITS.name`, an `as const` list), read in the same
   * order the snippet would evaluate them.
   */
  literal(node: TS.Expression, mod: M, before: number): Json {
    const e = unwrap(node);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return ownText(e.text);
    if (ts.isNumericLiteral(e)) return finite(Number(e.text));
    if (ts.isPrefixUnaryExpression(e) && e.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(e.operand))
      return finite(-Number(e.operand.text));
    if (e.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (e.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isArrayLiteralExpression(e)) {
      return e.elements.map((item) =>
        ts.isSpreadElement(item) || ts.isOmittedExpression(item) ? fail() : this.literal(item, mod, before),
      );
    }
    if (ts.isObjectLiteralExpression(e)) {
      const out: { [key: string]: Json } = {};
      for (const [key, value] of plainEntries(e)) out[key] = this.literal(value, mod, before);
      return out;
    }
    if (ts.isIdentifier(e)) {
      const resolved = this.resolveValue(e.text, mod, before);
      let value = this.constants.get(resolved.expression);
      if (value === undefined) {
        value = this.literal(resolved.expression, resolved.mod, resolved.declaredAt);
        this.constants.set(resolved.expression, value);
      }
      return value;
    }
    if (ts.isPropertyAccessExpression(e) && !e.questionDotToken && ts.isIdentifier(e.name)) {
      const target = this.literal(e.expression, mod, before);
      // Own data of a plain object only: `LIMITS.toString` is not a value the subset knows.
      return isPlainObject(target) && Object.hasOwn(target, e.name.text) ? target[e.name.text]! : fail();
    }
    return fail();
  }

  private string(node: TS.Expression | undefined, mod: M, before: number): string {
    const value = node === undefined ? undefined : this.literal(node, mod, before);
    return typeof value === 'string' ? value : fail();
  }

  private number(node: TS.Expression | undefined, mod: M, before: number): number {
    const value = node === undefined ? undefined : this.literal(node, mod, before);
    return typeof value === 'number' ? value : fail();
  }

  /** Arguments of a check: `values` numbers, optionally followed by a message string. */
  private numbers(args: TS.NodeArray<TS.Expression>, values: number, mod: M, before: number): number[] {
    if (args.length < values || args.length > values + 1) fail();
    if (args.length === values + 1) this.string(args[values], mod, before);
    return args.slice(0, values).map((a) => this.number(a, mod, before));
  }

  /** No arguments, or (`messageAllowed`) one message string. */
  private none(args: TS.NodeArray<TS.Expression>, mod: M, before: number, messageAllowed = false): void {
    if (args.length > (messageAllowed ? 1 : 0)) fail();
    if (args.length === 1) this.string(args[0], mod, before);
  }

  private resolveValue(name: string, mod: M, before: number): Extract<StaticResolution<M>, { kind: 'value' }> {
    const resolved = this.scope.resolve(mod, name);
    if (resolved?.kind !== 'value') return fail();
    // The snippet runs a module's declarations in source order: reading a later one is a
    // ReferenceError there (temporal dead zone), which the evaluation path must report.
    if (resolved.mod === mod && resolved.declaredAt >= before) return fail();
    return resolved;
  }

  /** `before`: a value read here must be declared before this position (it runs first). */
  node(expression: TS.Expression, mod: M, before: number): ZodNode {
    const e = unwrap(expression);
    if (ts.isIdentifier(e)) return this.value(e.text, mod, before);
    if (!ts.isCallExpression(e) || e.questionDotToken || e.typeArguments?.length) return fail();
    const callee = unwrap(e.expression);
    if (!ts.isPropertyAccessExpression(callee) || callee.questionDotToken || !ts.isIdentifier(callee.name))
      return fail();
    const method = callee.name.text;
    const receiver = unwrap(callee.expression);
    if (this.isZod(receiver, mod)) return this.factory(method, e.arguments, mod, before);
    // `z.coerce.string()` and friends: the same JSON Schema as the plain type on the input side.
    if (
      ts.isPropertyAccessExpression(receiver) &&
      receiver.name.text === 'coerce' &&
      this.isZod(unwrap(receiver.expression), mod) &&
      COERCIBLE.has(method)
    ) {
      return this.factory(method, e.arguments, mod, before);
    }
    return this.method(this.node(receiver, mod, before), method, e.arguments, mod, before);
  }

  private isZod(node: TS.Expression, mod: M): boolean {
    return ts.isIdentifier(node) && this.scope.resolve(mod, node.text)?.kind === 'zod';
  }

  private value(name: string, mod: M, before: number): ZodNode {
    const resolved = this.resolveValue(name, mod, before);
    let node = this.values.get(resolved.expression);
    if (!node) {
      node = this.node(resolved.expression, resolved.mod, resolved.declaredAt);
      this.values.set(resolved.expression, node);
    }
    return node;
  }

  /** `z.<name>(...)`. */
  private factory(name: string, args: TS.NodeArray<TS.Expression>, mod: M, before: number): ZodNode {
    if (LEAVES.has(name)) {
      this.none(args, mod, before);
      if (name === 'string') return { kind: 'string', checks: [] };
      if (name === 'number') return { kind: 'number', checks: [] };
      if (name === 'int') return { kind: 'number', checks: [{ check: 'safeint' }] };
      return { kind: name as 'boolean' | 'any' | 'unknown' | 'null' };
    }
    if (FORMATS.has(name) && name !== 'datetime' && name !== 'date') {
      // `z.email()` etc.: a string schema that is its own first check.
      this.none(args, mod, before, true);
      return { kind: 'string', checks: [{ check: 'string_format', format: name as StringFormat }] };
    }
    switch (name) {
      case 'object':
      case 'strictObject': {
        if (args.length !== 1) return fail();
        const literal = unwrap(args[0]!);
        if (!ts.isObjectLiteralExpression(literal)) return fail();
        const shape = plainEntries(literal).map(([key, value]) => [key, this.node(value, mod, before)] as const);
        return { kind: 'object', shape, strict: name === 'strictObject' };
      }
      case 'array':
        if (args.length !== 1) return fail();
        return { kind: 'array', element: this.node(args[0]!, mod, before), checks: [] };
      case 'optional':
      case 'nullable':
        if (args.length !== 1) return fail();
        return { kind: name, inner: this.node(args[0]!, mod, before) };
      case 'union': {
        if (args.length !== 1) return fail();
        const list = unwrap(args[0]!);
        if (!ts.isArrayLiteralExpression(list) || list.elements.length === 0) return fail();
        return {
          kind: 'union',
          options: list.elements.map((item) =>
            ts.isSpreadElement(item) || ts.isOmittedExpression(item) ? fail() : this.node(item, mod, before),
          ),
        };
      }
      case 'record': {
        // String keys only: a plain `z.string()` key schema, nothing else about the keys.
        if (args.length !== 2) return fail();
        const key = this.node(args[0]!, mod, before);
        if (key.kind !== 'string' || key.checks.length > 0 || key.description !== undefined) return fail();
        return { kind: 'record', value: this.node(args[1]!, mod, before) };
      }
      case 'enum': {
        if (args.length !== 1) return fail();
        const values = this.literal(args[0]!, mod, before);
        if (!Array.isArray(values) || values.length === 0 || !values.every((v): v is string => typeof v === 'string'))
          return fail();
        if (new Set(values).size !== values.length) return fail();
        // Zod keys its entries by value and reads them back with Object.entries: values that are
        // array indices ("0", "10") come first, in numeric order, in this engine as in Zod.
        return { kind: 'enum', values: Object.values(Object.fromEntries(values.map((v) => [v, v]))) };
      }
      case 'literal': {
        if (args.length !== 1) return fail();
        const value = this.literal(args[0]!, mod, before);
        if (typeof value === 'object' && value !== null) return fail();
        return { kind: 'literal', value };
      }
      default:
        return fail();
    }
  }

  /** `<schema>.<name>(...)`. */
  private method(node: ZodNode, name: string, args: TS.NodeArray<TS.Expression>, mod: M, before: number): ZodNode {
    switch (name) {
      case 'describe':
        if (args.length !== 1) return fail();
        return { ...node, description: this.string(args[0], mod, before) };
      case 'optional':
      case 'nullable':
        this.none(args, mod, before);
        return { kind: name, inner: node };
      case 'default':
        if (args.length !== 1) return fail();
        return { kind: 'default', inner: node, value: this.literal(args[0]!, mod, before) };
      case 'array':
        this.none(args, mod, before);
        return { kind: 'array', element: node, checks: [] };
      case 'or':
        if (args.length !== 1) return fail();
        return { kind: 'union', options: [node, this.node(args[0]!, mod, before)] };
    }
    if (node.kind === 'string')
      return { ...node, checks: [...node.checks, this.stringCheck(node.checks, name, args, mod, before)] };
    if (node.kind === 'number') return { ...node, checks: [...node.checks, this.numberCheck(name, args, mod, before)] };
    if (node.kind === 'array') return { ...node, checks: [...node.checks, this.sizeCheck(name, args, mod, before)] };
    return fail();
  }

  private stringCheck(
    existing: readonly StringCheck[],
    name: string,
    args: TS.NodeArray<TS.Expression>,
    mod: M,
    before: number,
  ): StringCheck {
    switch (name) {
      case 'min':
        return { check: 'min_length', value: this.numbers(args, 1, mod, before)[0]! };
      case 'max':
        return { check: 'max_length', value: this.numbers(args, 1, mod, before)[0]! };
      case 'length':
        return { check: 'length_equals', value: this.numbers(args, 1, mod, before)[0]! };
      case 'nonempty':
        this.none(args, mod, before, true);
        return { check: 'min_length', value: 1 };
      // Input normalisation: it changes the parsed value, not the JSON Schema of the input.
      case 'trim':
      case 'toLowerCase':
      case 'toUpperCase':
        this.none(args, mod, before);
        return { check: 'overwrite' };
    }
    // One format or pattern per string: two would need Zod's `allOf` of patterns and its
    // last-format-wins rule, which the subset leaves to Zod.
    if (existing.some((c) => c.check === 'string_format' || c.check === 'regex')) return fail();
    if (name === 'regex') {
      if (args.length < 1 || args.length > 2) return fail();
      if (args.length === 2) this.string(args[1], mod, before);
      const literal = unwrap(args[0]!);
      if (!ts.isRegularExpressionLiteral(literal)) return fail();
      const text = literal.text;
      const slash = text.lastIndexOf('/');
      try {
        // The same engine the snippet would run in: `source` is exactly what Zod would emit.
        return { check: 'regex', source: ownText(new RegExp(text.slice(1, slash), text.slice(slash + 1)).source) };
      } catch {
        return fail();
      }
    }
    if (!FORMATS.has(name)) return fail();
    this.none(args, mod, before, true);
    return { check: 'string_format', format: name as StringFormat };
  }

  private numberCheck(name: string, args: TS.NodeArray<TS.Expression>, mod: M, before: number): NumberCheck {
    const bound = (check: 'greater_than' | 'less_than', inclusive: boolean): NumberCheck => ({
      check,
      value: this.numbers(args, 1, mod, before)[0]!,
      inclusive,
    });
    const zero = (check: 'greater_than' | 'less_than', inclusive: boolean): NumberCheck => {
      this.none(args, mod, before, true);
      return { check, value: 0, inclusive };
    };
    switch (name) {
      case 'int':
        this.none(args, mod, before, true);
        return { check: 'safeint' };
      case 'min':
      case 'gte':
        return bound('greater_than', true);
      case 'gt':
        return bound('greater_than', false);
      case 'max':
      case 'lte':
        return bound('less_than', true);
      case 'lt':
        return bound('less_than', false);
      case 'positive':
        return zero('greater_than', false);
      case 'nonnegative':
        return zero('greater_than', true);
      case 'negative':
        return zero('less_than', false);
      case 'nonpositive':
        return zero('less_than', true);
      default:
        return fail();
    }
  }

  private sizeCheck(name: string, args: TS.NodeArray<TS.Expression>, mod: M, before: number): SizeCheck {
    switch (name) {
      case 'min':
        return { check: 'min_size', value: this.numbers(args, 1, mod, before)[0]! };
      case 'max':
        return { check: 'max_size', value: this.numbers(args, 1, mod, before)[0]! };
      case 'length':
        return { check: 'size_equals', value: this.numbers(args, 1, mod, before)[0]! };
      case 'nonempty':
        this.none(args, mod, before, true);
        return { check: 'min_size', value: 1 };
      default:
        return fail();
    }
  }
}

/**
 * The root `z.object(...)` an expression builds, or `undefined` when it is outside the subset
 * (or not an object at the root: the evaluation path reports that with its own diagnostic).
 */
export function translateStatic<M>(
  expression: TS.Expression,
  mod: M,
  scope: StaticScope<M>,
): (ZodNode & { readonly kind: 'object' }) | undefined {
  try {
    const node = new Translator(scope).node(expression, mod, Number.POSITIVE_INFINITY);
    return node.kind === 'object' ? node : undefined;
  } catch (error) {
    if (error instanceof NotStatic) return undefined;
    throw error;
  }
}
