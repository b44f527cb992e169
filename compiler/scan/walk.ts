/**
 * Scan, step one: the inventory. Walks only the convention folders of each plugin (never
 * `src/`, `docs/` or `node_modules/`), in code-unit order, so the inventory — and everything
 * derived from it — is identical on every machine whatever order the file system returns.
 * Directories carry a trailing `/`. Symbolic links are followed only when they stay inside the
 * root (or a configured directory) and do not loop; anything else is a ZG1005 warning.
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { compareStrings, diag, type Diagnostic } from '../diagnostics.js';

export const CONVENTION_FOLDERS = ['tools', 'skills', 'agents', 'hooks', 'prompt-sections'] as const;
const IGNORED = new Set(['node_modules', '.git']);

export interface WalkOptions {
  readonly root: string;
  readonly pluginEntry: readonly string[];
  /** Absolute directories links may point into besides the root. */
  readonly allowed: readonly string[];
  /** Absolute output file: never part of the inventory. */
  readonly outFile: string;
}

export interface Inventory {
  /** POSIX paths relative to the root, sorted; directories end with '/'. */
  readonly paths: string[];
  readonly diagnostics: Diagnostic[];
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function isInside(dir: string, target: string): boolean {
  return target === dir || target.startsWith(dir + sep);
}

class Walker {
  readonly paths: string[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly realRoot: string;
  private readonly allowedReal: string[];

  constructor(private readonly options: WalkOptions) {
    this.realRoot = realpathSync(options.root);
    this.allowedReal = options.allowed.map((dir) => {
      try {
        return realpathSync(dir);
      } catch {
        return dir;
      }
    });
  }

  rel(abs: string): string {
    return toPosix(relative(this.options.root, abs));
  }

  private list(abs: string): Dirent[] {
    try {
      return readdirSync(abs, { withFileTypes: true }).sort((a, b) => compareStrings(a.name, b.name));
    } catch (error) {
      this.diagnostics.push(diag('ZG1006', { file: this.rel(abs) || '.', message: `Cannot read directory: ${(error as NodeJS.ErrnoException).code ?? String(error)}` }));
      return [];
    }
  }

  /** Resolves a dirent to 'file' | 'dir' | undefined (skipped with a diagnostic). */
  private kind(abs: string, entry: Dirent, ancestors: ReadonlySet<string>): 'file' | 'dir' | undefined {
    if (!entry.isSymbolicLink()) return entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : undefined;
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      this.diagnostics.push(diag('ZG1005', { file: this.rel(abs), message: `Broken symbolic link "${this.rel(abs)}" is not followed` }));
      return undefined;
    }
    const inside = isInside(this.realRoot, real) || this.allowedReal.some((dir) => isInside(dir, real));
    if (!inside) {
      this.diagnostics.push(diag('ZG1005', { file: this.rel(abs), message: `Symbolic link "${this.rel(abs)}" points outside the project root and is not followed` }));
      return undefined;
    }
    const stat = statSync(real);
    if (stat.isDirectory() && ancestors.has(real)) {
      this.diagnostics.push(diag('ZG1005', { file: this.rel(abs), message: `Symbolic link "${this.rel(abs)}" loops back to an enclosing directory and is not followed` }));
      return undefined;
    }
    return stat.isDirectory() ? 'dir' : 'file';
  }

  /** Every file and directory below `abs` (a convention folder), recursively. */
  walkAll(abs: string, ancestors: Set<string>): void {
    for (const entry of this.list(abs)) {
      if (IGNORED.has(entry.name) || entry.name.startsWith('.')) continue;
      const child = join(abs, entry.name);
      const kind = this.kind(child, entry, ancestors);
      if (kind === 'file') {
        if (child !== this.options.outFile) this.paths.push(this.rel(child));
      } else if (kind === 'dir') {
        this.paths.push(this.rel(child) + '/');
        const real = safeRealpath(child);
        ancestors.add(real);
        this.walkAll(child, ancestors);
        ancestors.delete(real);
      }
    }
  }

  /** A plugin directory: its root files, convention folders and `plugins/<key>/` children. */
  walkPlugin(abs: string, ancestors: Set<string>): void {
    const real = safeRealpath(abs);
    ancestors.add(real);
    for (const entry of this.list(abs)) {
      const child = join(abs, entry.name);
      const isConvention = (CONVENTION_FOLDERS as readonly string[]).includes(entry.name) || entry.name === 'plugins';
      const isRootFile = entry.name === 'AGENTS.md' || this.options.pluginEntry.includes(entry.name);
      if (!isConvention && !isRootFile) continue;
      const kind = this.kind(child, entry, ancestors);
      if (kind === undefined) continue;
      if (isRootFile) {
        if (kind === 'file') this.paths.push(this.rel(child));
        continue;
      }
      if (kind !== 'dir') {
        this.paths.push(this.rel(child));
        continue;
      }
      this.paths.push(this.rel(child) + '/');
      if (entry.name !== 'plugins') {
        const folderReal = safeRealpath(child);
        ancestors.add(folderReal);
        this.walkAll(child, ancestors);
        ancestors.delete(folderReal);
        continue;
      }
      for (const plugin of this.list(child)) {
        if (IGNORED.has(plugin.name) || plugin.name.startsWith('.')) continue;
        const pluginAbs = join(child, plugin.name);
        const pluginKind = this.kind(pluginAbs, plugin, ancestors);
        if (pluginKind === 'dir') {
          this.paths.push(this.rel(pluginAbs) + '/');
          this.walkPlugin(pluginAbs, ancestors);
        } else if (pluginKind === 'file') {
          this.paths.push(this.rel(pluginAbs));
        }
      }
    }
    ancestors.delete(real);
  }
}

function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Walks the root plugin and the given extra plugin directories (absolute). */
export function walkTree(options: WalkOptions, extraPluginDirs: readonly string[] = []): Inventory {
  const walker = new Walker(options);
  walker.walkPlugin(options.root, new Set());
  for (const dir of extraPluginDirs) {
    walker.paths.push(walker.rel(dir) + '/');
    walker.walkPlugin(dir, new Set());
  }
  const unique = [...new Set(walker.paths)].sort(compareStrings);
  return { paths: unique, diagnostics: walker.diagnostics };
}
