/**
 * Child plugins named in the config (`plugins: { key: 'path-or-package' }`, SPEC §3): a path is
 * relative to the root; anything else is an installed package resolved from the root.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ExtraPlugin } from './layout.js';
import { toPosix } from './walk.js';

function isPath(spec: string): boolean {
  return spec.startsWith('.') || spec.startsWith('/');
}

export function resolveConfiguredPlugins(root: string, plugins: Readonly<Record<string, string>>): { plugins: ExtraPlugin[]; diagnostics: Diagnostic[] } {
  const out: ExtraPlugin[] = [];
  const diagnostics: Diagnostic[] = [];
  const require = createRequire(join(root, 'package.json'));
  for (const key of Object.keys(plugins).sort()) {
    const spec = plugins[key]!;
    let dir: string | undefined;
    if (isPath(spec)) {
      const abs = resolve(root, spec);
      if (existsSync(abs) && statSync(abs).isDirectory()) dir = abs;
    } else {
      try {
        dir = dirname(require.resolve(`${spec}/package.json`));
      } catch {
        dir = undefined;
      }
    }
    if (!dir) {
      diagnostics.push(diag('ZG1008', { file: 'zhin-gen.config', message: `Child plugin "${key}" → "${spec}" is neither a directory nor an installed package` }));
      continue;
    }
    out.push({ owner: key, dir: toPosix(relative(root, dir)) });
  }
  return { plugins: out, diagnostics };
}
