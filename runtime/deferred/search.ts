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
 * average length are those of the whole catalog, and every score is summed in the same order,
 * so the ranking is the one a single index over every document gives.
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

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
const WORD = /[\p{L}\p{N}]+/gu;
const K1 = 1.2;
const B = 0.75;
const PREFIX_WEIGHT = 0.5;
export const MAX_PREFIX_EXPANSIONS = 64;
const EXACT_NAME_BONUS = 10;

/** Light English normalisation so `tools` finds `tool` and `weathers` finds `weather`. */
function stem(word: string): string {
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

// Printable ASCII and the usual whitespace: the text a fast scan tokenizes exactly as the regexes do.
const PLAIN = /^[\t\n\r\x20-\x7e]*$/;

/**
 * `tokenize` for ASCII text, without regexes: a word is a run of letters and digits, split
 * before an upper-case letter that follows a lower-case letter or a digit (what inserting a
 * space there and matching `[\p{L}\p{N}]+` gives on ASCII), lower-cased and stemmed.
 */
function tokenizePlain(text: string, out: string[]): string[] {
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const upper = code >= 65 && code <= 90;
    const lower = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (upper || lower) {
      if (start < 0) start = i;
      else if (upper) {
        const previous = text.charCodeAt(i - 1);
        if ((previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57)) {
          out.push(stem(text.slice(start, i).toLowerCase()));
          start = i;
        }
      }
    } else if (start >= 0) {
      out.push(stem(text.slice(start, i).toLowerCase()));
      start = -1;
    }
  }
  return out;
}

/** Lower-cased word tokens; camelCase and snake/kebab/`__` names split; CJK as chars + bigrams. */
export function tokenize(text: string): string[] {
  if (PLAIN.test(text)) return tokenizePlain(text, []);
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  for (const match of spaced.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (!CJK.test(word)) {
      out.push(stem(word));
      continue;
    }
    // Mixed runs: split into CJK and non-CJK stretches.
    let latin = '';
    let cjk: string[] = [];
    const flush = () => {
      if (latin) out.push(stem(latin));
      latin = '';
      for (let i = 0; i < cjk.length; i += 1) {
        out.push(cjk[i]!);
        if (i + 1 < cjk.length) out.push(cjk[i]! + cjk[i + 1]!);
      }
      cjk = [];
    };
    for (const char of word) {
      if (CJK.test(char)) {
        if (latin) {
          out.push(stem(latin));
          latin = '';
        }
        cjk.push(char);
      } else {
        if (cjk.length) flush();
        latin += char;
      }
    }
    flush();
  }
  return out;
}

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

/**
 * One document's weighted term frequencies (in first-occurrence order) and length. `into` is
 * cleared and reused when given (the builders call this once per document).
 */
export function termWeights(
  document: SearchDocument,
  into: Map<string, number> = new Map(),
): { readonly weights: Map<string, number>; readonly length: number } {
  const weights = into;
  weights.clear();
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
  /** Up to MAX_PREFIX_EXPANSIONS vocabulary words that start with `prefix` (not itself), sorted. */
  expand(prefix: string): string[];
}

/** Code-unit order: deterministic, and what the prefix binary search needs. */
export function compareTokens(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A segment built at run time over `documents`, whose ids are `ids[i]` (default: i). */
export class BuiltSegment implements SearchSegment {
  readonly #postings = new Map<string, { docs: number[]; weights: number[]; lengths: number[] }>();
  readonly #vocabulary: string[];
  /** The documents' total length. */
  readonly totalLength: number = 0;

  constructor(documents: readonly SearchDocument[], ids?: readonly number[]) {
    const scratch = new Map<string, number>();
    let total = 0;
    documents.forEach((document, index) => {
      const doc = ids ? ids[index]! : index;
      const { weights, length } = termWeights(document, scratch);
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

  expand(prefix: string): string[] {
    const vocabulary = this.#vocabulary;
    let low = 0;
    let high = vocabulary.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (vocabulary[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    const out: string[] = [];
    for (let i = low; i < vocabulary.length && out.length < MAX_PREFIX_EXPANSIONS; i += 1) {
      const word = vocabulary[i]!;
      if (!word.startsWith(prefix)) break;
      if (word !== prefix) out.push(word);
    }
    return out;
  }
}

export interface SearchIndexParts {
  readonly segments: readonly SearchSegment[];
  /** How many documents the catalog has, and their total length (for the average). */
  readonly size: number;
  readonly totalLength: number;
  /** Catalog documents whose lower-cased name is `name` (the exact-name bonus). */
  readonly named: (name: string) => readonly number[];
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

  #expand(prefix: string): string[] {
    if (this.#segments.length === 1) return this.#segments[0]!.expand(prefix);
    const all = [...new Set(this.#segments.flatMap((segment) => segment.expand(prefix)))].sort(compareTokens);
    return all.slice(0, MAX_PREFIX_EXPANSIONS);
  }

  /**
   * Every document matching at least one query token, best first (score desc, doc asc), lazily.
   * With `accept`, only documents `d` with `accept[d] === 1` are scored and handed out: the
   * others' absence changes no accepted document's score (frequencies and lengths are the whole
   * catalog's), so the hits are the unfiltered ranking with the rejected documents taken out.
   */
  search(query: string, accept?: Uint8Array): Iterable<SearchHit> {
    const scores = this.#scores;
    const stamp = this.#stamp;
    if (++this.#epoch === 0xffffffff) {
      stamp.fill(0);
      this.#epoch = 1;
    }
    const epoch = this.#epoch;
    const touched = this.#touched;
    let hits = 0;
    const average = this.#averageLength;
    const segments = this.#segments;
    const size = this.size;
    const postings: Posting[] = [];
    const add = (token: string, factor: number) => {
      postings.length = 0;
      let count = 0;
      for (let s = 0; s < segments.length; s += 1) {
        const posting = segments[s]!.posting(token);
        if (posting !== undefined && posting.docs.length > 0) {
          postings.push(posting);
          count += posting.docs.length;
        }
      }
      if (count === 0) return;
      const idf = Math.log(1 + (size - count + 0.5) / (count + 0.5));
      for (let p = 0; p < postings.length; p += 1) {
        const { docs, weights, lengths } = postings[p]!;
        for (let i = 0; i < docs.length; i += 1) {
          const doc = docs[i]!;
          if (accept !== undefined && accept[doc] !== 1) continue;
          const tf = weights[i]!;
          const norm = tf + K1 * (1 - B + (B * lengths[i]!) / average);
          const value = (factor * idf * (tf * (K1 + 1))) / norm;
          // The same sum as `(score ?? 0) + value`, token by token in query order.
          if (stamp[doc] !== epoch) {
            stamp[doc] = epoch;
            scores[doc] = 0 + value;
            touched[hits++] = doc;
          } else scores[doc] = scores[doc]! + value;
        }
      }
    };
    const seen = new Set<string>();
    for (const token of tokenize(query)) {
      if (seen.has(token)) continue;
      seen.add(token);
      add(token, 1);
      if (token.length >= 3 && !CJK.test(token)) for (const longer of this.#expand(token)) add(longer, PREFIX_WEIGHT);
    }
    for (const doc of this.#named(query.trim().toLowerCase())) {
      if (accept !== undefined && accept[doc] !== 1) continue;
      if (stamp[doc] !== epoch) {
        stamp[doc] = epoch;
        scores[doc] = 0 + EXACT_NAME_BONUS;
        touched[hits++] = doc;
      } else scores[doc] = scores[doc]! + EXACT_NAME_BONUS;
    }
    // Copied out: the scratch arrays belong to the next search as soon as this one returns.
    const heap = touched.slice(0, hits);
    const heapScores = new Float64Array(hits);
    for (let i = 0; i < hits; i += 1) heapScores[i] = scores[heap[i]!]!;
    return rankLazily(heap, heapScores);
  }
}

/**
 * The hits in rank order (score desc, doc asc: the order sorting them all gives), popped from a
 * binary heap over parallel arrays: the first k cost O(n + k log n) and allocate k hits.
 */
function* rankLazily(docs: Int32Array, scores: Float64Array): Generator<SearchHit> {
  const before = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && docs[a]! < docs[b]!);
  const swap = (a: number, b: number) => {
    const doc = docs[a]!;
    docs[a] = docs[b]!;
    docs[b] = doc;
    const score = scores[a]!;
    scores[a] = scores[b]!;
    scores[b] = score;
  };
  const down = (from: number, size: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const best = right < size && before(right, left) ? right : left;
      if (!before(best, at)) return;
      swap(at, best);
      at = best;
    }
  };
  let size = docs.length;
  for (let i = (size >> 1) - 1; i >= 0; i -= 1) down(i, size);
  while (size > 0) {
    const hit = { doc: docs[0]!, score: scores[0]! };
    size -= 1;
    swap(0, size);
    down(0, size);
    yield hit;
  }
}
