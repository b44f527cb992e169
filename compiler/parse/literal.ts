/**
 * Reads a TypeScript expression as a literal value with source positions, without evaluating
 * anything. Values the compiler cannot know statically become `unknown` (with their text), so
 * validation can say "not statically known" instead of guessing.
 */
import type { ts as TS } from 'ts-morph';
import type { SourceLocation } from '../diagnostics.js';
import { ownText } from '../util/own-text.js';
import { escapedConsts } from './escapes.js';
import type { Lit } from './lit.js';

export type { Lit } from './lit.js';

export interface LiteralContext {
  readonly ts: typeof TS;
  readonly sf: TS.SourceFile;
  /** POSIX path relative to the root, for locations. */
  readonly file: string;
  /** Top-level const initializers and function declarations of the file, by name. */
  readonly locals: ReadonlyMap<string, TS.Node>;
  /** The consts the file may change after their initializer, with where (parse/escapes.ts), found on first need. */
  escaped?: ReadonlyMap<string, string>;
}

/**
 * A const whose value cannot change whatever the file does with it: a string, number, boolean,
 * bigint or null literal (or a template of them), possibly wrapped. Only objects and arrays can.
 */
function immutableInitializer(ts: typeof TS, node: TS.Node): boolean {
  const value = ts.isExpression(node) ? unwrap(ts, node) : node;
  return (
    ts.isStringLiteralLike(value) ||
    ts.isTemplateExpression(value) ||
    ts.isNumericLiteral(value) ||
    ts.isBigIntLiteral(value) ||
    value.kind === ts.SyntaxKind.TrueKeyword ||
    value.kind === ts.SyntaxKind.FalseKeyword ||
    value.kind === ts.SyntaxKind.NullKeyword ||
    (ts.isPrefixUnaryExpression(value) && ts.isNumericLiteral(value.operand))
  );
}

/** Where the module may give a const of the file another value than its initializer, or undefined. */
function mayChange(ctx: LiteralContext, name: string): string | undefined {
  // A string or number const never changes: returning or handing one away is no escape.
  ctx.escaped ??= escapedConsts(
    ctx.ts,
    ctx.sf,
    new Set([...ctx.locals].filter(([, node]) => !immutableInitializer(ctx.ts, node)).map(([name]) => name)),
  );
  return ctx.escaped.get(name);
}

/** `undefined` and `void …`: a property written so is absent, as JavaScript reads it. */
function isUndefined(ts: typeof TS, node: TS.Expression): boolean {
  const value = unwrap(ts, node);
  return (ts.isIdentifier(value) && value.text === 'undefined') || ts.isVoidExpression(value);
}

/** A member of a same-file `enum` with a literal initializer (`Scope.Group`), read as its value. */
function enumMember(ctx: LiteralContext, enumName: string, member: string): Lit | undefined {
  const { ts } = ctx;
  for (const statement of ctx.sf.statements) {
    if (!ts.isEnumDeclaration(statement) || statement.name.text !== enumName) continue;
    const found = statement.members.find((m) => propertyName(ts, m.name) === member);
    const init = found?.initializer;
    if (init && (ts.isStringLiteralLike(init) || ts.isNumericLiteral(init))) return readLiteral(ctx, init);
  }
  return undefined;
}

export function locOf(ctx: Pick<LiteralContext, 'sf' | 'file'>, node: TS.Node): SourceLocation {
  const { line, character } = ctx.sf.getLineAndCharacterOfPosition(node.getStart(ctx.sf));
  return { file: ctx.file, line: line + 1, column: character + 1 };
}

/** Strips `x as T`, `x satisfies T`, `<T>x`, `(x)` and `x!`. */
export function unwrap(ts: typeof TS, node: TS.Expression): TS.Expression {
  let current = node;
  for (;;) {
    if (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current) ||
      ts.isNonNullExpression(current)
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

/** Top-level `const x = …` initializers and `function x() {}` declarations of a file. */
export function collectLocals(ts: typeof TS, sf: TS.SourceFile): Map<string, TS.Node> {
  const locals = new Map<string, TS.Node>();
  for (const statement of sf.statements) {
    if (ts.isVariableStatement(statement) && (statement.declarationList.flags & ts.NodeFlags.Const) !== 0) {
      for (const decl of statement.declarationList.declarations) {
        if (ts.isIdentifier(decl.name) && decl.initializer) locals.set(decl.name.text, decl.initializer);
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      locals.set(statement.name.text, statement);
    }
  }
  return locals;
}

/**
 * The name of a property as written: `name`, `'name'`, `1`, and a computed key of a literal
 * (`['name']`, `` [`name`] ``), as JavaScript names them; undefined for any other computed key.
 */
export function propertyName(ts: typeof TS, name: TS.PropertyName): string | undefined {
  const key = ts.isComputedPropertyName(name) ? unwrap(ts, name.expression) : name;
  if (ts.isIdentifier(key) && key === name) return key.text;
  if (ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key)) return key.text;
  // JavaScript's name of the number: `1.0` and `0x1` are the key "1".
  if (ts.isNumericLiteral(key)) return String(Number(key.text));
  return undefined;
}

/**
 * Same-file consts read through one after another (`const A = B; const B = C; …`): a longer chain
 * is not statically known (ZG2004 where a literal is needed). Each link is a level of recursion,
 * and a generated file of thousands of links ran out of stack (an internal error).
 */
const MAX_CONST_CHAIN = 256;

const PRIMITIVES: ReadonlySet<Lit['t']> = new Set(['string', 'number', 'boolean', 'null']);

export function readLiteral(ctx: LiteralContext, input: TS.Node, seen: ReadonlySet<string> = new Set()): Lit {
  const { ts } = ctx;
  const loc = locOf(ctx, input);
  if (ts.isFunctionDeclaration(input)) return { t: 'function', loc };
  const node = unwrap(ts, input as TS.Expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { t: 'string', v: ownText(node.text), loc };
  if (ts.isNumericLiteral(node)) return { t: 'number', v: Number(node.text), loc };
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  ) {
    return { t: 'number', v: -Number(node.operand.text), loc };
  }
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { t: 'boolean', v: true, loc };
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { t: 'boolean', v: false, loc };
  if (node.kind === ts.SyntaxKind.NullKeyword) return { t: 'null', loc };
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return { t: 'function', loc };
  if (ts.isArrayLiteralExpression(node)) {
    const items: Lit[] = [];
    for (const element of node.elements) {
      if (!ts.isSpreadElement(element)) {
        items.push(readLiteral(ctx, element, seen));
        continue;
      }
      // `[...GROUP]` of a same-file array reads as its items.
      const spread = readLiteral(ctx, element.expression, seen);
      if (spread.t !== 'array') return { t: 'unknown', text: ownText(node.getText(ctx.sf)), loc };
      items.push(...spread.items);
    }
    return { t: 'array', items, loc };
  }
  if (ts.isObjectLiteralExpression(node)) {
    // No prototype: a key named `__proto__` is a key like any other (reported as unknown where it is one).
    const props: Record<string, Lit> = Object.create(null);
    const keyLocs: Record<string, SourceLocation> = Object.create(null);
    const opaque: SourceLocation[] = [];
    for (const prop of node.properties) {
      if (ts.isSpreadAssignment(prop)) return { t: 'unknown', text: ownText(node.getText(ctx.sf)), loc };
      if (ts.isPropertyAssignment(prop) && isUndefined(ts, prop.initializer)) continue;
      let name = prop.name ? propertyName(ts, prop.name) : undefined;
      if (name === undefined && prop.name && ts.isComputedPropertyName(prop.name)) {
        // `[KEY]` of a same-file const string is that key.
        const key = readLiteral(ctx, prop.name.expression, seen);
        if (key.t === 'string') name = key.v;
      }
      if (name === undefined) {
        if (prop.name) opaque.push(locOf(ctx, prop.name));
        continue;
      }
      keyLocs[name] = locOf(ctx, prop);
      if (ts.isPropertyAssignment(prop)) props[name] = readLiteral(ctx, prop.initializer, seen);
      else if (ts.isMethodDeclaration(prop) || ts.isGetAccessorDeclaration(prop))
        props[name] = { t: 'function', loc: locOf(ctx, prop) };
      else if (ts.isShorthandPropertyAssignment(prop)) props[name] = readLiteral(ctx, prop.name, seen);
    }
    return opaque.length > 0 ? { t: 'object', props, keyLocs, opaque, loc } : { t: 'object', props, keyLocs, loc };
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = readLiteral(ctx, node.left, seen);
    const right = readLiteral(ctx, node.right, seen);
    if (left.t === 'string' && right.t === 'string') return { t: 'string', v: left.v + right.v, loc };
  }
  if (ts.isTemplateExpression(node)) {
    // `role(${ROLE})` of same-file strings and numbers.
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const part = readLiteral(ctx, span.expression, seen);
      if (part.t !== 'string' && part.t !== 'number')
        return { t: 'unknown', text: ownText(node.getText(ctx.sf).slice(0, 80)), loc };
      text += String(part.v) + span.literal.text;
    }
    return { t: 'string', v: ownText(text), loc };
  }
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    // `ROLES.admin`, `ROLES['admin']` of a same-file const object, `Scope.Group` of a same-file enum.
    const key = ts.isPropertyAccessExpression(node)
      ? node.name.text
      : ts.isStringLiteralLike(node.argumentExpression)
        ? node.argumentExpression.text
        : undefined;
    if (key !== undefined) {
      const object = readLiteral(ctx, node.expression, seen);
      if (object.t === 'object' && Object.hasOwn(object.props, key)) return object.props[key]!;
      if (object.t === 'unknown' && ts.isIdentifier(node.expression) && !ctx.locals.has(node.expression.text)) {
        const member = enumMember(ctx, node.expression.text, key);
        if (member) return member;
      }
    }
  }
  if (ts.isIdentifier(node) && !seen.has(node.text) && seen.size < MAX_CONST_CHAIN) {
    const target = ctx.locals.get(node.text);
    if (target) {
      // Same-file consts are read through, keeping the position of the use site's value; the
      // file is searched for changes to it only once a value was read (a `z.object` is not).
      const value = readLiteral(ctx, target, new Set([...seen, node.text]));
      // A const holding a string, number, boolean or null holds it whatever the module does (a
      // primitive cannot be changed, a const not reassigned): `const D = BASE` reads through.
      if (value.t !== 'unknown') {
        if (PRIMITIVES.has(value.t)) return value;
        const change = mayChange(ctx, node.text);
        if (change === undefined) return value;
        return { t: 'unknown', text: ownText(node.text), loc, why: `the module may change ${node.text} at ${change}` };
      }
      return { t: 'unknown', text: ownText(node.text), loc };
    }
  }
  return { t: 'unknown', text: ownText(node.getText(ctx.sf).slice(0, 80)), loc };
}
