/**
 * The values a static translation reads out of source text: JSON literals (strings, numbers,
 * booleans, null, arrays and objects of them) written inline or through `const`s, and the
 * argument shapes of Zod checks (`.min(3, 'message')`). `translate.ts` builds Zod nodes on top.
 *
 * Anything else throws `NotStatic`: the caller then leaves the tool to the evaluation path.
 */
import type { ts as TS } from 'ts-morph';
import { unwrap as unwrapWrappers } from '../parse/literal.js';
import { ownText } from '../util/own-text.js';
import { ts } from '../util/typescript.js';
import type { Json } from './zod-json.js';

/** What an identifier read in a module refers to, as the extractor resolved it. */
export type StaticResolution<M> =
  | { readonly kind: 'zod' }
  /** A `const` (or `export default`) value: its expression and where it is declared. */
  | { readonly kind: 'value'; readonly mod: M; readonly expression: TS.Expression; readonly declaredAt: number };

export interface StaticScope<M> {
  resolve(mod: M, name: string): StaticResolution<M> | undefined;
}

export class NotStatic extends Error {}

export function fail(): never {
  throw new NotStatic();
}

/** Parentheses and type-only wrappers (`as`, `satisfies`, `!`) do not change the value. */
export function unwrap(node: TS.Expression): TS.Expression {
  return unwrapWrappers(ts, node);
}

/**
 * `key: value` entries of an object literal. Keys that an engine would reorder (array indices)
 * or treat specially (`__proto__`), repeated keys, spreads, methods and computed keys are not
 * translated: their object is not simply "these keys in this order".
 */
export function plainEntries(literal: TS.ObjectLiteralExpression): [string, TS.Expression][] {
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

/** Reads literal values in the order the snippet would evaluate them, one value per `const`. */
export class LiteralReader<M> {
  private readonly constants = new Map<TS.Expression, Json>();

  constructor(protected readonly scope: StaticScope<M>) {}

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

  protected string(node: TS.Expression | undefined, mod: M, before: number): string {
    const value = node === undefined ? undefined : this.literal(node, mod, before);
    return typeof value === 'string' ? value : fail();
  }

  protected number(node: TS.Expression | undefined, mod: M, before: number): number {
    const value = node === undefined ? undefined : this.literal(node, mod, before);
    return typeof value === 'number' ? value : fail();
  }

  /** Arguments of a check: `values` numbers, optionally followed by a message string. */
  protected numbers(args: TS.NodeArray<TS.Expression>, values: number, mod: M, before: number): number[] {
    if (args.length < values || args.length > values + 1) fail();
    if (args.length === values + 1) this.string(args[values], mod, before);
    return args.slice(0, values).map((a) => this.number(a, mod, before));
  }

  /** No arguments, or (`messageAllowed`) one message string. */
  protected none(args: TS.NodeArray<TS.Expression>, mod: M, before: number, messageAllowed = false): void {
    if (args.length > (messageAllowed ? 1 : 0)) fail();
    if (args.length === 1) this.string(args[0], mod, before);
  }

  protected resolveValue(name: string, mod: M, before: number): Extract<StaticResolution<M>, { kind: 'value' }> {
    const resolved = this.scope.resolve(mod, name);
    if (resolved?.kind !== 'value') return fail();
    // The snippet runs a module's declarations in source order: reading a later one is a
    // ReferenceError there (temporal dead zone), which the evaluation path must report.
    if (resolved.mod === mod && resolved.declaredAt >= before) return fail();
    return resolved;
  }
}
