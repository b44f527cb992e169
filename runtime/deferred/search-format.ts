/**
 * What the writer (search-encoder.ts) and the reader (search-data.ts) of the shipped `discover`
 * index share: its first line, its digits and the checksum of the names it indexes. The format
 * itself is described in search-data.ts.
 */

export const SEARCH_DATA_HEADER = 'zhin-gen search 4';

/**
 * What ends each line of the data. Not a line feed: in the generated module's string literal
 * that is an escape (`\\n`) per token, and a JS engine scans a literal without escapes faster
 * (about a quarter of the import at 20,000 tools). Tokens are letters and digits, numbers
 * base-64 digits, so it never occurs inside a line.
 */
export const LINE = '|';
export const LINE_CODE = 0x7c;

/**
 * A posting's first number is `gap · 8 + code`: codes 0–5 are one document of weight code + 1 (the
 * usual weights: a name word 3, a keyword 2, a description word 1 and their sums), 6 one document
 * whose weight follows, 7 a run of consecutive documents of one weight (its length − RUN_MIN,
 * then the weight, follow). A plugin's word is in every one of its tools' names, and those sit
 * side by side in the table: one run instead of a number per tool.
 */
export const CODES_PER_GAP = 8;
export const WEIGHT_FOLLOWS = 6;
export const RUN_FOLLOWS = 7;
/** Shorter runs cost less as single documents (each one digit when its gap is 0). */
export const RUN_MIN = 4;

/**
 * A token as its line spells it: every code unit from ESCAPE (0x7e) up — every unit above ASCII,
 * and `~` and DEL themselves — as ESCAPE and four lower-case hex digits. One unit above ASCII (a
 * CJK token) makes a JS engine hold the whole module source and its string literal as UTF-16,
 * twice the bytes and a slower scan; spelled, the module stays one-byte. The spelling keeps
 * code-unit order (units left as they are sit below ESCAPE, the hex digits are fixed-width and
 * ordered) and prefixes (a prefix's spelling is a prefix of the token's), so the sorted lines and
 * prefix expansion read as on the raw tokens, and no two tokens spell alike.
 */
export const ESCAPE = '~';
const ESCAPE_CODE = 0x7e;
const ESCAPED_WIDTH = 5;

export function spellToken(token: string): string {
  let i = 0;
  while (i < token.length && token.charCodeAt(i) < ESCAPE_CODE) i += 1;
  if (i === token.length) return token;
  let out = token.slice(0, i);
  for (; i < token.length; i += 1) {
    const code = token.charCodeAt(i);
    out += code < ESCAPE_CODE ? token[i] : `${ESCAPE}${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** The token a line spells (spellToken's inverse). */
export function readToken(spelled: string): string {
  const first = spelled.indexOf(ESCAPE);
  if (first < 0) return spelled;
  let out = spelled.slice(0, first);
  for (let i = first; i < spelled.length; ) {
    if (spelled[i] === ESCAPE) {
      out += String.fromCharCode(Number.parseInt(spelled.slice(i + 1, i + ESCAPED_WIDTH), 16));
      i += ESCAPED_WIDTH;
    } else out += spelled[i++];
  }
  return out;
}

/** Base-64 digits, in value order. */
export const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** FNV-1a (32 bits) over names, each followed by a line feed; start from NAME_CHECKSUM_SEED. */
export const NAME_CHECKSUM_SEED = 0x811c9dc5;
export const SAMPLED_NAMES = 64;

export function nameChecksum(hash: number, name: string): number {
  let h = hash;
  for (let i = 0; i < name.length; i += 1) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ 10, 0x01000193) >>> 0;
}

/**
 * The checksum of a table of `count` documents (`nameAt(i)`: document i's name): the sampled
 * names, then the total length of every name (`totalLength`), which a tool added, removed or
 * renamed to a name of another length changes wherever it is.
 */
export function sampledChecksum(count: number, nameAt: (doc: number) => string, totalLength: number): number {
  let hash = NAME_CHECKSUM_SEED;
  let previous = -1;
  for (let k = 0; k < SAMPLED_NAMES && count > 0; k += 1) {
    const doc = Math.floor((k * (count - 1)) / (SAMPLED_NAMES - 1));
    if (doc === previous) continue;
    previous = doc;
    hash = nameChecksum(hash, nameAt(doc));
  }
  return nameChecksum(hash, String(totalLength));
}
