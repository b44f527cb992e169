/**
 * Bridge between the orchestrator and the schema stage (`compiler/schema/`): hands the extractor
 * to the parse stage, batches every tool whose schema is not cached into one evaluation (so the
 * fallback bundle is built at most once per run) and stores outcomes in the unit cache. The
 * stage itself (Zod, ajv, esbuild) is imported only when a schema actually needs evaluating.
 */
import { kindOfResult } from '../cache/deferred.js';
import { isAbsolute, join, relative } from 'node:path';
import type { ts as TS } from 'ts-morph';
import type { ResolvedOptions } from '../config/load.js';
import type { FileReader, UnitCache } from '../cache/units.js';
import type { ToolUnitData, UnitResult } from '../parse/units.js';
import type { CapabilityUnit } from '../scan/layout.js';
import { diag } from '../diagnostics.js';
import { toPosix } from '../scan/walk.js';
import { unitFiles, unitKey } from '../cache/unit-key.js';
import { refusedMessage, type SchemaOutcome, type SchemaRequest, type SchemaSnippet } from './types.js';
import { locateSchemaPath, type SchemaLocations } from './locate.js';
import { EMPTY_INPUT_SCHEMA } from './empty.js';
import type { protoPropertyFailure as ProtoPropertyFailure } from './proto-property.js';
import type { SchemaModuleCache } from './extract.js';
import { UnitDelta } from '../parse/unit-delta.js';

export type Extractor = (sf: TS.SourceFile, expression: TS.Expression, file: string) => unknown;

export interface SchemaStage {
  extractor(reader: FileReader): Promise<Extractor>;
  /** What watch-mode runs of the parse stage and this one carry over (parse/unit-delta.ts). */
  readonly delta: UnitDelta;
  evaluate(
    units: readonly CapabilityUnit[],
    results: ReadonlyMap<CapabilityUnit, UnitResult>,
    cache: UnitCache,
    options: ResolvedOptions,
  ): Promise<Map<CapabilityUnit, SchemaOutcome>>;
  readonly evaluated: number;
}

/** Moves a schema error from the `inputSchema` value to the property its path names, if known. */
function relocate(outcome: SchemaOutcome, locations: SchemaLocations): SchemaOutcome {
  if (outcome.ok || !outcome.path) return outcome;
  const at = locateSchemaPath(locations, outcome.path);
  if (!at) return outcome;
  return { ...outcome, diagnostics: outcome.diagnostics.map((d) => ({ ...d, line: at.line, column: at.column })) };
}

/**
 * ZHIN_GEN_STATIC_SCHEMAS=0 evaluates every schema with Zod (to compare, or to rule the
 * translation out when a schema looks wrong). Part of the unit cache key, so switching it
 * re-parses instead of reusing schemas obtained the other way.
 */
export function staticSchemas(): boolean {
  return process.env.ZHIN_GEN_STATIC_SCHEMAS !== '0';
}

export class SchemaCache implements SchemaStage {
  /** How many schemas the last `evaluate` computed (0 = all came from the cache). */
  evaluated = 0;
  readonly delta = new UnitDelta();
  private modules: SchemaModuleCache | undefined;
  constructor(private readonly root: string) {}

  private rel(abs: string): string {
    return toPosix(relative(this.root, abs));
  }

  async extractor(reader: FileReader): Promise<Extractor> {
    const { extractSchemaSnippet, createSchemaModuleCache } = await import('./extract.js');
    const { schemaLocations } = await import('./locations.js');
    // Sibling schema modules shared by many tools are parsed once, and kept between watch-mode
    // runs while their text is unchanged (the cache checks it on every use).
    const modules = (this.modules ??= createSchemaModuleCache());
    const translate = staticSchemas();
    return (sf, expression, file) => {
      const snippet = extractSchemaSnippet(sf, expression, {
        static: translate,
        absPath: join(this.root, file),
        cache: modules,
        readFile: (abs: string) => reader.read(this.rel(abs)),
      });
      // Dependencies are recorded relative to the root for the unit cache; property positions
      // let schema errors point at the offending property later (a static schema has none).
      if (snippet.kind === 'static') return { ...snippet, files: snippet.files.map((f) => this.rel(f)) };
      if (snippet.kind === 'refused')
        return { ...snippet, file: this.rel(snippet.file), files: snippet.files.map((f) => this.rel(f)) };
      const locations = schemaLocations(sf, expression);
      return snippet.kind === 'inline'
        ? { ...snippet, files: snippet.files.map((f) => this.rel(f)), locations }
        : { ...snippet, locations };
    };
  }

  async evaluate(
    units: readonly CapabilityUnit[],
    results: ReadonlyMap<CapabilityUnit, UnitResult>,
    cache: UnitCache,
    options: ResolvedOptions,
  ): Promise<Map<CapabilityUnit, SchemaOutcome>> {
    // A watch-mode run whose parse stage kept the last results: only the units it parsed again
    // can have another outcome (their cache entries are new); the rest keep theirs, in the last map.
    const plan = this.delta.schemaPlan(results);
    const outcomes = plan?.outcomes ?? new Map<CapabilityUnit, SchemaOutcome>();
    this.evaluated = 0;
    const pending: { unit: CapabilityUnit; key: string; locations: SchemaLocations; request: SchemaRequest }[] = [];
    const sources: [CapabilityUnit, readonly string[]][] = [];
    let fileReader: FileReader | undefined;
    const reader = (): FileReader => (fileReader ??= cache.reader());
    let protoRule: typeof ProtoPropertyFailure | undefined;
    for (const unit of plan?.units ?? units) {
      // A unit parsed again may no longer be a tool (or parse at all): no outcome, as in a full run.
      if (plan) outcomes.delete(unit);
      // The kind alone: a result the cache read from its record keeps its body unread (cache/deferred.ts).
      const result = results.get(unit);
      if (kindOfResult(result) !== 'tool') continue;
      const key = unitKey(unit);
      const cached = cache.schemaOf(key);
      if (cached) {
        outcomes.set(unit, cached);
        if (cached.sources) sources.push([unit, cached.sources.map((f) => this.rel(f))]);
        continue;
      }
      const tool = result!.data as ToolUnitData;
      if (tool.schema === undefined) {
        outcomes.set(unit, { ok: true, schema: EMPTY_INPUT_SCHEMA, origin: 'none', via: 'none' });
        continue;
      }
      const snippet = tool.schema as SchemaSnippet;
      if (snippet.kind === 'static') {
        // Translated at parse time: the stage (Zod, the vm) is not even loaded for it. The rule
        // loads with the first schema it checks (a run with nothing to evaluate reads no module more).
        protoRule ??= (await import('./proto-property.js')).protoPropertyFailure;
        const refused = protoRule(snippet.schema);
        const outcome: SchemaOutcome = refused
          ? {
              ok: false,
              diagnostics: [
                diag(refused.code, {
                  file: unit.entry!,
                  line: tool.schemaLoc?.line ?? tool.loc.line,
                  column: tool.schemaLoc?.column ?? tool.loc.column,
                  message: refused.message,
                  ...(refused.hint ? { hint: refused.hint } : {}),
                }),
              ],
            }
          : { ok: true, schema: snippet.schema, origin: 'zod', via: 'static' };
        outcomes.set(unit, outcome);
        cache.setSchema(key, outcome, [], reader());
        continue;
      }
      if (snippet.kind === 'refused') {
        // A module too deep to read: the diagnostic is its own (file, position), not the tool's.
        const outcome: SchemaOutcome = {
          ok: false,
          diagnostics: [
            diag('ZG2024', {
              file: snippet.file,
              line: snippet.line,
              column: snippet.column,
              message: refusedMessage(snippet.file, snippet.why),
            }),
          ],
        };
        outcomes.set(unit, outcome);
        cache.setSchema(key, outcome, [], reader());
        continue;
      }
      const absSnippet: SchemaSnippet =
        snippet.kind === 'inline'
          ? { ...snippet, files: snippet.files.map((f) => (isAbsolute(f) ? f : join(this.root, f))) }
          : snippet;
      pending.push({
        unit,
        key,
        locations: (snippet as { locations?: SchemaLocations }).locations ?? {},
        request: {
          id: key,
          file: unit.entry!,
          absPath: join(this.root, unit.entry!),
          snippet: absSnippet,
          line: tool.schemaLoc?.line ?? tool.loc.line,
          column: tool.schemaLoc?.column ?? tool.loc.column,
        },
      });
    }
    this.evaluated = pending.length;
    if (pending.length === 0) {
      this.delta.evaluated(results, outcomes, sources);
      return outcomes;
    }
    const { evaluateSchemas } = await import('./index.js');
    // Before esbuild reads anything: what it read is stamped after it, through this run's reader.
    const bundledSince = Date.now();
    const evaluated = await evaluateSchemas(
      pending.map((p) => p.request),
      { fallbackTimeoutMs: options.schemaTimeoutMs, runtimeModules: options.modules },
    );
    for (const { unit, key, locations } of pending) {
      const outcome = relocate(evaluated.get(key) ?? { ok: false as const, diagnostics: [] }, locations);
      outcomes.set(unit, outcome);
      // Outside the root too (a workspace package), and installed packages by their package.json.
      const extra = outcome.sources ? outcome.sources.map((s: string) => this.rel(s)) : [];
      // A bundled schema (sources known) may have read more than its sources say: esbuild's
      // metafile leaves out a module that adds no code (until an edit gives it a side effect),
      // and a tsconfig.json or package.json that maps an import is in no metafile. Every file of
      // the unit's folder is stamped for it then, as before code units were stamped by their
      // entry alone (cache/unit-key.ts `stampedFilesOf`).
      const stamped = outcome.sources ? [...extra, ...unitFiles(unit)] : extra;
      // Read by esbuild first: a file written since then matches nothing (cache/unit-entry.ts `addStamps`).
      cache.setSchema(key, outcome, stamped, reader(), outcome.sources ? bundledSince : undefined);
      sources.push([unit, extra]);
    }
    this.delta.evaluated(results, outcomes, sources);
    return outcomes;
  }
}
