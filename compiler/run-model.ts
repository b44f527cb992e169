/**
 * The parse-to-model step of one run (compiler/context.ts): the units whose files changed are
 * parsed (the rest come from the unit cache), their schemas evaluated, and the capability model
 * assembled with its tree-wide rules. Runs the tree record or the cache's index vouched for
 * never get here.
 */
import type { ts as TS } from 'ts-morph';
import type { ResolvedOptions } from './config/load.js';
import type { Diagnostic } from './diagnostics.js';
import type { CapabilityModel } from './model.js';
import { parseChanged } from './parse/changed.js';
import { assembleModel } from './resolve/assemble.js';
import type { RunMemos } from './run-memos.js';
import type { CapabilityUnit, Layout } from './scan/layout.js';
import type { ShippedCapabilities } from './scan/shipped.js';
import type { SchemaStage } from './schema/stage.js';
import type { FileReader, UnitCache } from './cache/units.js';

export interface ModelStepInput {
  readonly layout: Layout;
  readonly units: readonly CapabilityUnit[];
  readonly options: ResolvedOptions;
  readonly cache: UnitCache;
  readonly schemas: SchemaStage;
  /** Paths changed since the last run (watch mode); undefined: every file is verified by stat. */
  readonly dirty: ReadonlySet<string> | undefined;
  readonly ts: typeof TS | undefined;
  readonly memos: RunMemos;
  readonly packages: readonly ShippedCapabilities[];
  /** Texts read outside any unit (AGENTS.md) through the compiler's memo, by `read`. */
  textReader(read: (path: string) => string | undefined): (path: string) => string | undefined;
}

export interface ModelStep {
  readonly model: CapabilityModel;
  readonly diagnostics: readonly Diagnostic[];
  /** Units parsed this run; with no schema evaluated either, the output may be the one on disk. */
  readonly parsed: number;
  readonly workers: number;
  /** The TypeScript the parse loaded, for the compiler to keep. */
  readonly ts: typeof TS | undefined;
  readonly readText: (path: string) => string | undefined;
}

export async function modelStep(input: ModelStepInput): Promise<ModelStep> {
  const { layout, units, options, cache, schemas, memos } = input;
  const reader: FileReader = cache.reader();
  const parsed = await parseChanged({
    layout,
    units,
    options,
    cache,
    reader,
    schemas,
    dirty: input.dirty,
    ts: input.ts,
  });
  const { results, entries } = parsed;
  const schemaResults = await schemas.evaluate(units, results, cache, options);
  const readText = input.textReader((path) => reader.read(path));
  const assembled = assembleModel({
    layout,
    units,
    results,
    entries,
    schemas: schemaResults,
    changed: parsed.changed,
    options,
    hashOf: (key) => cache.hashOf(key),
    readText,
    memos: memos.assemble,
    packages: input.packages,
    prints: {
      of: (key, result, outcome) => cache.modelPrint(key, result, outcome),
      into: memos.emit.toolPrints,
    },
  });
  return {
    model: assembled.model,
    diagnostics: assembled.diagnostics,
    parsed: parsed.parsed,
    workers: parsed.workers,
    ts: parsed.ts,
    readText,
  };
}
