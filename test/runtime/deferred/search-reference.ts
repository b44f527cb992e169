/**
 * The search index as it was before documents could come from shipped data: one runtime-built
 * index, every hit scored and sorted. Kept as the oracle of test/runtime/deferred/search.test.ts
 * with the tokenizer as it was (regexes only).
 */
import type { SearchDocument, SearchHit } from '../../../runtime/deferred/search.js';

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
const K1 = 1.2;
const B = 0.75;
const PREFIX_WEIGHT = 0.5;
const MAX_PREFIX_EXPANSIONS = 64;
const EXACT_NAME_BONUS = 10;
const WORD = /[\p{L}\p{N}]+/gu;

/** Light English normalisation so `tools` finds `tool` and `weathers` finds `weather`. */
function stem(word: string): string {
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Lower-cased word tokens; camelCase and snake/kebab/`__` names split; CJK as chars + bigrams. */
export function referenceTokenize(text: string): string[] {
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

export class ReferenceIndex {
  readonly #postings = new Map<string, { docs: number[]; weights: number[] }>();
  readonly #vocabulary: string[];
  readonly #lengths: Float64Array;
  readonly #averageLength: number;
  readonly #names = new Map<string, number[]>();
  readonly size: number;

  constructor(documents: readonly SearchDocument[]) {
    this.size = documents.length;
    this.#lengths = new Float64Array(documents.length);
    let total = 0;
    documents.forEach((document, doc) => {
      const weights = new Map<string, number>();
      let length = 0;
      for (const field of document.fields) {
        for (const token of referenceTokenize(field.text)) {
          weights.set(token, (weights.get(token) ?? 0) + field.weight);
          length += field.weight;
        }
      }
      for (const [token, weight] of weights) {
        let posting = this.#postings.get(token);
        if (!posting) this.#postings.set(token, (posting = { docs: [], weights: [] }));
        posting.docs.push(doc);
        posting.weights.push(weight);
      }
      this.#lengths[doc] = length;
      total += length;
      const name = document.name.toLowerCase();
      const same = this.#names.get(name);
      if (same) same.push(doc);
      else this.#names.set(name, [doc]);
    });
    this.#averageLength = documents.length ? total / documents.length : 1;
    // Plain code-unit order: deterministic and what the prefix binary search needs.
    this.#vocabulary = [...this.#postings.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Vocabulary entries starting with `prefix` (excluding the prefix itself), bounded. */
  #expand(prefix: string): string[] {
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

  /** Every document matching at least one query token, best first (score desc, doc asc). */
  search(query: string): SearchHit[] {
    const scores = new Map<number, number>();
    const add = (token: string, factor: number) => {
      const posting = this.#postings.get(token);
      if (!posting) return;
      const idf = Math.log(1 + (this.size - posting.docs.length + 0.5) / (posting.docs.length + 0.5));
      for (let i = 0; i < posting.docs.length; i += 1) {
        const doc = posting.docs[i]!;
        const tf = posting.weights[i]!;
        const norm = tf + K1 * (1 - B + (B * this.#lengths[doc]!) / this.#averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (factor * idf * (tf * (K1 + 1))) / norm);
      }
    };
    const seen = new Set<string>();
    for (const token of referenceTokenize(query)) {
      if (seen.has(token)) continue;
      seen.add(token);
      add(token, 1);
      if (token.length >= 3 && !CJK.test(token)) for (const longer of this.#expand(token)) add(longer, PREFIX_WEIGHT);
    }
    for (const doc of this.#names.get(query.trim().toLowerCase()) ?? [])
      scores.set(doc, (scores.get(doc) ?? 0) + EXACT_NAME_BONUS);
    const hits: SearchHit[] = [];
    for (const [doc, score] of scores) hits.push({ doc, score });
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return hits;
  }
}

/**
 * The reference over the documents `accept` accepts only, its hits named by their ids among all
 * `documents`: what a search under that mask must answer (an index that never held the others).
 */
export function acceptedReference(
  documents: readonly SearchDocument[],
  accept: Uint8Array,
): { search(query: string): SearchHit[] } {
  const ids: number[] = [];
  const subset: SearchDocument[] = [];
  documents.forEach((document, doc) => {
    if (accept[doc] !== 1) return;
    ids.push(doc);
    subset.push(document);
  });
  const index = new ReferenceIndex(subset);
  return { search: (query) => index.search(query).map((hit) => ({ doc: ids[hit.doc]!, score: hit.score })) };
}
