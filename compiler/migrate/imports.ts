/**
 * Relative imports across the moves: every relative module specifier of a moved module, and of
 * every module that imports a moved one, is resolved in the tree as it was and rewritten to the
 * target's new place, in the style it was written (`../../src/db.js` for a `.ts` file, no
 * extension, or a directory's index). Imports into the plugin's `src/` keep working after a tool
 * file becomes `tools/<x>/index.ts`. Specifiers that do not resolve in the tree are left alone.
 */
import type { Draft } from './draft.js';
import { applyEdits, isCodeFile, Node, parse, stringLiteral, SyntaxKind, type TextEdit } from './source.js';
import type { SourceTree } from './types.js';

type Style = 'exact' | 'js-for-ts' | 'no-extension' | 'directory';

export interface Resolved {
  readonly path: string;
  readonly style: Style;
}

const JS_FOR_TS: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
  '.jsx': ['.tsx'],
};
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];

/** The directory part of a POSIX path relative to the root ('' at the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** A relative POSIX path with `.`/`..` resolved; undefined when it climbs above the root. */
export function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/** The tree file a relative specifier of `importer` names, and how it was written. */
export function resolveSpecifier(tree: SourceTree, importer: string, specifier: string): Resolved | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = normalize(`${dirOf(importer)}/${specifier}`);
  if (base === undefined) return undefined;
  if (tree.has(base)) return { path: base, style: 'exact' };
  const dot = base.lastIndexOf('.');
  const ext = dot > base.lastIndexOf('/') ? base.slice(dot) : '';
  for (const ts of JS_FOR_TS[ext] ?? []) {
    const candidate = base.slice(0, dot) + ts;
    if (tree.has(candidate)) return { path: candidate, style: 'js-for-ts' };
  }
  for (const e of EXTENSIONS) if (tree.has(base + e)) return { path: base + e, style: 'no-extension' };
  for (const e of EXTENSIONS)
    if (tree.has(`${base}/index${e}`)) return { path: `${base}/index${e}`, style: 'directory' };
  return undefined;
}

function relativePath(fromDir: string, to: string): string {
  const a = fromDir === '' ? [] : fromDir.split('/');
  const b = to.split('/');
  let common = 0;
  while (common < a.length && common < b.length - 1 && a[common] === b[common]) common++;
  const up = a.length - common;
  const rest = b.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

function stripExtension(path: string): string {
  return path.replace(/\.(?:[cm]?ts|tsx|[cm]?js|jsx|json)$/, '');
}

/** The specifier for `target` from `importer`, in the written style. */
export function specifierFor(importer: string, target: string, style: Style): string {
  const rel = relativePath(dirOf(importer), target);
  switch (style) {
    case 'exact':
      return rel;
    case 'js-for-ts':
      return rel
        .replace(/\.ts$/, '.js')
        .replace(/\.tsx$/, '.jsx')
        .replace(/\.mts$/, '.mjs')
        .replace(/\.cts$/, '.cjs');
    case 'no-extension':
      return stripExtension(rel);
    case 'directory': {
      if (/\/index\.[^/]+$/.test(target)) {
        const dir = relativePath(dirOf(importer), dirOf(target));
        return dir === './' ? '.' : dir;
      }
      return stripExtension(rel);
    }
  }
}

/** Every string literal of the module that names a module: imports, exports, `import()`, `require()`. */
function specifierNodes(path: string, text: string): Node[] {
  const file = parse(path, text);
  const out: Node[] = [];
  for (const node of file.getDescendants()) {
    if (Node.isImportDeclaration(node) || Node.isExportDeclaration(node)) {
      const spec = node.getModuleSpecifier();
      if (spec) out.push(spec);
    } else if (Node.isCallExpression(node)) {
      const callee = node.getExpression();
      const isImport = callee.getKind() === SyntaxKind.ImportKeyword;
      const isRequire = Node.isIdentifier(callee) && callee.getText() === 'require';
      const arg = node.getArguments()[0];
      if ((isImport || isRequire) && arg && (Node.isStringLiteral(arg) || Node.isNoSubstitutionTemplateLiteral(arg)))
        out.push(arg);
    } else if (Node.isExternalModuleReference(node)) {
      const expression = node.getExpression();
      if (expression) out.push(expression);
    } else if (Node.isImportTypeNode(node)) {
      const argument = node.getArgument();
      if (Node.isLiteralTypeNode(argument)) out.push(argument.getLiteral());
    }
  }
  return out;
}

/** Rewrites the relative specifiers of every module that moved or imports a moved file. */
export function rewriteImports(draft: Draft): void {
  if (draft.moved.size === 0) return;
  const movedNames = new Set([...draft.moved.keys()].map((p) => stripExtension(p.slice(p.lastIndexOf('/') + 1))));
  for (const [path, entry] of draft.final) {
    if (entry.origin === undefined || !isCodeFile(path)) continue;
    const origin = entry.origin;
    const text = draft.text(path);
    const moved = origin !== path;
    // Cheap filter: a module that did not move can only need a change if it names a moved file.
    if (!moved && ![...movedNames].some((n) => text.includes(n))) continue;
    if (!/['"`]\.\.?\//.test(text)) continue;
    const edits: TextEdit[] = [];
    for (const node of specifierNodes(path, text)) {
      const written = (node as unknown as { getLiteralValue(): string }).getLiteralValue();
      const resolved = resolveSpecifier(draft.tree, origin, written);
      if (!resolved) continue;
      const now = draft.whereIs(resolved.path);
      if (now === undefined) continue;
      if (!moved && now === resolved.path) continue;
      const next = specifierFor(path, now, resolved.style);
      if (next === written) continue;
      // In the quotes it was written with; the new path holds file names, which may hold anything.
      const quote = node.getText()[0] === '"' ? '"' : node.getText()[0] === '`' ? '`' : "'";
      edits.push({ start: node.getStart(), end: node.getEnd(), text: stringLiteral(next, quote) });
    }
    if (edits.length > 0) draft.edit(path, applyEdits(text, edits), 'relative imports follow the moved files');
  }
}
