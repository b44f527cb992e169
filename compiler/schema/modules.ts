/**
 * Top-level bindings of one module as the extractor needs them: which local names are `const`
 * (copyable), which are imports (and from where), and what the module exports. Only what a
 * schema can depend on is modelled; anything else is recorded as unsupported with a reason so
 * the caller can send the tool to the fallback path.
 */
import path from 'node:path';
import type { ts as TS } from 'ts-morph';
import { ts } from '../util/typescript.js';
import { lineStarts, positionAt } from '../diagnostics.js';
import { parseSource } from '../parse/depth.js';
import { bindingNames } from './scope.js';

/** Local name under which `export default <expression>` is recorded. */
export const DEFAULT_LOCAL = '*default*';

export type TopDecl =
  | { readonly kind: 'const'; readonly node: TS.VariableDeclaration }
  | { readonly kind: 'function'; readonly node: TS.FunctionDeclaration }
  | { readonly kind: 'enum'; readonly node: TS.EnumDeclaration }
  | { readonly kind: 'default'; readonly node: TS.Expression }
  | { readonly kind: 'unsupported'; readonly what: string };

export interface ImportBinding {
  readonly specifier: string;
  /** Imported name; `'*'` for a namespace import, `'default'` for a default import. */
  readonly imported: string;
}

export type ExportTarget =
  | { readonly kind: 'local'; readonly local: string }
  | { readonly kind: 'from'; readonly specifier: string; readonly imported: string }
  | { readonly kind: 'unsupported'; readonly what: string };

export interface ModuleInfo {
  readonly path: string;
  readonly sf: TS.SourceFile;
  readonly decls: ReadonlyMap<string, TopDecl>;
  readonly imports: ReadonlyMap<string, ImportBinding>;
  readonly exports: ReadonlyMap<string, ExportTarget>;
  /** Specifiers of `export * from '...'`, in source order. */
  readonly stars: readonly string[];
}

/**
 * `export`, `default`, `declare` on a statement. Reads the node's own list: `ts.getModifiers`
 * allocates a filtered copy (decorators removed) on every call, and the keywords asked for here
 * are never decorators.
 */
function hasModifier(node: TS.Node, kind: TS.SyntaxKind): boolean {
  const modifiers = (node as { readonly modifiers?: TS.NodeArray<TS.ModifierLike> }).modifiers;
  if (modifiers === undefined) return false;
  for (const m of modifiers) if (m.kind === kind) return true;
  return false;
}

export function analyzeModule(sf: TS.SourceFile, filePath: string): ModuleInfo {
  const decls = new Map<string, TopDecl>();
  const imports = new Map<string, ImportBinding>();
  const exports = new Map<string, ExportTarget>();
  const stars: string[] = [];

  const declare = (name: string, decl: TopDecl, node: TS.Node): void => {
    decls.set(name, decl);
    if (hasModifier(node, ts.SyntaxKind.ExportKeyword)) {
      exports.set(hasModifier(node, ts.SyntaxKind.DefaultKeyword) ? 'default' : name, { kind: 'local', local: name });
    }
  };

  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (!clause || clause.isTypeOnly || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const specifier = st.moduleSpecifier.text;
      if (clause.name) imports.set(clause.name.text, { specifier, imported: 'default' });
      const named = clause.namedBindings;
      if (named && ts.isNamespaceImport(named)) imports.set(named.name.text, { specifier, imported: '*' });
      else if (named) {
        for (const el of named.elements) {
          if (!el.isTypeOnly) imports.set(el.name.text, { specifier, imported: (el.propertyName ?? el.name).text });
        }
      }
    } else if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      const isConst = (flags & ts.NodeFlags.Const) !== 0 && (flags & ts.NodeFlags.Using) === 0;
      const ambient = hasModifier(st, ts.SyntaxKind.DeclareKeyword);
      for (const decl of st.declarationList.declarations) {
        const what = ambient
          ? 'a `declare` binding'
          : !isConst
            ? 'a `let`/`var` binding (it may change)'
            : !decl.initializer
              ? 'a binding without initializer'
              : undefined;
        for (const name of bindingNames(decl.name)) {
          declare(name, what ? { kind: 'unsupported', what } : { kind: 'const', node: decl }, st);
        }
      }
    } else if (ts.isFunctionDeclaration(st)) {
      const name = st.name?.text ?? DEFAULT_LOCAL;
      if (!st.body) {
        // Overload signatures precede the implementation, which replaces this entry.
        if (!decls.has(name)) declare(name, { kind: 'unsupported', what: 'a function without body' }, st);
      } else if (!st.name) declare(name, { kind: 'unsupported', what: 'an anonymous default function' }, st);
      else declare(name, { kind: 'function', node: st }, st);
    } else if (ts.isClassDeclaration(st)) {
      declare(st.name?.text ?? DEFAULT_LOCAL, { kind: 'unsupported', what: 'a class' }, st);
    } else if (ts.isEnumDeclaration(st)) {
      const what = hasModifier(st, ts.SyntaxKind.DeclareKeyword)
        ? 'a `declare enum`'
        : decls.has(st.name.text)
          ? 'a merged enum'
          : undefined;
      declare(st.name.text, what ? { kind: 'unsupported', what } : { kind: 'enum', node: st }, st);
    } else if (
      ts.isModuleDeclaration(st) &&
      ts.isIdentifier(st.name) &&
      !hasModifier(st, ts.SyntaxKind.DeclareKeyword)
    ) {
      declare(st.name.text, { kind: 'unsupported', what: 'a namespace' }, st);
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      decls.set(DEFAULT_LOCAL, { kind: 'default', node: st.expression });
      exports.set('default', { kind: 'local', local: DEFAULT_LOCAL });
    } else if (ts.isExportDeclaration(st) && !st.isTypeOnly) {
      const specifier =
        st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      const clause = st.exportClause;
      if (!clause) {
        if (specifier) stars.push(specifier);
      } else if (ts.isNamespaceExport(clause)) {
        exports.set(clause.name.text, { kind: 'unsupported', what: '`export * as` namespace' });
      } else {
        for (const el of clause.elements) {
          if (el.isTypeOnly) continue;
          const imported = (el.propertyName ?? el.name).text;
          exports.set(
            el.name.text,
            specifier ? { kind: 'from', specifier, imported } : { kind: 'local', local: imported },
          );
        }
      }
    }
  }
  return { path: filePath, sf, decls, imports, exports, stars };
}

export function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
}

/** Candidate files for a relative specifier, in TypeScript (NodeNext/bundler) preference order. */
export function resolutionCandidates(fromFile: string, specifier: string): string[] {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length);
  switch (ext) {
    case '.js':
    case '.jsx':
      return [`${stem}.ts`, `${stem}.tsx`, base];
    case '.mjs':
      return [`${stem}.mts`, base];
    case '.ts':
    case '.tsx':
    case '.mts':
      return [base];
    case '.cjs':
    case '.cts':
    case '.json':
      return [];
    default: {
      const exts = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
      return [...exts.map((e) => base + e), ...exts.map((e) => path.join(base, `index${e}`))];
    }
  }
}

/** A module nested deeper than the limits of parse/depth.ts: where, and which limit. */
export class ModuleTooDeep extends Error {
  constructor(
    readonly file: string,
    readonly at: { readonly line: number; readonly column: number },
    readonly why: string,
  ) {
    super(`${file} is nested too deeply to be read (${why})`);
  }
}

export function parseModule(filePath: string, text: string): ModuleInfo {
  const kind = /\.[mc]?jsx?$/.test(filePath)
    ? filePath.endsWith('x')
      ? ts.ScriptKind.JSX
      : ts.ScriptKind.JS
    : filePath.endsWith('.tsx')
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Bounded like the tool files themselves; the extractor reports it (a `refused` snippet).
  const parsed = parseSource(ts, filePath, body, kind);
  if (parsed.tooDeep)
    throw new ModuleTooDeep(filePath, positionAt(lineStarts(body), parsed.tooDeep.offset), parsed.tooDeep.why);
  return analyzeModule(parsed.sf, filePath);
}
