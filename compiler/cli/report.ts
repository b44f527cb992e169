/**
 * `zhin-gen report` (docs/report.md): the capability report page, one self-contained HTML file.
 * The page is written also when the tree has errors (it shows them, with code frames; exit 1).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, extname, relative, resolve } from 'node:path';
import type { ChannelScope } from '@zhin-gen/runtime';
import type { Compiler } from '../context.js';
import { formatDuration, formatPretty, palette, toJsonDiagnostics } from '../report/index.js';
import { buildReport, SCOPES } from '../report/page/index.js';
import { writeAtomically } from '../write/output.js';

export interface ReportArgs {
  readonly out?: string;
  readonly platform?: readonly string[];
  readonly scope?: readonly string[];
  readonly role?: readonly string[];
  readonly json?: boolean;
}

interface ReportIo {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
  readonly errTTY?: boolean;
}

export const DEFAULT_REPORT_FILE = 'zhin-gen-report.html';

/** A usage problem with `--out` or a flag, or `undefined`. */
function problem(file: string, values: ReportArgs): string | undefined {
  const out = values.out ?? DEFAULT_REPORT_FILE;
  if (extname(file).toLowerCase() !== '.html') return `--out ${out}: the report is an .html file`;
  if (existsSync(file) && statSync(file).isDirectory()) return `--out ${out}: is a directory`;
  const unknown = (values.scope ?? []).find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) return `unknown --scope "${unknown}" (private, group or channel)`;
  return undefined;
}

export async function runReport(compiler: Compiler, values: ReportArgs, io: ReportIo): Promise<number> {
  const started = performance.now();
  const file = resolve(compiler.root, values.out ?? DEFAULT_REPORT_FILE);
  const bad = problem(file, values);
  if (bad) {
    io.err(`zhin-gen report: ${bad}`);
    return 64;
  }
  const result = await compiler.run({ write: false, model: true });
  const { data, html } = await buildReport(result, compiler.root, {
    ...(values.platform?.length ? { platforms: values.platform } : {}),
    ...(values.scope?.length ? { scopes: values.scope as ChannelScope[] } : {}),
    ...(values.role?.length ? { roles: values.role } : {}),
  });
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeAtomically(file, html);
  } catch (error) {
    // A read-only disk, a full one, a parent that is a file: nothing half-written is left
    // (writeAtomically renames a complete temp file), and it is the user's to fix, not a bug.
    const { code, message } = error as NodeJS.ErrnoException;
    io.err(`zhin-gen report: cannot write ${relative(compiler.root, file) || file}: ${code ?? message}`);
    return 1;
  }
  const ms = Math.round(performance.now() - started);
  const rel = relative(compiler.root, file).split('\\').join('/');
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          out: rel,
          bytes: Buffer.byteLength(html),
          tools: data.tools.length,
          principals: data.principals.length,
          errors: data.errors,
          warnings: data.warnings,
          runtime: data.runtimeError === null,
          ms,
          // What a script needs to say why it failed, as generate --json gives it.
          diagnostics: toJsonDiagnostics(result.diagnostics),
          ...(data.runtimeError !== null ? { runtimeError: data.runtimeError } : {}),
        },
        null,
        2,
      ),
    );
  } else {
    if (result.diagnostics.length > 0)
      io.err(formatPretty(result.diagnostics, palette(io.errTTY ?? io.isTTY), { root: compiler.root }));
    if (data.runtimeError) io.err(`zhin-gen report: ${data.runtimeError}`);
    io.out(
      `zhin-gen report: ${data.tools.length} tools × ${data.principals.length} principals → ${rel} (${Math.ceil(Buffer.byteLength(html) / 1024)} KiB) in ${formatDuration(ms)}`,
    );
  }
  return result.errors > 0 ? 1 : 0;
}
