/**
 * Whether the folder's package is an ES module package (`"type": "module"` in the nearest
 * package.json): the runtime and the generated manifest are ES modules, so a `.ts` or `.js`
 * manifest of a CommonJS package cannot be imported by Node (`Unexpected token '{'`, with no
 * word of why). One home for the check and its advice: `init` (a kept package.json) and
 * `zhin-gen mcp` (an import that failed) both say it.
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
