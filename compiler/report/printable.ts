/**
 * Text from the user's tree (a file name, a quoted path, a source line) as it may reach a
 * terminal or a CI log: control characters are shown as `\xNN` escapes. A directory named
 * `tools/\e[31mRED` sent its colour sequence to the terminal, and a `\n` in a name split a
 * diagnostic's line in two. Tabs stay (a code frame lines its caret up with them).
 */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;

export function printable(text: string): string {
  return HAS_CONTROL.test(text)
    ? text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    : text;
}
