/**
 * A run the unit cache vouches for (compiler/context.ts): the index found every unit as
 * recorded and the output on disk is the one written for the same inputs digest, so the result
 * is the recorded summary over the fresh walk's own diagnostics. The model is built from the
 * cache only if someone reads it; the code is read from disk only then too.
 */
import type { ResolvedOptions } from '../config/load.js';
import type { CompileResult } from '../run-types.js';
import { applySeverityOverrides, compareDiagnostics, type Diagnostic, uniqueDiagnostics } from '../diagnostics.js';
import type { CapabilityModel } from '../model.js';
import type { UnitResult } from '../parse/units.js';
import { type AssembleMemo, assembleModel } from '../resolve/assemble.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import type { ShippedCapabilities } from '../scan/shipped.js';
import { EMPTY_INPUT_SCHEMA } from '../schema/empty.js';
import type { SchemaOutcome } from '../schema/types.js';
import { readIfExists } from '../write/output.js';
import type { RunSummary } from './index-file.js';
import { LostCacheBody } from './lost-body.js';
import { unitFiles, unitKey } from './unit-key.js';
import type { UnitCache } from './units.js';

export interface VouchedInputs {
  readonly summary: RunSummary;
  /** This run's own diagnostics (configuration, walk, layout). */
  readonly diagnostics: readonly Diagnostic[];
  readonly model: () => CapabilityModel;
  readonly options: ResolvedOptions;
  readonly outRel: string;
  readonly units: number;
  readonly started: number;
}

export interface IndexVouch extends Omit<VouchedInputs, 'summary' | 'units'> {
  readonly cache: UnitCache;
  readonly layout: Layout;
  readonly units: readonly CapabilityUnit[];
  /** The vouched-output key of this run's inputs; computed only once every unit is current. */
  readonly vouchKey: () => string;
  /** True when the index is known not to vouch for these units (cache/tree-check.ts `indexCannotVouch`). */
  readonly cannotVouch?: () => boolean;
}

/**
 * A fresh walk that finds every unit as the cache's index recorded it, and an output on disk the
 * cache vouches for: nothing to do, and nothing of the cache's bodies to read. Undefined when
 * anything differs (the run goes on to parse what changed).
 */
export function vouchByIndex(input: IndexVouch): { result: CompileResult; summaryKey: string } | undefined {
  const { cache, layout } = input;
  if (input.cannotVouch?.()) {
    // The run goes on to parse what changed: the index's records stand in for the bodies of the
    // rest (cache/unit-record.ts), so it is read, and each body only when needed. Lookups that
    // find every unit current contradict the tree record, which saw a unit's file change
    // (removing a unit does the same, at the cost of reading the bodies): the parse stage then
    // believes neither (parse/changed.ts).
    cache.expectChange();
    cache.loadBodies();
    return undefined;
  }
  const keyed: (readonly [string, readonly string[]])[] = input.units.map((u) => [unitKey(u), unitFiles(u)] as const);
  for (const plugin of layout.plugins) if (plugin.entry) keyed.push([`plugin-entry:${plugin.entry}`, [plugin.entry]]);
  if (!cache.currentByIndex(keyed)) return undefined;
  const summary = cache.outputs.vouchedSummary(input.vouchKey(), input.options.outFile);
  if (!summary) return undefined;
  return { result: vouchedResult({ ...input, summary, units: input.units.length }), summaryKey: summary.digest };
}

export function vouchedResult(input: VouchedInputs): CompileResult {
  const { options } = input;
  const sorted = applySeverityOverrides(
    uniqueDiagnostics([...input.diagnostics, ...input.summary.diagnostics]),
    options.diagnostics,
  ).sort(compareDiagnostics);
  const errors = sorted.filter((d) => d.severity === 'error').length;
  let model: CapabilityModel | undefined;
  let code: string | undefined;
  return {
    diagnostics: sorted,
    errors,
    warnings: sorted.length - errors,
    counts: input.summary.counts,
    get model() {
      model ??= input.model();
      return model;
    },
    get code() {
      code ??= readIfExists(options.outFile) ?? '';
      return code;
    },
    outFile: options.outFile,
    outRel: input.outRel,
    written: false,
    stats: { units: input.units, parsed: 0, workers: 0, ms: performance.now() - input.started },
    options,
  };
}

export interface CachedModelInputs {
  readonly cache: UnitCache;
  readonly layout: Layout;
  readonly units: readonly CapabilityUnit[];
  readonly options: ResolvedOptions;
  /** How AGENTS.md texts are read (default: a reader of its own). */
  readonly readText?: (path: string) => string | undefined;
  readonly packages: readonly ShippedCapabilities[];
  readonly memos: AssembleMemo;
}

/**
 * The model of a vouched run, from the cache's bodies: every unit's result and schema is there
 * (the output was recorded from exactly these), so nothing is parsed. Bodies that went missing
 * between the decision and this call (another process rewrote the cache) are an error that
 * says to run again, never a model with units left out.
 */
export function modelFromCache(input: CachedModelInputs): CapabilityModel {
  const { cache } = input;
  cache.loadBodies();
  const missing = (what: string): never => {
    throw new LostCacheBody(what);
  };
  const results = new Map<CapabilityUnit, UnitResult>();
  const schemas = new Map<CapabilityUnit, SchemaOutcome>();
  for (const unit of input.units) {
    const key = unitKey(unit);
    const result = cache.lookup(key, unitFiles(unit), undefined) ?? missing(key);
    results.set(unit, result);
    if (result.data?.kind !== 'tool') continue;
    const schema =
      cache.schemaOf(key) ??
      ((result.data as { schema?: unknown }).schema === undefined
        ? ({ ok: true, schema: EMPTY_INPUT_SCHEMA, origin: 'none', via: 'none' } as const)
        : missing(`the schema of ${key}`));
    schemas.set(unit, schema);
  }
  const entries = new Map<string, UnitResult>();
  for (const plugin of input.layout.plugins) {
    if (!plugin.entry) continue;
    const key = `plugin-entry:${plugin.entry}`;
    entries.set(plugin.dir, cache.lookup(key, [plugin.entry], undefined) ?? missing(key));
  }
  return assembleModel({
    layout: input.layout,
    units: input.units,
    results,
    entries,
    schemas,
    options: input.options,
    hashOf: (key) => cache.hashOf(key),
    readText: input.readText ?? textReader(cache),
    memos: input.memos,
    packages: [...input.packages],
  }).model;
}

function textReader(cache: UnitCache): (path: string) => string | undefined {
  const reader = cache.reader();
  return (path) => reader.read(path);
}
