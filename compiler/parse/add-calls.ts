/**
 * The conditional capabilities of a plugin entry (docs/authoring.md "Conditional tools"):
 * `context.addTool('name', defineAgentTool({...}))` and `context.addPromptSection('name',
 * defineAgentPromptSection({...}))` anywhere in it, however the method is reached — `context.addTool`,
 * `context['addTool']`, `addTool` destructured from the context or bound to a name
 * (`const add = context.addTool.bind(context)`), or called through `.call(context, …)` — so each
 * takes part in the tree's conflict checks.
 */
import type { ts as TS } from 'ts-morph';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ConditionalToolRef } from './definition.js';
import type { Lit } from './lit.js';
import { locOf, propertyName, readLiteral, unwrap, type LiteralContext } from './literal.js';

const ADD_CALLS: Readonly<Record<string, ConditionalToolRef['kind']>> = {
  addTool: 'tool',
  addPromptSection: 'prompt-section',
};

function isAddMethod(name: string | undefined): name is keyof typeof ADD_CALLS {
  return name !== undefined && Object.hasOwn(ADD_CALLS, name);
}

/** The add method an expression names: `x.addTool`, `x['addTool']`, either `.bind(…)`, or an alias of one. */
function methodNamed(
  ctx: LiteralContext,
  expression: TS.Expression,
  aliases: ReadonlyMap<string, string>,
): string | undefined {
  const { ts } = ctx;
  const node = unwrap(ts, expression);
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'bind'
  )
    return methodNamed(ctx, node.expression.expression, aliases);
  const method = ts.isPropertyAccessExpression(node)
    ? node.name.text
    : ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)
      ? node.argumentExpression.text
      : ts.isIdentifier(node)
        ? aliases.get(node.text)
        : undefined;
  return isAddMethod(method) ? method : undefined;
}

/**
 * Local names bound to an add method: by destructuring (`const { addTool } = context`,
 * `({ addTool: add })`) or by a declaration (`const add = context.addTool.bind(context)`).
 */
function destructuredAdds(ctx: LiteralContext): Map<string, string> {
  const { ts, sf } = ctx;
  const aliases = new Map<string, string>();
  const visit = (node: TS.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const method = methodNamed(ctx, node.initializer, aliases);
      if (method) aliases.set(node.name.text, method);
    }
    // Parents are not set on the reader's source files: the pattern names its elements.
    if (ts.isObjectBindingPattern(node))
      for (const element of node.elements) {
        if (!ts.isIdentifier(element.name)) continue;
        const key = element.propertyName ? propertyName(ts, element.propertyName) : element.name.text;
        if (isAddMethod(key)) aliases.set(element.name.text, key);
      }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return aliases;
}

/**
 * The add method a call makes, and where its own arguments start: `add('x', …)` at 0,
 * `context.addTool.call(context, 'x', …)` at 1.
 */
function addCallOf(
  ctx: LiteralContext,
  call: TS.CallExpression,
  aliases: ReadonlyMap<string, string>,
): { readonly method: string; readonly from: number } | undefined {
  const { ts } = ctx;
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'call') {
    const method = methodNamed(ctx, callee.expression, aliases);
    if (method) return { method, from: 1 };
  }
  const method = methodNamed(ctx, callee, aliases);
  return method ? { method, from: 0 } : undefined;
}

/** `context.addSkill(…)`, `context['addSkill'](…)`, or an `addSkill` destructured from the context. */
function callsAddSkill(ctx: LiteralContext, callee: TS.Expression): boolean {
  const { ts } = ctx;
  const node = unwrap(ts, callee);
  if (ts.isPropertyAccessExpression(node)) return node.name.text === 'addSkill';
  if (ts.isElementAccessExpression(node))
    return ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'addSkill';
  return ts.isIdentifier(node) && node.text === 'addSkill';
}

export function findAddToolCalls(ctx: LiteralContext, diagnostics: Diagnostic[]): ConditionalToolRef[] {
  const { ts, sf } = ctx;
  const aliases = destructuredAdds(ctx);
  const found: ConditionalToolRef[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isCallExpression(node) && callsAddSkill(ctx, node.expression))
      diagnostics.push(
        diag('ZG2061', {
          ...locOf(ctx, node),
          message:
            "addSkill() is zhin.js's way to add a skill in setup(); zhin-gen's setup context has none (host.load would fail with a TypeError), so this skill is not in the manifest",
        }),
      );
    const add = ts.isCallExpression(node) ? addCallOf(ctx, node, aliases) : undefined;
    if (add && ts.isCallExpression(node)) {
      const { method } = add;
      const kind = ADD_CALLS[method]!;
      const [nameArg, defArg] = node.arguments.slice(add.from);
      const nameLit = nameArg ? readLiteral(ctx, nameArg) : undefined;
      if (nameLit && nameLit.t === 'string') {
        let fields: Lit | undefined;
        const def = defArg ? unwrap(ts, defArg) : undefined;
        if (def && ts.isCallExpression(def) && def.arguments[0]) fields = readLiteral(ctx, def.arguments[0]);
        found.push({ kind, localName: nameLit.v, loc: nameLit.loc, ...(fields ? { fields } : {}) });
      } else {
        diagnostics.push(
          diag('ZG2050', {
            ...locOf(ctx, node),
            message: `${method}() is called with a computed name (${nameArg ? nameArg.getText(sf).slice(0, 40) : 'nothing'}); it cannot be checked for conflicts at build time`,
          }),
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
