/**
 * A run's summary as the cache keeps it (in the index, its journal and the tree record): what a
 * run the cache vouches for reports without parsing anything. Written with a seal over its text,
 * and read only while the seal matches: a hand edit that keeps the shape (a warning made an
 * error, a count changed) or a flipped byte inside a message would otherwise be replayed as is.
 */
import { isRecord } from './json-shape.js';
import type { Diagnostic } from '../diagnostics.js';
import type { RunCounts } from '../run-types.js';
import { sealOf } from '../util/hash.js';
import { isDiagnostic } from './entry-shape.js';

/** The part of a run's result that follows from its inputs digest alone. */
export interface RunSummary {
  /** The vouched-output key (inputs digest and validators stamp) this summary belongs to. */
  readonly digest: string;
  readonly counts: RunCounts;
  /** Diagnostics of the parse results and the assembled model (not of the walk or layout). */
  readonly diagnostics: readonly Diagnostic[];
}

const COUNT_KEYS = ['tools', 'skills', 'agents', 'promptSections', 'hooks'] as const;

function sealOfSummary(summary: RunSummary): string {
  return sealOf([summary.digest, summary.counts, summary.diagnostics]);
}

/** The summary as it is written: with its seal. */
export function sealedSummary(summary: RunSummary): RunSummary & { readonly seal: string } {
  return {
    digest: summary.digest,
    counts: summary.counts,
    diagnostics: summary.diagnostics,
    seal: sealOfSummary(summary),
  };
}

/** A summary read back: undefined unless it has the shape and still carries its seal. */
export function toSummary(value: unknown): RunSummary | undefined {
  if (!isRecord(value) || typeof value.digest !== 'string' || !isRecord(value.counts)) return undefined;
  const counts = value.counts;
  if (!COUNT_KEYS.every((k) => typeof counts[k] === 'number')) return undefined;
  if (!Array.isArray(value.diagnostics) || !value.diagnostics.every(isDiagnostic)) return undefined;
  const summary: RunSummary = {
    digest: value.digest,
    counts: counts as unknown as RunCounts,
    diagnostics: value.diagnostics,
  };
  return value.seal === sealOfSummary(summary) ? summary : undefined;
}
