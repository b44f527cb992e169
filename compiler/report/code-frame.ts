/**
 * The one code-frame builder: the CLI's pretty output prints it under each diagnostic, and the
 * build plugin hands it to bundlers (`frame` of Rollup/Vite errors, the Vite overlay). Lines and
 * columns are 1-based (the diagnostics' convention); the caret sits under the column.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { Palette } from './palette.js';

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
    const clipped = clipLine(lines[n - 1]!, n === line ? column : 1);
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

/** The source of a file, or `undefined` when it cannot be read (deleted, a directory). */
export function readSource(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
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
  const source = readSource(join(root, d.file));
  return source === undefined ? '' : codeFrame(source, d.line, d.column, options);
}

/** The text of 1-based `line` of `file` (`''` when the file cannot be read or has no such line). */
export function sourceLine(file: string, line: number): string {
  const source = readSource(file);
  return source === undefined ? '' : (sourceLines(source)[line - 1] ?? '');
}
