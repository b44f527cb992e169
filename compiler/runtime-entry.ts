/**
 * Where zhin-gen finds the runtime package's files at run time (the schema fallback's shim, load
 * verification's alias target, the build plugin's fallback for uninstalled `@zhin.js/*` seeds):
 * `@zhin-gen/runtime` as zhin-gen itself resolves it, never a path next to zhin-gen's own files
 * (a published zhin-gen has no runtime/ folder beside it). Running from the TypeScript sources
 * (tests), the runtime's sources (its `source` export condition); from dist/, its build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The runtime package's name: the module generated manifests import and augment. */
export const RUNTIME_PACKAGE = '@zhin-gen/runtime';

type ExportTarget = string | { readonly [condition: string]: ExportTarget };

const fromSource = import.meta.url.endsWith('.ts');

/** The file behind `@zhin-gen/runtime` (or one of its subpaths, `'./define'`), or undefined. */
export function runtimeEntryFile(subpath = '.'): string | undefined {
  let packageFile: string;
  try {
    packageFile = createRequire(import.meta.url).resolve(`${RUNTIME_PACKAGE}/package.json`);
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(readFileSync(packageFile, 'utf8')) as {
    readonly exports?: Readonly<Record<string, ExportTarget>>;
  };
  const target = manifest.exports?.[subpath];
  const file = pick(target, fromSource ? ['source', 'default'] : ['default']);
  if (file === undefined) return undefined;
  const abs = join(dirname(packageFile), file);
  return existsSync(abs) ? abs : undefined;
}

function pick(target: ExportTarget | undefined, conditions: readonly string[]): string | undefined {
  if (target === undefined || typeof target === 'string') return target;
  for (const condition of conditions) {
    const found = pick(target[condition], conditions);
    if (found !== undefined) return found;
  }
  return undefined;
}
