/**
 * Whether the folder's package is an ES module package (`"type": "module"` in the nearest
 * package.json): the runtime and the generated manifest are ES modules, so a `.ts` or `.js`
 * manifest of a CommonJS package cannot be imported by Node (`Unexpected token '{'`, with no
 * word of why). One home for the check and its advice: `init` (a kept package.json),
 * `zhin-gen mcp` (an import that failed), `generate` and `check` say it. Re-exported by
 * report/index.ts, which every command that prints it loads already: so the CLI bundle keeps it in
 * that chunk instead of a chunk of its own, which a no-change run would read too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const ESM_ADVICE =
  'add "type": "module" to package.json (the runtime and the generated manifest are ES modules)';

/** The nearest package.json at or above `dir` and whether it declares an ES module package. */
export function packageType(dir: string): { readonly file: string; readonly esm: boolean } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      try {
        return { file, esm: (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type === 'module' };
      } catch {
        return { file, esm: false };
      }
    }
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The note `generate` and `check` print for a manifest in a CommonJS package: everything passes,
 * and then Node cannot load the manifest (top-level await in a module it reads as CommonJS). An
 * `.mts` / `.mjs` manifest is an ES module whatever the package says.
 */
export function esmNote(outFile: string): string | undefined {
  if (/\.m[jt]s$/.test(outFile)) return undefined;
  const type = packageType(dirname(outFile));
  return type === undefined || type.esm ? undefined : `note: ${type.file} has no "type": "module"; ${ESM_ADVICE}`;
}
