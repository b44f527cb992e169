/**
 * Characters that change how the text around them is shown without being seen themselves:
 * bidirectional controls (U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069) and invisible
 * ones (U+200B, U+2060, U+FEFF), with the line and paragraph separators U+2028/U+2029. From a
 * user's file they can make a generated line or a printed name read as something it is not
 * ("Trojan Source"), so generated code (emit/literal.ts) and terminal output
 * (report/printable.ts) write them as escapes. The joiners U+200C/U+200D stay: scripts and emoji
 * need them.
 */
export const INVISIBLE_SOURCE =
  '\\u061c\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff\\u2028\\u2029';
