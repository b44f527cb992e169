/**
 * Diagnostic output formats. `json` and `sarif` are contracts (machine-read in CI); `pretty` is
 * for people (`file:line:col  severity  CODE  message`, a code frame, related locations and the
 * hint; colour only on a TTY); `github` prints workflow commands that annotate pull requests.
 */
import { CATALOG, type Diagnostic } from '../diagnostics.js';
import { frameOf } from './code-frame.js';

export type OutputFormat = 'pretty' | 'json' | 'github' | 'sarif';

export interface Palette {
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function palette(color: boolean): Palette {
  const wrap = (open: number, close: number) => (s: string) => (color ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

export interface PrettyOptions {
  /**
   * The root the diagnostics' files are relative to: when given, each diagnostic is followed by a
   * code frame of its line (one line of context, the caret under the column), as Vite's overlay
   * shows. Without it (messages handed to a bundler, which shows its own frame) there is none.
   */
  readonly root?: string;
}

export function formatPretty(diagnostics: readonly Diagnostic[], colors: Palette, options: PrettyOptions = {}): string {
  const { root } = options;
  return diagnostics
    .map((d) => {
      const severity = d.severity === 'error' ? colors.red('error') : colors.yellow('warning');
      const lines = [`${colors.bold(`${d.file}:${d.line}:${d.column}`)}  ${severity}  ${d.code}  ${d.message}`];
      const frame = root === undefined ? '' : frameOf(root, d, { context: 1, colors, accent: d.severity === 'error' ? colors.red : colors.yellow });
      if (frame !== '') lines.push(indent(frame, '    '));
      for (const r of d.related ?? []) lines.push(colors.dim(`    ${r.file}:${r.line}:${r.column}  ${r.message}`));
      if (d.hint) lines.push(colors.dim(`    hint: ${d.hint}`));
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

/**
 * Durations for people: whole milliseconds under a second (`42 ms`), seconds with one decimal
 * from there (`1.3 s`); a run is never reported as `1342 ms` or `1.342 s`. JSON carries `ms`.
 */
export function formatDuration(ms: number): string {
  if (ms < 999.5) return `${Math.max(0, Math.round(ms))} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function toJsonDiagnostics(diagnostics: readonly Diagnostic[]): object[] {
  return diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: d.file,
    line: d.line,
    column: d.column,
    hint: d.hint ?? null,
    ...(d.related ? { related: d.related } : {}),
  }));
}

function escapeGithub(value: string, property: boolean): string {
  let out = value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C');
  return out;
}

export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const props = `file=${escapeGithub(d.file, true)},line=${d.line},col=${d.column},title=${escapeGithub(d.code, true)}`;
      return `::${d.severity} ${props}::${escapeGithub(`${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`, false)}`;
    })
    .join('\n');
}

export function formatSarif(diagnostics: readonly Diagnostic[], version: string): object {
  const used = [...new Set(diagnostics.map((d) => d.code))].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'zhin-gen',
            version,
            informationUri: 'https://www.npmjs.com/package/zhin-gen',
            rules: used.map((code) => ({
              id: code,
              shortDescription: { text: CATALOG[code as keyof typeof CATALOG].title },
              help: { text: CATALOG[code as keyof typeof CATALOG].hint },
              defaultConfiguration: { level: CATALOG[code as keyof typeof CATALOG].severity },
            })),
          },
        },
        results: diagnostics.map((d) => ({
          ruleId: d.code,
          level: d.severity,
          message: { text: d.hint ? `${d.message}\nhint: ${d.hint}` : d.message },
          locations: [{ physicalLocation: { artifactLocation: { uri: d.file }, region: { startLine: d.line, startColumn: d.column } } }],
        })),
      },
    ],
  };
}

/**
 * A short line diff for `check`: greedy resynchronisation within a window (the manifest changes
 * in few, local places), showing only changed lines with their line numbers, at most `limit`.
 */
export function shortDiff(before: string, after: string, limit = 20, window = 60): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    let best: [number, number] | undefined;
    for (let d = 1; d <= window * 2 && !best; d++) {
      for (let di = 0; di <= d; di++) {
        const dj = d - di;
        if (i + di < a.length && j + dj < b.length && a[i + di] === b[j + dj]) {
          best = [di, dj];
          break;
        }
      }
    }
    const [di, dj] = best ?? [a.length - i, b.length - j];
    out.push(`@@ line ${j + 1} @@`);
    // Long lines (a tool's JSON line) are shown around the first difference of the pair.
    const focus = di > 0 && dj > 0 ? firstDifference(a[i]!, b[j]!) : 0;
    for (let k = 0; k < di; k++) out.push(`- ${clip(a[i + k]!, focus)}`);
    for (let k = 0; k < dj; k++) out.push(`+ ${clip(b[j + k]!, focus)}`);
    i += di;
    j += dj;
  }
  const shown = out.slice(0, limit);
  if (out.length > shown.length) shown.push(`… ${out.length - shown.length} more lines`);
  return shown.join('\n');
}

function firstDifference(x: string, y: string): number {
  let k = 0;
  while (k < x.length && k < y.length && x[k] === y[k]) k++;
  return k;
}

/** At most ~150 characters of a line, starting a little before `focus`. */
function clip(line: string, focus: number): string {
  if (line.length <= 150) return line;
  const start = Math.max(0, Math.min(focus - 40, line.length - 150));
  return `${start > 0 ? '…' : ''}${line.slice(start, start + 150)}${start + 150 < line.length ? '…' : ''}`;
}
