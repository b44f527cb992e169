/**
 * Diagnostics for people: `file:line:col  severity  CODE  message`, a code frame, related
 * locations and the hint; colour only on a TTY. The CLI prints it; bundler plugins hand it (plain)
 * to their bundler as the message text.
 */
import type { Diagnostic, RelatedLocation } from '../diagnostics.js';
import { frameOf } from './code-frame.js';
import type { Palette } from './palette.js';
import { printable } from './printable.js';

export interface PrettyOptions {
  /**
   * The root the diagnostics' files are relative to: when given, each diagnostic is followed by a
   * code frame of its line (one line of context, the caret under the column), as Vite's overlay
   * shows. Without it (messages handed to a bundler, which shows its own frame) there is none.
   */
  readonly root?: string;
}

/** A related location as one line of text (`file:line:col  message`). */
export function relatedText(r: RelatedLocation): string {
  return printable(`${r.file}:${r.line}:${r.column}  ${r.message}`);
}

export function formatPretty(diagnostics: readonly Diagnostic[], colors: Palette, options: PrettyOptions = {}): string {
  const { root } = options;
  return diagnostics
    .map((d) => {
      const severity = d.severity === 'error' ? colors.red('error') : colors.yellow('warning');
      const lines = [
        `${colors.bold(printable(`${d.file}:${d.line}:${d.column}`))}  ${severity}  ${d.code}  ${printable(d.message)}`,
      ];
      const frame =
        root === undefined
          ? ''
          : frameOf(root, d, { context: 1, colors, accent: d.severity === 'error' ? colors.red : colors.yellow });
      if (frame !== '') lines.push(indent(frame, '    '));
      for (const r of d.related ?? []) lines.push(colors.dim(`    ${relatedText(r)}`));
      if (d.hint) lines.push(colors.dim(`    hint: ${printable(d.hint)}`));
      return lines.join('\n');
    })
    .join('\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}
