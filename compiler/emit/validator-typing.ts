/**
 * Ajv's standalone code, typed for a `.ts` validator module (emit/validators.ts). SPEC: the
 * output passes `tsc --strict --noUnusedLocals` with no `@ts-nocheck`, and the generated folder is
 * output. Ajv prints plain JavaScript, which a strict compile of the bot rejects (implicit `any`
 * parameters, `errors` and `evaluated` set on the function objects, its unused `schema0`), so the
 * module used to opt out of checking. Instead, the text gets the few edits that make it valid
 * strict TypeScript, and nothing else moves:
 *
 * - every parameter, variable and function without a type gets `: any` (a catch variable too;
 *   not a `for … in` / `for … of` variable, which cannot have one). The code checks untyped data
 *   at run time; what it returns is typed by the module's export (emit/validators.ts);
 * - a property of a function declared in the module (`validate10.errors`) is reached through
 *   `(validate10 as any)`: Ajv keeps a validator's state on the function object;
 * - a comparison of two number literals (`0.5 === 0`, Ajv's `multipleOf` guard) compares a
 *   `number`: TypeScript rejects comparing two literal types that cannot be equal;
 * - a field a class sets in its constructor (Ajv's `ValidationError`) is declared
 *   (`declare errors: any;`: a type only, no field is emitted);
 * - a top-level constant nothing reads whose value is a literal (Ajv's copy of the schema,
 *   `schema31`) is left out: it has no effect, and `noUnusedLocals` rejects it; so are the
 *   options a validator never reads (`{instancePath="", parentData, …}`: `noUnusedParameters`)
 *   and a `break` right after a `return` (`allowUnreachableCode: false`). Checked with the
 *   flags of `@tsconfig/strictest` (test/compiler/emit/validators-differential.test.ts).
 *
 * Edits are insertions and removals at positions of TypeScript's own parse of the text, so
 * strings from the schema are never touched, whatever they contain. Bundlers and `tsc` drop the
 * annotations: the JavaScript that runs is Ajv's. One parse without parent links and one walk
 * (~0.5 ms for a five-field schema's module, beside Ajv's ~1 ms: bench/validators.ts).
 */
import type { ts as TS } from 'ts-morph';
import { loadTypeScript } from '../util/typescript-load.js';

interface Edit {
  readonly at: number;
  /** Up to where the text is replaced (default: an insertion). */
  readonly end?: number;
  readonly text: string;
}

/** A function being walked: the names read inside it, for its unread options. */
interface Scope {
  readonly node: TS.FunctionLikeDeclaration;
  readonly reads: Set<string>;
}

/** The code with the edits above; throws on a parse error (never printed as a module that would not compile). */
export function typedValidatorCode(code: string): string {
  const ts = loadTypeScript();
  const file = ts.createSourceFile('validator.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const parseErrors = (file as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics ?? [];
  if (parseErrors.length > 0) throw new Error("Ajv's validator code does not parse as TypeScript");
  const K = ts.SyntaxKind;
  const functions = new Set<string>();
  for (const statement of file.statements)
    if (ts.isFunctionDeclaration(statement) && statement.name) functions.add(statement.name.text);
  const reads = new Set<string>();
  const scopes: Scope[] = [];
  const walked: Scope[] = [];
  const edits: Edit[] = [];
  const insert = (at: number, text: string): void => {
    edits.push({ at, text });
  };
  const visit = (node: TS.Node, parent: TS.Node): void => {
    switch (node.kind) {
      case K.Identifier: {
        const name = (node as TS.Identifier).text;
        if (isRead(ts, node as TS.Identifier, parent)) {
          reads.add(name);
          for (const scope of scopes) scope.reads.add(name);
        }
        return;
      }
      case K.Parameter: {
        const parameter = node as TS.ParameterDeclaration;
        if (parameter.type === undefined) insert(parameter.name.end, ': any');
        break;
      }
      case K.VariableDeclaration: {
        const declaration = node as TS.VariableDeclaration;
        // A `for (const key in …)` variable cannot have a type; `catch (e)` may.
        const head = parent.kind === K.VariableDeclarationList ? forHead.get(parent) : false;
        if (declaration.type === undefined && !head) insert(declaration.name.end, ': any');
        break;
      }
      case K.ForInStatement:
      case K.ForOfStatement: {
        const initializer = (node as TS.ForInOrOfStatement).initializer;
        if (ts.isVariableDeclarationList(initializer)) forHead.set(initializer, true);
        break;
      }
      case K.PropertyAccessExpression: {
        const target = (node as TS.PropertyAccessExpression).expression;
        if (ts.isIdentifier(target) && functions.has(target.text)) {
          insert(target.getStart(file), '(');
          insert(target.end, ' as any)');
        }
        break;
      }
      case K.BinaryExpression:
        if (isLiteralComparison(ts, node as TS.BinaryExpression)) {
          // `0.5 === 0` (Ajv's `multipleOf` guard): two literal types with no overlap (TS2367).
          const left = (node as TS.BinaryExpression).left;
          insert(left.getStart(file), '(');
          insert(left.end, ' as number)');
        }
        break;
      case K.Block:
      case K.CaseClause:
      case K.DefaultClause: {
        const statements = (node as TS.Block | TS.CaseOrDefaultClause).statements;
        for (let i = 1; i < statements.length; i++)
          if (isJump(ts, statements[i]!) && isExit(ts, statements[i - 1]!))
            edits.push({ at: statements[i]!.getStart(file), end: statements[i]!.end, text: '' });
        break;
      }
      case K.ClassDeclaration:
      case K.ClassExpression: {
        const fields = [...new Set(constructorFields(ts, node as TS.ClassLikeDeclaration))].sort();
        if (fields.length > 0)
          insert((node as TS.ClassLikeDeclaration).members.pos, fields.map((f) => ` declare ${f}: any;`).join(''));
        break;
      }
      case K.FunctionDeclaration:
      case K.FunctionExpression: {
        const fn = node as TS.FunctionDeclaration | TS.FunctionExpression;
        if (fn.type === undefined) insert(closingParen(code, fn.parameters.end), ': any');
        const scope: Scope = { node: fn, reads: new Set() };
        walked.push(scope);
        // The parameters first: their defaults read names of this scope (`rootData=data`), and
        // unreadOptions looks at them itself.
        for (const parameter of fn.parameters) visit(parameter, fn);
        scopes.push(scope);
        if (fn.body) visit(fn.body, fn);
        scopes.pop();
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  const forHead = new WeakMap<TS.Node, boolean>();
  ts.forEachChild(file, (child) => visit(child, file));
  for (const scope of walked) edits.push(...unreadOptions(ts, file, scope));
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const [only, ...more] = statement.declarationList.declarations;
    if (!only || more.length > 0 || !ts.isIdentifier(only.name) || reads.has(only.name.text)) continue;
    if (only.initializer && isLiteral(ts, only.initializer)) {
      const at = statement.getStart(file);
      // Its own `: any` goes with it.
      for (let i = edits.length - 1; i >= 0; i--)
        if (edits[i]!.at >= at && edits[i]!.at <= statement.end) edits.splice(i, 1);
      edits.push({ at, end: statement.end, text: '' });
    }
  }
  return applied(code, edits);
}

/** The text with the edits (none overlapping) made, in one pass. */
function applied(code: string, edits: Edit[]): string {
  // By position; at one position an insertion goes before a removal that starts there.
  edits.sort((a, b) => a.at - b.at || (a.end === undefined ? 0 : 1) - (b.end === undefined ? 0 : 1));
  const parts: string[] = [];
  let last = 0;
  for (const edit of edits) {
    parts.push(code.slice(last, edit.at), edit.text);
    last = Math.max(last, edit.end ?? edit.at);
  }
  parts.push(code.slice(last));
  return parts.join('');
}

/** Whether an identifier reads a binding (not a declaration's name, a property name or a key). */
function isRead(ts: typeof TS, node: TS.Identifier, parent: TS.Node): boolean {
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
  // `{ name: binding }` in a pattern: `name` is the property, not a read.
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  return true;
}

/** `break` / `continue`. */
function isJump(ts: typeof TS, node: TS.Statement): boolean {
  return ts.isBreakStatement(node) || ts.isContinueStatement(node);
}

/** `return` / `throw`: nothing after it in its block runs. */
function isExit(ts: typeof TS, node: TS.Statement): boolean {
  return ts.isReturnStatement(node) || ts.isThrowStatement(node);
}

/** Position just past the `)` that closes a parameter list ending at `from`. */
function closingParen(code: string, from: number): number {
  const at = code.indexOf(')', from);
  if (at < 0) throw new Error("Ajv's validator code has a parameter list without its ')'");
  return at + 1;
}

/** Names a class's constructor sets on `this` (`this.errors = …`). */
function constructorFields(ts: typeof TS, node: TS.ClassLikeDeclaration): string[] {
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
function isLiteral(ts: typeof TS, node: TS.Expression): boolean {
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
function isLiteralComparison(ts: typeof TS, node: TS.BinaryExpression): boolean {
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
 * Removals of the names a function's destructured options declare and never read (its body and
 * the kept names' defaults: `rootData=data` reads `data`), and a `_` before a plain parameter
 * nothing reads: Ajv declares every option in every validator, and `validate0(data, …)` of a
 * schema that accepts anything never reads `data`.
 */
function unreadOptions(ts: typeof TS, file: TS.SourceFile, scope: Scope): Edit[] {
  const reads = new Set(scope.reads);
  const collect = (inner: TS.Node | undefined, parent: TS.Node): void => {
    if (inner === undefined) return;
    if (ts.isIdentifier(inner) && isRead(ts, inner, parent)) reads.add(inner.text);
    ts.forEachChild(inner, (child) => collect(child, inner));
  };
  const edits: Edit[] = [];
  // Last to first: a parameter's default may read an earlier one, never a later one.
  for (const parameter of [...scope.node.parameters].reverse()) {
    const name = parameter.name;
    collect(parameter.initializer, parameter);
    if (ts.isIdentifier(name)) {
      if (!reads.has(name.text) && !name.text.startsWith('_')) edits.push({ at: name.getStart(file), text: '_' });
      continue;
    }
    if (!ts.isObjectBindingPattern(name)) continue;
    const read = (e: TS.BindingElement): boolean =>
      !ts.isIdentifier(e.name) || e.dotDotDotToken !== undefined || reads.has(e.name.text);
    // A kept name's default may read another name of the pattern: until nothing more is kept.
    let kept: TS.BindingElement[] = [];
    for (let size = -1; size !== kept.length; ) {
      size = kept.length;
      kept = name.elements.filter(read);
      for (const element of kept) collect(element.initializer, element);
    }
    if (kept.length < name.elements.length)
      edits.push({ at: name.getStart(file), end: name.end, text: `{${kept.map((e) => e.getText(file)).join(', ')}}` });
  }
  return edits;
}
