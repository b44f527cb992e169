/**
 * A run's writes, in the order readers need them: the generated folder's modules (shards, types,
 * validators, search index) before the main module that imports them, then the removal of the
 * folder's modules nothing imports any more. A file-system refusal is the run's located
 * diagnostic (ZG1104) and the last good output stays; anything else is a bug and propagates.
 */
import type { ResolvedOptions } from '../config/load.js';
import { outputWriteFailure } from '../config/paths.js';
import type { Diagnostic } from '../diagnostics.js';
import type { emitManifestParts } from '../emit/manifest.js';
import { writePartsIfChanged, type WrittenParts } from './output.js';
import { type KnownFolders, removeStaleValidators, writeValidators } from './validators.js';
import { sweepStaleTemps } from './temp-files.js';
import { basename, dirname } from 'node:path';

export interface RunOutput {
  readonly root: string;
  readonly outRel: string;
  readonly options: ResolvedOptions;
  /** Whether `out` came from the caller rather than the config file (where ZG1104 points). */
  readonly outOverridden: boolean;
  readonly emitted: ReturnType<typeof emitManifestParts>;
  readonly written: WrittenParts;
  readonly folders: KnownFolders;
}

export type WriteOutcome =
  | { readonly ok: true; readonly written: boolean }
  | { readonly ok: false; readonly failure: Diagnostic };

export function writeRunOutput(run: RunOutput): WriteOutcome {
  try {
    // A run that rewrote a module of the folder and left the main module as it was (a large
    // bot's edit rewrites one shard; a module removed or replaced by hand) still wrote its output, as does one that only removed a module nothing imports.
    const folder = writeValidators(run.root, run.outRel, run.emitted.validators, run.folders);
    const main = writePartsIfChanged(run.options.outFile, run.emitted, run.written);
    const removed = removeStaleValidators(run.root, run.outRel, run.emitted.validators, run.folders);
    // A killed run's temp file of the manifest (write/temp-files.ts): this run wrote the manifest
    // that run did not get to put in place, so it lies beside it now.
    if (main) sweepStaleTemps(dirname(run.options.outFile), (target) => target === basename(run.options.outFile));
    return { ok: true, written: main || folder > 0 || removed > 0 };
  } catch (error) {
    const failure = outputWriteFailure(run.options, run.outOverridden, error);
    if (!failure) throw error;
    return { ok: false, failure };
  }
}
