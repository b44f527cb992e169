/**
 * The postings of the `discover` index, per segment (search.ts): a segment built at run time over
 * the documents the manifest does not hold, and the shipped one (search-data.ts) implement
 * `SearchSegment`. A segment answers for its own documents only; the index combines them.
 */
import type { SearchDocument } from './search.js';
import { tokenize } from './tokenize.js';

/** Most vocabulary words one query token expands to (a prefix: `wea` → `weather`, `weak`). */
export const MAX_PREFIX_EXPANSIONS = 64;

/**
 * One document's weighted term frequencies (in first-occurrence order) and length, in a map of
 * its own. Not a caller's map cleared for each document: a cleared V8 map links its old table to
 * the next, so once a long-lived map's table was promoted every later one survived too (the
 * shipped index's encoder left ~20 MB that way at 20,000 tools, docs/bench.md twelfth pass).
 */
export function termWeights(document: SearchDocument): {
  readonly weights: Map<string, number>;
  readonly length: number;
} {
  const weights = new Map<string, number>();
  let length = 0;
  for (const field of document.fields) {
    for (const token of tokenize(field.text)) {
      weights.set(token, (weights.get(token) ?? 0) + field.weight);
      length += field.weight;
    }
  }
  return { weights, length };
}

/** The documents of one token in one segment (catalog document ids), with each one's length. */
export interface Posting {
  readonly docs: ArrayLike<number>;
  readonly weights: ArrayLike<number>;
  readonly lengths: ArrayLike<number>;
}

/** Postings over some of the catalog's documents. */
export interface SearchSegment {
  posting(token: string): Posting | undefined;
  /**
   * Up to `limit` (MAX_PREFIX_EXPANSIONS) vocabulary words that start with `prefix` (not itself),
   * sorted; with `accept`, only words a document it accepts holds.
   */
  expand(prefix: string, limit?: number, accept?: Uint8Array): string[];
  /** How many of its documents `accept` accepts, and their total length. */
  accepted(accept: Uint8Array): { readonly count: number; readonly length: number };
}

/** Code-unit order: deterministic, and what the prefix binary search needs. */
export function compareTokens(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A segment built at run time over `documents`, whose ids are `ids[i]` (default: i). */
export class BuiltSegment implements SearchSegment {
  readonly #postings = new Map<string, { docs: number[]; weights: number[]; lengths: number[] }>();
  readonly #vocabulary: string[];
  /** Each document's catalog id and length, in document order. */
  readonly #ids: number[] = [];
  readonly #lengths: number[] = [];
  /** The documents' total length. */
  readonly totalLength: number = 0;

  constructor(documents: readonly SearchDocument[], ids?: readonly number[]) {
    let total = 0;
    documents.forEach((document, index) => {
      const doc = ids ? ids[index]! : index;
      const { weights, length } = termWeights(document);
      this.#ids.push(doc);
      this.#lengths.push(length);
      for (const [token, weight] of weights) {
        let posting = this.#postings.get(token);
        if (!posting) this.#postings.set(token, (posting = { docs: [], weights: [], lengths: [] }));
        posting.docs.push(doc);
        posting.weights.push(weight);
        posting.lengths.push(length);
      }
      total += length;
    });
    this.totalLength = total;
    this.#vocabulary = [...this.#postings.keys()].sort(compareTokens);
  }

  posting(token: string): Posting | undefined {
    return this.#postings.get(token);
  }

  accepted(accept: Uint8Array): { readonly count: number; readonly length: number } {
    let count = 0;
    let length = 0;
    for (let i = 0; i < this.#ids.length; i += 1)
      if (accept[this.#ids[i]!] === 1) {
        count += 1;
        length += this.#lengths[i]!;
      }
    return { count, length };
  }

  /** Whether a document `accept` accepts holds `token`. */
  holds(token: string, accept: Uint8Array): boolean {
    const docs = this.#postings.get(token)?.docs;
    if (docs === undefined) return false;
    for (let i = 0; i < docs.length; i += 1) if (accept[docs[i]!] === 1) return true;
    return false;
  }

  expand(prefix: string, limit = MAX_PREFIX_EXPANSIONS, accept?: Uint8Array): string[] {
    const vocabulary = this.#vocabulary;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (vocabulary[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    const out: string[] = [];
    for (let i = low; i < vocabulary.length && out.length < limit; i += 1) {
      const word = vocabulary[i]!;
      if (!word.startsWith(prefix)) break;
      if (word !== prefix && (accept === undefined || this.holds(word, accept))) out.push(word);
    }
    return out;
  }
}
