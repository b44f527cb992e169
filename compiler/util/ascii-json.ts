/**
 * JSON text that is pure ASCII: every character above U+007F is written as its `\uXXXX` escape,
 * which `JSON.parse` reads back as the same string.
 *
 * Why: the unit cache's files are read whole and decoded in one step (util/read-text.ts), and V8
 * stores a string with a single character above U+00FF as two bytes a character. A tree whose
 * descriptions are Chinese (as the seed catalogs are), or a root whose path is, made the 22 MB
 * index of a 20,000-tool tree a 44 MB string; on the virtual machines the benches run on every
 * megabyte first touched costs ~2.5 ms of page faults (bench/children/faults.mjs). Escaped, the
 * text stays one byte a character, and only the few values that hold such characters are wide.
 * The cost is paid only by texts that have one. The others are found by their UTF-8 length,
 * which equals their length only when every character is ASCII (2.5x faster than a regular
 * expression: 17 ms for the 41 MB of a 20,000-tool tree's bodies), and a writer that needs the
 * byte length of what it writes (cache/file.ts) reads it off the escaped text's length.
 */
import { Buffer } from 'node:buffer';

const WIDE_ALL = /[^\x00-\x7f]/g;

function escapeUnit(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `json` (a JSON text) with every non-ASCII character escaped; the same string when it has none. */
export function asciiJson(json: string): string {
  return Buffer.byteLength(json) === json.length ? json : json.replace(WIDE_ALL, escapeUnit);
}

/** `JSON.stringify(value)` as pure ASCII (see {@link asciiJson}). */
export function stringifyAscii(value: unknown): string {
  // Like JSON.stringify: undefined for undefined, although its declared type says string.
  const json = JSON.stringify(value) as string | undefined;
  return (json === undefined ? json : asciiJson(json)) as string;
}
