/**
 * The cache index's journal (`units.json.index.journal`, beside cache/index-file.ts): a run that
 * changed a few units appends one line with their index entries, the output record and the run
 * summary, instead of rewriting the whole index (9.4 MB at 20,000 tools, ~0.2-0.4 s of a
 * one-change run there). The base is rewritten, and the journal dropped, once the journal grows
 * past a quarter of the base.
 *
 * Each line names the bodies stamp the index described before it (`prev`) and after it
 * (`bodies`), so the lines form a chain from the base's stamp to the bodies on disk. A line that
 * does not parse, is of a wrong shape or does not continue the chain (a journal of another base,
 * a line appended to an index that was already stale), or a chain that does not end at the
 * bodies now on disk, makes the whole index unusable: the run loads the bodies, as with no index.
 * An append never checks the chain it extends (that would cost the index load it saves); a broken
 * chain only costs speed until the next run that reads the index finds it so and rewrites it.
 */
import { appendFileSync, statSync } from 'node:fs';
import { readText } from '../util/read-text.js';
import { isOutputRecord } from './entry-shape.js';
import type { IndexedUnit } from './index-file.js';
import { type RunSummary, sealedSummary } from './run-summary.js';
import type { OutputRecord } from './unit-entry.js';
import { stringifyAscii } from '../util/ascii-json.js';

/**
 * The journal is folded into a new base once it is larger than this share of the base, or than
 * the floor for a small index (a line carries the run's summary, which can outweigh a share of a
 * small tree's index).
 */
const JOURNAL_SHARE = 0.25;
const JOURNAL_FLOOR = 64 * 1024;

/** What the index holds besides its units; each journal line sets both. */
export interface IndexState {
  output: OutputRecord | undefined;
  summary: RunSummary | undefined;
}

export interface JournalParsers {
  units(value: unknown): Map<string, IndexedUnit> | undefined;
  summary(value: unknown): RunSummary | undefined;
}

/**
 * Applies the journal's lines to a base described by `bodies`: the stamp the chain ends at, or
 * undefined when a line is unusable (the index must then not be used).
 */
export function applyJournal(
  file: string,
  bodies: string,
  units: Map<string, IndexedUnit>,
  state: IndexState,
  parse: JournalParsers,
): string | undefined {
  let text: string;
  try {
    text = readText(file);
  } catch {
    return bodies;
  }
  let at = bodies;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let change: unknown;
    try {
      change = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (typeof change !== 'object' || change === null || Array.isArray(change)) return undefined;
    const { prev, bodies: next, units: changed, output, summary } = change as Record<string, unknown>;
    if (prev !== at || typeof next !== 'string') return undefined;
    const more = parse.units(changed);
    if (more === undefined) return undefined;
    if (output !== null && !isOutputRecord(output)) return undefined;
    const parsedSummary = summary === null ? undefined : parse.summary(summary);
    if (summary !== null && parsedSummary === undefined) return undefined;
    for (const [key, unit] of more) units.set(key, unit);
    state.output = output === null ? undefined : output;
    state.summary = parsedSummary;
    at = next;
  }
  return at;
}

/**
 * Appends a line taking the index from the bodies stamped `prev` to those stamped `bodies`; false
 * (nothing written) when there is no base or the journal would outgrow its share of the base.
 */
export function appendJournal(
  base: string,
  line: {
    readonly prev: string;
    readonly bodies: string;
    readonly units: Record<string, unknown>;
    readonly output: OutputRecord | undefined;
    readonly summary: RunSummary | undefined;
  },
): boolean {
  const journal = `${base}.journal`;
  let baseBytes: number;
  try {
    baseBytes = statSync(base).size;
  } catch {
    return false;
  }
  let journalBytes = 0;
  try {
    journalBytes = statSync(journal).size;
  } catch {
    journalBytes = 0;
  }
  const text = `${stringifyAscii({ ...line, output: line.output ?? null, summary: line.summary ? sealedSummary(line.summary) : null })}\n`;
  if (journalBytes + Buffer.byteLength(text) > Math.max(baseBytes * JOURNAL_SHARE, JOURNAL_FLOOR)) return false;
  appendFileSync(journal, text);
  return true;
}
