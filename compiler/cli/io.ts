/** Where a CLI command writes: stdout, stderr, and whether colour is wanted (tests pass their own). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Colour on stdout. */
  readonly isTTY: boolean;
  /** Colour on stderr, where diagnostics go (default: as `isTTY`). */
  readonly errTTY?: boolean;
}

/** Colour where the stream is a terminal; `NO_COLOR` turns it off, `FORCE_COLOR` (not 0) on. */
function colourOn(stream: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR) return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return Boolean(stream.isTTY);
}

export const defaultIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTTY: colourOn(process.stdout),
  errTTY: colourOn(process.stderr),
};
