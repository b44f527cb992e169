/**
 * Field-level edits of tool modules, wherever they are in the tree: the earlier `approval` field
 * becomes `requiresApproval` (values mapped, never guessed), `adapter: 'x'` becomes
 * `platforms: ['x']` (what zhin.js's define helpers made of it), `platformPermit(…)` helper calls
 * become the permit literal they return, the earlier `defineTool` is called by zhin-gen's name,
 * `defineAgentTool`, and the define helpers are imported from `@zhin-gen/runtime`
 * (runtime-import.ts).
 */
import type { Draft } from './draft.js';
import { approvalMode, APPROVAL_VALUES } from './approval.js';
import { evaluatePermit } from './permits.js';
import {
  applyEdits,
  type ImportDeclaration,
  type ImportSpecifier,
  lineColumn,
  Node,
  type ObjectLiteralExpression,
  parse,
  type SourceFile,
  stringLiteral,
  SyntaxKind,
  type TextEdit,
} from './source.js';
import {
  boundOtherwise,
  EARLIER_TOOLS_MODULE,
  importFromRuntime,
  movesHelpers,
  RUNTIME_MODULE,
} from './runtime-import.js';

const TRIGGER = /approval|\badapter\b|platformPermit|@zhin\.js\/|\bdefineTool\b|['"]zhin\.js['"]/;

export interface FieldContext {
  readonly draft: Draft;
  readonly path: string;
  readonly text: string;
  readonly file: SourceFile;
  readonly edits: TextEdit[];
  /** What was converted (for the plan's reason). */
  readonly done: Set<string>;
  /** Imports of the earlier `defineTool`, by the local name each keeps (`defineAgentTool` unless aliased). */
  readonly renamed: Map<ImportSpecifier, string>;
  /** Named imports an edit removes (a converted helper's), by declaration. */
  readonly removed: Map<ImportDeclaration, Set<string>>;
}

export function at(context: FieldContext, node: Node): { file: string; line: number; column: number } {
  return { file: context.path, ...lineColumn(context.text, node.getStart()) };
}

/** Quote a string the way the node it replaces was quoted (a permit may hold anything its source did). */
export function quoted(value: string, like?: Node): string {
  return stringLiteral(value, like?.getText().startsWith('"') ? '"' : "'");
}

/** Removes one named import (the whole declaration when it is the only binding). */
export function removeNamedImport(context: FieldContext, declaration: ImportDeclaration, name: string): void {
  const named = declaration.getNamedImports();
  const index = named.findIndex((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name);
  if (index === -1) return;
  const removed = context.removed.get(declaration) ?? new Set<string>();
  context.removed.set(declaration, removed.add(named[index]!.getName()));
  if (named.length === 1 && !declaration.getDefaultImport() && !declaration.getNamespaceImport()) {
    let end = declaration.getEnd();
    if (context.text[end] === '\n') end++;
    context.edits.push({ start: declaration.getStart(true), end, text: '' });
  } else if (index < named.length - 1) {
    context.edits.push({ start: named[index]!.getStart(), end: named[index + 1]!.getStart(), text: '' });
  } else {
    context.edits.push({ start: named[index - 1]!.getEnd(), end: named[index]!.getEnd(), text: '' });
  }
}

function migrateImports(context: FieldContext): Set<string> {
  const toolLocals = new Set(['defineAgentTool', 'defineTool']);
  // Renamed where `defineAgentTool` names something else too, `defineTool` would be bound twice.
  const keepLocal = boundOtherwise(context.file, 'defineAgentTool');
  for (const declaration of context.file.getImportDeclarations()) {
    const module = declaration.getModuleSpecifierValue();
    if (!module.startsWith('@zhin.js/')) continue;
    if (declaration.isTypeOnly()) continue;
    for (const named of declaration.getNamedImports()) {
      const local = named.getAliasNode()?.getText() ?? named.getName();
      if (named.getName() === 'defineAgentTool' || named.getName() === 'defineTool') toolLocals.add(local);
      if (named.getName() !== 'defineTool' || named.isTypeOnly()) continue;
      context.done.add('`defineTool` → `defineAgentTool`');
      // The earlier alias: imported by zhin-gen's name; unaliased uses are renamed with it.
      const alias = named.getAliasNode()?.getText() ?? (keepLocal ? 'defineTool' : undefined);
      context.renamed.set(named, alias ?? 'defineAgentTool');
      if (alias === undefined) {
        toolLocals.add('defineAgentTool');
        for (const id of context.file.getDescendantsOfKind(SyntaxKind.Identifier)) {
          if (id.getText() !== 'defineTool' || id === named.getNameNode()) continue;
          const parent = id.getParent();
          if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) continue;
          if (Node.isPropertyAssignment(parent) && parent.getNameNode() === id) continue;
          context.edits.push({ start: id.getStart(), end: id.getEnd(), text: 'defineAgentTool' });
        }
      }
    }
    // In the plan's reason where the import is (runtime-import.ts moves it once the edits are known).
    if (module === EARLIER_TOOLS_MODULE && movesHelpers(declaration, true))
      context.done.add(`${module} → ${RUNTIME_MODULE}`);
  }
  return toolLocals;
}

function migrateApproval(context: FieldContext, object: ObjectLiteralExpression): void {
  const approval = object.getProperty('approval');
  if (!approval) return;
  if (!Node.isPropertyAssignment(approval)) {
    context.draft.note(
      'ZG6001',
      at(context, approval),
      '`approval` is not written `approval: <value>`: rename it to `requiresApproval` by hand',
    );
    return;
  }
  if (object.getProperty('requiresApproval')) {
    context.draft.note(
      'ZG6001',
      at(context, approval),
      'both `approval` and `requiresApproval` are given: keep one by hand',
    );
    return;
  }
  let value = approval.getInitializer();
  if (value && Node.isIdentifier(value)) value = context.file.getVariableDeclaration(value.getText())?.getInitializer();
  const literal =
    value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))
      ? value.getLiteralValue()
      : value?.getKind() === SyntaxKind.TrueKeyword
        ? true
        : value?.getKind() === SyntaxKind.FalseKeyword
          ? false
          : undefined;
  const mode = approvalMode(literal);
  if (!mode) {
    context.draft.note(
      'ZG6001',
      at(context, approval),
      `\`approval: ${approval.getInitializer()?.getText()}\` has no zhin-gen counterpart migrate can prove (${APPROVAL_VALUES}); rename it to \`requiresApproval\` by hand, a policy is never guessed`,
    );
    return;
  }
  const name = approval.getNameNode();
  const initializer = approval.getInitializerOrThrow();
  context.edits.push({ start: name.getStart(), end: name.getEnd(), text: 'requiresApproval' });
  context.done.add('`approval` → `requiresApproval`');
  context.edits.push({ start: initializer.getStart(), end: initializer.getEnd(), text: quoted(mode, initializer) });
}

/** `adapter: 'x'` → `platforms: ['x']`: only a string literal, and never beside `platforms`. */
function migrateAdapter(context: FieldContext, object: ObjectLiteralExpression): void {
  const adapter = object.getProperty('adapter');
  if (!adapter) return;
  const value = Node.isPropertyAssignment(adapter) ? adapter.getInitializer() : undefined;
  const literal =
    value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value))
      ? value.getLiteralValue()
      : undefined;
  if (object.getProperty('platforms') || literal === undefined || literal === '') {
    context.draft.note(
      'ZG6001',
      at(context, adapter),
      object.getProperty('platforms')
        ? 'both `adapter` and `platforms` are given: keep `platforms` (with the adapter in it) by hand'
        : "`adapter` is not a string literal: write `platforms: ['<adapter>']` by hand, the platform a tool is for is never guessed",
    );
    return;
  }
  context.edits.push({
    start: adapter.getStart(),
    end: adapter.getEnd(),
    text: `platforms: [${quoted(literal, value)}]`,
  });
  context.done.add('`adapter` → `platforms`');
}

function migratePermits(context: FieldContext): void {
  const calls = context.file
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .filter((c) => c.getExpression().getText() === 'platformPermit');
  if (calls.length === 0) return;
  let converted = 0;
  for (const call of calls) {
    const result = evaluatePermit(context, call);
    if (typeof result === 'string') {
      context.edits.push({ start: call.getStart(), end: call.getEnd(), text: quoted(result) });
      converted++;
      context.done.add('`platformPermit(…)` → permit literal');
    } else {
      context.draft.note(
        'ZG6001',
        at(context, call),
        `\`${call.getText()}\`: ${result.why}; write the permit literal by hand`,
      );
    }
  }
  if (converted < calls.length) return;
  // Every call became a literal: the helper's import has no use left.
  for (const declaration of context.file.getImportDeclarations()) {
    if (declaration.getNamedImports().some((n) => (n.getAliasNode()?.getText() ?? n.getName()) === 'platformPermit'))
      removeNamedImport(context, declaration, 'platformPermit');
  }
}

/** Applies the field edits to one module of the final tree. */
export function migrateFields(draft: Draft, path: string): void {
  const text = draft.text(path);
  if (!TRIGGER.test(text)) return;
  const notesBefore = draft.notes.length;
  const context: FieldContext = {
    draft,
    path,
    text,
    file: parse(path, text),
    edits: [],
    done: new Set(),
    renamed: new Map(),
    removed: new Map(),
  };
  const toolLocals = migrateImports(context);
  for (const call of context.file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isIdentifier(callee) || !toolLocals.has(callee.getText())) continue;
    const arg = call.getArguments()[0];
    if (arg && Node.isObjectLiteralExpression(arg)) {
      migrateApproval(context, arg);
      migrateAdapter(context, arg);
    }
  }
  migratePermits(context);
  importFromRuntime(context, context.edits.length > 0 || context.renamed.size > 0 || !draft.isUntouched(path));
  for (const note of draft.notes.slice(notesBefore)) {
    const source = draft.sourceOf(path, text, note.line);
    if (source !== undefined) draft.noteSources.set(note, source);
  }
  if (context.edits.length === 0) return;
  const reasons = [...context.done];
  draft.edit(path, applyEdits(text, context.edits), reasons.join(', '));
}
