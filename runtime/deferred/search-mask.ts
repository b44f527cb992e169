/**
 * A search under an `accept` mask (search.ts) that leaves documents out: a principal's turn, whose
 * list holds only what it may access. Its prefix expansions, document frequencies, document count
 * and average length are those of the accepted documents alone, so nothing the mask leaves out
 * changes what the principal's query finds or how it ranks: with the whole catalog's figures, 64
 * words only denied tools used crowded a visible tool's word out of a prefix's expansions (the tool
 * was not found), and denied tools sharing a word reordered the visible hits, which told a member
 * how many admin-only tools use which words. A mask that accepts every document is the whole
 * catalog and is scored as before.
 */
import { compareTokens, MAX_PREFIX_EXPANSIONS, type Posting, type SearchSegment } from './search-segment.js';

const K1 = 1.2;
const B = 0.75;

/** One mask's statistics, kept per mask (a mask is one listed turn's, and never changes). */
export interface MaskStats {
  /** How many documents it accepts, and their average length. */
  readonly count: number;
  readonly average: number;
  /** Whether it accepts every document of the catalog. */
  readonly full: boolean;
  /** Recent prefixes' expansions among the accepted documents' words. */
  readonly expansions: Map<string, readonly string[]>;
}

export function maskStats(segments: readonly SearchSegment[], size: number, accept: Uint8Array): MaskStats {
  let count = 0;
  let length = 0;
  for (const segment of segments) {
    const accepted = segment.accepted(accept);
    count += accepted.count;
    length += accepted.length;
  }
  return { count, average: count > 0 ? length / count : 1, full: count === size, expansions: new Map() };
}

/**
 * Up to MAX_PREFIX_EXPANSIONS words starting with `prefix` that an accepted document holds, in
 * vocabulary order: the first ones of the accepted documents' own vocabulary, as if the index held
 * nothing else.
 */
export function expandAccepted(
  segments: readonly SearchSegment[],
  prefix: string,
  accept: Uint8Array,
  stats: MaskStats,
): readonly string[] {
  const known = stats.expansions.get(prefix);
  if (known !== undefined) return known;
  // Each segment's first words held by an accepted document; their union's first are the index's.
  const out =
    segments.length === 1
      ? segments[0]!.expand(prefix, MAX_PREFIX_EXPANSIONS, accept)
      : [...new Set(segments.flatMap((segment) => segment.expand(prefix, MAX_PREFIX_EXPANSIONS, accept)))]
          .sort(compareTokens)
          .slice(0, MAX_PREFIX_EXPANSIONS);
  stats.expansions.set(prefix, out);
  if (stats.expansions.size > 256) stats.expansions.delete(stats.expansions.keys().next().value!);
  return out;
}

/** A search's scratch arrays (search.ts): scores, when each was last touched, the touched documents. */
export interface Scratch {
  readonly scores: Float64Array;
  readonly stamp: Uint32Array;
  readonly touched: Int32Array;
  readonly epoch: number;
}

/**
 * Adds one query term's BM25 values for the accepted documents of its postings (every segment's)
 * to the scratch scores; returns the new count of touched documents. The frequency is the accepted
 * documents', and each value is computed in the same way as the unmasked index's.
 */
export function scoreAccepted(
  postings: readonly Posting[],
  factor: number,
  accept: Uint8Array,
  stats: MaskStats,
  scratch: Scratch,
  hits: number,
): number {
  let count = 0;
  for (const { docs } of postings) for (let i = 0; i < docs.length; i += 1) if (accept[docs[i]!] === 1) count += 1;
  if (count === 0) return hits;
  const { scores, stamp, touched, epoch } = scratch;
  const idf = Math.log(1 + (stats.count - count + 0.5) / (count + 0.5));
  for (const { docs, weights, lengths } of postings) {
    for (let i = 0; i < docs.length; i += 1) {
      const doc = docs[i]!;
      if (accept[doc] !== 1) continue;
      const tf = weights[i]!;
      const norm = tf + K1 * (1 - B + (B * lengths[i]!) / stats.average);
      const base = (idf * (tf * (K1 + 1))) / norm;
      const value = factor === 1 ? base : factor * base;
      if (stamp[doc] !== epoch) {
        stamp[doc] = epoch;
        scores[doc] = 0 + value;
        touched[hits++] = doc;
      } else scores[doc] = scores[doc]! + value;
    }
  }
  return hits;
}
