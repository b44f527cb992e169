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
 * - each read of the data (`data`, `data0`, a `propertyNames` `key0`) is `(data0 as any)`: Ajv's
 *   checks narrow it, and a schema whose keywords do not fit its type (`type: 'string'` with
 *   `properties`) would read a property of `never`;
 * - a local only ever written (`missing0` under `if` or `not`, a loop's `key0`) is read once with
 *   `void`, a label nothing jumps to is left out, and so is code after a `return`;
 * - a field a class sets in its constructor (Ajv's `ValidationError`) is declared
 *   (`declare errors: any;`: a type only, no field is emitted);
 * - a top-level constant nothing reads whose value is a literal (Ajv's copy of the schema,
 *   `schema31`) is left out: it has no effect, and `noUnusedLocals` rejects it; so are the
 *   options a validator never reads (`{instancePath="", parentData, …}`: `noUnusedParameters`)
 *   and a `break` right after a `return` (`allowUnreachableCode: false`). Checked with the
 *   flags of `@tsconfig/strictest` (test/compiler/emit/validators-differential.test.ts; a review
 *   also ran 900 random schemas through tsc and against Ajv).
 *
 * Edits are insertions and removals at positions of TypeScript's own parse of the text, so
 * strings from the schema are never touched, whatever they contain. Bundlers and `tsc` drop the
 * annotations: the JavaScript that runs is Ajv's. One parse without parent links and one walk
 * (~0.5 ms for a five-field schema's module, beside Ajv's ~1 ms: bench/validators.ts).
 */
import type { ts as TS } from 'ts-morph';
import { loadTypeScript } from '../util/typescript-load.js';
import {
  closingParen,
  constructorFields,
  DATA,
  endsFlow,
  isLiteral,
  isLiteralComparison,
  isLiteralConst,
  isRead,
  wrappable,
} from './validator-nodes.js';

interface Edit {
  readonly at: number;
  /** Up to where the text is replaced (default: an insertion). */
  readonly end?: number;
  readonly text: string;
  /** A statement added after the one ending here: before any other insertion at this position. */
  readonly statement?: boolean;
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
  // Every scope being walked (functions and blocks: Ajv declares `data0` again in sibling
  // blocks), innermost last, each with the names read inside it.
  const blocks: Set<string>[] = [];
  // Inside a statement that never runs (left out below): its reads and jumps do not count.
  let dead = 0;
  const deadStatements = new Set<TS.Node>();
  const edits: Edit[] = [];
  const insert = (at: number, text: string): void => {
    edits.push({ at, text });
  };
  const visit = (node: TS.Node, parent: TS.Node): void => {
    switch (node.kind) {
      case K.Identifier: {
        const name = (node as TS.Identifier).text;
        if (isRead(ts, node as TS.Identifier, parent)) {
          if (dead === 0) {
            reads.add(name);
            for (const scope of scopes) scope.reads.add(name);
            for (const block of blocks) block.add(name);
          }
          // Ajv's checks narrow the data (`typeof data == "string"`), and a schema whose keywords
          // do not fit its type (`type: 'string'` with `properties`) then reads a property of a
          // `never` or compares a `number` with a string (TS2339, TS2367): each read of the data
          // is of an `any` that no check narrows.
          if (DATA.test(name) && wrappable(ts, node as TS.Identifier, parent)) {
            insert(node.getStart(file), '(');
            insert(node.end, ' as any)');
          }
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
        if (ts.isIdentifier(declaration.name))
          declared.push({
            name: declaration.name.text,
            node: declaration,
            list: parent,
            // `var` belongs to its function, `let` / `const` to their block.
            reads:
              parent.kind === K.VariableDeclarationList &&
              (parent.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) === 0
                ? (scopes[scopes.length - 1]?.reads ?? reads)
                : (blocks[blocks.length - 1] ?? reads),
          });
        break;
      }
      case K.LabeledStatement:
        labels.push(node as TS.LabeledStatement);
        break;
      case K.BreakStatement:
      case K.ContinueStatement: {
        const label = (node as TS.BreakOrContinueStatement).label;
        if (label && dead === 0) usedLabels.add(label.text);
        break;
      }
      case K.ForInStatement:
      case K.ForOfStatement:
      case K.ForStatement: {
        const initializer = (node as TS.ForInOrOfStatement | TS.ForStatement).initializer;
        if (initializer && ts.isVariableDeclarationList(initializer) && !ts.isForStatement(node)) {
          forHead.set(initializer, true);
          holderOf.set(initializer, node as TS.ForInOrOfStatement);
        }
        // The loop's own scope: its head's `let` / `const` are read in its body.
        blocks.push(new Set());
        ts.forEachChild(node, (child) => visitChild(child, node));
        blocks.pop();
        return;
      }
      case K.VariableStatement:
        holderOf.set((node as TS.VariableStatement).declarationList, node as TS.VariableStatement);
        topLevel.set(node, parent.kind === K.SourceFile);
        break;
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
        // What follows a `return`, `throw`, `break` or `continue` in its block never runs
        // (`return false;break;`, and Ajv's code after `not: true`): left out.
        const statements = (node as TS.Block | TS.CaseOrDefaultClause).statements;
        const exit = statements.findIndex((s) => endsFlow(ts, s));
        if (exit >= 0)
          for (const statement of statements.slice(exit + 1))
            if (!ts.isFunctionDeclaration(statement)) {
              unreachable.push(statement);
              deadStatements.add(statement);
            }
        blocks.push(new Set());
        ts.forEachChild(node, (child) => visitChild(child, node));
        blocks.pop();
        return;
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
        for (const parameter of fn.parameters) visitChild(parameter, fn);
        scopes.push(scope);
        if (fn.body) visitChild(fn.body, fn);
        scopes.pop();
        return;
      }
    }
    ts.forEachChild(node, (child) => visitChild(child, node));
  };
  const visitChild = (node: TS.Node, parent: TS.Node): void => {
    const isDead = deadStatements.has(node);
    if (isDead) dead++;
    visit(node, parent);
    if (isDead) dead--;
  };
  const forHead = new WeakMap<TS.Node, boolean>();
  // The statement holding a declaration list (no parent links in this parse).
  const holderOf = new WeakMap<TS.Node, TS.ForInOrOfStatement | TS.VariableStatement>();
  const topLevel = new WeakMap<TS.Node, boolean>();
  // Ajv names a function's locals uniquely (`key0`, `key1`), but another function may reuse one:
  // a local is unread when the function it is declared in (with what it nests) never reads it.
  const declared: { name: string; node: TS.VariableDeclaration; list: TS.Node; reads: ReadonlySet<string> }[] = [];
  const labels: TS.LabeledStatement[] = [];
  const usedLabels = new Set<string>();
  const unreachable: TS.Statement[] = [];
  ts.forEachChild(file, (child) => visitChild(child, file));
  // Removed first: nothing inside a removed statement is edited (its edits dropped below).
  const removed: { at: number; end: number }[] = [];
  for (const statement of unreachable) {
    const at = statement.getStart(file);
    if (removed.some((r) => at >= r.at && statement.end <= r.end)) continue;
    removed.push({ at, end: statement.end });
  }
  // A label nothing breaks to or continues (`outer0:` of Ajv's `uniqueItems`): TS7028.
  for (const label of labels)
    if (!usedLabels.has(label.label.text))
      edits.push({ at: label.getStart(file), end: label.statement.getStart(file), text: '' });
  // A variable written and never read (`missing0` under `not`/`if`, a loop's `key0`): TS6133.
  for (const { name, node, list, reads: readHere } of declared) {
    if (readHere.has(name)) continue;
    const holder = holderOf.get(list);
    if (holder && (ts.isForOfStatement(holder) || ts.isForInStatement(holder))) {
      if (ts.isBlock(holder.statement)) insert(holder.statement.getStart(file) + 1, `void ${name};`);
      else {
        insert(holder.statement.getStart(file), `{void ${name};`);
        insert(holder.statement.end, '}');
      }
    } else if (holder && ts.isVariableStatement(holder) && !(topLevel.get(holder) && isLiteralConst(ts, node)))
      edits.push({ at: holder.end, text: `void ${name};`, statement: true });
  }
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
  const kept = edits.filter((e) => !removed.some((r) => e.at >= r.at && e.at <= r.end));
  for (const r of removed) kept.push({ at: r.at, end: r.end, text: '' });
  return applied(code, kept);
}

/**
 * The text with the edits made, in one pass. An edit inside a span another replaces (a `data`
 * read wrapped inside the option pattern that unreadOptions rewrites) goes with that span.
 */
function applied(code: string, all: Edit[]): string {
  const spans = all.filter((e) => e.end !== undefined && e.end > e.at);
  const edits = all.filter((e) => !spans.some((s) => s !== e && e.at > s.at && e.at < s.end!));
  // By position; at one position a statement first, then other insertions, then a removal.
  const rank = (e: Edit): number => (e.statement ? 0 : e.end === undefined ? 1 : 2);
  edits.sort((a, b) => a.at - b.at || rank(a) - rank(b));
  const parts: string[] = [];
  let last = 0;
  for (const edit of edits) {
    parts.push(code.slice(last, edit.at), edit.text);
    last = Math.max(last, edit.end ?? edit.at);
  }
  parts.push(code.slice(last));
  return parts.join('');
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
