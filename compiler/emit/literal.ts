/**
 * Safe literal printing. User text (descriptions, instructions, schema strings, paths) only ever
 * appears inside JSON string literals, never in comments or identifiers, and the characters that
 * could end a surrounding context (`<` for </script>, U+2028/U+2029 for older parsers) are
 * escaped, so the generated module stays valid and inert whatever the input contains.
 */
export function str(value: string): string {
  return JSON.stringify(value).replace(
    /[<>\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** JSON value on one line with the same escaping; object key order is preserved. */
export function json(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function strList(values: readonly string[]): string {
  return `[${values.map(str).join(', ')}]`;
}
