/**
 * The result of a run that went through emit (compiler/run-emit.ts `emitStep`): the generated text
 * is joined from its parts, or read from the vouched file, only when someone reads `code`
 * (check, catalog, tests); `generate` never does.
 */
import type { ResolvedOptions } from './config/load.js';
import type { Diagnostic } from './diagnostics.js';
import type { CapabilityModel } from './model.js';
import type { CompileResult, RunCounts, RunOptions } from './run-types.js';

export interface EmittedRun {
  readonly sorted: readonly Diagnostic[];
  readonly errors: number;
  readonly counts: RunCounts;
  readonly model: CapabilityModel;
  /** The emitted parts, or undefined when the run vouched for the file on disk. */
  readonly parts: readonly string[] | undefined;
  /** The file on disk, read on demand, when the run vouched for it. */
  readonly reusable: (() => string | undefined) | undefined;
  readonly outFile: string;
  readonly outRel: string;
  readonly written: boolean;
  readonly units: number;
  readonly parsed: number;
  readonly workers: number;
  /** Modules rendered by this run's emit, when it emitted. */
  readonly rendered: number | undefined;
  readonly searchIndexed: number | undefined;
  /** Unit-cache bodies read one by one in this run, when it emitted. */
  readonly bodies: number | undefined;
  readonly started: number;
  readonly options: ResolvedOptions;
}

export function emittedResult(run: EmittedRun): CompileResult {
  let joined: string | undefined;
  const { parts, reusable } = run;
  return {
    diagnostics: run.sorted,
    errors: run.errors,
    warnings: run.sorted.length - run.errors,
    counts: run.counts,
    model: run.model,
    get code() {
      joined ??= parts ? parts.join('') : (reusable?.() ?? '');
      return joined;
    },
    outFile: run.outFile,
    outRel: run.outRel,
    written: run.written,
    stats: {
      units: run.units,
      parsed: run.parsed,
      workers: run.workers,
      ...(run.rendered !== undefined ? { rendered: run.rendered } : {}),
      ...(run.searchIndexed !== undefined ? { searchIndexed: run.searchIndexed } : {}),
      ...(run.bodies !== undefined ? { bodies: run.bodies } : {}),
      ms: performance.now() - run.started,
    },
    options: run.options,
  };
}

/**
 * A run that found nothing to do builds its model from the cache's bodies only when the model is
 * read. A caller that will read it (`inspect`, `new`, `report`) asks for it inside the run, so
 * bodies another process replaced meanwhile (a `watch` beside an `inspect`) are met where the run
 * queue retries from a fresh walk (run-queue.ts), not after the run returned as an error.
 */
export function withModel(result: CompileResult, runOptions: RunOptions): CompileResult {
  if (runOptions.model) void result.model;
  return result;
}
