/**
 * Child plugins named in the config (docs/authoring.md). A value
 * that names an existing directory (relative to the root) is a path; otherwise it is an
 * installed package resolved from the root. Problems point at the option in the config file.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { locateConfig, type ConfigText } from '../config/locate.js';
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';
import type { ExtraPlugin } from './layout.js';
import { shippedManifestFile, type ShippedPackage } from './shipped.js';
import { toPosix } from './walk.js';

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** node_modules/<spec> in the root or any directory above it, as Node's lookup finds it. */
function installedDir(root: string, spec: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', spec);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The paths (POSIX, relative to the root) whose presence decides what `resolveConfiguredPlugins`
 * makes of the configured plugins: each key's `plugins/<key>` (ZG1008 when it exists) and each
 * value taken as a path inside the root (a directory there wins over a package of that name),
 * whether they exist or not. Watch mode walks afresh when one of them, or a folder above one,
 * comes or goes.
 */
export function configuredPaths(root: string, plugins: Readonly<Record<string, string>>): string[] {
  const paths: string[] = [];
  for (const key of Object.keys(plugins).sort(compareStrings)) {
    paths.push(`plugins/${key}`);
    const asPath = toPosix(relative(root, resolve(root, plugins[key]!)));
    if (asPath !== '' && asPath !== '..' && !asPath.startsWith('../') && !isAbsolute(asPath)) paths.push(asPath);
  }
  return paths;
}

export function resolveConfiguredPlugins(
  root: string,
  plugins: Readonly<Record<string, string>>,
  config: ConfigText | undefined,
): { plugins: ExtraPlugin[]; packages: ShippedPackage[]; diagnostics: Diagnostic[] } {
  const out: ExtraPlugin[] = [];
  // Packages that ship their generated manifest: read (scan/shipped.ts), never scanned.
  const packages: ShippedPackage[] = [];
  const diagnostics: Diagnostic[] = [];
  const require = createRequire(join(root, 'package.json'));
  const where = (key: string): { file: string; line: number; column: number } =>
    config ? locateConfig(config, ['plugins', key]) : { file: 'package.json', line: 1, column: 1 };
  for (const key of Object.keys(plugins).sort(compareStrings)) {
    const spec = plugins[key]!;
    if (isDirectory(join(root, 'plugins', key))) {
      diagnostics.push(
        diag('ZG1008', {
          ...where(key),
          message: `Configured child plugin "${key}" duplicates the directory plugins/${key}/, which is already the child plugin "${key}"`,
          hint: 'Every plugins/<key>/ directory is a child plugin already; remove the config entry or use another key.',
        }),
      );
      continue;
    }
    let dir: string | undefined;
    let installed = false;
    const asPath = resolve(root, spec);
    if (isDirectory(asPath)) dir = asPath;
    else if (!spec.startsWith('.') && !spec.startsWith('/')) {
      try {
        dir = dirname(require.resolve(`${spec}/package.json`));
        installed = true;
      } catch {
        // An `exports` map that does not list ./package.json hides it from require.resolve.
        dir = installedDir(root, spec);
        installed = dir !== undefined;
      }
    }
    const shipped = installed && dir ? shippedManifestFile(dir) : undefined;
    if (shipped) {
      packages.push({ owner: key, name: spec, file: shipped, at: where(key) });
      continue;
    }
    if (!dir) {
      diagnostics.push(
        diag('ZG1008', {
          ...where(key),
          message: `Configured child plugin "${key}" → "${spec}" is neither a directory (relative to the root) nor an installed package`,
        }),
      );
      continue;
    }
    out.push({ owner: key, dir: toPosix(relative(root, dir)) });
  }
  return { plugins: out, packages, diagnostics };
}
