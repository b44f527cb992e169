/**
 * The define helpers of a migrated module, imported once, from `@zhin-gen/runtime`. A zhin.js
 * module took them from several places (`definePlugin` from `zhin.js`, `defineAgentTool` from
 * `@zhin.js/tool`, the earlier `defineTool` from `@zhin.js/agent/tools`); pointing each
 * declaration at the runtime on its own left two `import { defineAgentTool } from
 * '@zhin-gen/runtime'` lines once `defineTool` was renamed, a duplicate binding (TS2300) that
 * does not even load as a module. So the bindings are gathered: into the module's existing
 * runtime import when it has one, else into one declaration where the first moved import was,
 * each local name bound once. What the runtime has no counterpart for stays where it was and is
 * reported (ZG6001): a binding is never dropped or pointed at a module that lacks it.
 */
import { DEFAULT_MODULES } from '../config/schema.js';
import type { FieldContext } from './fields.js';
import {
  type ImportDeclaration,
  type ImportSpecifier,
  lineColumn,
  Node,
  type SourceFile,
  stringLiteral,
} from './source.js';

/** Where migrated modules import the define helpers from. */
export const RUNTIME_MODULE = '@zhin-gen/runtime';
/** The runtime's names: a local one of their imports binds is bound already (the same helper). */
const RUNTIME_MODULES = new Set([RUNTIME_MODULE, 'zhin-gen/runtime']);
export const EARLIER_TOOLS_MODULE = '@zhin.js/agent/tools';
/** zhin.js's own package: its plugin API other than the define helpers has no zhin-gen counterpart. */
const ZHIN_MODULE = 'zhin.js';
/**
 * The seed names the compiler recognises for the define helpers (config/schema.ts). A tree in
 * zhin-gen's layout may keep them (the build plugin aliases them while they are not installed),
 * so a module migrate leaves alone keeps its imports; but a module it moves or edits is one it
 * migrated, which then imports `@zhin-gen/runtime` as docs/authoring.md says: left importing
 * `@zhin.js/tool`, such a tree generated cleanly and failed plain `tsc` and `node` (TS2307).
 */
const SEED_MODULES = new Set(DEFAULT_MODULES.filter((m) => m.startsWith('@zhin.js/')));
/** The define helpers runtime/contract/define.ts exports, under the same names and contracts. */
const RUNTIME_HELPERS = new Set(['defineAgentTool', 'defineAgentPromptSection', 'defineAgentHook', 'definePlugin']);
/** Also the earlier alias `defineTool` of zhin.js's agent packages (imported as `defineAgentTool`). */
const EARLIER_HELPERS = new Set([...RUNTIME_HELPERS, 'defineTool']);

/**
 * The helper names a declaration's bindings move to the runtime with, or undefined when it stays:
 * the earlier tools module always, the seed names and `zhin.js` in a migrated module. `zhin.js`'s
 * own `defineTool` is not the agent packages' alias, and migrate does not know its contract.
 */
function movableNames(module: string, migrated: boolean): ReadonlySet<string> | undefined {
  if (module === EARLIER_TOOLS_MODULE) return EARLIER_HELPERS;
  if (!migrated) return undefined;
  if (SEED_MODULES.has(module)) return EARLIER_HELPERS;
  return module === ZHIN_MODULE ? RUNTIME_HELPERS : undefined;
}

/** Whether an import of `module` binds helpers migrate may move (for the plan's reasons, early). */
export function movesHelpers(declaration: ImportDeclaration, migrated: boolean): boolean {
  const names = movableNames(declaration.getModuleSpecifierValue(), migrated);
  return (
    names !== undefined &&
    !declaration.isTypeOnly() &&
    declaration.getNamedImports().some((n) => names.has(n.getName()))
  );
}

/**
 * Whether `name` is bound in the module by anything but an import of a define helper: renaming
 * the earlier `defineTool` to it would then bind it twice, so that import keeps its local name.
 */
export function boundOtherwise(file: SourceFile, name: string): boolean {
  for (const id of file.getDescendants()) {
    if (!Node.isIdentifier(id) || id.getText() !== name) continue;
    const parent = id.getParent();
    if (Node.isImportSpecifier(parent)) {
      if ((parent.getAliasNode() ?? parent.getNameNode()) !== id) continue;
      const module = parent.getImportDeclaration().getModuleSpecifierValue();
      if (movableNames(module, true) === undefined && !RUNTIME_MODULES.has(module)) return true;
    } else if (Node.isImportClause(parent) || Node.isNamespaceImport(parent)) return true;
    else if (
      (Node.isVariableDeclaration(parent) ||
        Node.isFunctionDeclaration(parent) ||
        Node.isClassDeclaration(parent) ||
        Node.isParameterDeclaration(parent) ||
        Node.isBindingElement(parent)) &&
      parent.getNameNode() === id
    )
      return true;
  }
  return false;
}

interface Binding {
  readonly local: string;
  /** As written in the runtime import: `defineAgentTool`, `defineAgentTool as dt`. */
  readonly text: string;
}

function bindingOf(context: FieldContext, named: ImportSpecifier): Binding {
  const renamed = context.renamed.get(named);
  const local = renamed ?? named.getAliasNode()?.getText() ?? named.getName();
  const imported = renamed !== undefined ? 'defineAgentTool' : named.getName();
  return { local, text: imported === local ? local : `${imported} as ${local}` };
}

/** The earlier `defineTool` imported by zhin-gen's name, in place (its declaration otherwise stays). */
function renameInPlace(context: FieldContext, named: ImportSpecifier): void {
  const name = named.getNameNode();
  const text = named.getAliasNode() ? 'defineAgentTool' : bindingOf(context, named).text;
  context.edits.push({ start: name.getStart(), end: name.getEnd(), text });
}

/** Drops the edits inside a range a declaration's rewrite replaces (its removed bindings are left out of it). */
function replaceRange(context: FieldContext, start: number, end: number, text: string): void {
  for (let i = context.edits.length - 1; i >= 0; i--) {
    const edit = context.edits[i]!;
    if (edit.start >= start && edit.end <= end) context.edits.splice(i, 1);
  }
  context.edits.push({ start, end, text });
}

/** The declaration and its line break, for a declaration every binding of which moved. */
function deleteDeclaration(context: FieldContext, declaration: ImportDeclaration): void {
  let end = declaration.getEnd();
  if (context.text.startsWith('\r\n', end)) end += 2;
  else if (context.text[end] === '\n') end++;
  replaceRange(context, declaration.getStart(true), end, '');
}

/** `import <default>, { <others> } from '<module>'`: what stays of a declaration some bindings left. */
function remainder(declaration: ImportDeclaration, others: readonly ImportSpecifier[]): string {
  const parts: string[] = [];
  const defaultImport = declaration.getDefaultImport();
  if (defaultImport) parts.push(defaultImport.getText());
  const namespace = declaration.getNamespaceImport();
  if (namespace) parts.push(`* as ${namespace.getText()}`);
  if (others.length > 0) parts.push(`{ ${others.map((n) => n.getText()).join(', ')} }`);
  return `import ${parts.join(', ')} from ${declaration.getModuleSpecifier().getText()}`;
}

interface Moving {
  readonly declaration: ImportDeclaration;
  readonly module: string;
  readonly moved: readonly ImportSpecifier[];
  readonly others: readonly ImportSpecifier[];
  /** Every binding leaves: the declaration goes (or becomes the runtime import). */
  readonly whole: boolean;
}

/** Gathers the define helpers' bindings into one runtime import; `migrated`: the module is moved or edited. */
export function importFromRuntime(context: FieldContext, migrated: boolean): void {
  const declarations = context.file.getImportDeclarations();
  const moving: Moving[] = [];
  for (const declaration of declarations) {
    const module = declaration.getModuleSpecifierValue();
    const names = movableNames(module, migrated);
    if (!names) continue;
    const removed = context.removed.get(declaration);
    const kept = declaration.getNamedImports().filter((n) => !removed?.has(n.getName()));
    const unnamed = declaration.getDefaultImport() !== undefined || declaration.getNamespaceImport() !== undefined;
    // A declaration whose every binding an edit removes goes whole (platformPermit's, converted).
    if (kept.length === 0 && !unnamed) continue;
    const typeOnly = declaration.isTypeOnly();
    const moved = kept.filter((n) => !typeOnly && !n.isTypeOnly() && names.has(n.getName()));
    const others = kept.filter((n) => !moved.includes(n));
    moving.push({ declaration, module, moved, others, whole: others.length === 0 && !unnamed });
    if (others.length > 0 || unnamed) {
      const what = others.map((n) => n.getName()).join(', ') || 'a default or namespace binding';
      context.draft.note(
        'ZG6001',
        { file: context.path, ...lineColumn(context.text, declaration.getStart()) },
        `imports ${what} from ${module}: zhin-gen has no counterpart migrate knows; ${moved.length > 0 ? `the define helpers now come from ${RUNTIME_MODULE}, the rest of the import is left as it was` : 'the import is left as it was'}`,
      );
    }
  }
  const leaving = moving.filter((m) => m.moved.length > 0);
  // The runtime import the helpers join, and the names the runtime's imports bind already.
  const bound = new Set<string>();
  let target: ImportDeclaration | undefined;
  for (const declaration of declarations) {
    if (!RUNTIME_MODULES.has(declaration.getModuleSpecifierValue()) || declaration.isTypeOnly()) continue;
    for (const n of declaration.getNamedImports())
      if (!n.isTypeOnly()) bound.add(n.getAliasNode()?.getText() ?? n.getName());
    const joinable = declaration.getNamedImports().length > 0 || declaration.getDefaultImport() !== undefined;
    if (declaration.getModuleSpecifierValue() === RUNTIME_MODULE && joinable && !declaration.getNamespaceImport())
      target ??= declaration;
  }
  const bindings: Binding[] = [];
  for (const { moved } of leaving) {
    for (const named of moved) {
      const binding = bindingOf(context, named);
      if (bound.has(binding.local)) continue;
      bound.add(binding.local);
      bindings.push(binding);
    }
  }
  const rewritten = new Set<ImportDeclaration>(leaving.map((m) => m.declaration));
  // The declaration that becomes the runtime import, when the module has none to join (and there
  // is a binding left to import: one a `zhin-gen/runtime` import binds already is not repeated).
  const host = target || bindings.length === 0 ? undefined : leaving.find((m) => m.whole);
  for (const m of leaving) {
    context.done.add(`${m.module} → ${RUNTIME_MODULE}`);
    if (m === host) continue;
    if (m.whole) deleteDeclaration(context, m.declaration);
    else {
      // The runtime import goes where the first import of a helper was, when none can take it.
      const first = !target && !host && m === leaving[0] && bindings.length > 0;
      const start = m.declaration.getStart();
      // Written like the declaration it precedes: with a semicolon only when that has one.
      const semicolon = m.declaration.getText().endsWith(';') ? ';' : '';
      const runtime = first ? `${runtimeImport(bindings, m.declaration)}${semicolon}\n` : '';
      replaceRange(
        context,
        start,
        m.declaration.getModuleSpecifier().getEnd(),
        runtime + remainder(m.declaration, m.others),
      );
    }
  }
  if (target && bindings.length > 0) {
    const named = target.getNamedImports();
    const list = bindings.map((b) => b.text).join(', ');
    const last = named[named.length - 1];
    if (last) context.edits.push({ start: last.getEnd(), end: last.getEnd(), text: `, ${list}` });
    else {
      const end = target.getDefaultImport()!.getEnd();
      context.edits.push({ start: end, end, text: `, { ${list} }` });
    }
  }
  if (host) {
    const literal = host.declaration.getModuleSpecifier();
    const own = host.moved.map((n) => bindingOf(context, n).text);
    if (own.length === bindings.length && own.every((text, i) => text === bindings[i]!.text)) {
      // Only its own bindings: the module name changes (and `defineTool`'s), the rest stays as written.
      for (const named of host.moved) if (context.renamed.has(named)) renameInPlace(context, named);
      context.edits.push({
        start: literal.getStart(),
        end: literal.getEnd(),
        text: stringLiteral(RUNTIME_MODULE, quoteOf(literal.getText())),
      });
    } else
      replaceRange(context, host.declaration.getStart(), literal.getEnd(), runtimeImport(bindings, host.declaration));
  }
  for (const named of context.renamed.keys())
    if (!rewritten.has(named.getImportDeclaration())) renameInPlace(context, named);
}

function quoteOf(literal: string): "'" | '"' {
  return literal.startsWith('"') ? '"' : "'";
}

function runtimeImport(bindings: readonly Binding[], like: ImportDeclaration): string {
  const quote = quoteOf(like.getModuleSpecifier().getText());
  return `import { ${bindings.map((b) => b.text).join(', ')} } from ${stringLiteral(RUNTIME_MODULE, quote)}`;
}
