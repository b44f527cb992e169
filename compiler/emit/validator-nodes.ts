/**
 * What validator-typing.ts asks of the nodes of Ajv's code: which identifier is a read, which
 * statement ends a block, which value is an inert literal. No parent links: each takes the
 * node's parent from the walk.
 */
import type { ts as TS } from 'ts-morph';

/** Ajv's names for the data a validator checks: `data`, `data0`, `data12`, and keys checked by `propertyNames` (`key0`). */
export const DATA = /^(?:data|key)\d*$/;

/** Whether a read can become `(name as any)`: not an assignment's target, not a `{ name }` shorthand. */
export function wrappable(ts: typeof TS, node: TS.Identifier, parent: TS.Node): boolean {
  if (ts.isShorthandPropertyAssignment(parent)) return false;
  if (ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
    return false;
  if ((ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) && parent.operand === node)
    return false;
  return !ts.isTypeQueryNode(parent);
}

/** A top-level `const` of a literal, which the removal of unread literal constants takes out. */
export function isLiteralConst(ts: typeof TS, node: TS.VariableDeclaration): boolean {
  return node.initializer !== undefined && isLiteral(ts, node.initializer);
}

/** Whether an identifier reads a binding (not a declaration's name, a property name or a key). */
export function isRead(ts: typeof TS, node: TS.Identifier, parent: TS.Node): boolean {
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isFunctionExpression(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isClassExpression(parent) ||
      ts.isParameter(parent) ||
      ts.isBindingElement(parent)) &&
    parent.name === node
  )
    return false;
  if ((ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node) return false;
  // `missing0 = "a"` writes it: a variable only ever written is unread (TS6133).
  if (ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
    return false;
  // `{ name: binding }` in a pattern: `name` is the property, not a read.
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  return true;
}

/** `break` / `continue`. */
export function isJump(ts: typeof TS, node: TS.Statement): boolean {
  return ts.isBreakStatement(node) || ts.isContinueStatement(node);
}

/** `return` / `throw`: nothing after it in its block runs. */
export function isExit(ts: typeof TS, node: TS.Statement): boolean {
  return ts.isReturnStatement(node) || ts.isThrowStatement(node);
}

/** Position just past the `)` that closes a parameter list ending at `from`. */
export function closingParen(code: string, from: number): number {
  const at = code.indexOf(')', from);
  if (at < 0) throw new Error("Ajv's validator code has a parameter list without its ')'");
  return at + 1;
}

/** Names a class's constructor sets on `this` (`this.errors = …`). */
export function constructorFields(ts: typeof TS, node: TS.ClassLikeDeclaration): string[] {
  const names: string[] = [];
  const visit = (inner: TS.Node): void => {
    if (
      ts.isBinaryExpression(inner) &&
      inner.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(inner.left) &&
      inner.left.expression.kind === ts.SyntaxKind.ThisKeyword
    )
      names.push(inner.left.name.text);
    ts.forEachChild(inner, visit);
  };
  for (const member of node.members) if (ts.isConstructorDeclaration(member)) visit(member);
  return names;
}

/** A value whose evaluation has no effect: a JSON-like literal. */
export function isLiteral(ts: typeof TS, node: TS.Expression): boolean {
  if (ts.isObjectLiteralExpression(node))
    return node.properties.every(
      (p) =>
        ts.isPropertyAssignment(p) &&
        (!ts.isComputedPropertyName(p.name) || ts.isStringLiteral(p.name.expression)) &&
        isLiteral(ts, p.initializer),
    );
  if (ts.isArrayLiteralExpression(node)) return node.elements.every((e) => isLiteral(ts, e));
  if (ts.isPrefixUnaryExpression(node)) return ts.isNumericLiteral(node.operand);
  return (
    ts.isStringLiteral(node) ||
    ts.isNumericLiteral(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword
  );
}

/** `0.5 === 0`: an equality of two number literals. */
export function isLiteralComparison(ts: typeof TS, node: TS.BinaryExpression): boolean {
  const op = node.operatorToken.kind;
  const equality =
    op === ts.SyntaxKind.EqualsEqualsEqualsToken ||
    op === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
    op === ts.SyntaxKind.EqualsEqualsToken ||
    op === ts.SyntaxKind.ExclamationEqualsToken;
  const numeric = (e: TS.Expression): boolean =>
    ts.isNumericLiteral(e) || (ts.isPrefixUnaryExpression(e) && ts.isNumericLiteral(e.operand));
  return equality && numeric(node.left) && numeric(node.right);
}

/**
 * Whether control never goes past this statement: a `return`, `throw`, `break` or `continue`, a
 * block holding one, or an `if` whose branches both end (Ajv's `if (…) { …; return false; } else
 * { …; return false; }`). What follows it in its block is unreachable (TS7027).
 */
export function endsFlow(ts: typeof TS, node: TS.Statement): boolean {
  if (isExit(ts, node) || isJump(ts, node)) return true;
  if (ts.isBlock(node)) return node.statements.some((statement) => endsFlow(ts, statement));
  if (ts.isIfStatement(node))
    return node.elseStatement !== undefined && endsFlow(ts, node.thenStatement) && endsFlow(ts, node.elseStatement);
  return false;
}
