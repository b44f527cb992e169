/**
 * In-process TypeScript type stripping for snippet code, working on the AST the parse stage
 * already has. Measured on the CI box: esbuild `transformSync` costs ~2-3 ms per call (IPC to the
 * service) and `ts.transpileModule` ~3 ms (it builds a Program), both more than the whole rest of
 * the fast path; removing type ranges from the source text costs microseconds. Only erasable
 * syntax is handled; anything that needs a real transform (enums, namespaces, decorators,
 * parameter properties) returns `undefined` and the caller transpiles instead.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from '../util/typescript.js';

interface Cut {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

class Unsupported extends Error {}

/** Position of the next token at or after `pos` (whitespace and comments skipped). */
function skipTrivia(text: string, pos: number): number {
  let i = pos;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) === -1 ? text.length : text.indexOf('*/', i) + 2;
    else break;
  }
  return i;
}

function childToken(node: TS.Node, kind: TS.SyntaxKind, sf: TS.SourceFile, before?: TS.Node): TS.Node | undefined {
  const children = node.getChildren(sf);
  const limit = before ? children.indexOf(before) : children.length;
  for (let i = limit - 1; i >= 0; i--) if (children[i]!.kind === kind) return children[i];
  return undefined;
}

/**
 * Text of `root` (a declaration or expression) with TypeScript-only syntax removed, or
 * `undefined` when it contains syntax that cannot simply be erased.
 */
export function stripTypes(root: TS.Node, sf: TS.SourceFile): string | undefined {
  const text = sf.text;
  const cuts: Cut[] = [];
  const cut = (start: number, end: number, insert = ''): void => {
    cuts.push({ start, end, insert });
  };
  const cutAngleList = (list: TS.NodeArray<TS.Node>): void => {
    const lt = list.pos - 1;
    const gt = skipTrivia(text, list.end);
    if (text[lt] !== '<' || text[gt] !== '>') throw new Unsupported();
    cut(lt, gt + 1);
  };
  const cutModifiers = (node: TS.Node): void => {
    for (const mod of ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : []) {
      if (mod.kind === ts.SyntaxKind.ExportKeyword || mod.kind === ts.SyntaxKind.DefaultKeyword)
        cut(mod.getStart(sf), mod.end);
      else if (mod.kind !== ts.SyntaxKind.AsyncKeyword && mod.kind !== ts.SyntaxKind.ConstKeyword)
        throw new Unsupported();
    }
    if (ts.canHaveDecorators(node) && ts.getDecorators(node)?.length) throw new Unsupported();
  };

  const visit = (node: TS.Node): void => {
    if (
      ts.isEnumDeclaration(node) ||
      ts.isModuleDeclaration(node) ||
      ts.isClassLike(node) ||
      ts.isImportEqualsDeclaration(node)
    ) {
      throw new Unsupported();
    }
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      if (ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) throw new Unsupported();
      return cut(node.getStart(sf), node.end);
    }
    if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node)) {
      cut(node.expression.end, node.end);
      return visit(node.expression);
    }
    if (ts.isTypeAssertionExpression(node)) {
      cut(node.getStart(sf), node.expression.getStart(sf));
      return visit(node.expression);
    }
    if (ts.isVariableStatement(node)) cutModifiers(node);
    if (ts.isVariableDeclaration(node)) {
      const last = node.type ?? node.exclamationToken;
      if (last) cut(node.name.end, last.end);
      visit(node.name);
      if (node.initializer) visit(node.initializer);
      return;
    }
    if (ts.isParameter(node)) {
      if (ts.isIdentifier(node.name) && node.name.text === 'this') throw new Unsupported();
      if (ts.getModifiers(node)?.length) throw new Unsupported();
      const last = node.type ?? node.questionToken;
      if (last) cut(node.name.end, last.end);
      visit(node.name);
      if (node.initializer) visit(node.initializer);
      return;
    }
    if (ts.isFunctionLike(node) && !ts.isTypeNode(node)) {
      cutModifiers(node);
      if ('body' in node && node.body === undefined) {
        // An overload signature inside a function body: erase it entirely.
        if (node === root || !ts.isFunctionDeclaration(node)) throw new Unsupported();
        return cut(node.getStart(sf), node.end);
      }
      if (node.typeParameters) cutAngleList(node.typeParameters);
      if (node.type) {
        const colon = childToken(node, ts.SyntaxKind.ColonToken, sf, node.type);
        if (!colon) throw new Unsupported();
        if (ts.isArrowFunction(node)) cut(colon.getStart(sf), node.equalsGreaterThanToken.getStart(sf), ' ');
        else cut(colon.getStart(sf), node.type.end);
      }
      if (node.name && ts.isComputedPropertyName(node.name)) visit(node.name);
      for (const param of node.parameters) visit(param);
      const body = (node as { body?: TS.Node }).body;
      if (body) visit(body);
      return;
    }
    if (
      (ts.isCallExpression(node) ||
        ts.isNewExpression(node) ||
        ts.isTaggedTemplateExpression(node) ||
        ts.isExpressionWithTypeArguments(node)) &&
      node.typeArguments
    ) {
      cutAngleList(node.typeArguments);
      const skip = node.typeArguments;
      ts.forEachChild(node, visit, (list) => {
        if (list !== skip) list.forEach(visit);
      });
      return;
    }
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) throw new Unsupported();
    ts.forEachChild(node, visit);
  };

  try {
    visit(root);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  cuts.sort((a, b) => a.start - b.start);
  let out = '';
  let at = root.getStart(sf);
  for (const c of cuts) {
    if (c.start < at) {
      if (c.end > at) at = c.end;
      continue;
    }
    out += text.slice(at, c.start) + c.insert;
    at = c.end;
  }
  return out + text.slice(at, root.end);
}
