/**
 * The conditional capabilities of a plugin entry (docs/authoring.md "Conditional tools"):
 * `context.addTool('name', defineAgentTool({...}))` and `context.addPromptSection('name',
 * defineAgentPromptSection({...}))` anywhere in it, however the method is reached — `context.addTool`,
 * `context['addTool']`, or `addTool` destructured from the context — so each takes part in the
 * tree's conflict checks.
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

/** Local names bound to an add method by destructuring (`const { addTool } = context`, `({ addTool: add })`). */
function destructuredAdds(ctx: LiteralContext): Map<string, string> {
  const { ts, sf } = ctx;
  const aliases = new Map<string, string>();
  const visit = (node: TS.Node): void => {
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

/** The add method a call's callee names, if any. */
function addMethodOf(
  ctx: LiteralContext,
  callee: TS.Expression,
  aliases: ReadonlyMap<string, string>,
): string | undefined {
  const { ts } = ctx;
  const method = ts.isPropertyAccessExpression(callee)
    ? callee.name.text
    : ts.isElementAccessExpression(callee) && ts.isStringLiteralLike(callee.argumentExpression)
      ? callee.argumentExpression.text
      : ts.isIdentifier(callee)
        ? aliases.get(callee.text)
        : undefined;
  return isAddMethod(method) ? method : undefined;
}

export function findAddToolCalls(ctx: LiteralContext, diagnostics: Diagnostic[]): ConditionalToolRef[] {
  const { ts, sf } = ctx;
  const aliases = destructuredAdds(ctx);
  const found: ConditionalToolRef[] = [];
  const visit = (node: TS.Node): void => {
    const method = ts.isCallExpression(node) ? addMethodOf(ctx, node.expression, aliases) : undefined;
    if (method && ts.isCallExpression(node)) {
      const kind = ADD_CALLS[method]!;
      const [nameArg, defArg] = node.arguments;
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
