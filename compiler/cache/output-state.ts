/**
 * The unit cache's record of the last output it vouches for (cache/units.ts), with the summary
 * (counts and diagnostics) of the run that produced it. Kept apart from the entries: a run the
 * index vouches for reads only this, never a body.
 */
import type { RunSummary } from './index-file.js';
import { type FileStat, sameFile, statNow } from '../util/file-stat.js';
import type { OutputRecord } from './unit-entry.js';

export class OutputState {
  record: OutputRecord | undefined;
  /** The record changed since the cache was loaded or last persisted (a journal line). */
  changed = false;
  private summaryValue: RunSummary | undefined;
  private summaryText = '';

  get summary(): RunSummary | undefined {
    return this.summaryValue;
  }

  clear(): void {
    this.record = undefined;
    this.changed = false;
    this.setSummary(undefined);
  }

  setSummary(summary: RunSummary | undefined): void {
    this.summaryValue = summary;
    this.summaryText = summary === undefined ? '' : JSON.stringify(summary);
  }

  /**
   * Whether the output file on disk is the one this cache wrote (or verified) for the same inputs
   * digest and still carries that stamp: then emitting again would give the same bytes.
   */
  vouched(digest: string, file: string): boolean {
    const record = this.record;
    if (!record || record.digest !== digest || record.file !== file) return false;
    return sameFile(statNow(file), record);
  }

  /**
   * Records the output; true when the summary changed (the index must be rewritten). `stamp`: the
   * output's stamp as this process wrote or compared it (else a stat now, which could find another
   * process's file renamed over it since).
   */
  note(digest: string, file: string, summary?: Omit<RunSummary, 'digest'>, stamp?: FileStat): boolean {
    const now = stamp ? { changedMs: stamp.changedMs, size: stamp.size, ino: stamp.ino } : statNow(file);
    if (!now) return false;
    let summaryChanged = false;
    if (summary) {
      const next: RunSummary = { digest, ...summary };
      const text = JSON.stringify(next);
      if (text !== this.summaryText) {
        this.summaryValue = next;
        this.summaryText = text;
        summaryChanged = true;
      }
    }
    const record = this.record;
    if (record && record.digest === digest && sameFile(record, now)) {
      return summaryChanged;
    }
    this.record = { digest, file, ...now };
    this.changed = true;
    return summaryChanged;
  }

  /** The output record and the summary that goes with it, when both are held. */
  recorded(): { output: OutputRecord; summary: RunSummary } | undefined {
    const { record: output, summaryValue: summary } = this;
    return output && summary && output.digest === summary.digest ? { output, summary } : undefined;
  }

  /** The summary when it belongs to the recorded output (what the index may carry). */
  matchingSummary(): RunSummary | undefined {
    return this.summaryValue && this.record?.digest === this.summaryValue.digest ? this.summaryValue : undefined;
  }
}
