/**
 * Schema extraction, run by the parse stage while a tool's AST is alive: turns the `inputSchema`
 * expression into a self-contained script that needs nothing but Zod. The script holds the
 * expression plus the top-level `const`s, functions and enums it reads, followed transitively
 * through the same file and relatively imported files; each file becomes one closure so equal
 * names in different files cannot clash. Evaluating it is exact and side-effect free, because
 * nothing else of the module runs. When that cannot be guaranteed the result is
 * `{ kind: 'fallback' }` and the whole module is bundled and imported in a child process instead.
 */
import type { ts as TS } from 'ts-morph';
import { ts } from '../util/typescript.js';
import { LruMap } from '../util/lru.js';
import {
  DEFAULT_LOCAL,
  isRelativeSpecifier,
  ModuleTooDeep,
  parseModule,
  resolutionCandidates,
  analyzeModule,
  type ModuleInfo,
  type TopDecl,
} from './modules.js';
import { findMutation, scanReferences } from './scope.js';
import { stripTypes } from './strip.js';
import { translateStatic, type StaticResolution, type StaticScope } from './translate.js';
import type { SchemaSnippet } from './types.js';
import { zodNodeToJsonSchema } from './zod-json.js';
import {
  compiles,
  emitName,
  hasSyntaxErrors,
  rawText,
  SAFE_GLOBALS,
  STRICT_RESERVED,
  ZOD_GLOBAL,
} from './snippet-names.js';

export type { SchemaSnippet };

/**
 * Parsed helper modules by path, each with the text it was parsed from: an entry is used only
 * while the file still reads the same, so one cache can serve every tool of a run and, in watch
 * mode, every run (a schema fragment beside an edited tool is not parsed again per edit).
 */
export interface SchemaModuleCache {
  readonly modules: Map<string, { readonly text: string | undefined; readonly info: ModuleInfo | null }>;
}

/**
 * Per-run cache of parsed helper modules, least recently used first out. A module shared by
 * many tools stays; the thousands used by one tool each (a schema fragment beside its tool) do
 * not all stay alive, with their ASTs, until the run ends: keeping them cost more in garbage
 * collection than re-parsing the rare evicted one. Small, too: an AST kept while a few hundred
 * other units are processed survives two scavenges, is promoted, and dies in the old
 * generation, which then grows until its next full collection (at 20,000 tools, 256 entries
 * here and 512 texts in cache/reader.ts put the cold run's peak RSS ~50–75 MB higher; see
 * docs/bench.md, "Seventh pass").
 */
export function createSchemaModuleCache(capacity = 32): SchemaModuleCache {
  return { modules: new LruMap(capacity) };
}

export interface SchemaExtractContext {
  /** Absolute path of the file `sourceFile` was parsed from (relative imports resolve from it). */
  readonly absPath: string;
  /** Reads a file by absolute path; `undefined` when it does not exist or must not be read. */
  readonly readFile: (absPath: string) => string | undefined;
  /** Module specifiers that provide Zod 4's `z` (default `['zod', 'zod/v4']`). */
  readonly zodModules?: readonly string[];
  readonly cache?: SchemaModuleCache;
  /**
   * Translate schemas of the Zod subset statically instead of evaluating them (default true);
   * false keeps every schema on the evaluation path (tests of that path, differential tests).
   */
  readonly static?: boolean;
}

class Bail extends Error {}

interface ModState {
  readonly info: ModuleInfo;
  readonly needed: Set<string>;
  /** Local → what to bind it to: Zod itself, a Zod export, or another module's local. */
  readonly bindings: Map<string, { readonly zod: string } | { readonly mod: ModState; readonly local: string }>;
  /** Locals other modules read from this one. */
  readonly exported: Set<string>;
  readonly deps: Set<ModState>;
}

type Resolved =
  | { readonly kind: 'zod'; readonly imported: string }
  | { readonly kind: 'decl'; readonly mod: ModState; readonly local: string };

export function extractSchemaSnippet(
  sourceFile: TS.SourceFile,
  expression: TS.Expression,
  ctx: SchemaExtractContext,
): SchemaSnippet {
  let extractor: Extractor | undefined;
  try {
    extractor = new Extractor(ctx, sourceFile);
    return extractor.run(expression);
  } catch (error) {
    if (error instanceof ModuleTooDeep) {
      const files = [...new Set([...(extractor?.otherFiles() ?? []), error.file])].sort();
      return { kind: 'refused', file: error.file, ...error.at, why: error.why, files };
    }
    // Any surprise here must cost speed, never correctness: the fallback runs the real module.
    const reason =
      error instanceof Bail
        ? error.message
        : `extractor error: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: 'fallback', reason };
  }
}

class Extractor implements StaticScope<ModState> {
  private readonly zodModules: readonly string[];
  private readonly states = new Map<string, ModState>();
  private readonly entry: ModState;

  constructor(
    private readonly ctx: SchemaExtractContext,
    sourceFile: TS.SourceFile,
  ) {
    this.zodModules = ctx.zodModules ?? ['zod', 'zod/v4'];
    this.entry = this.state(analyzeModule(sourceFile, ctx.absPath));
  }

  run(expression: TS.Expression): SchemaSnippet {
    this.need(this.entry, expression);
    for (const st of this.states.values()) this.checkMutations(st, st === this.entry ? expression : undefined);
    const order = this.order();
    const files = this.otherFiles().sort();
    // What the snippet would evaluate to, known without running it: no code, no Zod, no vm.
    // Code with syntax errors stays on the evaluation path, which reports them.
    if (this.ctx.static !== false && order.every((st) => !hasSyntaxErrors(st.info.sf))) {
      const root = translateStatic(expression, this.entry, this);
      const schema = root && zodNodeToJsonSchema(root);
      if (schema) return { kind: 'static', schema, files };
    }
    const stripped = this.emit(order, expression, true);
    let code = stripped === undefined ? undefined : `"use strict";\n${stripped}`;
    // No compile check here (it cost ~0.25 ms per tool): a snippet that does not compile fails
    // in the evaluator, which re-runs it alone and hands it to the bundle fallback.
    if (code === undefined) {
      // Enums, namespaces and the like need a real transform; rare enough to pay ~3 ms.
      const source = `(() => {\n"use strict";\n${this.emit(order, expression, false)!}\n})()`;
      const out = ts.transpileModule(source, {
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          isolatedModules: true,
          alwaysStrict: false,
        },
        reportDiagnostics: false,
      });
      code = `return ${out.outputText.trim().replace(/;$/, '')};`;
      if (!compiles(code)) throw new Bail('the schema code does not compile');
    }
    return { kind: 'inline', code, files };
  }

  /**
   * Absolute paths of the modules read so far besides the entry, and of the candidates that were
   * looked for before them and not found: one of those appearing (an `s.ts` beside the `s.js`
   * an import names) changes what the import resolves to.
   */
  otherFiles(): string[] {
    return [...this.states.keys(), ...this.missed].filter((p) => p !== this.ctx.absPath);
  }

  /** Candidates `load` found no module at. */
  private readonly missed = new Set<string>();

  /** {@link StaticScope}: what `name` refers to in `mod`, after `need` resolved it. */
  resolve(mod: ModState, name: string): StaticResolution<ModState> | undefined {
    // The snippet runs in strict mode, where these cannot be bound: evaluation reports it.
    if (STRICT_RESERVED.has(name)) return undefined;
    const decl = mod.info.decls.get(name);
    if (decl) {
      if (decl.kind === 'const' && ts.isIdentifier(decl.node.name) && decl.node.initializer) {
        return { kind: 'value', mod, expression: decl.node.initializer, declaredAt: decl.node.pos };
      }
      return decl.kind === 'default'
        ? { kind: 'value', mod, expression: decl.node, declaredAt: decl.node.pos }
        : undefined;
    }
    const binding = mod.bindings.get(name);
    if (!binding) return undefined;
    if ('zod' in binding)
      return binding.zod === '*' || binding.zod === 'default' || binding.zod === 'z' ? { kind: 'zod' } : undefined;
    return this.resolve(binding.mod, binding.local);
  }

  private state(info: ModuleInfo): ModState {
    const st: ModState = { info, needed: new Set(), bindings: new Map(), exported: new Set(), deps: new Set() };
    this.states.set(info.path, st);
    return st;
  }

  /** Resolves every free name of `node` inside `mod`. */
  private need(mod: ModState, node: TS.Node): void {
    const scan = scanReferences(node, mod.info.sf);
    if (scan.problems.length > 0) throw new Bail(`${mod.info.path}: ${scan.problems[0]}`);
    for (const name of scan.names) this.needLocal(mod, name);
  }

  private needLocal(mod: ModState, name: string): void {
    if (mod.needed.has(name) || mod.bindings.has(name)) return;
    const decl = mod.info.decls.get(name);
    if (decl) {
      mod.needed.add(name);
      return this.needDecl(mod, name, decl);
    }
    if (mod.info.imports.has(name)) {
      const resolved = this.resolveLocal(mod, name, new Set());
      if (resolved.kind === 'zod') mod.bindings.set(name, { zod: resolved.imported });
      else {
        mod.bindings.set(name, { mod: resolved.mod, local: resolved.local });
        resolved.mod.exported.add(resolved.local);
        mod.deps.add(resolved.mod);
      }
      return;
    }
    if (SAFE_GLOBALS.has(name)) return;
    throw new Bail(`${mod.info.path}: references \`${name}\`, which is not a top-level const, function or import`);
  }

  private needDecl(mod: ModState, name: string, decl: TopDecl): void {
    if (decl.kind === 'unsupported') throw new Bail(`${mod.info.path}: \`${name}\` is ${decl.what}`);
    this.need(mod, decl.node);
  }

  /** What a local import binding of `mod` ultimately refers to. */
  private resolveLocal(mod: ModState, local: string, seen: Set<string>): Resolved {
    if (mod.info.decls.has(local)) {
      const decl = mod.info.decls.get(local)!;
      if (!mod.needed.has(local)) {
        mod.needed.add(local);
        this.needDecl(mod, local, decl);
      }
      return { kind: 'decl', mod, local };
    }
    const binding = mod.info.imports.get(local);
    if (!binding) throw new Bail(`${mod.info.path}: \`${local}\` is not declared`);
    if (this.zodModules.includes(binding.specifier)) return { kind: 'zod', imported: binding.imported };
    if (binding.imported === '*') throw new Bail(`${mod.info.path}: namespace import of "${binding.specifier}"`);
    return this.resolveExport(this.load(mod, binding.specifier), binding.imported, seen);
  }

  private resolveExport(mod: ModState, exported: string, seen: Set<string>): Resolved {
    const found = this.findExport(mod, exported, seen);
    if (!found) throw new Bail(`${mod.info.path}: has no export \`${exported}\``);
    return found;
  }

  /** Follows re-exports and `export *`; `undefined` when `mod` does not export the name. */
  private findExport(mod: ModState, exported: string, seen: Set<string>): Resolved | undefined {
    const key = `${mod.info.path}#${exported}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const target = mod.info.exports.get(exported);
    if (target?.kind === 'unsupported') throw new Bail(`${mod.info.path}: \`${exported}\` is ${target.what}`);
    if (target?.kind === 'local') return this.resolveLocal(mod, target.local, seen);
    if (target?.kind === 'from') {
      if (this.zodModules.includes(target.specifier)) return { kind: 'zod', imported: target.imported };
      return this.resolveExport(this.load(mod, target.specifier), target.imported, seen);
    }
    if (exported === 'default') return undefined; // `export *` never re-exports the default
    for (const star of mod.info.stars) {
      if (this.zodModules.includes(star)) return { kind: 'zod', imported: exported };
      const found = this.findExport(this.load(mod, star), exported, seen);
      if (found) return found;
    }
    return undefined;
  }

  private load(from: ModState, specifier: string): ModState {
    if (!isRelativeSpecifier(specifier)) throw new Bail(`${from.info.path}: imports "${specifier}"`);
    for (const candidate of resolutionCandidates(from.info.path, specifier)) {
      const known = this.states.get(candidate);
      if (known) return known;
      const text = this.ctx.readFile(candidate);
      const cached = this.ctx.cache?.modules.get(candidate);
      let info = cached !== undefined && cached.text === text ? cached.info : undefined;
      if (info === undefined) {
        info = text === undefined ? null : parseModule(candidate, text);
        this.ctx.cache?.modules.set(candidate, { text, info });
      }
      if (info) return this.state(info);
      this.missed.add(candidate);
    }
    throw new Bail(`${from.info.path}: cannot read relative module "${specifier}"`);
  }

  /** Top-level code that is not copied but could change a copied value. */
  private checkMutations(st: ModState, skip: TS.Expression | undefined): void {
    // Zod's namespace is immutable; only copied values and relatively imported ones can change.
    const bindings = [...st.bindings];
    const relative = bindings.filter(([, target]) => !('zod' in target)).map(([local]) => local);
    const watched = new Set([...st.needed, ...relative]);
    if (watched.size === 0) return;
    const pure = new Set(
      [...st.info.imports].filter(([, b]) => this.zodModules.includes(b.specifier)).map(([local]) => local),
    );
    // Whether a top-level function or const reads a watched name, directly or through other
    // top-level functions and consts it reads (cycles count as not reading).
    const memo = new Map<string, boolean>();
    const reads = (name: string): boolean => {
      const known = memo.get(name);
      if (known !== undefined) return known;
      memo.set(name, false);
      const decl = st.info.decls.get(name);
      const found =
        decl !== undefined &&
        (decl.kind === 'function' || decl.kind === 'const') &&
        [...scanReferences(decl.node, st.info.sf).names].some((n) => n !== name && (watched.has(n) || reads(n)));
      memo.set(name, found);
      return found;
    };
    const scope = { watched, pure, reads, ...(skip ? { skip } : {}) };
    for (const statement of st.info.sf.statements) {
      if (ts.isImportDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement))
        continue;
      if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
      const nodes: TS.Node[] = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.filter((d) => !isCopied(st, d))
        : ts.isExportAssignment(statement) && st.needed.has(DEFAULT_LOCAL)
          ? []
          : [statement];
      for (const node of nodes) {
        const found = findMutation(node, scope, st.info.sf);
        if (found) throw new Bail(`${st.info.path}: ${found}`);
      }
    }
  }

  /** Modules in dependency order (dependencies first), entry last. */
  private order(): ModState[] {
    const out: ModState[] = [];
    const state = new Map<ModState, 'visiting' | 'done'>();
    const visit = (st: ModState): void => {
      const s = state.get(st);
      if (s === 'done') return;
      if (s === 'visiting') throw new Bail(`circular imports through ${st.info.path}`);
      state.set(st, 'visiting');
      for (const dep of st.deps) visit(dep);
      state.set(st, 'done');
      out.push(st);
    };
    visit(this.entry);
    return out;
  }

  /** The script; `strip` false emits TypeScript for transpileModule. `undefined` if stripping fails. */
  private emit(order: readonly ModState[], expression: TS.Expression, strip: boolean): string | undefined {
    const ids = new Map(order.map((st, i) => [st, `__zg_m${i}`] as const));
    const lines: string[] = [];
    for (const st of order) {
      const body = this.body(st, ids, strip);
      if (body === undefined) return undefined;
      if (st === this.entry) {
        const expr = strip ? stripTypes(expression, st.info.sf) : expression.getText(st.info.sf);
        if (expr === undefined) return undefined;
        lines.push('return (() => {', ...body, `return (${expr}\n);`, '})();');
      } else {
        const exported = [...st.exported].map((l) => `${JSON.stringify(l)}: ${emitName(l)}`).join(', ');
        lines.push(`const ${ids.get(st)} = (() => {`, ...body, `return { ${exported} };`, '})();');
      }
    }
    return lines.join('\n');
  }

  private body(st: ModState, ids: ReadonlyMap<ModState, string>, strip: boolean): string[] | undefined {
    const lines: string[] = [];
    for (const [local, target] of st.bindings) {
      if ('zod' in target) {
        const whole = target.zod === '*' || target.zod === 'default' || target.zod === 'z';
        lines.push(`const ${local} = ${ZOD_GLOBAL}${whole ? '' : `[${JSON.stringify(target.zod)}]`};`);
      } else {
        lines.push(`const ${local} = ${ids.get(target.mod)}[${JSON.stringify(target.local)}];`);
      }
    }
    const nodes = new Set<TS.Node>();
    for (const name of st.needed) {
      const decl = st.info.decls.get(name)!;
      if (decl.kind !== 'unsupported') nodes.add(decl.node);
    }
    const sf = st.info.sf;
    for (const node of [...nodes].sort((a, b) => a.pos - b.pos)) {
      const text = strip ? stripTypes(node, sf) : rawText(node, sf);
      if (text === undefined) return undefined;
      if (ts.isVariableDeclaration(node)) lines.push(`const ${text};`);
      else if (ts.isFunctionDeclaration(node) || ts.isEnumDeclaration(node)) lines.push(text);
      else lines.push(`const ${emitName(DEFAULT_LOCAL)} = (${text}\n);`);
    }
    return lines;
  }
}

function isCopied(st: ModState, decl: TS.VariableDeclaration): boolean {
  return [...st.needed].some((n) => {
    const d = st.info.decls.get(n);
    return d !== undefined && d.kind === 'const' && d.node === decl;
  });
}
