/**
 * The one code-frame builder: the CLI's pretty output prints it under each diagnostic, and the
 * build plugin hands it to bundlers (`frame` of Rollup/Vite errors, the Vite overlay). Lines and
 * columns are 1-based (the diagnostics' convention); the caret sits under the column.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { Palette } from './palette.js';
import { printable } from './printable.js';

export interface FrameOptions {
  /** Lines shown before and after the reported one (default 2, as Vite's overlay shows). */
  readonly context?: number;
  /** Colours for a TTY: the marker and caret in `accent`, the gutter dimmed. */
  readonly colors?: Palette;
  readonly accent?: (s: string) => string;
}

const plain = (s: string): string => s;

/** Lines longer than this are cut to a window around the column (a minified JSON line). */
const MAX_WIDTH = 160;

/** A window of `text` that keeps column `column` (1-based) visible; returns it and the new column. */
function clipLine(text: string, column: number): { text: string; column: number } {
  if (text.length <= MAX_WIDTH) return { text, column };
  const start = Math.max(0, Math.min(column - 1 - MAX_WIDTH / 2, text.length - MAX_WIDTH));
  const head = start > 0 ? '…' : '';
  const tail = start + MAX_WIDTH < text.length ? '…' : '';
  return { text: `${head}${text.slice(start, start + MAX_WIDTH)}${tail}`, column: column - start + head.length };
}

/** A code frame around a 1-based line/column; `''` when the line is not in the source. */
export function codeFrame(source: string, line: number, column: number, options: FrameOptions = {}): string {
  const lines = sourceLines(source);
  if (!Number.isInteger(line) || line < 1 || line > lines.length) return '';
  const context = options.context ?? 2;
  const dim = options.colors?.dim ?? plain;
  const accent = options.accent ?? plain;
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const raw = lines[n - 1]!;
    // The column moves with the escapes before it (each control character shows as four).
    const at = n === line ? printable(raw.slice(0, Math.max(0, column - 1))).length + 1 : 1;
    const clipped = clipLine(printable(raw), at);
    const gutter = dim(`${String(n).padStart(width)} |`);
    out.push(`${n === line ? accent('>') : ' '} ${gutter} ${clipped.text}`);
    if (n === line) {
      // Tabs stay tabs so the caret lines up with what the terminal shows above it.
      const indent = clipped.text.slice(0, Math.max(0, clipped.column - 1)).replace(/[^\t]/g, ' ');
      out.push(`  ${dim(`${' '.repeat(width)} |`)} ${indent}${accent('^')}`);
    }
  }
  return out.join('\n');
}

/** The lines of a source as an editor numbers them (a BOM is not part of line 1). */
function sourceLines(source: string): string[] {
  return source.replace(/^\uFEFF/, '').split(/\r?\n/);
}

/** Larger files get no frame (a diagnostic's location still names them). */
const MAX_FRAME_SOURCE = 8 * 1024 * 1024;

/** Whether `path` is `dir` or below it (both absolute). */
function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * The source of a file, or `undefined` when it cannot be read (deleted, a directory) or must
 * not be: a frame is printed to terminals, CI logs, the report page and the dev server's overlay,
 * so a path inside `root` whose real file is outside it (a tree's `AGENTS.md -> ~/.ssh/id_rsa`,
 * a link the scan refuses to follow) is never read for one, and nor is anything but a regular
 * file of reasonable size (`/dev/zero`, a FIFO would never end). A path outside the root is one
 * the configuration named (a child plugin's folder) and is read as it is.
 */
export function readSource(file: string, root: string): string | undefined {
  try {
    const real = realpathSync(file);
    if (within(resolve(root), resolve(file)) && !within(realpathSync(root), real)) return undefined;
    const stat = statSync(real);
    if (!stat.isFile() || stat.size > MAX_FRAME_SOURCE) return undefined;
    return readFileSync(real, 'utf8');
  } catch {
    return undefined;
  }
}

/** The frame of a diagnostic whose `file` is relative to `root` (`''` when there is none). */
export function frameOf(
  root: string,
  d: Pick<Diagnostic, 'file' | 'line' | 'column'>,
  options: FrameOptions = {},
): string {
  const source = readSource(join(root, d.file), root);
  return source === undefined ? '' : codeFrame(source, d.line, d.column, options);
}

/** The text of 1-based `line` of `file` (`''` when the file cannot be read, is outside `root`, or has no such line). */
export function sourceLine(file: string, line: number, root: string): string {
  const source = readSource(file, root);
  return source === undefined ? '' : (sourceLines(source)[line - 1] ?? '');
}
