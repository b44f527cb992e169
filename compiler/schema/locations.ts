/**
 * Source positions inside an `inputSchema` expression, keyed by JSON Schema path
 * (`properties.when`, `properties.tags.items`, …), collected while the AST is alive so a schema
 * error found later (ZG2021 unrepresentable type, ZG2022 bad keyword) can point at the exact
 * property instead of the whole `inputSchema` value. Follows `z.object({...})`, `z.array(x)`,
 * method chains (`.optional()`, `.describe()`), same-file consts, and JSON Schema literals.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from '../util/typescript.js';

import type { SchemaLocation, SchemaLocations } from './locate.js';

function unwrap(node: TS.Node): TS.Node {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isNonNullExpression(current)
  )
    current = current.expression;
  return current;
}

function topLevelConsts(sf: TS.SourceFile): Map<string, TS.Expression> {
  const out = new Map<string, TS.Expression>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    for (const decl of statement.declarationList.declarations)
      if (ts.isIdentifier(decl.name) && decl.initializer) out.set(decl.name.text, decl.initializer);
  }
  return out;
}

export function schemaLocations(sf: TS.SourceFile, expression: TS.Expression): SchemaLocations {
  const out: Record<string, SchemaLocation> = {};
  const consts = topLevelConsts(sf);
  const at = (node: TS.Node): SchemaLocation => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    return { line: line + 1, column: character + 1 };
  };
  const keyOf = (prop: TS.ObjectLiteralElementLike): string | undefined =>
    prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name) || ts.isNumericLiteral(prop.name))
      ? prop.name.text
      : undefined;
  const visit = (input: TS.Node, path: readonly string[], seen: ReadonlySet<string>, json: boolean): void => {
    const node = unwrap(input);
    if (ts.isIdentifier(node) && !seen.has(node.text)) {
      const value = consts.get(node.text);
      if (value) visit(value, path, new Set([...seen, node.text]), json);
      return;
    }
    if (ts.isObjectLiteralExpression(node) && json) {
      for (const prop of node.properties) {
        const key = keyOf(prop);
        if (key === undefined || !ts.isPropertyAssignment(prop)) continue;
        const next = [...path, key];
        out[next.join('.')] ??= at(prop);
        visit(prop.initializer, next, seen, true);
      }
      return;
    }
    if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return;
    const method = node.expression.name.text;
    const [first] = node.arguments;
    if (method === 'object' && first && ts.isObjectLiteralExpression(unwrap(first))) {
      for (const prop of (unwrap(first) as TS.ObjectLiteralExpression).properties) {
        const key = keyOf(prop);
        if (key === undefined) continue;
        const next = [...path, 'properties', key];
        out[next.join('.')] ??= at(prop);
        if (ts.isPropertyAssignment(prop)) visit(prop.initializer, next, seen, false);
      }
    } else if (method === 'array' && first) {
      visit(first, [...path, 'items'], seen, false);
    } else {
      // A method chain (`.optional()`, `.describe()`, `.min()`): the schema is the receiver.
      visit(node.expression.expression, path, seen, false);
    }
  };
  const root = unwrap(expression);
  visit(root, [], new Set(), ts.isObjectLiteralExpression(root));
  return out;
}
