/**
 * The `discover` index as the compiler ships it beside the manifest (docs/catalog.md#the-search-index):
 * one string, read where it lies. Nothing is split or parsed up front: a query finds its token's
 * line by binary search over the sorted vocabulary lines and decodes only its postings, so loading
 * the index costs the import plus one pass over the document lengths, whatever the catalog's size.
 *
 *     zhin-gen search 1
 *     <tools> <skills> <digits per length> <checksum of sampled names> <vocabulary size> <total length>
 *     <every document's length, fixed width>
 *     <documents whose name is not lower case, space-separated>
 *     <token> <where its postings start>      one line per token, sorted (code-unit order)
 *     <the postings of every token, in vocabulary order, to the end>
 *
 * Documents are the manifest's tools in table order, then its skills. Numbers are base-64 digits
 * (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`); postings are pairs (gap to the previous document − 1,
 * weight) as variable-length numbers of 5 bits per digit, the digits 32–63 meaning "more follows".
 * The checksum (FNV-1a over the names of SAMPLED_NAMES documents spread evenly over the table,
 * first and last included, and over the total length of all names) lets the runtime check in
 * microseconds that the data is the manifest's table: a tool added, removed or renamed since
 * changes it (short of a rename to a name of the same length between two sampled ones, which
 * `zhin-gen check` still reports as a stale index).
 */
import { DIGITS, SEARCH_DATA_HEADER } from './search-format.js';
import { MAX_PREFIX_EXPANSIONS, type Posting, type SearchSegment } from './search.js';

// The compiler (`@zhin-gen/runtime/search`) builds documents with the runtime's own function and
// encodes them with the runtime's own encoder.
export { type SearchDocument, searchDocument } from './search.js';
export { encodeSearchData, SearchEncoder } from './search-encoder.js';
export {
  NAME_CHECKSUM_SEED,
  nameChecksum,
  SAMPLED_NAMES,
  SEARCH_DATA_HEADER,
  sampledChecksum,
} from './search-format.js';

const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i += 1) VALUE[DIGITS.charCodeAt(i)] = i;

/** The header of shipped data, or undefined when it is not data this runtime reads. */
export interface SearchDataHeader {
  readonly tools: number;
  readonly skills: number;
  readonly width: number;
  readonly checksum: number;
  /** The documents' total length. */
  readonly totalLength: number;
  /** Offsets of the lengths line, the vocabulary (token lines) and the postings. */
  readonly lengthsAt: number;
  readonly upper: readonly number[];
  readonly vocabularyAt: number;
  readonly postingsAt: number;
}

export function readSearchHeader(text: unknown): SearchDataHeader | undefined {
  if (typeof text !== 'string' || !text.startsWith(`${SEARCH_DATA_HEADER}\n`)) return undefined;
  const countsAt = SEARCH_DATA_HEADER.length + 1;
  const lengthsAt = text.indexOf('\n', countsAt) + 1;
  const counts = text
    .slice(countsAt, lengthsAt - 1)
    .split(' ')
    .map(Number);
  if (counts.length !== 6 || !counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  const [tools, skills, width, checksum, words, totalLength] = counts as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const upperAt = lengthsAt + (tools + skills) * width + 1;
  if (width < 1 || text.charCodeAt(upperAt - 1) !== 10) return undefined;
  const vocabularyAt = text.indexOf('\n', upperAt) + 1;
  const postingsAt = vocabularyAt + words;
  if (vocabularyAt === 0 || postingsAt > text.length || (words > 0 && text.charCodeAt(postingsAt - 1) !== 10))
    return undefined;
  const upperText = text.slice(upperAt, vocabularyAt - 1);
  const upper = upperText === '' ? [] : upperText.split(' ').map(Number);
  if (!upper.every((n) => Number.isSafeInteger(n) && n >= 0 && n < tools + skills)) return undefined;
  return { tools, skills, width, checksum, totalLength, lengthsAt, upper, vocabularyAt, postingsAt };
}

/** The shipped postings, with document `i` of the data being catalog document `ids[i]`. */
export class ShippedSegment implements SearchSegment {
  readonly #text: string;
  readonly #start: number;
  readonly #end: number;
  readonly #ids: Int32Array;
  readonly #docs: Int32Array;
  readonly #weights: Int32Array;
  readonly #lengths: Int32Array;
  readonly #lengthsAt: number;
  readonly #width: number;
  /**
   * Decoded postings of recent tokens (queries repeat their words): at most about four entries
   * per document in all, the least recently used dropped first.
   */
  readonly #cache = new Map<string, Posting>();
  readonly #budget: number;
  #cached = 0;

  constructor(text: string, header: SearchDataHeader, ids: Int32Array) {
    this.#text = text;
    this.#start = header.vocabularyAt;
    this.#end = header.postingsAt;
    this.#ids = ids;
    this.#docs = new Int32Array(ids.length);
    this.#weights = new Int32Array(ids.length);
    this.#lengths = new Int32Array(ids.length);
    this.#lengthsAt = header.lengthsAt;
    this.#width = header.width;
    this.#budget = 4 * ids.length + 1024;
  }

  /** Offset of the first vocabulary line whose token is ≥ `token` (or the vocabulary's end). */
  #lowerBound(token: string): number {
    const text = this.#text;
    let low = this.#start;
    let high = this.#end;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const lineAt = Math.max(low, text.lastIndexOf('\n', mid - 1) + 1);
      const space = text.indexOf(' ', lineAt);
      if (text.slice(lineAt, space) < token) low = text.indexOf('\n', space) + 1;
      else high = lineAt;
    }
    return low;
  }

  /** Where the postings of the vocabulary line at `at` start (absolute offset). */
  #offset(at: number): number {
    const text = this.#text;
    if (at >= this.#end) return text.length;
    const space = text.indexOf(' ', at);
    return this.#end + Number(text.slice(space + 1, text.indexOf('\n', space)));
  }

  posting(token: string): Posting | undefined {
    const cached = this.#cache.get(token);
    if (cached !== undefined) {
      // Most recently used last: the first key is the one to drop.
      this.#cache.delete(token);
      this.#cache.set(token, cached);
      return cached;
    }
    const decoded = this.#decode(token);
    if (decoded === undefined) return undefined;
    const kept = { docs: decoded.docs.slice(), weights: decoded.weights.slice(), lengths: decoded.lengths.slice() };
    this.#cache.set(token, kept);
    this.#cached += kept.docs.length;
    while (this.#cached > this.#budget && this.#cache.size > 1) {
      const [oldest, posting] = this.#cache.entries().next().value!;
      this.#cache.delete(oldest);
      this.#cached -= posting.docs.length;
    }
    return kept;
  }

  #decode(
    token: string,
  ): { readonly docs: Int32Array; readonly weights: Int32Array; readonly lengths: Int32Array } | undefined {
    const text = this.#text;
    const at = this.#lowerBound(token);
    if (at >= this.#end || text.charCodeAt(at + token.length) !== 32 || !text.startsWith(token, at)) return undefined;
    const from = this.#offset(at);
    const to = this.#offset(text.indexOf('\n', at) + 1);
    // Decoded into scratch arrays, then copied once into the cache at their size.
    const docs = this.#docs;
    const weights = this.#weights;
    const lengths = this.#lengths;
    const ids = this.#ids;
    const lengthsAt = this.#lengthsAt;
    const width = this.#width;
    let count = 0;
    let doc = -1;
    let value = 0;
    let scale = 1;
    let pair = 0;
    for (let i = from; i < to; i += 1) {
      const digit = VALUE[text.charCodeAt(i)]!;
      if (digit >= 32) {
        value += (digit - 32) * scale;
        scale *= 32;
        continue;
      }
      value += digit * scale;
      if (pair === 0) {
        doc += value + 1;
        docs[count] = ids[doc]!;
        // The document's length, read where it lies (fixed width): only matched documents pay.
        let length = 0;
        const lengthAt = lengthsAt + doc * width;
        for (let w = 0; w < width; w += 1) length = length * 64 + VALUE[text.charCodeAt(lengthAt + w)]!;
        lengths[count] = length;
      } else weights[count++] = value;
      pair ^= 1;
      value = 0;
      scale = 1;
    }
    return { docs: docs.subarray(0, count), weights: weights.subarray(0, count), lengths: lengths.subarray(0, count) };
  }

  expand(prefix: string): string[] {
    const text = this.#text;
    const out: string[] = [];
    let at = this.#lowerBound(prefix);
    while (at < this.#end && out.length < MAX_PREFIX_EXPANSIONS) {
      const space = text.indexOf(' ', at);
      const word = text.slice(at, space);
      if (!word.startsWith(prefix)) break;
      if (word !== prefix) out.push(word);
      at = text.indexOf('\n', space) + 1;
    }
    return out;
  }
}
