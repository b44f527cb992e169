/**
 * Diagnostic output formats for machines. `json` and `sarif` are contracts (machine-read in CI);
 * `github` prints workflow commands that annotate pull requests. `pretty` (for people) is in
 * pretty.ts.
 */
import { CATALOG, type Diagnostic } from '../diagnostics.js';
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
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: d.file },
                region: { startLine: d.line, startColumn: d.column },
              },
            },
          ],
        })),
      },
    ],
  };
}
