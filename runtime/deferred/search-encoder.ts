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

/** One document as last encoded. */
interface Indexed {
  /** The document it was made from (a caller that keeps unchanged documents is compared by identity). */
  readonly document: SearchDocument;
  /** Everything the index reads of the document, copied (a document is compared field by field). */
  readonly name: string;
  readonly fields: readonly { readonly text: string; readonly weight: number }[];
  readonly weights: ReadonlyMap<string, number>;
  readonly length: number;
  /** Whether its name is not lower case. */
  readonly upper: boolean;
}

/** One token's documents (ascending) with their weights, and its encoded block while current. */
interface TokenPostings {
  readonly docs: number[];
  readonly weights: number[];
  block: string | undefined;
}

/** Whether the index reads the same of `document` as of `indexed`. */
function same(indexed: Indexed, document: SearchDocument): boolean {
  if (indexed.document === document) return true;
  if (indexed.name !== document.name || indexed.fields.length !== document.fields.length) return false;
  return document.fields.every(
    (field, i) => field.text === indexed.fields[i]!.text && field.weight === indexed.fields[i]!.weight,
  );
}

/** The key of `document` among a rebuild's reused documents, unambiguous. */
function documentKey(document: SearchDocument): string {
  let key = `${document.name.length}:${document.name}`;
  for (const field of document.fields) key += `|${field.weight}:${field.text.length}:${field.text}`;
  return key;
}

function lowerBound(docs: readonly number[], doc: number): number {
  let low = 0;
  let high = docs.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (docs[mid]! < doc) low = mid + 1;
    else high = mid;
  }
  return low;
}

function block(postings: TokenPostings): string {
  const codes: number[] = [];
  const { docs, weights } = postings;
  let last = -1;
  for (let i = 0; i < docs.length; ) {
    const doc = docs[i]!;
    const weight = weights[i]!;
    let run = 1;
    while (i + run < docs.length && docs[i + run] === doc + run && weights[i + run] === weight) run += 1;
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

  #index(document: SearchDocument): Indexed {
    this.#indexed += 1;
    return index(document);
  }

  /** The shipped index over `tools` then `skills` (the same tokenizer as the runtime). */
  encode(tools: readonly SearchDocument[], skills: readonly SearchDocument[]): string {
    const documents = [...tools, ...skills];
    const docs = this.#docs;
    const changed: number[] = [];
    if (docs.length === documents.length)
      for (let doc = 0; doc < documents.length; doc += 1) if (!same(docs[doc]!, documents[doc]!)) changed.push(doc);
    if (docs.length !== documents.length || changed.length > Math.max(16, documents.length * PATCH_LIMIT))
      this.#rebuild(documents);
    else for (const doc of changed) this.#replace(doc, this.#index(documents[doc]!));
    return this.#text(tools.length, skills.length);
  }

  /** Every posting again, reusing the term weights of documents whose text is unchanged. */
  #rebuild(documents: readonly SearchDocument[]): void {
    const known = new Map<string, Indexed>();
    for (const indexed of this.#docs) known.set(documentKey(indexed), indexed);
    // A fresh encoder has nothing to reuse: no keys to build.
    this.#docs = documents.map((document) => {
      const indexed = known.size === 0 ? undefined : known.get(documentKey(document));
      return indexed && same(indexed, document) ? indexed : this.#index(document);
    });
    const postings = this.#postings;
    postings.clear();
    this.#vocabulary = undefined;
    this.#docs.forEach((indexed, doc) => {
      for (const [token, weight] of indexed.weights) {
        let posting = postings.get(token);
        if (!posting) postings.set(token, (posting = { docs: [], weights: [], block: undefined }));
        posting.docs.push(doc);
        posting.weights.push(weight);
      }
    });
  }

  /** Document `doc` is now `next`: only the tokens whose weight in it changed are touched. */
  #replace(doc: number, next: Indexed): void {
    const previous = this.#docs[doc]!;
    const postings = this.#postings;
    for (const [token, weight] of previous.weights) {
      if (next.weights.get(token) === weight) continue;
      const posting = postings.get(token)!;
      const at = lowerBound(posting.docs, doc);
      posting.docs.splice(at, 1);
      posting.weights.splice(at, 1);
      posting.block = undefined;
      if (posting.docs.length === 0) {
        postings.delete(token);
        const vocabulary = this.#vocabulary;
        if (vocabulary) vocabulary.splice(insertionPoint(vocabulary, token), 1);
      }
    }
    for (const [token, weight] of next.weights) {
      if (previous.weights.get(token) === weight) continue;
      let posting = postings.get(token);
      if (!posting) {
        postings.set(token, (posting = { docs: [], weights: [], block: undefined }));
        const vocabulary = this.#vocabulary;
        if (vocabulary) vocabulary.splice(insertionPoint(vocabulary, token), 0, token);
      }
      const at = lowerBound(posting.docs, doc);
      posting.docs.splice(at, 0, doc);
      posting.weights.splice(at, 0, weight);
      posting.block = undefined;
    }
    this.#docs[doc] = next;
  }

  #text(tools: number, skills: number): string {
    const docs = this.#docs;
    let names = 0;
    let longest = 0;
    let total = 0;
    const upper: number[] = [];
    docs.forEach((indexed, doc) => {
      names += indexed.name.length;
      longest = Math.max(longest, indexed.length);
      total += indexed.length;
      if (indexed.upper) upper.push(doc);
    });
    const checksum = sampledChecksum(docs.length, (doc) => docs[doc]!.name, names);
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

function index(document: SearchDocument): Indexed {
  const { weights, length } = termWeights(document, new Map());
  const { name } = document;
  const fields = document.fields.map(({ text, weight }) => ({ text, weight }));
  return { document, name, fields, weights, length, upper: name.toLowerCase() !== name };
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
