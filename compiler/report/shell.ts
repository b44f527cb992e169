/** An argument as a POSIX shell reads it back, for the commands zhin-gen prints (`Fix:`, `hint:`, `cd`): as is when plain, else single-quoted. */
export function shellArg(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
