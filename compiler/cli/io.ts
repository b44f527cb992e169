/** Where a CLI command writes: stdout, stderr, and whether colour is wanted (tests pass their own). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
}

export const defaultIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTTY: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
};
