/**
 * Diagnostic output formats for machines. `json` and `sarif` are contracts (machine-read in CI);
 * `github` prints workflow commands that annotate pull requests. `pretty` (for people) is in
 * pretty.ts.
 */
import { CATALOG, type Diagnostic } from '../diagnostics.js';
import { posix } from 'node:path';
import { printable } from './printable.js';

export type OutputFormat = 'pretty' | 'json' | 'github' | 'sarif';

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
  // Newlines are the format's own (%0A); other control characters (a colour sequence in a file
  // name) are shown escaped, as in pretty output.
  let out = value
    .split('\n')
    .map((line) => printable(line.replace(/\r$/, '')))
    .join('\n')
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A');
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C');
  return out;
}

/** A generated file `check` finds missing or not what `generate` writes (besides the diagnostics). */
export interface StaleFinding {
  /** Relative to the root, POSIX. */
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface MachineOptions {
  /**
   * The root relative to where the tool consuming the output resolves paths (the working
   * directory: a CI checkout), POSIX; '' when they are the same. GitHub annotations and SARIF
   * locations are resolved against the repository, not against `--root`.
   */
  readonly base?: string;
  /** The output's staleness, as results of their own (rule `stale`). */
  readonly stale?: readonly StaleFinding[];
}

const rebased = (file: string, base: string | undefined): string => (base ? posix.join(base, file) : file);

/** A POSIX path as a relative URI reference (each segment percent-encoded, `/` kept). */
const uriOf = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

export function formatGithub(diagnostics: readonly Diagnostic[], options: MachineOptions = {}): string {
  const lines = diagnostics.map((d) => {
    const props = `file=${escapeGithub(rebased(d.file, options.base), true)},line=${d.line},col=${d.column},title=${escapeGithub(d.code, true)}`;
    return `::${d.severity} ${props}::${escapeGithub(`${d.message}${d.hint ? `\nhint: ${d.hint}` : ''}`, false)}`;
  });
  for (const stale of options.stale ?? [])
    lines.push(
      `::error file=${escapeGithub(rebased(stale.file, options.base), true)},line=${stale.line},title=stale::${escapeGithub(stale.message, false)}`,
    );
  return lines.join('\n');
}

const STALE_RULE = {
  id: 'stale',
  shortDescription: { text: 'Generated output out of date' },
  help: {
    text: 'The generated manifest (or a module of its folder) is missing or not what generate writes: run zhin-gen generate and commit the result.',
  },
  defaultConfiguration: { level: 'error' },
};

export function formatSarif(diagnostics: readonly Diagnostic[], version: string, options: MachineOptions = {}): object {
  const used = [...new Set(diagnostics.map((d) => d.code))].sort();
  const stale = options.stale ?? [];
  const location = (file: string, line: number, column?: number) => ({
    physicalLocation: {
      artifactLocation: { uri: uriOf(rebased(file, options.base)) },
      region: column === undefined ? { startLine: line } : { startLine: line, startColumn: column },
    },
  });
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
            rules: [
              ...used.map((code) => ({
                id: code,
                shortDescription: { text: CATALOG[code as keyof typeof CATALOG].title },
                help: { text: CATALOG[code as keyof typeof CATALOG].hint },
                defaultConfiguration: { level: CATALOG[code as keyof typeof CATALOG].severity },
              })),
              ...(stale.length > 0 ? [STALE_RULE] : []),
            ],
          },
        },
        results: [
          ...diagnostics.map((d) => ({
            ruleId: d.code,
            level: d.severity,
            message: { text: d.hint ? `${d.message}\nhint: ${d.hint}` : d.message },
            locations: [location(d.file, d.line, d.column)],
          })),
          ...stale.map((s) => ({
            ruleId: 'stale',
            level: 'error',
            message: { text: s.message },
            locations: [location(s.file, s.line)],
          })),
        ],
      },
    ],
  };
}
