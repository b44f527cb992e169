/**
 * TypeScript sources for the codemod: one in-memory ts-morph `Project` parses every module
 * migrate edits, and edits are replacements of exact source ranges, applied from the end, so
 * everything migrate does not touch (formatting, comments, quotes) stays byte for byte.
 */
import {
  type ImportDeclaration,
  type ImportSpecifier,
  Node,
  type ObjectLiteralExpression,
  Project,
  type SourceFile,
  SyntaxKind,
} from 'ts-morph';

export {
  type ImportDeclaration,
  type ImportSpecifier,
  Node,
  type ObjectLiteralExpression,
  type SourceFile,
  SyntaxKind,
};

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const CODE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

export function isCodeFile(path: string): boolean {
  return CODE.test(path) && !path.endsWith('.d.ts');
}

let project: Project | undefined;

/** Parses `text` as the module at `path` (a fresh file each time: the texts change between passes). */
export function parse(path: string, text: string): SourceFile {
  project ??= new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: true },
  });
  const name = `/${path}`;
  const existing = project.getSourceFile(name);
  if (existing) project.removeSourceFile(existing);
  return project.createSourceFile(name, text, { overwrite: true });
}

/** Frees the parsed files (the project is reused by the next run in the same process). */
export function releaseSources(): void {
  if (!project) return;
  for (const file of project.getSourceFiles()) project.removeSourceFile(file);
}

/** Applies non-overlapping edits; overlapping ones are a bug in the caller. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const edit of sorted) {
    if (edit.end > limit) throw new Error(`overlapping edits at ${edit.start}`);
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    limit = edit.start;
  }
  return out;
}

/** `\\u` + four hex digits: the escape of one UTF-16 unit. */
function unitEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}

/**
 * `value` as a string literal between `quote`s that reads back as exactly `value`, whatever it
 * holds (file names and strings come from the user's tree): backslashes and the quote are
 * escaped, and so are line terminators (U+2028 and U+2029 end a line in JS source too), other
 * control characters, lone surrogates (UTF-8 cannot carry them) and, between backticks, `${`.
 */
export function stringLiteral(value: string, quote: "'" | '"' | '`' = "'"): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    const unit = value.charCodeAt(i);
    if (char === '\\' || char === quote) out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (unit < 0x20 || unit === 0x7f || unit === 0x2028 || unit === 0x2029) out += unitEscape(unit);
    else if (unit >= 0xd800 && unit <= 0xdbff && /[\udc00-\udfff]/.test(value[i + 1] ?? '')) {
      out += char + value[i + 1];
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) out += unitEscape(unit);
    else if (quote === '`' && char === '$' && value[i + 1] === '{') out += '\\$';
    else out += char;
  }
  return `${quote}${out}${quote}`;
}

/** Text for a `//` comment: a line terminator in it would end the comment and make the rest code. */
export function lineCommentText(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]/g, (char) => unitEscape(char.charCodeAt(0)));
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/** A string literal's value when the node is one (or a template without substitutions). */
export function stringValue(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  return undefined;
}

/** The default export's expression, following one `const x = …; export default x`. */
export function defaultExportExpression(file: SourceFile): Node | undefined {
  const assignment = file.getExportAssignment((e) => !e.isExportEquals());
  let expression: Node | undefined = assignment?.getExpression();
  if (expression && Node.isIdentifier(expression)) {
    const name = expression.getText();
    const declaration = file.getVariableDeclaration(name);
    expression = declaration?.getInitializer();
  }
  while (
    expression &&
    (Node.isAsExpression(expression) ||
      Node.isSatisfiesExpression(expression) ||
      Node.isParenthesizedExpression(expression))
  )
    expression = expression.getExpression();
  return expression;
}

/** `helper({ ... })` → the helper's name and the object literal; `{ ... }` → the literal alone. */
export function definitionObject(
  expression: Node | undefined,
): { helper?: string; object: ObjectLiteralExpression } | undefined {
  if (!expression) return undefined;
  if (Node.isObjectLiteralExpression(expression)) return { object: expression };
  if (!Node.isCallExpression(expression)) return undefined;
  const callee = expression.getExpression();
  const arg = expression.getArguments()[0];
  if (!arg || !Node.isObjectLiteralExpression(arg)) return undefined;
  const helper = Node.isIdentifier(callee)
    ? callee.getText()
    : Node.isPropertyAccessExpression(callee)
      ? callee.getName()
      : undefined;
  return helper ? { helper, object: arg } : undefined;
}

export const TOOL_HELPERS = ['defineAgentTool', 'defineTool'] as const;
export const SECTION_HELPERS = ['defineAgentPromptSection'] as const;

/**
 * The key an object literal (and an assignment) makes the prototype instead of a property: a
 * value carried under it would vanish from the output while its source is deleted, so migrate
 * never carries one (YAML and JSON parsers keep it as data).
 */
export const PROTO_KEY = '__proto__';

/** Whether a parsed value holds a `__proto__` key at any depth. */
export function holdsProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsProtoKey);
  return Object.keys(value).some((key) => key === PROTO_KEY || holdsProtoKey((value as Record<string, unknown>)[key]));
}

export type LiteralResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly node: Node };

/** A JSON-like literal (strings, numbers, booleans, null, arrays and objects of them), or the first node that is not. */
export function literalValue(node: Node): LiteralResult {
  const text = stringValue(node);
  if (text !== undefined) return { ok: true, value: text };
  if (Node.isNumericLiteral(node)) return { ok: true, value: node.getLiteralValue() };
  if (Node.isPrefixUnaryExpression(node) && node.getOperatorToken() === SyntaxKind.MinusToken) {
    const inner = node.getOperand();
    if (Node.isNumericLiteral(inner)) return { ok: true, value: -inner.getLiteralValue() };
  }
  if (node.getKind() === SyntaxKind.TrueKeyword) return { ok: true, value: true };
  if (node.getKind() === SyntaxKind.FalseKeyword) return { ok: true, value: false };
  if (node.getKind() === SyntaxKind.NullKeyword) return { ok: true, value: null };
  if (Node.isAsExpression(node) || Node.isParenthesizedExpression(node) || Node.isSatisfiesExpression(node))
    return literalValue(node.getExpression());
  if (Node.isArrayLiteralExpression(node)) {
    const out: unknown[] = [];
    for (const element of node.getElements()) {
      const value = literalValue(element);
      if (!value.ok) return value;
      out.push(value.value);
    }
    return { ok: true, value: out };
  }
  if (Node.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const property of node.getProperties()) {
      if (!Node.isPropertyAssignment(property)) return { ok: false, node: property };
      const name = property.getNameNode();
      const key = Node.isIdentifier(name) ? name.getText() : stringValue(name);
      const initializer = property.getInitializer();
      if (key === undefined || key === PROTO_KEY || !initializer) return { ok: false, node: property };
      const value = literalValue(initializer);
      if (!value.ok) return value;
      out[key] = value.value;
    }
    return { ok: true, value: out };
  }
  return { ok: false, node };
}
