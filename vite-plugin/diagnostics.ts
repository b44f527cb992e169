/**
 * Compiler diagnostics in each bundler's error shape: Rollup/Vite/Rolldown `this.error(...)`,
 * esbuild `onStart` messages, webpack compilation errors and the Vite error overlay payload.
 *
 * Positions: diagnostics carry 1-based lines and columns (editor convention, as printed by the
 * CLI and in every message text here). Bundler-facing `loc`/`location` objects follow the
 * bundlers' own contract: line 1-based, column 0-based (Rollup `loc`, esbuild `location`, and the
 * Vite overlay, whose `loc` comes from Rollup errors everywhere else).
 */
import { join } from 'node:path';
import type { CompileResult, Diagnostic } from '../compiler/index.js';
import { formatPretty, frameOf, palette, plural, relatedText, sourceLine } from '../compiler/report/index.js';

export const PLUGIN_NAME = 'zhin-gen';

const plain = palette(false);

export function absoluteFile(root: string, d: Diagnostic): string {
  return join(root, d.file);
}

// The one code-frame builder (also under every diagnostic of the CLI's pretty output).
export { codeFrame, frameOf } from '../compiler/report/index.js';

export function errorsOf(result: CompileResult): Diagnostic[] {
  return result.diagnostics.filter((d) => d.severity === 'error');
}

export function warningsOf(result: CompileResult): Diagnostic[] {
  return result.diagnostics.filter((d) => d.severity !== 'error');
}

/** `zhin-gen: 2 errors` + every error in the CLI's pretty format (file:line:col, code, hint). */
export function errorMessage(result: CompileResult): string {
  const errors = errorsOf(result);
  const head = `${PLUGIN_NAME}: ${plural(errors.length, 'error')} in the capability tree (${result.outRel} not written)`;
  return `${head}\n${formatPretty(errors, plain)}`;
}

export function warningMessage(d: Diagnostic): string {
  return formatPretty([d], plain);
}

export function diagnosticKey(d: Diagnostic): string {
  return `${d.code}\u0000${d.file}\u0000${d.line}\u0000${d.column}\u0000${d.message}`;
}

/** Location in the bundler convention (line 1-based, column 0-based). */
export function bundlerLoc(root: string, d: Diagnostic): { file: string; line: number; column: number } {
  return { file: absoluteFile(root, d), line: d.line, column: Math.max(0, d.column - 1) };
}

/** The object handed to Rollup/Vite/Rolldown `this.error()` for a run with errors. */
export function rollupError(
  root: string,
  result: CompileResult,
): {
  message: string;
  id: string;
  loc: { file: string; line: number; column: number };
  frame: string;
  code: string;
  plugin: string;
  stack: string;
} {
  const first = errorsOf(result)[0]!;
  return {
    message: errorMessage(result),
    id: absoluteFile(root, first),
    loc: bundlerLoc(root, first),
    frame: frameOf(root, first),
    code: first.code,
    plugin: PLUGIN_NAME,
    // Rollup copies these fields onto the error it throws: without it, the plugin's own stack
    // trace (`at Object.buildStart (…/core.js)`) was printed under every diagnostic.
    stack: '',
  };
}

export function rollupWarning(
  root: string,
  d: Diagnostic,
): { message: string; id: string; loc: { file: string; line: number; column: number }; code: string; plugin: string } {
  return {
    message: warningMessage(d),
    id: absoluteFile(root, d),
    loc: bundlerLoc(root, d),
    code: d.code,
    plugin: PLUGIN_NAME,
  };
}

/** Vite's `ErrorPayload` for the dev-server overlay. */
export interface OverlayPayload {
  readonly type: 'error';
  readonly err: {
    readonly message: string;
    readonly stack: string;
    readonly id: string;
    readonly frame: string;
    readonly plugin: string;
    readonly pluginCode: string;
    readonly loc: { readonly file: string; readonly line: number; readonly column: number };
  };
}

export function overlayPayload(root: string, result: CompileResult): OverlayPayload {
  const first = errorsOf(result)[0]!;
  return {
    type: 'error',
    err: {
      message: `${errorMessage(result)}\nThe last good manifest keeps serving until the tree is valid again.`,
      stack: '',
      id: absoluteFile(root, first),
      frame: frameOf(root, first),
      plugin: PLUGIN_NAME,
      pluginCode: first.code,
      loc: bundlerLoc(root, first),
    },
  };
}

/** esbuild `PartialMessage`s (location.column is 0-based in esbuild's API). */
export interface EsbuildMessage {
  text: string;
  pluginName: string;
  location: { file: string; line: number; column: number; lineText: string } | null;
  notes: { text: string }[];
  detail: string;
}

export function esbuildMessage(root: string, d: Diagnostic): EsbuildMessage {
  const file = absoluteFile(root, d);
  const lineText = sourceLine(file, d.line, root);
  const notes = [
    ...(d.related ?? []).map((r) => ({ text: relatedText(r) })),
    ...(d.hint ? [{ text: `hint: ${d.hint}` }] : []),
  ];
  return {
    text: `${d.code}  ${d.message}`,
    pluginName: PLUGIN_NAME,
    location: { file, line: d.line, column: Math.max(0, d.column - 1), lineText },
    notes,
    detail: d.code,
  };
}

/** webpack/rspack accept plain `Error`s in `compilation.errors`/`warnings`; `file` and `loc` are shown. */
export function webpackError(root: string, d: Diagnostic): Error {
  const error = new Error(`${PLUGIN_NAME}: ${warningMessage(d)}`) as Error & {
    file?: string;
    loc?: unknown;
    hideStack?: boolean;
  };
  error.name = d.severity === 'error' ? 'ZhinGenError' : 'ZhinGenWarning';
  error.file = absoluteFile(root, d);
  error.loc = { start: { line: d.line, column: Math.max(0, d.column - 1) } };
  error.hideStack = true;
  error.stack = '';
  return error;
}
