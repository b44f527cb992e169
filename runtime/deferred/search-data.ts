/**
 * The `discover` index as the compiler ships it beside the manifest (docs/catalog.md#the-search-index):
 * one string, read where it lies. Nothing is split or parsed up front: a query finds its token's
 * line by binary search over the sorted lines and decodes only that line's postings, so loading
 * the index costs the import plus one pass over the document lengths, whatever the catalog's size.
 *
 *     zhin-gen search 1
 *     <tool documents> <skill documents> <digits per length> <checksum of the documents' names>
 *     <every document's length, fixed width>
 *     <documents whose name is not lower case, space-separated>
 *     <token> <postings>            one line per token, sorted (code-unit order)
 *
 * Documents are the manifest's tools in table order, then its skills. Numbers are base-64 digits
 * (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`); postings are pairs (gap to the previous document − 1,
 * weight) as variable-length numbers of 5 bits per digit, the digits 32–63 meaning "more follows".
 * The checksum (FNV-1a over the names, each followed by a line feed) lets the runtime check that
 * the data describes the manifest's table without reading anything but the names.
 */
import {
  compareTokens,
  MAX_PREFIX_EXPANSIONS,
  type Posting,
  type SearchDocument,
  type SearchSegment,
  termWeights,
} from './search.js';

// The compiler (`@zhin-gen/runtime/search`) builds documents with the runtime's own function.
export { searchDocument, type SearchDocument } from './search.js';

export const SEARCH_DATA_HEADER = 'zhin-gen search 1';

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < DIGITS.length; i += 1) VALUE[DIGITS.charCodeAt(i)] = i;

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

/** FNV-1a (32 bits) over names, each followed by a line feed; start from NAME_CHECKSUM_SEED. */
export const NAME_CHECKSUM_SEED = 0x811c9dc5;

export function nameChecksum(hash: number, name: string): number {
  let h = hash;
  for (let i = 0; i < name.length; i += 1) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ 10, 0x01000193) >>> 0;
}

/** The shipped index over `tools` then `skills` (the compiler's side; the same tokenizer as the runtime). */
export function encodeSearchData(tools: readonly SearchDocument[], skills: readonly SearchDocument[]): string {
  const documents = [...tools, ...skills];
  // Per token: the encoded postings so far and the last document in them.
  const postings = new Map<string, { codes: number[]; last: number }>();
  const lengths: number[] = [];
  const upper: number[] = [];
  const scratch = new Map<string, number>();
  let checksum = NAME_CHECKSUM_SEED;
  documents.forEach((document, doc) => {
    checksum = nameChecksum(checksum, document.name);
    const { weights, length } = termWeights(document, scratch);
    for (const [token, weight] of weights) {
      let posting = postings.get(token);
      if (!posting) postings.set(token, (posting = { codes: [], last: -1 }));
      varint(doc - posting.last - 1, posting.codes);
      varint(weight, posting.codes);
      posting.last = doc;
    }
    lengths.push(length);
    if (document.name.toLowerCase() !== document.name) upper.push(doc);
  });
  let width = 1;
  const longest = Math.max(0, ...lengths);
  while (64 ** width <= longest) width += 1;
  const lines = [
    SEARCH_DATA_HEADER,
    `${tools.length} ${skills.length} ${width} ${checksum}`,
    lengths.map((length) => fixed(length, width)).join(''),
    upper.join(' '),
  ];
  for (const token of [...postings.keys()].sort(compareTokens))
    lines.push(`${token} ${text(postings.get(token)!.codes)}`);
  return `${lines.join('\n')}\n`;
}

/** The header of shipped data, or undefined when it is not data this runtime reads. */
export interface SearchDataHeader {
  readonly tools: number;
  readonly skills: number;
  readonly width: number;
  readonly checksum: number;
  /** Offsets of the lengths line and of the first token line. */
  readonly lengthsAt: number;
  readonly upper: readonly number[];
  readonly linesAt: number;
}

export function readSearchHeader(text: unknown): SearchDataHeader | undefined {
  if (typeof text !== 'string' || !text.startsWith(`${SEARCH_DATA_HEADER}\n`)) return undefined;
  const countsAt = SEARCH_DATA_HEADER.length + 1;
  const lengthsAt = text.indexOf('\n', countsAt) + 1;
  const counts = text
    .slice(countsAt, lengthsAt - 1)
    .split(' ')
    .map(Number);
  if (counts.length !== 4 || !counts.every((n) => Number.isSafeInteger(n) && n >= 0)) return undefined;
  const [tools, skills, width, checksum] = counts as [number, number, number, number];
  const upperAt = lengthsAt + (tools + skills) * width + 1;
  if (width < 1 || text.charCodeAt(upperAt - 1) !== 10) return undefined;
  const linesAt = text.indexOf('\n', upperAt) + 1;
  if (linesAt === 0) return undefined;
  const upperText = text.slice(upperAt, linesAt - 1);
  const upper = upperText === '' ? [] : upperText.split(' ').map(Number);
  if (!upper.every((n) => Number.isSafeInteger(n) && n >= 0 && n < tools + skills)) return undefined;
  return { tools, skills, width, checksum, lengthsAt, upper, linesAt };
}

/** Document `doc`'s length (header already read). */
export function shippedLength(text: string, header: SearchDataHeader, doc: number): number {
  let value = 0;
  const at = header.lengthsAt + doc * header.width;
  for (let i = 0; i < header.width; i += 1) value = value * 64 + VALUE[text.charCodeAt(at + i)]!;
  return value;
}

/** The shipped postings, with document `i` of the data being catalog document `ids[i]`. */
export class ShippedSegment implements SearchSegment {
  readonly #text: string;
  readonly #start: number;
  readonly #ids: Int32Array;

  constructor(text: string, header: SearchDataHeader, ids: Int32Array) {
    this.#text = text;
    this.#start = header.linesAt;
    this.#ids = ids;
  }

  /** Offset of the first line whose token is ≥ `token` (or the end). */
  #lowerBound(token: string): number {
    const text = this.#text;
    let low = this.#start;
    let high = text.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const lineAt = Math.max(low, text.lastIndexOf('\n', mid - 1) + 1);
      const space = text.indexOf(' ', lineAt);
      if (text.slice(lineAt, space) < token) low = text.indexOf('\n', space) + 1;
      else high = lineAt;
    }
    return low;
  }

  posting(token: string): Posting | undefined {
    const text = this.#text;
    const at = this.#lowerBound(token);
    const space = at + token.length;
    if (at >= text.length || text.charCodeAt(space) !== 32 || !text.startsWith(token, at)) return undefined;
    const end = text.indexOf('\n', space);
    const docs: number[] = [];
    const weights: number[] = [];
    let doc = -1;
    let value = 0;
    let scale = 1;
    let pair = 0;
    for (let i = space + 1; i < end; i += 1) {
      const digit = VALUE[text.charCodeAt(i)]!;
      if (digit >= 32) {
        value += (digit - 32) * scale;
        scale *= 32;
        continue;
      }
      value += digit * scale;
      if (pair === 0) {
        doc += value + 1;
        docs.push(this.#ids[doc]!);
      } else weights.push(value);
      pair ^= 1;
      value = 0;
      scale = 1;
    }
    return { docs, weights };
  }

  expand(prefix: string): string[] {
    const text = this.#text;
    const out: string[] = [];
    let at = this.#lowerBound(prefix);
    while (at < text.length && out.length < MAX_PREFIX_EXPANSIONS) {
      const space = text.indexOf(' ', at);
      const word = text.slice(at, space);
      if (!word.startsWith(prefix)) break;
      if (word !== prefix) out.push(word);
      at = text.indexOf('\n', space) + 1;
    }
    return out;
  }
}
