/**
 * What a bundled schema (schema/fallback.ts) depends on, for the unit cache: the files it read,
 * and the files whose appearance would change what one of its imports resolves to. The unit is
 * evaluated again when any of them changes, appears or disappears, and also when its
 * evaluation failed (a missing module, a throwing one): fixing or creating the file is what
 * makes the next run succeed.
 *
 * - A project file (inside the root or outside it, e.g. `../../packages/shared`) is itself a
 *   dependency.
 * - A file inside `node_modules/` stands for its package: the package's `package.json`, which
 *   every install or upgrade rewrites. Its other files are not stamped one by one (a bundle of a
 *   Zod schema reads dozens); a hand edit inside an installed package is not seen (docs/cache.md).
 * - A relative import's candidates (esbuild's order: the path, the path with each extension,
 *   the TypeScript rewrite of `.js`, then the directory) that precede the file it resolved to,
 *   or all of them when it did not resolve, are dependencies that must stay missing.
 * - A package imported from a project file: `node_modules/<name>/package.json` of the importer's
 *   directory and of each directory above it, up to the first that has it (Node's and esbuild's
 *   lookup), so installing it nearer, installing it at all, or relinking it (pnpm) is seen.
 * - The files esbuild reads to resolve a project file's imports that no metafile names: the
 *   nearest `tsconfig.json` / `jsconfig.json` (`paths`, `baseUrl`) and `package.json`
 *   (`imports`, `sideEffects`) above each project file, each name up to the first folder that
 *   has it: above the root too, as esbuild looks there when the tree has none.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { statSync } from 'node:fs';

/** esbuild's default `resolveExtensions`, in its order. */
const EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js', '.css', '.json'];
/** esbuild's TypeScript rewrite of an import's extension when the file named does not exist. */
const REWRITES: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.ts', '.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};
const BUILTINS: ReadonlySet<string> = new Set(builtinModules);

/** One import the bundler was asked to resolve. */
export interface ResolveRequest {
  readonly importer: string;
  readonly specifier: string;
  readonly resolveDir: string;
}

/** Files a relative specifier may resolve to, in esbuild's order. */
export function relativeCandidates(resolveDir: string, specifier: string): string[] {
  const base = path.resolve(resolveDir, specifier);
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length);
  return [
    base,
    ...EXTENSIONS.map((e) => base + e),
    ...(REWRITES[ext] ?? []).map((e) => stem + e),
    path.join(base, 'package.json'),
    ...EXTENSIONS.map((e) => path.join(base, `index${e}`)),
  ];
}

/** The package a bare specifier names (`zod/v4` → `zod`, `@a/b/c` → `@a/b`), or undefined. */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || specifier.startsWith('#') || path.isAbsolute(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return name === '' || BUILTINS.has(name) ? undefined : name;
}

/** `<dir>/node_modules/<name>/package.json` for the directory and each one above it. */
export function packageCandidates(resolveDir: string, name: string): string[] {
  const out: string[] = [];
  for (let dir = path.resolve(resolveDir); ; dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') out.push(path.join(dir, 'node_modules', name, 'package.json'));
    if (path.dirname(dir) === dir) return out;
  }
}

/** The `package.json` of the installed package a file inside `node_modules/` belongs to. */
export function packageManifestOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const take = parts[at + 1]!.startsWith('@') ? 3 : 2;
  if (at + take > parts.length - 1) return undefined;
  return [...parts.slice(0, at + take), 'package.json'].join(path.sep);
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The names esbuild looks for above a file it resolves imports of. */
const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json', 'package.json'] as const;

/** For each config name, the folder's file and those above it, up to the first that exists. */
function configsAbove(folder: string): string[] {
  const out: string[] = [];
  for (const name of CONFIG_NAMES) {
    const candidates: string[] = [];
    for (let dir = folder; ; dir = path.dirname(dir)) {
      candidates.push(path.join(dir, name));
      if (path.dirname(dir) === dir) break;
    }
    out.push(...upToFirstFile(candidates));
  }
  return out;
}

function inNodeModules(file: string): boolean {
  return file.split(path.sep).includes('node_modules');
}

/** The candidates up to and with the first existing file (all of them when none exists). */
function upToFirstFile(candidates: readonly string[]): string[] {
  const out: string[] = [];
  for (const candidate of candidates) {
    out.push(candidate);
    if (isFile(candidate)) break;
  }
  return out;
}

/**
 * The dependencies of one bundled module: `files`, the inputs it read (the metafile's, or for a
 * build that failed, every importer it got to), and `requests`, the imports resolved for them.
 * `excluded`: directories of zhin-gen's own files (its runtime behind the shim, the runner).
 */
export function bundleDependencies(
  files: Iterable<string>,
  requests: readonly ResolveRequest[],
  excluded: readonly string[],
): string[] {
  const own = (file: string): boolean => excluded.some((dir) => file.startsWith(dir));
  const out = new Set<string>();
  const read = new Set<string>();
  for (const file of files) {
    const abs = path.resolve(file);
    if (own(abs)) continue;
    read.add(abs);
    if (!inNodeModules(abs)) out.add(abs);
    else {
      const manifest = packageManifestOf(abs);
      if (manifest) out.add(manifest);
    }
  }
  const configs = new Set<string>();
  for (const importer of read) if (!inNodeModules(importer)) configs.add(path.dirname(importer));
  for (const dir of configs) for (const file of configsAbove(dir)) if (!own(file)) out.add(file);
  for (const request of requests) {
    const importer = path.resolve(request.importer);
    if (!read.has(importer) || inNodeModules(importer)) continue;
    const { specifier } = request;
    if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
      // The resolved file itself is an input (or the import failed): the ones before it must stay missing.
      for (const candidate of upToFirstFile(relativeCandidates(request.resolveDir, specifier)))
        if (!own(candidate)) out.add(candidate);
      continue;
    }
    const name = packageName(specifier);
    if (name === undefined) continue;
    for (const candidate of upToFirstFile(packageCandidates(request.resolveDir, name))) out.add(candidate);
  }
  return [...out].sort();
}
