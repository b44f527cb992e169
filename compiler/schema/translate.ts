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
import { fail, LiteralReader, NotStatic, plainEntries, type StaticScope, unwrap } from './static-literal.js';
import type { NumberCheck, SizeCheck, StringCheck, StringFormat, ZodNode } from './zod-json.js';

export type { StaticResolution, StaticScope } from './static-literal.js';

const FORMATS: ReadonlySet<string> = new Set<StringFormat>(['email', 'url', 'uuid', 'guid', 'datetime', 'date']);
const LEAVES = new Set(['string', 'number', 'int', 'boolean', 'any', 'unknown', 'null']);
const COERCIBLE = new Set(['string', 'number', 'boolean']);

class Translator<M> extends LiteralReader<M> {
  /** One node per declaration, as one Zod object per `const`. */
  private readonly values = new Map<TS.Expression, ZodNode>();

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
