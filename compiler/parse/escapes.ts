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

/** `a || b`, `a && b`, `a ?? b`: the value is one of the operands. */
function isLogical(ts: typeof TS, kind: TS.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.BarBarToken ||
    kind === ts.SyntaxKind.AmpersandAmpersandToken ||
    kind === ts.SyntaxKind.QuestionQuestionToken
  );
}

function isAssignment(ts: typeof TS, kind: TS.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

/**
 * Expressions whose value is their operand's, as far as what it reaches goes: `(X)`, `X as T`,
 * `X!`, `X satisfies T`, `<T>X`, the last operand of a comma, a branch of a conditional, an
 * operand of `||`, `&&`, `??`.
 */
function passesThrough(ts: typeof TS, parent: TS.Node, top: TS.Node): boolean {
  return (
    ts.isParenthesizedExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isNonNullExpression(parent) ||
    ts.isSatisfiesExpression(parent) ||
    ts.isTypeAssertionExpression(parent) ||
    (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.CommaToken && parent.right === top) ||
    (ts.isBinaryExpression(parent) && isLogical(ts, parent.operatorToken.kind)) ||
    (ts.isConditionalExpression(parent) && parent.condition !== top)
  );
}

/**
 * Parts of an array or object literal that hold a value: it goes where the literal goes. A spread
 * (`[...X]`, `{ ...X }`, `f(...X)`) copies: what it makes is not X.
 */
function holdsInLiteral(ts: typeof TS, parent: TS.Node, top: TS.Node): boolean {
  return (
    ts.isArrayLiteralExpression(parent) ||
    ts.isShorthandPropertyAssignment(parent) ||
    (ts.isPropertyAssignment(parent) && parent.initializer === top) ||
    ts.isObjectLiteralExpression(parent)
  );
}

/**
 * Whether a literal holding the reference lets it change: anywhere but a define helper's argument
 * or a top-level const's initializer (withContained follows that const) — a destructuring target
 * (`[X[0]] = …`), a receiver (`[X].forEach(a => a.shift())`), a loop's list, a binding pattern.
 */
function literalLets(
  ts: typeof TS,
  parent: TS.Node | undefined,
  literal: TS.Node,
  followed: ReadonlySet<TS.Node>,
): boolean {
  if (parent === undefined) return false;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && handedTo(parent, literal))
    return !isDefineCall(ts, parent);
  if (ts.isExportAssignment(parent)) return false;
  // A `let`, a `var` or a function's own const holding it is followed by no one.
  return !(ts.isVariableDeclaration(parent) && parent.initializer === literal && followed.has(parent));
}

/** Whether the reference `top` (the const, or an access chain on it) changes what it reaches, in `parent`. */
function changes(ts: typeof TS, parent: TS.Node, top: TS.Node, accessed: boolean): boolean {
  // Written to: assigned, a loop's variable (`for (X.k in o)`), counted, deleted.
  if (
    (ts.isBinaryExpression(parent) && parent.left === top && isAssignment(ts, parent.operatorToken.kind)) ||
    ((ts.isForInStatement(parent) || ts.isForOfStatement(parent)) && parent.initializer === top) ||
    ts.isPrefixUnaryExpression(parent) ||
    ts.isPostfixUnaryExpression(parent) ||
    ts.isDeleteExpression(parent)
  )
    return parent.kind !== ts.SyntaxKind.PrefixUnaryExpression || isCounting(ts, parent as TS.PrefixUnaryExpression);
  if (accessed) return ts.isCallExpression(parent) && parent.expression === top && !readsOnly(ts, top);
  // The const itself handed away (a member handed, `f(X.length)`, is a read), bound to another
  // name (`const Y = X`, `y = X`, a parameter's or a field's default) whose changes would be its
  // own, or returned from a function. Looping over it reads it, as `X.forEach(…)` does.
  return (
    ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) &&
      handedTo(parent, top) &&
      !isDefineCall(ts, parent)) ||
    ((ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isBindingElement(parent)) &&
      parent.initializer === top) ||
    (ts.isBinaryExpression(parent) && parent.right === top && isAssignment(ts, parent.operatorToken.kind)) ||
    ts.isReturnStatement(parent) ||
    (ts.isArrowFunction(parent) && parent.body === top)
  );
}

/** `++X` and `--X` change it; `-X`, `!X`, `~X`, `+X` read it. */
function isCounting(ts: typeof TS, node: TS.PrefixUnaryExpression): boolean {
  return node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken;
}

/**
 * The names among `consts` that the file may change or hand away, each with where it first does
 * (source files have no parent pointers).
 */
export function escapedConsts(ts: typeof TS, sf: TS.SourceFile, consts: ReadonlySet<string>): Map<string, string> {
  const escaped = new Map<string, string>();
  /** The top-level consts of `consts`: the containers withContained follows. */
  const followed = new Set<TS.Node>();
  for (const statement of sf.statements)
    if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const)
      for (const decl of statement.declarationList.declarations)
        if (ts.isIdentifier(decl.name) && consts.has(decl.name.text)) followed.add(decl);
  const mark = (name: string, at: TS.Node): void => {
    if (escaped.has(name)) return;
    const line = sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1;
    const text = at.getText(sf).replace(/\s+/g, ' ');
    escaped.set(name, `line ${line}: \`${text.length > 60 ? `${text.slice(0, 57)}…` : text}\``);
  };
  const path: TS.Node[] = [];
  const check = (id: TS.Identifier): void => {
    // Up the chain of accesses on it (`X`, `X.a`, `X['a'].b` …), through what passes it on as
    // it is (`(X as T).a`, `X!.a`, `(0, X)`, `c ? X : Y`).
    let top: TS.Node = id;
    let accessed = false;
    let at = path.length - 1;
    for (; at >= 0; at -= 1) {
      const parent = path[at]!;
      const access =
        (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === top;
      if (!access && !passesThrough(ts, parent, top)) break;
      accessed ||= access;
      top = parent;
    }
    const parent = path[at];
    if (parent === undefined) return;
    if (!holdsInLiteral(ts, parent, top)) {
      if (changes(ts, parent, top, accessed)) mark(id.text, parent);
      return;
    }
    // Held in a literal: up to the outermost one (through what passes it on), then where it goes.
    let literal: TS.Node = top;
    for (; at >= 0; at -= 1) {
      const node = path[at]!;
      if (!holdsInLiteral(ts, node, literal) && !passesThrough(ts, node, literal)) break;
      literal = node;
    }
    const outer = path[at];
    // A destructuring target writes what it holds (`[X[0]] = …`, `for ({ k: X.k } of …)`); held
    // anywhere else, a member is read (`f({ n: X.length })`), as one handed to a call is.
    const target =
      outer !== undefined &&
      ((ts.isBinaryExpression(outer) && outer.left === literal && isAssignment(ts, outer.operatorToken.kind)) ||
        ((ts.isForInStatement(outer) || ts.isForOfStatement(outer)) && outer.initializer === literal));
    if (target || (!accessed && literalLets(ts, outer, literal, followed))) mark(id.text, outer ?? literal);
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
  escaped: Map<string, string>,
): Map<string, string> {
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
  const queue = [...escaped.keys()];
  while (queue.length > 0) {
    const container = queue.pop()!;
    for (const held of holds.get(container) ?? [])
      if (!escaped.has(held)) {
        escaped.set(held, `${escaped.get(container)}, through ${container}`);
        queue.push(held);
      }
  }
  return escaped;
}
