/**
 * Which top-level consts of a file may change after their initializer (parse/literal.ts reads a
 * const through only while it cannot): `PERMS.push(…)`, `DEF.permissions = …`, `delete X.a`,
 * `X.n++`, or the value handed to a function (`Object.assign(X, …)`, `mutate(X)`) — a define
 * helper's own call excepted. A static read of such a const would vouch for its initializer while
 * the module runs with another value (an admin-only tool whose permit is pushed at import).
 */
import type { ts as TS } from 'ts-morph';

/**
 * Methods of the values a static read takes (arrays and strings of literals) that never change
 * them: `PERMS.includes(x)` is a read, `PERMS.push(x)` and any method not listed a change.
 */
const READ_ONLY_METHODS = new Set([
  'at',
  'concat',
  'entries',
  'every',
  'filter',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'flat',
  'flatMap',
  'forEach',
  'includes',
  'indexOf',
  'join',
  'keys',
  'lastIndexOf',
  'map',
  'reduce',
  'reduceRight',
  'slice',
  'some',
  'toString',
  'values',
]);

/** Whether the called member is one of READ_ONLY_METHODS. */
function readsOnly(ts: typeof TS, callee: TS.Node): boolean {
  const name = ts.isPropertyAccessExpression(callee)
    ? callee.name.text
    : ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)
      ? callee.argumentExpression.text
      : undefined;
  return name !== undefined && READ_ONLY_METHODS.has(name);
}

/** A call of a define helper (`defineAgentTool(DEF)`, `tool.defineAgentTool(DEF)`): it reads its argument. */
function isDefineCall(ts: typeof TS, call: TS.CallExpression | TS.NewExpression): boolean {
  if (!ts.isCallExpression(call)) return false;
  const callee = call.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  return /^define[A-Z]/.test(name);
}

/** Whether `node` is one of the call's arguments. */
function handedTo(call: TS.CallExpression | TS.NewExpression, node: TS.Node): boolean {
  const args: readonly TS.Node[] = call.arguments ?? [];
  return args.includes(node);
}

function isAssignment(ts: typeof TS, kind: TS.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/** Whether the reference `top` (the const, or an access chain on it) changes what it reaches, in `parent`. */
function changes(ts: typeof TS, parent: TS.Node, top: TS.Node, accessed: boolean): boolean {
  if (!accessed)
    // The const itself handed away (a member handed, `f(X.length)`, is a read), or bound to
    // another name (`const Y = X`, `y = X`) whose changes would be its own.
    return (
      ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) &&
        handedTo(parent, top) &&
        !isDefineCall(ts, parent)) ||
      (ts.isVariableDeclaration(parent) && parent.initializer === top) ||
      (ts.isBinaryExpression(parent) && parent.right === top && isAssignment(ts, parent.operatorToken.kind))
    );
  return (
    (ts.isCallExpression(parent) && parent.expression === top && !readsOnly(ts, top)) ||
    (ts.isBinaryExpression(parent) && parent.left === top && isAssignment(ts, parent.operatorToken.kind)) ||
    ts.isPrefixUnaryExpression(parent) ||
    ts.isPostfixUnaryExpression(parent) ||
    ts.isDeleteExpression(parent)
  );
}

/** The names among `consts` that the file may change or hand away (source files have no parent pointers). */
export function escapedConsts(ts: typeof TS, sf: TS.SourceFile, consts: ReadonlySet<string>): Set<string> {
  const escaped = new Set<string>();
  const path: TS.Node[] = [];
  const check = (id: TS.Identifier): void => {
    // Up the chain of accesses on it: `X`, `X.a`, `X['a'].b` …
    let top: TS.Node = id;
    let at = path.length - 1;
    for (; at >= 0; at -= 1) {
      const parent = path[at]!;
      const access = ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent);
      if (!access || parent.expression !== top) break;
      top = parent;
    }
    const parent = path[at];
    if (parent && changes(ts, parent, top, top !== id)) escaped.add(id.text);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isIdentifier(node) && consts.has(node.text)) {
      const parent = path[path.length - 1];
      // A name, not a reference: a declaration, a property's or member's own name.
      const named =
        parent !== undefined &&
        (((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isBindingElement(parent)) &&
          parent.name === node) ||
          (ts.isPropertyAccessExpression(parent) && parent.name === node));
      if (!named) check(node);
    }
    path.push(node);
    ts.forEachChild(node, visit);
    path.pop();
  };
  visit(sf);
  return withContained(ts, sf, consts, escaped);
}

/**
 * A const held inside another const's initializer (`const BOX = { list: PERMS }`) changes with
 * it: `BOX.list.push(…)` changes PERMS. Each escaped const takes the consts it holds along.
 */
function withContained(
  ts: typeof TS,
  sf: TS.SourceFile,
  consts: ReadonlySet<string>,
  escaped: Set<string>,
): Set<string> {
  const holds = new Map<string, string[]>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || !decl.initializer) continue;
      const held: string[] = [];
      const collect = (node: TS.Node): void => {
        if (ts.isIdentifier(node) && consts.has(node.text)) held.push(node.text);
        ts.forEachChild(node, collect);
      };
      collect(decl.initializer);
      if (held.length > 0) holds.set(decl.name.text, held);
    }
  }
  const queue = [...escaped];
  while (queue.length > 0)
    for (const held of holds.get(queue.pop()!) ?? [])
      if (!escaped.has(held)) {
        escaped.add(held);
        queue.push(held);
      }
  return escaped;
}
