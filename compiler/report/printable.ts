/**
 * Text from the user's tree (a file name, a quoted path, a source line) as it may reach a
 * terminal or a CI log: control characters are shown as `\xNN` escapes. A directory named
 * `tools/\e[31mRED` sent its colour sequence to the terminal, and a `\n` in a name split a
 * diagnostic's line in two; a right-to-left override turned the rest of a line around. Tabs stay
 * (a code frame lines its caret up with them).
 */

import { INVISIBLE_SOURCE } from '../diagnostics.js';

const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f${INVISIBLE_SOURCE}]`, 'g');
const HAS_CONTROL = new RegExp(CONTROL.source);

/** Control characters as `\xNN`, bidirectional and invisible ones (INVISIBLE_SOURCE) as `\u{NNNN}`. */
export function printable(text: string): string {
  return HAS_CONTROL.test(text)
    ? text.replace(CONTROL, (c) => {
        const code = c.charCodeAt(0);
        return code <= 0x9f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
      })
    : text;
}
