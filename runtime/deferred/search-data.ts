/**
 * The `discover` index as the compiler ships it beside the manifest (docs/catalog.md#the-search-index):
 * one string, read where it lies. Nothing is split or parsed up front: a query finds its token's
 * line by binary search over the sorted lines and decodes only that line's postings, so loading
 * the index costs the import plus reading its header, whatever the catalog's size.
 *
 *     zhin-gen search 3|
 *     <tools> <skills> <digits per length> <checksum of sampled names> <tokens> <total length>|
 *     <every document's length, fixed width>|
 *     <documents whose name is not lower case, space-separated>|
 *     <token> <its postings>|      one line per token, sorted (code-unit order), to the end
 *
 * A token's code units above ASCII are spelled `~` and four hex digits (search-format.ts
 * spellToken): the module stays one-byte for a catalog in Chinese, and the order is the same.
 * Each line ends with LINE (`|`, not a line feed: see search-format.ts).
 * Documents are the manifest's tools in table order, then its skills. Numbers are base-64 digits
 * (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`); in postings, variable-length numbers of 5 bits per digit,
 * the digits 32–63 meaning "more follows". A token's postings are entries in ascending document
 * order, each a number `gap · 8 + code` (gap: documents skipped since the previous entry's last)
 * and what its code says follows (search-format.ts): one document of a usual weight, one document
 * and its weight, or a run of consecutive documents of one weight. The import of the module is
 * most of a first `discover`'s cost, and a JS engine scans a string literal in time linear in its
 * length: offsets into a separate postings section and a number per document for a word shared by
 * a plugin's tools made it three times as long on the bench's 20,000-tool tree (docs/bench.md).
 * The checksum (FNV-1a over the names of SAMPLED_NAMES documents spread evenly over the table,
 * first and last included, and over the total length of all names) lets the runtime check in
 * microseconds that the data is the manifest's table: a tool added, removed or renamed since
 * changes it (short of a rename to a name of the same length between two sampled ones, which
 * `zhin-gen check` still reports as a stale index).
 */
import {
  CODES_PER_GAP,
  DIGITS,
  LINE,
  LINE_CODE,
  RUN_FOLLOWS,
  RUN_MIN,
  readToken,
  SEARCH_DATA_HEADER,
  spellToken,
  WEIGHT_FOLLOWS,
} from './search-format.js';
import { MAX_PREFIX_EXPANSIONS, type Posting, type SearchSegment } from './search-segment.js';

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
  /** How many tokens (lines) the vocabulary has. */
  readonly tokens: number;
  /** The documents' total length. */
  readonly totalLength: number;
  /** Offsets of the lengths line and of the first token line. */
  readonly lengthsAt: number;
  readonly upper: readonly number[];
  readonly vocabularyAt: number;
}

export function readSearchHeader(text: unknown): SearchDataHeader | undefined {
  if (typeof text !== 'string' || !text.startsWith(`${SEARCH_DATA_HEADER}${LINE}`)) return undefined;
  const countsAt = SEARCH_DATA_HEADER.length + 1;
  const lengthsAt = text.indexOf(LINE, countsAt) + 1;
  const counts = text
    .slice(countsAt, lengthsAt - 1)
    .split(' ')
    .map(Number);
  if (counts.length !== 6 || !counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  const [tools, skills, width, checksum, tokens, totalLength] = counts as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const upperAt = lengthsAt + (tools + skills) * width + 1;
  if (width < 1 || text.charCodeAt(upperAt - 1) !== LINE_CODE) return undefined;
  const vocabularyAt = text.indexOf(LINE, upperAt) + 1;
  if (vocabularyAt === 0) return undefined;
  // Every token line ends with a line feed; no tokens, no lines.
  if (tokens === 0 ? vocabularyAt !== text.length : text.charCodeAt(text.length - 1) !== LINE_CODE) return undefined;
  const upperText = text.slice(upperAt, vocabularyAt - 1);
  const upper = upperText === '' ? [] : upperText.split(' ').map(Number);
  if (!upper.every((n) => Number.isSafeInteger(n) && n >= 0 && n < tools + skills)) return undefined;
  return { tools, skills, width, checksum, tokens, totalLength, lengthsAt, upper, vocabularyAt };
}

/** The shipped postings, with document `i` of the data being catalog document `ids[i]`. */
export class ShippedSegment implements SearchSegment {
  readonly #text: string;
  readonly #start: number;
  readonly #ids: Int32Array;
  readonly #docs: Int32Array;
  readonly #weights: Int32Array;
  readonly #lengths: Int32Array;
  readonly #lengthsAt: number;
  readonly #width: number;
  readonly #totalLength: number;
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
    this.#ids = ids;
    this.#docs = new Int32Array(ids.length);
    this.#weights = new Int32Array(ids.length);
    this.#lengths = new Int32Array(ids.length);
    this.#lengthsAt = header.lengthsAt;
    this.#width = header.width;
    this.#totalLength = header.totalLength;
    this.#budget = 4 * ids.length + 1024;
  }

  /** Offset of the first line whose token is ≥ `token` (or the text's end). */
  #lowerBound(token: string): number {
    const text = this.#text;
    let low = this.#start;
    let high = text.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const lineAt = Math.max(low, text.lastIndexOf(LINE, mid - 1) + 1);
      const space = text.indexOf(' ', lineAt);
      if (text.slice(lineAt, space) < token) low = text.indexOf(LINE, space) + 1;
      else high = lineAt;
    }
    return low;
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

  /**
   * Reads the postings of `raw`'s line, document by document (its index in the data, its weight),
   * until `visit` returns false; false when the vocabulary has no such token.
   */
  #walk(raw: string, visit: (doc: number, weight: number) => boolean): boolean {
    const text = this.#text;
    const token = spellToken(raw);
    const at = this.#lowerBound(token);
    if (at >= text.length || text.charCodeAt(at + token.length) !== 32 || !text.startsWith(token, at)) return false;
    this.#walkLine(at + token.length + 1, visit);
    return true;
  }

  /** Reads the postings that start at `from` (after a line's token and its space). */
  #walkLine(from: number, visit: (doc: number, weight: number) => boolean): void {
    const text = this.#text;
    const end = text.indexOf(LINE, from);
    const size = this.#ids.length;
    let doc = -1;
    let i = from;
    // One variable-length number at `i` (data that ends early reads as -1: decoding stops).
    const next = (): number => {
      let value = 0;
      let scale = 1;
      while (i < end) {
        const digit = VALUE[text.charCodeAt(i++)]!;
        if (digit < 32) return digit < 0 ? -1 : value + digit * scale;
        value += (digit - 32) * scale;
        scale *= 32;
      }
      return -1;
    };
    while (i < end) {
      const entry = next();
      if (entry < 0) break;
      const code = entry % CODES_PER_GAP;
      let run = 1;
      let weight = code + 1;
      if (code === RUN_FOLLOWS) {
        const more = next();
        run = more < 0 ? -1 : more + RUN_MIN;
        weight = next();
      } else if (code === WEIGHT_FOLLOWS) weight = next();
      doc += (entry - code) / CODES_PER_GAP + 1;
      // Data that does not fit the table (or ends early) is not read further.
      if (weight < 0 || run < 0 || doc + run > size) break;
      for (let r = 0; r < run; r += 1, doc += 1) if (!visit(doc, weight)) return;
      doc -= 1;
    }
  }

  #decode(
    raw: string,
  ): { readonly docs: Int32Array; readonly weights: Int32Array; readonly lengths: Int32Array } | undefined {
    const text = this.#text;
    // Decoded into scratch arrays, then copied once into the cache at their size.
    const docs = this.#docs;
    const weights = this.#weights;
    const lengths = this.#lengths;
    const ids = this.#ids;
    const lengthsAt = this.#lengthsAt;
    const width = this.#width;
    let count = 0;
    const found = this.#walk(raw, (doc, weight) => {
      docs[count] = ids[doc]!;
      weights[count] = weight;
      // The document's length, read where it lies (fixed width): only matched documents pay.
      let length = 0;
      const lengthAt = lengthsAt + doc * width;
      for (let w = 0; w < width; w += 1) length = length * 64 + VALUE[text.charCodeAt(lengthAt + w)]!;
      lengths[count++] = length;
      return true;
    });
    if (!found) return undefined;
    return { docs: docs.subarray(0, count), weights: weights.subarray(0, count), lengths: lengths.subarray(0, count) };
  }

  /** Whether the postings that start at `from` hold a document `accept` accepts. */
  #lineHolds(from: number, accept: Uint8Array): boolean {
    const ids = this.#ids;
    let held = false;
    this.#walkLine(from, (doc) => {
      held = accept[ids[doc]!] === 1;
      return !held;
    });
    return held;
  }

  accepted(accept: Uint8Array): { readonly count: number; readonly length: number } {
    const text = this.#text;
    const ids = this.#ids;
    const width = this.#width;
    // The rejected documents' lengths are read, not the accepted ones': a turn's mask leaves out
    // a few tools of thousands (the whole data's total is in its header).
    let rejected = 0;
    let length = this.#totalLength;
    for (let doc = 0; doc < ids.length; doc += 1) {
      if (accept[ids[doc]!] === 1) continue;
      rejected += 1;
      let value = 0;
      const at = this.#lengthsAt + doc * width;
      for (let w = 0; w < width; w += 1) value = value * 64 + VALUE[text.charCodeAt(at + w)]!;
      length -= value;
    }
    return { count: ids.length - rejected, length };
  }

  expand(raw: string, limit = MAX_PREFIX_EXPANSIONS, accept?: Uint8Array): string[] {
    const text = this.#text;
    const out: string[] = [];
    const prefix = spellToken(raw);
    let at = this.#lowerBound(prefix);
    while (at < text.length && out.length < limit) {
      const space = text.indexOf(' ', at);
      // Compared in place: a masked expansion may pass thousands of words it does not keep.
      if (!text.startsWith(prefix, at) || space - at < prefix.length) break;
      if (space - at > prefix.length && (accept === undefined || this.#lineHolds(space + 1, accept)))
        out.push(readToken(text.slice(at, space)));
      at = text.indexOf(LINE, space) + 1;
    }
    return out;
  }
}
