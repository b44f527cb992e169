/**
 * Parse stage for code capabilities (tools, prompt sections, hooks, plugin entries): one
 * `ts.createSourceFile` per file, read the default-exported `define*(...)` call into literals
 * with positions, and drop the AST. The schema expression is handed to the schema stage's
 * extractor while the AST is still alive.
 */
import type { ts as TS } from 'ts-morph';
import { diag, lineStarts, positionAt, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { parseSource, type SourceParse, type TooDeep } from './depth.js';
import type { Writable } from '../util/writable.js';
import { findAddToolCalls } from './add-calls.js';
import { collectLocals, locOf, propertyName, readLiteral, unwrap, type Lit, type LiteralContext } from './literal.js';

export type DefineHelper = 'defineAgentTool' | 'defineAgentPromptSection' | 'defineAgentHook' | 'definePlugin';

/** `context.addTool(name, …)` / `context.addPromptSection(name, …)` with a literal name. */
export interface ConditionalToolRef {
  readonly kind: 'tool' | 'prompt-section';
  readonly localName: string;
  readonly loc: SourceLocation;
  readonly fields?: Lit;
}

export interface ParsedCode {
  readonly helper?: DefineHelper;
  /** The definition object literal (or `unknown` when it is not a literal). */
  readonly fields?: Lit;
  readonly callLoc: SourceLocation;
  /** Opaque result of the schema extractor for `inputSchema`, when present. */
  readonly schema?: unknown;
  readonly schemaLoc?: SourceLocation;
  readonly relativeImports: readonly { readonly specifier: string; readonly loc: SourceLocation }[];
  readonly conditionalTools: readonly ConditionalToolRef[];
  readonly diagnostics: readonly Diagnostic[];
  /** The file imports the expected helper from a recognised module (the call may be out of sight). */
  readonly importsHelper?: boolean;
}

export interface ParseCodeInput {
  readonly ts: typeof TS;
  /** POSIX path relative to the root. */
  readonly file: string;
  /** File text with any BOM removed. */
  readonly text: string;
  readonly expected: DefineHelper;
  /** Module names whose define* helpers are recognised. */
  readonly modules: readonly string[];
  readonly extractSchema?: (sf: TS.SourceFile, expression: TS.Expression) => unknown;
}

const DEFINE_HELPERS: readonly DefineHelper[] = [
  'defineAgentTool',
  'defineAgentPromptSection',
  'defineAgentHook',
  'definePlugin',
];

interface ImportBinding {
  readonly module: string;
  /** Imported name, or '*' for a namespace import. */
  readonly imported: string;
}

function scriptKind(ts: typeof TS, file: string): TS.ScriptKind {
  return file.endsWith('.js') || file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** Resolves a callee to the define helper it names and the module it comes from. */
function calleeHelper(
  ts: typeof TS,
  callee: TS.Expression,
  imports: ReadonlyMap<string, ImportBinding>,
): { helper: string; module?: string } | undefined {
  if (ts.isIdentifier(callee)) {
    const binding = imports.get(callee.text);
    if (binding && binding.imported !== '*') return { helper: binding.imported, module: binding.module };
    return { helper: callee.text };
  }
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
    const binding = imports.get(callee.expression.text);
    if (binding && binding.imported === '*') return { helper: callee.name.text, module: binding.module };
  }
  return undefined;
}

export function parseCode(input: ParseCodeInput): ParsedCode {
  const { ts, file, text } = input;
  // No parent pointers: nothing here walks upwards, and building them costs time and memory.
  // The depth check walks every node once; dynamic imports are collected on that walk.
  const dynamicImports: TS.CallExpression[] = [];
  const parsed = parseSource(ts, file, text, scriptKind(ts, file), (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) dynamicImports.push(node);
  });
  if (parsed.tooDeep) return tooDeep(ts, file, text, parsed, scriptKind(ts, file));
  const sf = parsed.sf;
  const diagnostics: Diagnostic[] = [];
  const parseDiagnostics =
    (sf as unknown as { parseDiagnostics?: readonly TS.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  for (const error of parseDiagnostics.slice(0, 3)) {
    const { line, character } = sf.getLineAndCharacterOfPosition(error.start);
    diagnostics.push(
      diag('ZG2001', {
        file,
        line: line + 1,
        column: character + 1,
        message: `Syntax error: ${ts.flattenDiagnosticMessageText(error.messageText, ' ')}`,
      }),
    );
  }
  const locals = collectLocals(ts, sf);
  const ctx: LiteralContext = { ts, sf, file, locals };
  const imports = new Map<string, ImportBinding>();
  const relativeImports: { specifier: string; loc: SourceLocation }[] = [];
  let defaultExpr: TS.Expression | undefined;
  /** What a default export that is no expression is (a function declaration, a re-export), for its ZG2002. */
  let defaultWhat: string | undefined;
  let defaultLoc: SourceLocation = { file, line: 1, column: 1 };

  /** Names bound by `import type` (or `import { type X }`): types only, no value at run time. */
  const typeOnly = new Set<string>();
  const noteSpecifier = (node: TS.Node, specifier: TS.Expression | undefined): void => {
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) {
      relativeImports.push({ specifier: specifier.text, loc: locOf(ctx, node) });
    }
  };
  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement)) {
      noteSpecifier(statement, statement.moduleSpecifier);
      if (!ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const module = statement.moduleSpecifier.text;
      const clause = statement.importClause;
      if (!clause) continue;
      // `import type { defineAgentTool }` binds nothing at run time: the module would throw.
      if (clause.isTypeOnly) {
        for (const name of importedNames(ts, clause)) typeOnly.add(name);
        continue;
      }
      if (clause.name) imports.set(clause.name.text, { module, imported: 'default' });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) imports.set(bindings.name.text, { module, imported: '*' });
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          if (element.isTypeOnly) {
            typeOnly.add(element.name.text);
            continue;
          }
          imports.set(element.name.text, { module, imported: (element.propertyName ?? element.name).text });
        }
      }
    } else if (ts.isExportDeclaration(statement)) {
      noteSpecifier(statement, statement.moduleSpecifier);
      if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) {
          if (element.name.text !== 'default') continue;
          defaultLoc = locOf(ctx, element);
          const from = statement.moduleSpecifier;
          if (from) {
            defaultWhat = `re-exported from ${from.getText(sf)}, and zhin-gen reads the definition in this file`;
            continue;
          }
          const local = (element.propertyName ?? element.name).text;
          const target = locals.get(local);
          const imported = imports.get(local);
          if (target && !ts.isFunctionDeclaration(target)) defaultExpr = target as TS.Expression;
          else if (target) defaultWhat = 'a function declaration, not a call';
          else if (imported)
            defaultWhat = `imported from "${imported.module}", and zhin-gen reads the definition in this file`;
        }
      }
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
      statement.modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
    ) {
      defaultWhat = `a ${ts.isFunctionDeclaration(statement) ? 'function' : 'class'} declaration, not a call`;
      defaultLoc = locOf(ctx, statement);
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      defaultExpr = statement.expression;
      defaultLoc = locOf(ctx, statement);
    }
  }
  // Dynamic imports with literal specifiers count as imports too.
  for (const call of dynamicImports) noteSpecifier(call, call.arguments[0]);

  const conditionalTools = input.expected === 'definePlugin' ? findAddToolCalls(ctx, diagnostics) : [];
  let helper: DefineHelper | undefined;
  let fields: Lit | undefined;
  let schema: unknown;
  let schemaLoc: SourceLocation | undefined;
  let callLoc = defaultLoc;

  // Follow `const tool = defineAgentTool(...); export default tool`.
  let expr = defaultExpr ? unwrap(ts, defaultExpr) : undefined;
  for (let hops = 0; expr && ts.isIdentifier(expr) && hops < 5; hops++) {
    const target = locals.get(expr.text);
    expr = target && !ts.isFunctionDeclaration(target) ? unwrap(ts, target as TS.Expression) : undefined;
  }
  const expectedName = input.expected;
  if (!expr || !ts.isCallExpression(expr)) {
    const named = defaultExpr || defaultWhat ? undefined : namedDefinitionExport(ctx, input.expected);
    if (named && parseDiagnostics.length === 0) {
      diagnostics.push(
        diag('ZG2002', {
          ...named.loc,
          message: `${expectedName}(...) is exported as \`${named.name}\`, but zhin-gen reads the default export; write \`export default ${named.name}\``,
        }),
      );
    } else if (parseDiagnostics.length === 0) {
      diagnostics.push(
        diag('ZG2002', {
          ...defaultLoc,
          message: defaultExpr
            ? `The default export is not a ${expectedName}(...) call`
            : defaultWhat
              ? `The default export is ${defaultWhat}; expected \`export default ${expectedName}({ ... })\``
              : `${file} has no default export; expected \`export default ${expectedName}({ ... })\``,
        }),
      );
    }
  } else {
    callLoc = locOf(ctx, expr);
    const resolved = calleeHelper(ts, expr.expression, imports);
    const earlier = resolved ? earlierHelper(resolved, expectedName) : undefined;
    const callee = ts.isIdentifier(expr.expression) ? expr.expression.text : undefined;
    if (callee !== undefined && typeOnly.has(callee)) {
      diagnostics.push(
        diag('ZG2003', {
          ...callLoc,
          message: `${callee} is imported with \`import type\`, which binds nothing when the module runs: import it as a value`,
        }),
      );
    } else if (earlier) {
      // Read the definition anyway: its other earlier-layout fields are reported in the same run.
      diagnostics.push(diag('ZG2058', { ...callLoc, message: earlier }));
      helper = expectedName;
    } else if (!resolved || resolved.helper !== expectedName) {
      const found =
        resolved && DEFINE_HELPERS.includes(resolved.helper as DefineHelper)
          ? `${resolved.helper}(...)`
          : `a call to ${expr.expression.getText(sf).slice(0, 60)}`;
      diagnostics.push(
        diag('ZG2002', { ...callLoc, message: `The default export is ${found}; expected ${expectedName}(...)` }),
      );
    } else if (resolved.module === undefined || !input.modules.includes(resolved.module)) {
      diagnostics.push(
        diag('ZG2003', {
          ...callLoc,
          message:
            resolved.module === undefined
              ? `${expectedName} is not imported from a recognised module (${input.modules.join(', ')})`
              : `${expectedName} is imported from "${resolved.module}", which is not a recognised module (${input.modules.join(', ')})`,
        }),
      );
    } else {
      helper = expectedName;
    }
    if (helper) {
      const arg = expr.arguments[0];
      if (!arg) {
        diagnostics.push(
          diag('ZG2002', { ...callLoc, message: `${expectedName}() is called without a definition object` }),
        );
      } else {
        fields = readLiteral(ctx, arg);
        const object = unwrap(ts, arg);
        if (ts.isObjectLiteralExpression(object) && input.extractSchema) {
          for (const prop of object.properties) {
            if (prop.name && propertyName(ts, prop.name) === 'inputSchema') {
              const valueExpr = ts.isPropertyAssignment(prop)
                ? prop.initializer
                : ts.isShorthandPropertyAssignment(prop)
                  ? prop.name
                  : undefined;
              if (valueExpr) {
                schemaLoc = locOf(ctx, valueExpr);
                schema = input.extractSchema(sf, valueExpr);
              }
            }
          }
        }
      }
    }
  }
  // Assigned in key order, not spread (util/writable.ts): one per parsed module.
  const code = {} as Writable<ParsedCode>;
  if (helper) code.helper = helper;
  if (fields) code.fields = fields;
  code.callLoc = callLoc;
  if (schema !== undefined) code.schema = schema;
  if (schemaLoc) code.schemaLoc = schemaLoc;
  code.relativeImports = relativeImports;
  code.conditionalTools = conditionalTools;
  code.diagnostics = diagnostics;
  // The expected helper imported from a recognised module (by name, or the module's namespace):
  // a default export built out of sight (`export default make('p')`) may still be its value.
  for (const binding of imports.values())
    if (input.modules.includes(binding.module) && (binding.imported === expectedName || binding.imported === '*'))
      code.importsHelper = true;
  return code;
}

/** zhin.js's earlier tool module and helper names (docs/authoring.md "Coming from the earlier zhin.js layout"). */
const EARLIER_TOOL_MODULE = '@zhin.js/agent/tools';
const EARLIER_HELPERS: Readonly<Record<string, DefineHelper>> = {
  defineTool: 'defineAgentTool',
  definePromptSection: 'defineAgentPromptSection',
};

/** Why a callee is the earlier layout's helper, or undefined when it is not. */
function earlierHelper(resolved: { helper: string; module?: string }, expected: DefineHelper): string | undefined {
  const fromEarlierModule = resolved.module === EARLIER_TOOL_MODULE;
  const earlierName = EARLIER_HELPERS[resolved.helper] === expected;
  if (!fromEarlierModule && !(earlierName && resolved.module?.startsWith('@zhin.js/'))) return undefined;
  const what = `${resolved.helper}(...)${resolved.module ? ` from "${resolved.module}"` : ''}`;
  return `${what} is the definition helper of zhin.js's earlier layout; zhin-gen reads ${expected}(...) from "@zhin.js/tool" (or "@zhin-gen/runtime"); run \`zhin-gen migrate\` to rewrite the import`;
}

/**
 * A file nested too deeply to walk: one diagnostic at the first too-deep position, nothing read.
 * Inside `inputSchema` it is the schema's problem (ZG2022, like a schema value past the
 * evaluation path's limit); elsewhere the code's (ZG2024).
 */
function tooDeep(
  ts: typeof TS,
  file: string,
  text: string,
  parsed: SourceParse & { tooDeep: TooDeep },
  kind: TS.ScriptKind,
): ParsedCode {
  const deep = parsed.tooDeep;
  const at = { file, ...positionAt(lineStarts(text), deep.offset) };
  // When the parser itself gave up, the text up to that point parses (it is within the limit):
  // enough to see what encloses it. Only statements and one object literal are looked at.
  const tree = parsed.sf ?? parseSource(ts, file, text.slice(0, deep.offset), kind).sf;
  const schema = tree ? inputSchemaValue(ts, tree) : undefined;
  // A cut-off tree ends where its last token does, before the whitespace leading to the cut.
  const inSchema =
    schema !== undefined &&
    deep.offset >= schema.getStart(tree) &&
    (deep.offset <= schema.end || /^\s*$/.test(text.slice(schema.end, deep.offset)));
  const diagnostic = inSchema
    ? diag('ZG2022', {
        ...at,
        message: `inputSchema is nested too deeply to be read (${deep.why})`,
        hint: 'Flatten the schema: give repeated parts a name, or use z.lazy() / $ref for recursive structures.',
      })
    : diag('ZG2024', { ...at, message: `${file} is nested too deeply to be read (${deep.why})` });
  return {
    callLoc: { file, line: 1, column: 1 },
    relativeImports: [],
    conditionalTools: [],
    diagnostics: [diagnostic],
  };
}

/** The `inputSchema` value of the default-exported `define*({...})` call, found without recursion. */
function inputSchemaValue(ts: typeof TS, sf: TS.SourceFile): TS.Expression | undefined {
  const locals = collectLocals(ts, sf);
  for (const statement of sf.statements) {
    if (!ts.isExportAssignment(statement)) continue;
    let expr: TS.Expression | undefined = unwrap(ts, statement.expression);
    for (let hops = 0; expr && ts.isIdentifier(expr) && hops < 5; hops++) {
      const target = locals.get(expr.text);
      expr = target && !ts.isFunctionDeclaration(target) ? unwrap(ts, target as TS.Expression) : undefined;
    }
    const arg = expr && ts.isCallExpression(expr) ? expr.arguments[0] : undefined;
    const object = arg ? unwrap(ts, arg) : undefined;
    if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
    for (const prop of object.properties) {
      if (ts.isPropertyAssignment(prop) && propertyName(ts, prop.name) === 'inputSchema') return prop.initializer;
    }
  }
  return undefined;
}

/** `export const name = defineAgentTool(...)`: the common slip of a named instead of a default export. */
function namedDefinitionExport(
  ctx: LiteralContext,
  helper: DefineHelper,
): { name: string; loc: SourceLocation } | undefined {
  const { ts, sf } = ctx;
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
      continue;
    for (const decl of statement.declarationList.declarations) {
      const init = decl.initializer ? unwrap(ts, decl.initializer) : undefined;
      if (
        ts.isIdentifier(decl.name) &&
        init &&
        ts.isCallExpression(init) &&
        init.expression.getText(sf).endsWith(helper)
      ) {
        return { name: decl.name.text, loc: locOf(ctx, decl) };
      }
    }
  }
  return undefined;
}

/** The local names an import clause binds. */
function importedNames(ts: typeof TS, clause: TS.ImportClause): string[] {
  const names = clause.name ? [clause.name.text] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
  if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.push(element.name.text);
  return names;
}
