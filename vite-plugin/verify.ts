/**
 * The `verifyLoad` option: load verification (compiler/verify/) once a build has finished, with
 * its errors in each bundler's shape. Runs only after a clean compile: a tree with errors has
 * already failed the build at its start.
 */
import { verifyLoad, type CompileResult, type Diagnostic } from '../compiler/index.js';
import { formatPretty, palette, plural } from '../compiler/report/index.js';
import { absoluteFile, bundlerLoc, frameOf, PLUGIN_NAME } from './diagnostics.js';
import type { ZhinGenPluginOptions } from './options.js';

/** The error diagnostics of verifying `result`'s modules (none when the option is off). */
export async function loadErrors(
  option: ZhinGenPluginOptions['verifyLoad'],
  result: CompileResult | undefined,
): Promise<Diagnostic[]> {
  if (!option || !result || result.errors > 0) return [];
  const timeoutMs = typeof option === 'object' ? option.timeoutMs : undefined;
  const verified = await verifyLoad(result, timeoutMs !== undefined ? { timeoutMs } : {});
  return verified.diagnostics.filter((d) => d.severity === 'error');
}

export function loadErrorMessage(errors: readonly Diagnostic[]): string {
  const head = `${PLUGIN_NAME}: ${plural(errors.length, 'error')} verifying that the capability modules load (verifyLoad)`;
  return `${head}\n${formatPretty(errors, palette(false))}`;
}

/** For Rollup/Vite/Rolldown `this.error()`: located at the first error. */
export function loadRollupError(
  root: string,
  errors: readonly Diagnostic[],
): {
  message: string;
  id: string;
  loc: { file: string; line: number; column: number };
  frame: string;
  code: string;
  plugin: string;
  stack: string;
} {
  const first = errors[0]!;
  return {
    message: loadErrorMessage(errors),
    id: absoluteFile(root, first),
    loc: bundlerLoc(root, first),
    frame: frameOf(root, first),
    code: first.code,
    plugin: PLUGIN_NAME,
    // As rollupError (diagnostics.ts): no stack trace of the plugin under the diagnostic.
    stack: '',
  };
}
