/**
 * Which names a piece of code reads from its enclosing module. The extractor copies only the
 * declarations an `inputSchema` expression needs, so it must know every free identifier; code
 * it cannot reason about is reported as a problem and sends the tool to the bundle fallback.
 *
 * Scoping is deliberately simple (every declaration anywhere in a function body is treated as
 * bound in the whole function). A name that is wrongly treated as bound can only cause a
 * ReferenceError in the vm, which also sends the tool to the fallback, never a wrong schema.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from '../util/typescript.js';

export interface ReferenceScan {
  /** Free identifiers in reference position, in first-seen order. */
  readonly names: Set<string>;
  /** Why this code cannot be evaluated in isolation (empty when it can). */
  readonly problems: string[];
}

/**
 * Property names that lead from a value back to the compiler realm's `Function` (and so to
 * `process`). The vm is not a security boundary, but the fast path must not be an easy way
 * around "only `z` is visible"; such code takes the child-process path instead.
 */
const REALM_ESCAPES = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

type FunctionLike =
  | TS.FunctionDeclaration
  | TS.FunctionExpression
  | TS.ArrowFunction
  | TS.MethodDeclaration
  | TS.GetAccessorDeclaration
  | TS.SetAccessorDeclaration
  | TS.ConstructorDeclaration;

function isFunctionLike(node: TS.Node): node is FunctionLike {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)
  );
}

/** Names a binding (identifier or destructuring pattern) introduces. */
export function bindingNames(name: TS.BindingName, out: string[] = []): string[] {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bindingNames(element.name, out);
  return out;
}

/** Every name declared inside a function body, not descending into nested functions. */
function declaredIn(body: TS.Node, out: Set<string>): void {
  const visit = (node: TS.Node): void => {
    if (ts.isVariableDeclaration(node)) for (const n of bindingNames(node.name)) out.add(n);
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node)) && node.name) {
      out.add(node.name.text);
    }
    if (isFunctionLike(node) || ts.isClassLike(node)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
}

const SyntaxKind = ts.SyntaxKind;

function literalKey(node: TS.Expression): string | undefined {
  return ts.isStringLiteralLike(node) || ts.isNumericLiteral(node) ? node.text : undefined;
}

export function scanReferences(root: TS.Node, sf: TS.SourceFile): ReferenceScan {
  const names = new Set<string>();
  const problems: string[] = [];
  const scopes: Set<string>[] = [];
  const bound = (name: string): boolean => scopes.length > 0 && scopes.some((scope) => scope.has(name));
  const problem = (node: TS.Node, what: string): void => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    problems.push(`${what} (line ${line + 1})`);
  };

  const visitBinding = (name: TS.BindingName): void => {
    if (ts.isIdentifier(name)) return;
    for (const element of name.elements) {
      if (ts.isOmittedExpression(element)) continue;
      if (element.propertyName && ts.isComputedPropertyName(element.propertyName))
        visit(element.propertyName.expression);
      visitBinding(element.name);
      if (element.initializer) visit(element.initializer);
    }
  };

  const visitFunction = (node: FunctionLike): void => {
    if (node.name && ts.isComputedPropertyName(node.name)) visit(node.name.expression);
    const scope = new Set<string>();
    if (!ts.isArrowFunction(node)) scope.add('arguments');
    if (ts.isFunctionExpression(node) && node.name) scope.add(node.name.text);
    for (const param of node.parameters) for (const n of bindingNames(param.name)) scope.add(n);
    if (node.body) declaredIn(node.body, scope);
    scopes.push(scope);
    for (const param of node.parameters) {
      visitBinding(param.name);
      if (param.initializer) visit(param.initializer);
    }
    if (node.body) visit(node.body);
    scopes.pop();
  };

  function visitPropertyAccess(node: TS.PropertyAccessExpression): void {
    if (REALM_ESCAPES.has(node.name.text)) problem(node, `accesses .${node.name.text}`);
    visit(node.expression);
  }

  function visitPropertyAssignment(node: TS.PropertyAssignment): void {
    if (ts.isComputedPropertyName(node.name)) visit(node.name.expression);
    visit(node.initializer);
  }

  function visit(node: TS.Node): void {
    // The kinds a schema expression is made of, decided by their kind alone (what the checks
    // below would decide for them, without running through all of them for every node).
    switch (node.kind) {
      case SyntaxKind.Identifier:
        if (!bound((node as TS.Identifier).text)) names.add((node as TS.Identifier).text);
        return;
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NumericLiteral:
      case SyntaxKind.NoSubstitutionTemplateLiteral:
      case SyntaxKind.TrueKeyword:
      case SyntaxKind.FalseKeyword:
      case SyntaxKind.NullKeyword:
        return;
      case SyntaxKind.CallExpression:
        if ((node as TS.CallExpression).expression.kind === SyntaxKind.ImportKeyword)
          return problem(node, 'uses a dynamic import()');
        ts.forEachChild(node, visit);
        return;
      case SyntaxKind.ObjectLiteralExpression:
      case SyntaxKind.ArrayLiteralExpression:
        ts.forEachChild(node, visit);
        return;
      case SyntaxKind.PropertyAccessExpression:
        return visitPropertyAccess(node as TS.PropertyAccessExpression);
      case SyntaxKind.PropertyAssignment:
        return visitPropertyAssignment(node as TS.PropertyAssignment);
    }
    // Type syntax never reads a runtime value.
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isTypeParameterDeclaration(node))
      return;
    if (isFunctionLike(node)) return visitFunction(node);
    if (ts.isClassLike(node)) return problem(node, 'uses a class');
    if (ts.isPropertyAccessExpression(node)) return visitPropertyAccess(node);
    if (ts.isElementAccessExpression(node)) {
      const key = literalKey(node.argumentExpression);
      if (key !== undefined && REALM_ESCAPES.has(key)) problem(node, `accesses [${JSON.stringify(key)}]`);
      visit(node.expression);
      return visit(node.argumentExpression);
    }
    if (ts.isPropertyAssignment(node)) return visitPropertyAssignment(node);
    if (ts.isShorthandPropertyAssignment(node)) {
      visit(node.name);
      if (node.objectAssignmentInitializer) visit(node.objectAssignmentInitializer);
      return;
    }
    if (ts.isVariableDeclaration(node)) {
      visitBinding(node.name);
      if (node.initializer) visit(node.initializer);
      return;
    }
    if (ts.isCatchClause(node)) {
      const scope = new Set(node.variableDeclaration ? bindingNames(node.variableDeclaration.name) : []);
      scopes.push(scope);
      visit(node.block);
      scopes.pop();
      return;
    }
    if (ts.isEnumDeclaration(node)) {
      // Members may refer to earlier members by bare name.
      scopes.push(new Set(node.members.map((m) => m.name.getText(sf))));
      for (const member of node.members) if (member.initializer) visit(member.initializer);
      scopes.pop();
      return;
    }
    if (ts.isLabeledStatement(node)) return visit(node.statement);
    if (ts.isBreakOrContinueStatement(node)) return;
    if (ts.isMetaProperty(node)) {
      if (node.keywordToken === ts.SyntaxKind.ImportKeyword) problem(node, 'uses import.meta');
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      return problem(node, 'uses a dynamic import()');
    }
    if (ts.isAwaitExpression(node) && scopes.length === 0) return problem(node, 'uses top-level await');
    if (ts.isExpressionWithTypeArguments(node)) return visit(node.expression);
    if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node)) {
      return problem(node, 'uses JSX');
    }
    ts.forEachChild(node, visit);
  }

  visit(root);
  return { names, problems };
}

/**
 * Top-level code that runs when the module loads (function bodies excluded) and may modify one
 * of `watched`: assignment or update of it or of a property of it, `delete`, passing it to a call
 * or calling a method on it. The copied declarations would not see such changes, so the
 * extractor gives up instead of producing a schema that differs from the real module's.
 */
export interface MutationScope {
  /** Names whose modification would change the snippet's result. */
  readonly watched: ReadonlySet<string>;
  /** Bindings of Zod: its functions and methods never modify their arguments. */
  readonly pure: ReadonlySet<string>;
  /** Code that is copied into the snippet anyway (the `inputSchema` expression itself). */
  readonly skip?: TS.Node;
  /**
   * Whether a top-level function or const of the module reads one of `watched`: calling it
   * from top-level code may modify a copied value inside its body (`function extend() {
   * shape.limit = ... }; extend();`), which the checks on the call site alone cannot see.
   */
  readonly reads?: (name: string) => boolean;
}

/** The identifier a member/call chain starts from: `a` for `a.b[c].d()`. */
function chainRoot(expr: TS.Expression): TS.Identifier | undefined {
  let e: TS.Expression = expr;
  for (;;) {
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isCallExpression(e)) e = e.expression;
    else if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
    else break;
  }
  return ts.isIdentifier(e) ? e : undefined;
}

export function findMutation(statement: TS.Node, scope: MutationScope, sf: TS.SourceFile): string | undefined {
  const { watched, pure, skip, reads } = scope;
  let found: string | undefined;
  const rootName = (expr: TS.Expression): string | undefined => {
    let e: TS.Expression = expr;
    for (;;) {
      if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
      else if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
      else break;
    }
    return ts.isIdentifier(e) && watched.has(e.text) ? e.text : undefined;
  };
  const report = (node: TS.Node, name: string, how: string): void => {
    if (found) return;
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found = `\`${name}\` may be ${how} by top-level code (line ${line + 1})`;
  };
  const visit = (node: TS.Node): void => {
    if (found || node === skip || isFunctionLike(node) || ts.isTypeNode(node)) return;
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    ) {
      const name = rootName(node.left);
      if (name) report(node, name, 'assigned');
    } else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
    ) {
      const name = rootName(node.operand);
      if (name) report(node, name, 'updated');
    } else if (ts.isDeleteExpression(node)) {
      const name = rootName(node.expression);
      if (name) report(node, name, 'modified');
    } else if (
      (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
      !pure.has(chainRoot(node.expression)?.text ?? '')
    ) {
      const callee =
        ts.isPropertyAccessExpression(node.expression) || ts.isElementAccessExpression(node.expression)
          ? rootName(node.expression.expression)
          : undefined;
      if (callee) report(node, callee, 'modified by a method call');
      const called = chainRoot(node.expression)?.text;
      if (!found && called !== undefined && reads?.(called)) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        found = `\`${called}\`, called by top-level code (line ${line + 1}), reads values the schema uses and may modify them`;
      }
      for (const arg of node.arguments ?? []) {
        const name = rootName(arg);
        if (name && (ts.isIdentifier(arg) || ts.isParenthesizedExpression(arg)))
          report(node, name, 'modified by a call');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(statement);
  return found;
}
