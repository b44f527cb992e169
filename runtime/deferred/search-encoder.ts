/**
 * The writer of the shipped `discover` index (the format: search-data.ts). A `SearchEncoder`
 * remembers what it encoded last (each document's term weights, each token's postings and their
 * encoded block), so encoding a catalog again after a few documents changed costs those
 * documents' tokens plus one pass to lay the text out, not tokenizing the whole catalog: the
 * compiler keeps one per compiler instance (watch mode, the dev server). Its output depends only
 * on its input: the same documents give the same bytes as `encodeSearchData`, a fresh encoder.
 */
import { compareTokens, type SearchDocument, termWeights } from './search.js';
import {
  CODES_PER_GAP,
  DIGITS,
  LINE,
  RUN_FOLLOWS,
  RUN_MIN,
  SEARCH_DATA_HEADER,
  sampledChecksum,
  spellToken,
  WEIGHT_FOLLOWS,
} from './search-format.js';

const CODES = Array.from(DIGITS, (digit) => digit.charCodeAt(0));

function varint(value: number, out: number[]): void {
  let rest = value;
  while (rest >= 32) {
    out.push(CODES[32 + (rest & 31)]!);
    rest = Math.floor(rest / 32);
  }
  out.push(CODES[rest]!);
}

function text(codes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.slice(i, i + 8192));
  return out;
}

function fixed(value: number, width: number): string {
  let text = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    text = DIGITS[rest & 63]! + text;
    rest = Math.floor(rest / 64);
  }
  return text;
}

/**
 * One document as last encoded. Kept small because an encoder lives as long as its compiler and
 * a fresh one holds every document of the catalog at once: its terms as two strings, not a Map
 * and arrays per document (those, with copies of the fields, held ~33 MB at 20,000 tools, which
 * a cold CLI run carried to its exit as peak RSS). Documents are values: one passed again (the
 * same object) is taken as unchanged without a look at its fields.
 */
interface Indexed {
  readonly document: SearchDocument;
  /** Its distinct tokens in first-occurrence order, joined by NUL (no token holds one: tokenize.ts). */
  readonly terms: string;
  /** Each token's weight in the same order: one UTF-16 code unit each, three from WIDE up. */
  readonly weights: string;
  readonly length: number;
  /** Whether its name is not lower case. */
  readonly upper: boolean;
}

/** One token's documents (ascending) and their weights, interleaved, and its encoded block while current. */
interface TokenPostings {
  /** doc, weight, doc, weight, … */
  readonly entries: number[];
  block: string | undefined;
}

/** A weight at or above this takes three code units in `Indexed.weights`: the mark, then two halves. */
const WIDE = 0xffff;

/** Calls `each` with every term of an indexed document and its weight, in order. */
function eachTerm(indexed: Indexed, each: (term: string, weight: number) => void): void {
  const codes = indexed.weights;
  if (codes === '') return;
  let at = 0;
  for (const term of indexed.terms.split('\0')) {
    const code = codes.charCodeAt(at++);
    each(term, code < WIDE ? code : codes.charCodeAt(at++) * 0x10000 + codes.charCodeAt(at++));
  }
}

/** An indexed document's terms as a map (an edit's previous document). */
function termsOf(indexed: Indexed): Map<string, number> {
  const out = new Map<string, number>();
  eachTerm(indexed, (term, weight) => out.set(term, weight));
  return out;
}

/** A document's index entry from its term weights. */
function indexedOf(document: SearchDocument, weights: ReadonlyMap<string, number>, length: number): Indexed {
  let codes = '';
  for (const weight of weights.values())
    codes +=
      weight < WIDE
        ? String.fromCharCode(weight)
        : String.fromCharCode(WIDE, Math.floor(weight / 0x10000), weight % 0x10000);
  return {
    document,
    terms: [...weights.keys()].join('\0'),
    weights: codes,
    length,
    upper: document.name.toLowerCase() !== document.name,
  };
}

/** Whether two documents read the same to the index. */
function same(a: SearchDocument, b: SearchDocument): boolean {
  if (a === b) return true;
  if (a.name !== b.name || a.fields.length !== b.fields.length) return false;
  return b.fields.every((field, i) => field.text === a.fields[i]!.text && field.weight === a.fields[i]!.weight);
}

/** The key of `document` among a rebuild's reused documents, unambiguous. */
function documentKey(document: SearchDocument): string {
  let key = `${document.name.length}:${document.name}`;
  for (const field of document.fields) key += `|${field.weight}:${field.text.length}:${field.text}`;
  return key;
}

/** Where document `doc` is or would go among the interleaved `entries` (an even index). */
function lowerBound(entries: readonly number[], doc: number): number {
  let low = 0;
  let high = entries.length / 2;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (entries[mid * 2]! < doc) low = mid + 1;
    else high = mid;
  }
  return low * 2;
}

function block(postings: TokenPostings): string {
  const codes: number[] = [];
  const { entries } = postings;
  const count = entries.length / 2;
  let last = -1;
  for (let i = 0; i < count; ) {
    const doc = entries[i * 2]!;
    const weight = entries[i * 2 + 1]!;
    let run = 1;
    while (i + run < count && entries[(i + run) * 2] === doc + run && entries[(i + run) * 2 + 1] === weight) run += 1;
    const gap = (doc - last - 1) * CODES_PER_GAP;
    if (run >= RUN_MIN) {
      varint(gap + RUN_FOLLOWS, codes);
      varint(run - RUN_MIN, codes);
      varint(weight, codes);
    } else {
      run = 1;
      if (weight >= 1 && weight <= WEIGHT_FOLLOWS) varint(gap + weight - 1, codes);
      else {
        varint(gap + WEIGHT_FOLLOWS, codes);
        varint(weight, codes);
      }
    }
    i += run;
    last = doc + run - 1;
  }
  return text(codes);
}

/** Above this share of changed documents, indexing all of them again is as cheap as patching. */
const PATCH_LIMIT = 1 / 8;

export class SearchEncoder {
  #docs: Indexed[] = [];
  readonly #postings = new Map<string, TokenPostings>();
  /** The tokens in code-unit order, undefined once a token was added or removed. */
  #vocabulary: string[] | undefined;
  #indexed = 0;

  /**
   * Documents tokenized and weighed so far (a rebuild reuses unchanged ones, a patch indexes the
   * changed ones): the compiler reports each run's share, so an edit's cost is visible.
   */
  get indexed(): number {
    return this.#indexed;
  }

  /** The shipped index over `tools` then `skills` (the same tokenizer as the runtime). */
  encode(tools: readonly SearchDocument[], skills: readonly SearchDocument[]): string {
    const documents = [...tools, ...skills];
    const docs = this.#docs;
    const changed: number[] = [];
    if (docs.length === documents.length)
      for (let doc = 0; doc < documents.length; doc += 1)
        if (!same(docs[doc]!.document, documents[doc]!)) changed.push(doc);
    if (docs.length !== documents.length || changed.length > Math.max(16, documents.length * PATCH_LIMIT))
      this.#rebuild(documents);
    else for (const doc of changed) this.#replace(doc, documents[doc]!);
    return this.#text(tools.length, skills.length);
  }

  /**
   * Every posting again, reusing the term weights of documents whose text is unchanged; a
   * catalog that gained or lost a few documents is renumbered instead (`#renumber`).
   */
  #rebuild(documents: readonly SearchDocument[]): void {
    const old = this.#docs;
    // Each key's first document, and after each document the next one with its key (equal
    // documents are rare, but each must find its own). A fresh encoder has no keys to build.
    const known = new Map<string, number>();
    const sameKey = new Int32Array(old.length).fill(-1);
    for (let at = old.length - 1; at >= 0; at -= 1) {
      const key = documentKey(old[at]!.document);
      sameKey[at] = known.get(key) ?? -1;
      known.set(key, at);
    }
    if (old.length > 0 && this.#renumber(documents, known, sameKey)) return;
    const postings = this.#postings;
    postings.clear();
    this.#vocabulary = undefined;
    const add = (token: string, doc: number, weight: number): void => {
      const posting = postings.get(token);
      // A literal of two: most tokens of a large catalog are in one document (a pushed-to empty
      // array reserves seventeen slots).
      if (posting) posting.entries.push(doc, weight);
      else postings.set(token, { entries: [doc, weight], block: undefined });
    };
    this.#docs = documents.map((document, doc) => {
      const at = known.size === 0 ? undefined : known.get(documentKey(document));
      const reused = at === undefined ? undefined : old[at];
      if (reused && same(reused.document, document)) {
        eachTerm(reused, (token, weight) => add(token, doc, weight));
        return reused;
      }
      this.#indexed += 1;
      const { weights, length } = termWeights(document);
      for (const [token, weight] of weights) add(token, doc, weight);
      return indexedOf(document, weights, length);
    });
  }

  /**
   * A tool added or removed shifts every later document's number: the postings are renumbered
   * in place (no document's terms read again) and only the documents that are new, or that
   * moved against the order of the others, are tokenized and inserted. Declines (false) when
   * more than a patch's share of the documents would be tokenized. `known` and `sameKey` are
   * the current documents by key (`#rebuild`).
   */
  #renumber(documents: readonly SearchDocument[], known: ReadonlyMap<string, number>, sameKey: Int32Array): boolean {
    const old = this.#docs;
    const limit = Math.max(16, documents.length * PATCH_LIMIT);
    const moved = new Int32Array(old.length).fill(-1);
    const next: Indexed[] = new Array(documents.length);
    const fresh: number[] = [];
    let last = -1;
    for (let doc = 0; doc < documents.length; doc += 1) {
      const document = documents[doc]!;
      let at = known.get(documentKey(document)) ?? -1;
      while (at !== -1 && at <= last) at = sameKey[at]!;
      // Kept in order, so every posting stays ascending after its numbers are replaced.
      if (at !== -1 && same(old[at]!.document, document)) {
        moved[at] = doc;
        next[doc] = old[at]!;
        last = at;
      } else if (fresh.push(doc) > limit) return false;
    }
    const postings = this.#postings;
    for (const [token, posting] of postings) {
      const { entries } = posting;
      let kept = 0;
      let changed = false;
      for (let i = 0; i < entries.length; i += 2) {
        const to = moved[entries[i]!]!;
        if (to === -1) {
          changed = true;
          continue;
        }
        if (to !== entries[i]) changed = true;
        entries[kept++] = to;
        entries[kept++] = entries[i + 1]!;
      }
      entries.length = kept;
      if (changed) posting.block = undefined;
      if (kept === 0) this.#dropToken(token);
    }
    for (const doc of fresh) {
      const document = documents[doc]!;
      const { weights, length } = termWeights(document);
      for (const [token, weight] of weights) this.#insert(token, doc, weight);
      next[doc] = indexedOf(document, weights, length);
      this.#indexed += 1;
    }
    this.#docs = next;
    return true;
  }

  /** `doc` with `weight` into the postings of `token` (made when it has none). */
  #insert(token: string, doc: number, weight: number): void {
    let posting = this.#postings.get(token);
    if (!posting) {
      this.#postings.set(token, (posting = { entries: [], block: undefined }));
      const vocabulary = this.#vocabulary;
      if (vocabulary) vocabulary.splice(insertionPoint(vocabulary, token), 0, token);
    }
    posting.entries.splice(lowerBound(posting.entries, doc), 0, doc, weight);
    posting.block = undefined;
  }

  /** A token no document has any more. */
  #dropToken(token: string): void {
    this.#postings.delete(token);
    const vocabulary = this.#vocabulary;
    if (vocabulary) vocabulary.splice(insertionPoint(vocabulary, token), 1);
  }

  /** Document `doc` is now `document`: only the tokens whose weight in it changed are touched. */
  #replace(doc: number, document: SearchDocument): void {
    const previous = termsOf(this.#docs[doc]!);
    this.#indexed += 1;
    const { weights: next, length } = termWeights(document);
    const postings = this.#postings;
    for (const [token, weight] of previous) {
      if (next.get(token) === weight) continue;
      const posting = postings.get(token)!;
      posting.entries.splice(lowerBound(posting.entries, doc), 2);
      posting.block = undefined;
      if (posting.entries.length === 0) this.#dropToken(token);
    }
    for (const [token, weight] of next) if (previous.get(token) !== weight) this.#insert(token, doc, weight);
    this.#docs[doc] = indexedOf(document, next, length);
  }

  #text(tools: number, skills: number): string {
    const docs = this.#docs;
    let names = 0;
    let longest = 0;
    let total = 0;
    const upper: number[] = [];
    docs.forEach((indexed, doc) => {
      names += indexed.document.name.length;
      longest = Math.max(longest, indexed.length);
      total += indexed.length;
      if (indexed.upper) upper.push(doc);
    });
    const checksum = sampledChecksum(docs.length, (doc) => docs[doc]!.document.name, names);
    let width = 1;
    while (64 ** width <= longest) width += 1;
    // One line per token, its postings after the space: the binary search lands in a line and
    // reads its token, and a query's postings are the rest of that line. Tokens are spelled in
    // ASCII (spellToken), in the same order as the raw tokens sorted here.
    const vocabulary = (this.#vocabulary ??= [...this.#postings.keys()].sort(compareTokens));
    const lines: string[] = [];
    for (const token of vocabulary) {
      const posting = this.#postings.get(token)!;
      lines.push(`${spellToken(token)} ${(posting.block ??= block(posting))}${LINE}`);
    }
    return `${[
      SEARCH_DATA_HEADER,
      `${tools} ${skills} ${width} ${checksum} ${vocabulary.length} ${total}`,
      docs.map((indexed) => fixed(indexed.length, width)).join(''),
      upper.join(' '),
    ].join(LINE)}${LINE}${lines.join('')}`;
  }
}

/** Where `token` is or would go in the sorted `vocabulary`. */
function insertionPoint(vocabulary: readonly string[], token: string): number {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (compareTokens(vocabulary[mid]!, token) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The shipped index over `tools` then `skills`, from nothing (a fresh encoder). */
export function encodeSearchData(tools: readonly SearchDocument[], skills: readonly SearchDocument[]): string {
  return new SearchEncoder().encode(tools, skills);
}
