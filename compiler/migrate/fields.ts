/**
 * Field-level edits of tool modules, wherever they are in the tree: the earlier `approval` field
 * becomes `requiresApproval` (values mapped, never guessed), `adapter: 'x'` becomes
 * `platforms: ['x']` (what zhin.js's define helpers made of it), `platformPermit(…)` helper calls
 * become the permit literal they return, imports of the define helpers from the earlier
 * `@zhin.js/agent/tools` come from `@zhin-gen/runtime`, and the earlier `defineTool` is called by
 * zhin-gen's name, `defineAgentTool`.
 */
import { DEFAULT_MODULES } from '../config/schema.js';
import type { Draft } from './draft.js';
import { approvalMode, APPROVAL_VALUES } from './approval.js';
import { evaluatePermit } from './permits.js';
import {
  applyEdits,
  type ImportDeclaration,
  lineColumn,
  Node,
  type ObjectLiteralExpression,
  parse,
  type SourceFile,
  stringLiteral,
  SyntaxKind,
  type TextEdit,
} from './source.js';

/** Where migrated modules import the define helpers from. */
export const RUNTIME_MODULE = '@zhin-gen/runtime';
const EARLIER_TOOLS_MODULE = '@zhin.js/agent/tools';
/**
 * The seed names the compiler recognises for the define helpers (config/schema.ts). A tree in
 * zhin-gen's layout may keep them (the build plugin aliases them while they are not installed),
 * so a module migrate leaves alone keeps its imports; but a module it moves or edits is one it
 * migrated, which then imports `@zhin-gen/runtime` as docs/authoring.md says: left importing
 * `@zhin.js/tool`, such a tree generated cleanly and failed plain `tsc` and `node` (TS2307).
 */
const SEED_MODULES = new Set(DEFAULT_MODULES.filter((m) => m.startsWith('@zhin.js/')));
const DEFINE_HELPERS = new Set([
  'defineAgentTool',
  'defineTool',
  'defineAgentPromptSection',
  'defineAgentHook',
  'definePlugin',
]);
const TRIGGER = /approval|\badapter\b|platformPermit|@zhin\.js\/|\bdefineTool\b/;

export interface FieldContext {
  readonly draft: Draft;
  readonly path: string;
  readonly text: string;
  readonly file: SourceFile;
  readonly edits: TextEdit[];
  /** What was converted (for the plan's reason). */
  readonly done: Set<string>;
  /** Imports from a seed name: moved to the runtime when the module is migrated at all. */
  readonly seeds: ImportDeclaration[];
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

/**
 * Imports of the define helpers, from `@zhin-gen/runtime`: the earlier tools module's always,
 * the seed names' in a migrated module (see SEED_MODULES). An import of anything else is left.
 */
function importFromRuntime(context: FieldContext, declarations: readonly ImportDeclaration[]): void {
  for (const declaration of declarations) {
    const module = declaration.getModuleSpecifierValue();
    const removed = context.removed.get(declaration);
    const kept = declaration.getNamedImports().filter((n) => !removed?.has(n.getName()));
    // A declaration whose every binding an edit removes goes whole (platformPermit's, converted).
    if (kept.length === 0 && !declaration.getDefaultImport() && !declaration.getNamespaceImport()) continue;
    const others = kept.filter((n) => !DEFINE_HELPERS.has(n.getName()));
    const literal = declaration.getModuleSpecifier();
    if (others.length === 0 && !declaration.getDefaultImport() && !declaration.getNamespaceImport()) {
      context.edits.push({ start: literal.getStart(), end: literal.getEnd(), text: quoted(RUNTIME_MODULE, literal) });
      context.done.add(`${module} → ${RUNTIME_MODULE}`);
    } else {
      context.draft.note(
        'ZG6001',
        at(context, declaration),
        `imports ${others.map((n) => n.getName()).join(', ') || 'a default or namespace binding'} from ${module}: zhin-gen has no counterpart migrate knows; the import is left as it was`,
      );
    }
  }
}

function migrateImports(context: FieldContext): Set<string> {
  const toolLocals = new Set(['defineAgentTool', 'defineTool']);
  for (const declaration of context.file.getImportDeclarations()) {
    const module = declaration.getModuleSpecifierValue();
    if (!module.startsWith('@zhin.js/')) continue;
    for (const named of declaration.getNamedImports()) {
      const local = named.getAliasNode()?.getText() ?? named.getName();
      if (named.getName() === 'defineAgentTool' || named.getName() === 'defineTool') toolLocals.add(local);
      if (named.getName() !== 'defineTool') continue;
      context.done.add('`defineTool` → `defineAgentTool`');
      // The earlier alias: imported by zhin-gen's name; unaliased uses are renamed with it.
      context.edits.push({
        start: named.getNameNode().getStart(),
        end: named.getNameNode().getEnd(),
        text: 'defineAgentTool',
      });
      if (!named.getAliasNode()) {
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
    if (module === EARLIER_TOOLS_MODULE) importFromRuntime(context, [declaration]);
    else if (SEED_MODULES.has(module)) context.seeds.push(declaration);
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
    seeds: [],
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
  if (context.edits.length > 0 || !draft.isUntouched(path)) importFromRuntime(context, context.seeds);
  for (const note of draft.notes.slice(notesBefore)) {
    const source = draft.sourceOf(path, text, note.line);
    if (source !== undefined) draft.noteSources.set(note, source);
  }
  if (context.edits.length === 0) return;
  const reasons = [...context.done];
  draft.edit(path, applyEdits(text, context.edits), reasons.join(', '));
}
