/**
 * Safe literal printing. User text (descriptions, instructions, schema strings, paths) only ever
 * appears inside JSON string literals, never in comments or identifiers, and the characters that
 * could end a surrounding context (`<` for </script>, U+2028/U+2029 for older parsers) or make
 * the line read otherwise than it is (bidirectional controls, invisible characters:
 * diagnostics.ts INVISIBLE_SOURCE) are escaped — the same JSON value — so the generated module stays valid,
 * inert and readable whatever the input contains.
 */
import { INVISIBLE_SOURCE } from '../diagnostics.js';

const ESCAPED = new RegExp(`[<>${INVISIBLE_SOURCE}]`, 'g');
const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A JSON (or JavaScript) string literal's text with those characters escaped: the same value. */
export function escapeLiteral(literal: string): string {
  return literal.replace(ESCAPED, unicodeEscape);
}

export function str(value: string): string {
  return escapeLiteral(JSON.stringify(value));
}

/** JSON value on one line with the same escaping; object key order is preserved. */
export function json(value: unknown): string {
  return escapeLiteral(JSON.stringify(value));
}

export function strList(values: readonly string[]): string {
  return `[${values.map(str).join(', ')}]`;
}
