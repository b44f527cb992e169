/**
 * `platformPermit(…)` calls → the permit string they return. When the helper is declared in the
 * tree (the module itself, or a relative import such as `../../src/platform-permit.js`), its
 * return expression is evaluated with the call's literal arguments and the module's top-level
 * string constants (`const ADAPTER = 'slack'` → `platform(slack,channel_manager)`). A helper from
 * a package is the framework's two-argument form: `platformPermit(a, p)` is `'platform(a,p)'`.
 * Anything else is not guessed.
 */
import type { CallExpression, Node as MorphNode } from 'ts-morph';
import type { FieldContext } from './fields.js';
import { resolveSpecifier } from './imports.js';
import { Node, parse, type SourceFile, stringValue } from './source.js';

type Failure = { readonly why: string };

interface Helper {
  readonly file: SourceFile;
  readonly params: readonly string[];
  readonly body: MorphNode;
}

function helperIn(file: SourceFile): Helper | undefined {
  const fn = file.getFunction('platformPermit');
  if (fn) {
    const statements = fn.getStatements();
    const last = statements[statements.length - 1];
    if (statements.length === 1 && last && Node.isReturnStatement(last) && last.getExpression())
      return { file, params: fn.getParameters().map((p) => p.getName()), body: last.getExpression()! };
    return undefined;
  }
  const init = file.getVariableDeclaration('platformPermit')?.getInitializer();
  if (init && Node.isArrowFunction(init)) {
    const body = init.getBody();
    if (!Node.isBlock(body)) return { file, params: init.getParameters().map((p) => p.getName()), body };
  }
  return undefined;
}

function evaluate(helper: Helper, node: MorphNode, args: readonly string[]): string | undefined {
  const literal = stringValue(node);
  if (literal !== undefined) return literal;
  if (Node.isParenthesizedExpression(node)) return evaluate(helper, node.getExpression(), args);
  if (Node.isIdentifier(node)) {
    const index = helper.params.indexOf(node.getText());
    if (index !== -1) return args[index];
    const declaration = helper.file.getVariableDeclaration(node.getText());
    const isConst = declaration?.getVariableStatement()?.getDeclarationKind() === 'const';
    return isConst ? stringValue(declaration?.getInitializer()) : undefined;
  }
  if (Node.isTemplateExpression(node)) {
    let out = node.getHead().getLiteralText();
    for (const span of node.getTemplateSpans()) {
      const value = evaluate(helper, span.getExpression(), args);
      if (value === undefined) return undefined;
      out += value + span.getLiteral().getLiteralText();
    }
    return out;
  }
  if (Node.isBinaryExpression(node) && node.getOperatorToken().getText() === '+') {
    const left = evaluate(helper, node.getLeft(), args);
    const right = evaluate(helper, node.getRight(), args);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

/** The helper's declaration: in this module, or in the relatively imported module of the tree. */
function findHelper(context: FieldContext): Helper | 'package' | undefined {
  const local = helperIn(context.file);
  if (local) return local;
  for (const declaration of context.file.getImportDeclarations()) {
    if (!declaration.getNamedImports().some((n) => n.getName() === 'platformPermit')) continue;
    const specifier = declaration.getModuleSpecifierValue();
    if (!specifier.startsWith('.')) return 'package';
    const origin = context.draft.final.get(context.path)?.origin ?? context.path;
    const target = resolveSpecifier(context.draft.tree, origin, specifier);
    if (!target) return undefined;
    return helperIn(parse(`.migrate-permit/${target.path}`, context.draft.tree.read(target.path)));
  }
  return undefined;
}

export function evaluatePermit(context: FieldContext, call: CallExpression): string | Failure {
  const args = call.getArguments().map((a) => stringValue(a));
  if (args.some((a) => a === undefined)) return { why: 'its arguments are not string literals' };
  const values = args as string[];
  const helper = findHelper(context);
  if (helper === 'package') {
    if (values.length === 2) return `platform(${values[0]},${values[1]})`;
    return { why: 'the one-argument form takes its adapter from the module that declares the helper' };
  }
  if (!helper) {
    if (values.length === 2) return `platform(${values[0]},${values[1]})`;
    return { why: 'the helper that declares its adapter is not in the tree (or not a single return)' };
  }
  const result = evaluate(helper, helper.body, values);
  return result === undefined ? { why: 'the helper does not return a string migrate can compute' } : result;
}
