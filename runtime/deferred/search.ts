/**
 * The search index behind `discover`: an inverted index over names, descriptions and keywords.
 * A query touches only the postings of its own tokens (plus prefix expansions found by binary
 * search in the sorted vocabulary), never every document, and hands its hits out best first
 * from a heap, so a `discover` that needs five results does not sort every match.
 *
 * Ranking is BM25 with field weights (name ≫ keywords > description), an exact-name bonus, and a
 * deterministic tie-break on the document order (sorted by name). CJK text has no spaces, so Han,
 * kana and Hangul runs are indexed as single characters plus bigrams.
 *
 * The postings may come from several segments over disjoint documents: the one the compiler
 * shipped with the manifest (search-data.ts) and one built here for the tools and skills the
 * manifest does not hold (`setup()`, seams, `ask_user`). Document frequencies, lengths and the
 * average length are those of every document the search may hand out (the whole catalog, or the
 * documents an `accept` mask accepts: search-mask.ts), and every score is summed in the same
 * order, so the ranking is the one a single index over exactly those documents gives.
 */

export interface SearchField {
  readonly text: string;
  /** Term-frequency weight of this field (e.g. name 3, keywords 2, description 1). */
  readonly weight: number;
}

export interface SearchDocument {
  /** Normalised exact name for the exact-match bonus. */
  readonly name: string;
  readonly fields: readonly SearchField[];
}

export interface SearchHit {
  readonly doc: number;
  readonly score: number;
}

import { rankLazily, selectBest } from './search-rank.js';
import { expandAccepted, type MaskStats, maskStats, scoreAccepted } from './search-mask.js';
import {
  BuiltSegment,
  compareTokens,
  MAX_PREFIX_EXPANSIONS,
  type Posting,
  type SearchSegment,
} from './search-segment.js';
import { CJK, tokenize } from './tokenize.js';

export { tokenize } from './tokenize.js';
export {
  BuiltSegment,
  compareTokens,
  MAX_PREFIX_EXPANSIONS,
  type Posting,
  type SearchSegment,
  termWeights,
} from './search-segment.js';

const K1 = 1.2;
const B = 0.75;
const PREFIX_WEIGHT = 0.5;
const EXACT_NAME_BONUS = 10;
/** SearchIndex.warm's query: a word with no prefix expansions in any vocabulary we know of. */
const WARM_QUERY = 'zzzqxjwarmup';

/**
 * What `discover` searches for a tool or a skill: the name (split on `__`; weight 3), keywords
 * and tags (2), the description (1). The compiler builds the shipped index from the same call.
 */
export function searchDocument(
  name: string,
  keywords: readonly string[],
  tags: readonly string[] | undefined,
  description: string,
): SearchDocument {
  return {
    name,
    fields: [
      { text: name.split('__').join(' '), weight: 3 },
      { text: [...keywords, ...(tags ?? [])].join(' '), weight: 2 },
      { text: description, weight: 1 },
    ],
  };
}

export interface SearchIndexParts {
  readonly segments: readonly SearchSegment[];
  /** How many documents the catalog has, and their total length (for the average). */
  readonly size: number;
  readonly totalLength: number;
  /** Catalog documents whose lower-cased name is `name` (the exact-name bonus). */
  readonly named: (name: string) => readonly number[];
}

/** Queries whose first page an index keeps per mask (least recently used dropped beyond). */
const PAGES_PER_MASK = 64;

interface QueryTerm {
  readonly token: string;
  readonly factor: number;
}

/** A query's best hits (frozen, shared by the turns of one mask) and how many documents matched. */
interface FirstPage {
  readonly best: readonly SearchHit[];
  readonly hits: number;
}

export class SearchIndex {
  readonly size: number;
  readonly #segments: readonly SearchSegment[];
  readonly #averageLength: number;
  readonly #named: (name: string) => readonly number[];
  // Scratch space of one search (searches are synchronous): scores and when each was last touched.
  readonly #scores: Float64Array;
  readonly #stamp: Uint32Array;
  readonly #touched: Int32Array;
  #epoch = 0;
  readonly #termValues = new WeakMap<Posting, Float64Array>();
  readonly #expansions = new Map<string, readonly string[]>();
  /** Per `accept` mask: its statistics, and its prefix expansions (words some accepted document has). */
  readonly #masks = new WeakMap<Uint8Array, MaskStats>();
  /** Recent queries' first pages, per `accept` mask (the mask's list owns it; see `search`). */
  readonly #pages = new WeakMap<Uint8Array, Map<string, FirstPage>>();
  readonly #unmaskedPages = new Map<string, FirstPage>();

  constructor(parts: SearchIndexParts) {
    this.size = parts.size;
    this.#segments = parts.segments;
    this.#named = parts.named;
    // The sum of integers is exact in any order: the same average as summing document by document.
    this.#averageLength = this.size ? parts.totalLength / this.size : 1;
    this.#scores = new Float64Array(this.size);
    this.#stamp = new Uint32Array(this.size);
    this.#touched = new Int32Array(this.size);
  }

  /** A runtime-built index over `documents` (document id = position). */
  static build(documents: readonly SearchDocument[]): SearchIndex {
    const segment = new BuiltSegment(documents);
    const names = new Map<string, number[]>();
    documents.forEach((document, doc) => {
      const name = document.name.toLowerCase();
      const same = names.get(name);
      if (same) same.push(doc);
      else names.set(name, [doc]);
    });
    return new SearchIndex({
      segments: [segment],
      size: documents.length,
      totalLength: segment.totalLength,
      named: (name) => names.get(name) ?? [],
    });
  }

  /** Kept per index for recent prefixes (the vocabulary never changes): a query repeats its words. */
  #expand(prefix: string): readonly string[] {
    const known = this.#expansions.get(prefix);
    if (known !== undefined) return known;
    const all =
      this.#segments.length === 1
        ? this.#segments[0]!.expand(prefix)
        : [...new Set(this.#segments.flatMap((segment) => segment.expand(prefix)))]
            .sort(compareTokens)
            .slice(0, MAX_PREFIX_EXPANSIONS);
    this.#expansions.set(prefix, all);
    if (this.#expansions.size > 256) this.#expansions.delete(this.#expansions.keys().next().value!);
    return all;
  }

  /**
   * Every document matching at least one query token, best first (score desc, doc asc), lazily.
   * With `accept`, only documents `d` with `accept[d] === 1` are scored and handed out, by the
   * statistics of the accepted documents alone (search-mask.ts): the hits and their order are
   * those of an index that never held the others, so a principal's search hints at nothing it
   * may not access.
   *
   * The best `first` hits are selected in one pass over the matches (no sort, no heap, nothing
   * copied per match); a caller that reads past them gets the rest from a heap over a second
   * scoring of the same query, which gives the same scores, so the order is the one sorting
   * every hit gives.
   */
  search(query: string, accept?: Uint8Array, first = 16): Iterable<SearchHit> {
    // The first page depends only on this (immutable) index, the mask and the query: recent
    // queries keep theirs per mask. A mask is one list's (projection.ts: one scope key and
    // admission pattern), so turns whose access differs never share a page; and a page only
    // ever holds documents its own mask accepted.
    const key = `${first}\n${query}`;
    let pages = accept === undefined ? this.#unmaskedPages : this.#pages.get(accept);
    if (pages === undefined) this.#pages.set(accept!, (pages = new Map()));
    let page = pages.get(key);
    if (page !== undefined) {
      pages.delete(key);
      pages.set(key, page);
    } else {
      const { terms, named } = this.#query(query, accept);
      const hits = this.#score(terms, named, accept);
      const best = selectBest(this.#touched, this.#scores, hits, Math.max(1, first));
      for (const hit of best) Object.freeze(hit);
      page = { best: Object.freeze(best), hits };
      pages.set(key, page);
      if (pages.size > PAGES_PER_MASK) pages.delete(pages.keys().next().value!);
    }
    return this.#ranked(page.best, page.hits, () => {
      const { terms, named } = this.#query(query, accept);
      const again = this.#score(terms, named, accept);
      // Copied out: the scratch arrays belong to the next search as soon as this call returns.
      const docs = this.#touched.slice(0, again);
      const scores = new Float64Array(again);
      for (let i = 0; i < again; i += 1) scores[i] = this.#scores[docs[i]!]!;
      return rankLazily(docs, scores);
    });
  }

  /**
   * Runs a query's code once, for a word no catalog is likely to hold, and keeps no page: in a
   * fresh process the first query otherwise compiles that code on a user's turn (about half of
   * its cost at 20,000 tools). Called where the index is prefetched, while the model's round trip
   * is out. It reads no posting (a word that is one reads a rare word's few) and answers no one.
   */
  warm(accept?: Uint8Array): void {
    // A mask's statistics read every document's length once: a turn's mask is primed while the
    // model's round trip is out, and only once (cold in a fresh process, this was most of the
    // first discover after listing: 2.7 → 8 ms at 20,000 tools).
    if (accept !== undefined && this.#masks.has(accept)) return;
    const { terms, named } = this.#query(WARM_QUERY, accept);
    selectBest(this.#touched, this.#scores, this.#score(terms, named, accept), 1);
  }

  /** A mask's statistics, computed on its first search. */
  #statsOf(accept: Uint8Array): MaskStats {
    let stats = this.#masks.get(accept);
    if (stats === undefined) this.#masks.set(accept, (stats = maskStats(this.#segments, this.size, accept)));
    return stats;
  }

  #expandAccepted(prefix: string, accept: Uint8Array, stats: MaskStats): readonly string[] {
    return expandAccepted(this.#segments, prefix, accept, stats);
  }

  #scoreOwn(postings: readonly Posting[], factor: number, accept: Uint8Array, stats: MaskStats, hits: number): number {
    const scratch = { scores: this.#scores, stamp: this.#stamp, touched: this.#touched, epoch: this.#epoch };
    return scoreAccepted(postings, factor, accept, stats, scratch, hits);
  }

  /** The query's tokens with their prefix expansions, and the documents named exactly by it. */
  #query(
    query: string,
    accept?: Uint8Array,
  ): { readonly terms: readonly QueryTerm[]; readonly named: readonly number[] } {
    const mask = accept === undefined ? undefined : this.#statsOf(accept);
    const expand = (token: string): readonly string[] =>
      mask === undefined || mask.full ? this.#expand(token) : this.#expandAccepted(token, accept!, mask);
    const terms: QueryTerm[] = [];
    const seen = new Set<string>();
    for (const token of tokenize(query)) {
      if (seen.has(token)) continue;
      seen.add(token);
      terms.push({ token, factor: 1 });
      if (token.length >= 3 && !CJK.test(token))
        for (const longer of expand(token)) terms.push({ token: longer, factor: PREFIX_WEIGHT });
    }
    return { terms, named: this.#named(query.trim().toLowerCase()) };
  }

  *#ranked(best: readonly SearchHit[], hits: number, rest: () => Iterator<SearchHit>): Generator<SearchHit> {
    yield* best;
    if (best.length === hits) return;
    const more = rest();
    for (let skip = 0; skip < best.length; skip += 1) more.next();
    for (let next = more.next(); !next.done; next = more.next()) yield next.value;
  }

  /** Scores every accepted match into the scratch arrays; returns how many (`#touched[0..n)`). */
  #score(
    terms: readonly { readonly token: string; readonly factor: number }[],
    named: readonly number[],
    accept: Uint8Array | undefined,
  ): number {
    const scores = this.#scores;
    const stamp = this.#stamp;
    if (++this.#epoch === 0xffffffff) {
      stamp.fill(0);
      this.#epoch = 1;
    }
    const epoch = this.#epoch;
    const touched = this.#touched;
    let hits = 0;
    const segments = this.#segments;
    // A mask that leaves documents out scores by its own documents' statistics (below).
    const mask = accept === undefined ? undefined : this.#statsOf(accept);
    const own = mask !== undefined && !mask.full ? mask : undefined;
    const postings: Posting[] = [];
    for (const { token, factor } of terms) {
      postings.length = 0;
      let count = 0;
      for (let s = 0; s < segments.length; s += 1) {
        const posting = segments[s]!.posting(token);
        if (posting !== undefined && posting.docs.length > 0) {
          postings.push(posting);
          count += posting.docs.length;
        }
      }
      if (count === 0) continue;
      if (own !== undefined) {
        hits = this.#scoreOwn(postings, factor, accept!, own, hits);
        continue;
      }
      for (let p = 0; p < postings.length; p += 1) {
        const { docs } = postings[p]!;
        const values = this.#values(postings[p]!, count);
        for (let i = 0; i < docs.length; i += 1) {
          const doc = docs[i]!;
          if (accept !== undefined && accept[doc] !== 1) continue;
          // factor · value is exactly `(factor · idf · tf · (K1 + 1)) / norm`: the factor is 1 or ½.
          const value = factor === 1 ? values[i]! : factor * values[i]!;
          // The same sum as `(score ?? 0) + value`, token by token in query order.
          if (stamp[doc] !== epoch) {
            stamp[doc] = epoch;
            scores[doc] = 0 + value;
            touched[hits++] = doc;
          } else scores[doc] = scores[doc]! + value;
        }
      }
    }
    for (const doc of named) {
      if (accept !== undefined && accept[doc] !== 1) continue;
      if (stamp[doc] !== epoch) {
        stamp[doc] = epoch;
        scores[doc] = 0 + EXACT_NAME_BONUS;
        touched[hits++] = doc;
      } else scores[doc] = scores[doc]! + EXACT_NAME_BONUS;
    }
    return hits;
  }

  /**
   * A posting's BM25 term values at factor 1, computed once per posting object (segments hand
   * out the same object while they keep it; `count` is the token's frequency over every segment).
   */
  #values(posting: Posting, count: number): Float64Array {
    let values = this.#termValues.get(posting);
    if (values !== undefined) return values;
    const { weights, lengths } = posting;
    const average = this.#averageLength;
    const idf = Math.log(1 + (this.size - count + 0.5) / (count + 0.5));
    values = new Float64Array(weights.length);
    for (let i = 0; i < values.length; i += 1) {
      const tf = weights[i]!;
      const norm = tf + K1 * (1 - B + (B * lengths[i]!) / average);
      values[i] = (idf * (tf * (K1 + 1))) / norm;
    }
    this.#termValues.set(posting, values);
    return values;
  }
}
