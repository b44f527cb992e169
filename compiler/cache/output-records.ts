/**
 * The unit cache's record of the output it vouches for (cache/output-state.ts), as a run asks
 * for it: whether the output on disk is the one written for these inputs, with its summary, and
 * recording the one this run wrote. Each call loads what the cache deferred first (its index).
 */
import type { RunSummary } from './index-file.js';
import type { FileStat } from './stat-source.js';
import type { OutputRecord } from './unit-entry.js';
import type { UnitState } from './unit-state.js';

export class OutputRecords {
  constructor(
    private readonly state: () => UnitState,
    private readonly ensure: () => void,
  ) {}

  /**
   * Whether the output file on disk is the one this cache wrote (or verified) for the same inputs
   * digest and still carries that stamp: then emitting again would give the same bytes.
   */
  vouched(digest: string, file: string): boolean {
    this.ensure();
    return this.state().out.vouched(digest, file);
  }

  /** The summary recorded with the output this cache vouches for under `digest`, if any. */
  vouchedSummary(digest: string, file: string): RunSummary | undefined {
    this.ensure();
    const { out } = this.state();
    return out.summary?.digest === digest && out.vouched(digest, file) ? out.summary : undefined;
  }

  /**
   * Records the output of this run. `stamp`: as this process wrote or compared it (write/output.ts),
   * or 'recorded' for the output the cache vouched for; else a stat now.
   */
  record(digest: string, file: string, summary?: Omit<RunSummary, 'digest'>, stamp?: FileStat | 'recorded'): void {
    this.ensure();
    const state = this.state();
    const at = stamp === 'recorded' ? state.out.record : stamp;
    if (state.out.note(digest, file, summary, at)) state.indexStale = true;
  }

  /** The output record and the summary that goes with it, when the cache holds both. */
  recorded(): { output: OutputRecord; summary: RunSummary } | undefined {
    this.ensure();
    return this.state().out.recorded();
  }
}
