/**
 * The emit-and-write step of one run (compiler/context.ts): emit the manifest as parts unless
 * the output on disk is vouched for, write what changed, sort the run's diagnostics with any
 * write failure among them, record the output for the next process, and make the run's result
 * (`emitStep`). Loaded only by runs that reach the model.
 */
import type { ResolvedOptions } from './config/load.js';
import { applySeverityOverrides, compareDiagnostics, type Diagnostic, uniqueDiagnostics } from './diagnostics.js';
import { emitManifestParts } from './emit/manifest.js';
import { EmitMemo } from './emit/memo.js';
import { modulePrints } from './emit/shards.js';
import type { CapabilityModel } from './model.js';
import type { UnitCache } from './cache/units.js';
import type { WrittenParts } from './write/output.js';
import { writeRunOutput } from './write/run-output.js';
import { isRacy } from './cache/racy.js';
import { type KnownFolders, seedVerified, verifiedModules } from './write/validators.js';
import { recordedValidatorsStamp, validatorsDir } from './write/folder-stamp.js';
import type { RunSummary } from './cache/index-file.js';
import { emittedResult } from './run-result.js';
import type { CompileResult, RunCounts } from './run-types.js';

export type { RunMemos } from './run-memos.js';

/** The emit stage's memo alone (compiler/context.ts makes it on its first run that emits). */
export function emitMemo(): EmitMemo {
  return new EmitMemo();
}

export interface EmitRunInput {
  readonly root: string;
  readonly outRel: string;
  readonly options: ResolvedOptions;
  readonly runtimeModule: string;
  readonly model: CapabilityModel;
  readonly units: UnitCache;
  readonly memos: { readonly emit: EmitMemo; readonly written: WrittenParts; readonly folders: KnownFolders };
  /** The output on disk is vouched for: nothing is emitted or written. */
  readonly reuse: boolean;
  /** Whether to write (a clean run with `write !== false`). */
  readonly write: boolean;
  readonly outOverridden: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

export interface EmitRunOutcome {
  readonly emitted: ReturnType<typeof emitManifestParts> | undefined;
  readonly sorted: Diagnostic[];
  readonly errors: number;
  readonly written: boolean;
}

export function emitRun(input: EmitRunInput): EmitRunOutcome {
  const { memos, units } = input;
  // A fresh process takes the generated modules' stamps, and how their files were found, from
  // what its predecessors recorded (cache/emit-record.ts).
  const folder = validatorsDir(input.root, input.outRel);
  if (!input.reuse && memos.emit.prints === undefined) {
    const record = units.emitRecord?.load();
    memos.emit.prints = record?.prints ?? new Map();
    if (record?.folder?.dir === folder) seedVerified(memos.folders, folder, record.folder.modules);
  }
  // Emitted as parts: in watch mode nothing joins the whole module (see emit/tool-table.ts).
  const emitted = input.reuse
    ? undefined
    : emitManifestParts(
        input.model,
        {
          root: input.root,
          outRel: input.outRel,
          importExtension: input.options.importExtension,
          runtimeModule: input.runtimeModule,
        },
        memos.emit,
      );
  // The config's `diagnostics` before errors are counted: a warning set to "error" stops the write.
  const sorted = applySeverityOverrides(uniqueDiagnostics(input.diagnostics), input.options.diagnostics).sort(
    compareDiagnostics,
  );
  let errors = sorted.filter((d) => d.severity === 'error').length;
  let written = false;
  if (emitted !== undefined && input.write && errors === 0) {
    const outcome = writeRunOutput({
      root: input.root,
      outRel: input.outRel,
      options: input.options,
      outOverridden: input.outOverridden,
      emitted,
      written: memos.written,
      folders: memos.folders,
    });
    if (outcome.ok) written = outcome.written;
    else {
      sorted.push(outcome.failure);
      sorted.sort(compareDiagnostics);
      errors++;
    }
  }
  // After the write: a module's stamp is a digest of its text (emit/shards.ts), which the writer
  // builds anyway; read first, every shard's text would be built twice on a cold run.
  if (emitted !== undefined) {
    // A stamp taken within a tick of its file's mtime proves nothing to a later process.
    const settled = [...verifiedModules(memos.folders, folder)].filter(([, m]) => !isRacy(m.changedMs, m.at));
    units.noteEmit({ prints: modulePrints(memos.emit), folder: { dir: folder, modules: new Map(settled) } });
  }
  return { emitted, sorted, errors, written };
}

export interface RecordInput {
  readonly root: string;
  readonly outRel: string;
  readonly outFile: string;
  readonly units: UnitCache;
  readonly memos: EmitRunInput['memos'];
  /** The run's inputs digest; undefined (a watch-mode edit) records nothing. */
  readonly digest: string | undefined;
  /** The output was reused: the folder's stamp its vouch was checked with. */
  readonly reused: string | undefined;
  readonly write: boolean;
  readonly outcome: EmitRunOutcome;
  readonly summary: Omit<RunSummary, 'digest'>;
}

/**
 * Records the output of a clean run that wrote (or reused) it, under the inputs digest and the
 * generated folder's stamp: the folder as vouched for (a reused output), or as this run wrote and
 * verified it; a folder changed by someone else since is not recorded (write/validators.ts
 * `recordedValidatorsStamp`), and neither is a watch-mode edit (no digest: the folder's stamp, a
 * stat of each of its files, is taken only for a record). Returns the key recorded and the
 * folder's stamp in it, or undefined.
 */
export function recordOutput(input: RecordInput): { key: string; validators: string } | undefined {
  const { digest, reused, outcome } = input;
  if (!digest || outcome.errors > 0 || (reused === undefined && !input.write)) return undefined;
  const validators = reused ?? recordedValidatorsStamp(input.root, input.outRel, input.memos.folders);
  if (validators === undefined) return undefined;
  const key = `${digest}:${validators}`;
  // The output as this run wrote or compared it, not as a stat finds it now (write/output.ts).
  const kept = input.memos.written.get(input.outFile);
  const stamp = reused !== undefined ? 'recorded' : kept?.digest === outcome.emitted?.digest ? kept : undefined;
  input.units.outputs.record(key, input.outFile, input.summary, stamp);
  return { key, validators };
}

export interface EmitStepInput extends Omit<EmitRunInput, 'reuse'> {
  readonly counts: RunCounts;
  /** The output on disk is vouched for: read on demand, with the folder's stamp it was vouched with. */
  readonly reused: { readonly read: () => string | undefined; readonly validators: string } | undefined;
  /** The diagnostics of the model (what the output record's summary keeps). */
  readonly modelDiagnostics: readonly Diagnostic[];
  /** The run's inputs digest; undefined (a watch-mode edit) records nothing. */
  readonly digest: string | undefined;
  /** The validators the emitted manifest imports (write/last-emitted.ts). */
  readonly onEmitted: (validators: NonNullable<EmitRunOutcome['emitted']>['validators']) => void;
  /** After the output is recorded: the cache persisted, and the key recorded (if any) for the tree record. */
  readonly settle: (recorded: { key: string; validators: string } | undefined) => void;
  readonly stats: {
    readonly units: number;
    readonly parsed: number;
    readonly workers: number;
    /** Unit-cache bodies read so far in this run. */
    readonly bodies: () => number;
    readonly started: number;
  };
}

/**
 * The end of a run that went through the model: emit and write ({@link emitRun}), the output
 * recorded ({@link recordOutput}), the cache settled, and the run's result.
 */
export function emitStep(input: EmitStepInput): CompileResult {
  const { memos, stats } = input;
  const { emit } = memos;
  const before = { rendered: emit.rendered, indexed: emit.searchEncoder.indexed };
  const outcome = emitRun({ ...input, reuse: input.reused !== undefined });
  const { emitted, sorted, errors, written } = outcome;
  if (emitted !== undefined) input.onEmitted(emitted.validators);
  // After a write-enabled clean run the file holds exactly `code` (written or already equal).
  const recorded = recordOutput({
    root: input.root,
    outRel: input.outRel,
    outFile: input.options.outFile,
    units: input.units,
    memos,
    digest: input.digest,
    reused: input.reused?.validators,
    write: input.write,
    outcome,
    summary: { counts: input.counts, diagnostics: input.modelDiagnostics },
  });
  input.settle(recorded);
  return emittedResult({
    sorted,
    errors,
    counts: input.counts,
    model: input.model,
    parts: emitted?.parts,
    reusable: input.reused?.read,
    outFile: input.options.outFile,
    outRel: input.outRel,
    written,
    units: stats.units,
    parsed: stats.parsed,
    workers: stats.workers,
    rendered: emitted ? emit.rendered - before.rendered : undefined,
    searchIndexed: emitted ? emit.searchEncoder.indexed - before.indexed : undefined,
    bodies: emitted ? stats.bodies() : undefined,
    started: stats.started,
    options: input.options,
  });
}
