/**
 * The one catalog of diagnostics. Every problem the compiler can report has a stable code, a
 * severity and a hint in it; stages create diagnostics only through `diag()` so a code can never
 * be reported without its hint. One file per range in compiler/diagnostics/ (docs/diagnostics.md):
 * ZG1xxx scan/layout/config (scan.ts), ZG2xxx definitions and schemas (definitions.ts), ZG3xxx
 * names and conflicts (names.ts), ZG4xxx manifests (manifests.ts), ZG5xxx provider profiles and
 * MCP servers (providers.ts), ZG6xxx migrate and ZG9xxx internal (tooling.ts).
 * `docs/diagnostics.md` is checked against this table by a test.
 */

import { DEFINITIONS } from './diagnostics/definitions.js';
import type { CatalogEntry, Severity } from './diagnostics/entry.js';
import { MANIFESTS } from './diagnostics/manifests.js';
import { NAMES } from './diagnostics/names.js';
import { PROVIDERS } from './diagnostics/providers.js';
import { SCAN } from './diagnostics/scan.js';
import { TOOLING } from './diagnostics/tooling.js';

export type { Severity } from './diagnostics/entry.js';

export interface SourceLocation {
  /** POSIX path relative to the project root. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

export interface RelatedLocation extends SourceLocation {
  readonly message: string;
}

export interface Diagnostic extends SourceLocation {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
}

/** Every code, by range: each range is a file in compiler/diagnostics/. */
export const CATALOG = {
  ...SCAN,
  ...DEFINITIONS,
  ...NAMES,
  ...MANIFESTS,
  ...PROVIDERS,
  ...TOOLING,
} as const satisfies Record<string, CatalogEntry>;

export type DiagnosticCode = keyof typeof CATALOG;

export interface DiagnosticInput {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** Overrides the catalog hint with a more specific one. */
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
  /** Overrides the catalog severity (e.g. config-escalated warnings). */
  readonly severity?: Severity;
}

export function diag(code: DiagnosticCode, input: DiagnosticInput): Diagnostic {
  const entry: CatalogEntry = CATALOG[code];
  return {
    code,
    severity: input.severity ?? entry.severity,
    message: input.message,
    file: input.file,
    line: input.line ?? 1,
    column: input.column ?? 1,
    hint: input.hint ?? entry.hint,
    ...(input.related && input.related.length > 0 ? { related: input.related } : {}),
  };
}

/** Total, explicit order: file, line, column, code, message (never localeCompare). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.code, b.code) ||
    compareStrings(a.message, b.message)
  );
}

/** Code-unit order: identical on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 1-based line/column of an offset, via a precomputed line-start table. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function positionAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** What the config's `diagnostics` option may set a warning's code to (docs/config.md). */
export type SeverityOverride = 'off' | 'warning' | 'error';
export const SEVERITY_OVERRIDES: readonly SeverityOverride[] = ['off', 'warning', 'error'];
export type SeverityOverrides = Partial<Readonly<Record<DiagnosticCode, SeverityOverride>>>;

/**
 * Why a code cannot be configured (unknown, or an error), or undefined when it can: only
 * warnings are, so no setting ever lets a run with an error pass (config/schema.ts reports this).
 */
export function overrideProblem(code: string): string | undefined {
  const entry: CatalogEntry | undefined = Object.hasOwn(CATALOG, code) ? CATALOG[code as DiagnosticCode] : undefined;
  if (entry === undefined) return `\`${code}\` is no diagnostic code of zhin-gen (docs/diagnostics.md lists them)`;
  if (entry.severity === 'error')
    return `${code} is an error, which no setting turns off or lowers; only warnings can be set`;
  return undefined;
}

/**
 * The config's `diagnostics` applied (one home for every result: generate, check, check --load,
 * watch, the build plugin): a warning set to `off` is left out, one set to `error` is an error
 * (nothing is written and `check` fails), and says so in its hint. Errors are never lowered,
 * whatever the map holds.
 */
export function applySeverityOverrides(
  diagnostics: readonly Diagnostic[],
  overrides: SeverityOverrides | undefined,
): Diagnostic[] {
  if (overrides === undefined || Object.keys(overrides).length === 0) return [...diagnostics];
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const setting = d.severity === 'warning' && Object.hasOwn(overrides, d.code) ? overrides[d.code] : undefined;
    if (setting === 'off') continue;
    if (setting !== 'error') out.push(d);
    else
      out.push({
        ...d,
        severity: 'error',
        hint: `${d.hint ? `${d.hint} ` : ''}(An error in this project: the config's \`diagnostics\` sets ${d.code} to "error".)`,
      });
  }
  return out;
}

/**
 * Characters that change how the text around them is shown without being seen themselves:
 * bidirectional controls (U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069) and invisible
 * ones (U+200B, U+2060, U+FEFF), with the line and paragraph separators U+2028/U+2029. From a
 * user's file they can make a generated line or a printed name read as something it is not
 * ("Trojan Source"), so generated code (emit/literal.ts) and terminal output
 * (report/printable.ts) write them as escapes. The joiners U+200C/U+200D stay: scripts and emoji
 * need them. Kept here, in the module every command and the emit stage load: one set, and no
 * bundle chunk of its own (test/compiler/cli/bundle.test.ts).
 */
export const INVISIBLE_SOURCE =
  '\\u061c\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff\\u2028\\u2029';

/** The same diagnostic reported twice (one file reached through two units) is shown once. */
export function uniqueDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
