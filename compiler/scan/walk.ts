/**
 * Scan, step one: the inventory. Walks only the convention folders of each plugin (never
 * `src/`, `docs/` or `node_modules/`), in code-unit order, so the inventory — and everything
 * derived from it — is identical on every machine whatever order the file system returns.
 * Directories carry a trailing `/`. Symbolic links are followed only when they stay inside the
 * root (or a configured directory) and do not loop (scan/walk-links.ts).
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';
import { isIgnoredEntry } from './ignore.js';
import type { DirListings, WalkEntry } from './listings.js';
import { changedTime } from '../util/file-stat.js';
import { type FollowedLink, followLink, type LinkScope, safeRealpath, type TreeLink } from './walk-links.js';

export { CONVENTION_FOLDERS, isGroupingCandidate } from './folders.js';
import { CONVENTION_FOLDERS, isGroupingCandidate } from './folders.js';

export interface WalkOptions {
  readonly root: string;
  readonly pluginEntry: readonly string[];
  /** Absolute directories links may point into besides the root. */
  readonly allowed: readonly string[];
  /**
   * Absolute output file. The walk lists it like any file: config/paths.ts refuses an output
   * inside a walked folder, and a refused one is still the input it is (skipping it hid a tool).
   */
  readonly outFile: string;
}

export interface Inventory {
  /** POSIX paths relative to the root, sorted; directories end with '/'. */
  readonly paths: string[];
  readonly diagnostics: Diagnostic[];
  /**
   * Each symbolic link inside the root the walk met: its path (POSIX, relative), its target
   * (absolute: the real path of a followed one, the path it names when it is broken) and how it
   * was taken. What happens at the target is no event of the link's folder: watch mode follows
   * the targets (compiler/context.ts).
   */
  readonly links: readonly TreeLink[];
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Names of the kinds zhin-gen reads in a convention folder: modules, markdown, JSON. */
const READ_KINDS = /\.(?:[cm]?[jt]sx?|md|json)$/;

/**
 * `path.join` for a directory already in normal form and one directory entry name: plain
 * concatenation gives the same string without normalising it again (two joins per entry were
 * ~20 ms of a 1,000-tool walk in a fresh process).
 */
function child(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** `statSync` options: one object for every call of a walk. */
const NO_THROW = { throwIfNoEntry: false } as const;

/**
 * Code-unit order of the listed paths of two sibling entries, a directory's being `name/`: the
 * walk then lists in the order a sort of every path gives (`a.ts` before `a/`, `a/x` before
 * `a0`), so the whole list needs no sort of its own. No key string is built per entry.
 */
export function compareEntries(a: WalkEntry, b: WalkEntry): number {
  const x = a.name;
  const y = b.name;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x.charCodeAt(i) - y.charCodeAt(i);
    if (d !== 0) return d;
  }
  if (x.length === y.length) return 0;
  // One name is a prefix of the other: the shorter one's path goes on with '/' if it is a directory.
  if (x.length < y.length) return a.isDirectory() ? SLASH - y.charCodeAt(n) : -1;
  return b.isDirectory() ? x.charCodeAt(n) - SLASH : 1;
}

const SLASH = 0x2f;

class Walker implements LinkScope {
  readonly paths: string[] = [];
  /**
   * The stat of each path when it was listed, as cache/tree-record.ts `TABLE_SLOTS` lays it out
   * (-1 each for a directory and for a file that cannot be stat'ed); undefined when the walk was
   * not asked to stamp.
   */
  readonly stamps: number[] | undefined;
  /**
   * For each path, a clock reading (ms since the epoch) taken before its stat: a stamp is racy
   * against the moment it was taken (cache/racy.ts), not against the whole walk's start.
   */
  readonly taken: number[] | undefined;
  /** The clock as last read: right after a directory was read and after each subtree walked. */
  private clock = 0;
  readonly diagnostics: Diagnostic[] = [];
  /** Whether a symbolic link was met (their rules need the whole walk's context). */
  sawLink = false;
  readonly links: TreeLink[] = [];
  readonly realRoot: string;
  readonly allowedReal: string[];

  /** Position in `unstat` of the next list index not to stat. */
  private unstatAt = 0;

  constructor(
    private readonly options: WalkOptions,
    stamp: boolean,
    /** The listings of the last fresh walk (scan/listings.ts): a directory whose stamp held is not listed again. */
    private readonly listings?: DirListings,
    /**
     * List indices (ascending) of files whose stamps the last tree record left out (cache/tree-check.ts):
     * stamped NaN, not stat'ed. Right only while the list is the recorded one, which the record's
     * digest checks; otherwise the tree check stats them before the run reads anything.
     */
    private readonly unstat: readonly number[] = [],
  ) {
    this.stamps = stamp ? [] : undefined;
    this.taken = stamp ? [] : undefined;
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
    // Paths below the root are built by join() from it: slicing is exact and far cheaper than
    // path.relative, which matters at thousands of entries.
    const root = this.options.root;
    if (abs.length > root.length && abs.startsWith(root) && abs[root.length] === sep)
      return toPosix(abs.slice(root.length + 1));
    return toPosix(relative(root, abs));
  }

  /** The POSIX prefix of the listed paths below `abs` (a directory): '' for the root, else `rel/`. */
  prefixOf(abs: string): string {
    return abs === this.options.root ? '' : `${this.rel(abs)}/`;
  }

  private addDir(path: string): void {
    this.paths.push(path);
    this.stamps?.push(-1, -1, -1);
    this.taken?.push(-1);
  }

  /** Reads the clock (when stamping): every stat after this is later than it. */
  private tick(): void {
    if (this.stamps !== undefined) this.clock = Date.now();
  }

  /** A listed file; stamped now when the walk stamps (one stat, no second pass over the list). */
  private addFile(path: string, abs: string): void {
    this.paths.push(path);
    const stamps = this.stamps;
    if (stamps === undefined) return;
    const unstat = this.unstat;
    if (this.unstatAt < unstat.length) {
      const i = this.paths.length - 1;
      while (this.unstatAt < unstat.length && unstat[this.unstatAt]! < i) this.unstatAt++;
      if (unstat[this.unstatAt] === i) {
        this.unstatAt++;
        stamps.push(Number.NaN, Number.NaN, Number.NaN);
        this.taken!.push(-1);
        return;
      }
    }
    this.taken!.push(this.clock);
    let s: { mtimeMs: number; ctimeMs: number; size: number; ino: number } | undefined;
    try {
      s = statSync(abs, NO_THROW);
    } catch {
      s = undefined;
    }
    if (s === undefined) stamps.push(-1, -1, -1);
    else stamps.push(changedTime(s), s.size, s.ino);
  }

  /**
   * An entry zhin-gen would read that is no regular file: said, never skipped in silence. In a
   * convention folder only names of the kinds it reads (a `progress.pipe` of a skill's script is
   * none of its business).
   */
  private special(path: string, what = 'a FIFO, socket or device'): void {
    this.diagnostics.push(
      diag('ZG1006', { file: path, message: `Cannot read ${path}: it is ${what}, not a regular file` }),
    );
  }

  private list(abs: string): readonly WalkEntry[] {
    try {
      const read = () => readdirSync(abs, { withFileTypes: true }).sort(compareEntries);
      const entries = this.listings ? this.listings.list(abs, read) : read();
      this.tick();
      return entries;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      // Node decodes a name that is not UTF-8 with U+FFFD in place of its bytes: the folder it
      // listed cannot be opened by that name (ENOENT), which says nothing of why.
      const why =
        code === 'ENOENT' && abs.includes('\uFFFD')
          ? 'its name is not valid UTF-8, so it cannot be opened by name (rename it)'
          : code;
      this.diagnostics.push(diag('ZG1006', { file: this.rel(abs) || '.', message: `Cannot read directory: ${why}` }));
      return [];
    }
  }

  /** A symbolic link met by the walk (scan/walk-links.ts): its kind and real path, or undefined. */
  private link(abs: string, parentReal: string, chain: readonly string[]): FollowedLink | undefined {
    this.sawLink = true;
    return followLink(this, abs, parentReal, chain);
  }

  /**
   * Every file and directory below `abs` (a convention folder), recursively; `prefix` is the
   * POSIX path of `abs` relative to the root with a trailing '/'. The common entry (no link)
   * costs no allocation beyond its two paths.
   */
  walkAll(abs: string, prefix: string, real: string, chain: readonly string[]): void {
    for (const entry of this.list(abs)) {
      const name = entry.name;
      if (isIgnoredEntry(name)) continue;
      const path = child(abs, name);
      if (!entry.isSymbolicLink()) {
        if (entry.isDirectory()) {
          this.addDir(`${prefix}${name}/`);
          this.walkAll(path, `${prefix}${name}/`, child(real, name), chain);
          this.tick();
        } else if (entry.isFile()) this.addFile(prefix + name, path);
        else if (READ_KINDS.test(name)) this.special(prefix + name);
        continue;
      }
      const resolved = this.link(path, real, chain);
      if (resolved?.kind === 'file') this.addFile(prefix + name, path);
      else if (resolved?.kind === 'dir') {
        this.addDir(`${prefix}${name}/`);
        this.walkAll(path, `${prefix}${name}/`, resolved.real, resolved.chain);
        this.tick();
      }
    }
  }

  /** A dirent's kind and real path, links resolved (undefined: neither a file nor a directory, or refused). */
  private kind(
    abs: string,
    entry: WalkEntry,
    parentReal: string,
    chain: readonly string[],
  ): { kind: 'file' | 'dir'; real: string; chain: readonly string[] } | undefined {
    if (entry.isSymbolicLink()) return this.link(abs, parentReal, chain);
    const kind = entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : undefined;
    return kind ? { kind, real: child(parentReal, entry.name), chain } : undefined;
  }

  /** A plugin directory: its root files, convention folders and `plugins/<key>/` children. */
  walkPlugin(abs: string, real: string, chain: readonly string[]): void {
    const prefix = this.prefixOf(abs);
    for (const entry of this.list(abs)) {
      const path = child(abs, entry.name);
      const isConvention = (CONVENTION_FOLDERS as readonly string[]).includes(entry.name) || entry.name === 'plugins';
      const isRootFile = entry.name === 'AGENTS.md' || this.options.pluginEntry.includes(entry.name);
      if (!isConvention && !isRootFile) {
        if (abs !== this.options.root && entry.isDirectory() && isGroupingCandidate(entry.name))
          this.probe(path, `${prefix}${entry.name}/`);
        continue;
      }
      const resolved = this.kind(path, entry, real, chain);
      if (resolved === undefined) {
        if (!entry.isSymbolicLink()) this.special(prefix + entry.name);
        continue;
      }
      if (isRootFile || resolved.kind !== 'dir') {
        if (resolved.kind === 'file') this.addFile(prefix + entry.name, path);
        // `AGENTS.md/` or `plugin.ts/` as a folder: never read, so never silently absent.
        else this.special(prefix + entry.name, 'a directory');
        continue;
      }
      this.addDir(`${prefix}${entry.name}/`);
      if (entry.name !== 'plugins') this.walkAll(path, `${prefix}${entry.name}/`, resolved.real, resolved.chain);
      else this.walkPluginsFolder(path, resolved.real, resolved.chain);
      this.tick();
    }
  }

  /**
   * A folder beside a child plugin's conventions (a real directory: {@link isGroupingCandidate}):
   * its plugin entry files (real files), and the folder itself when it holds one. Listed through
   * the listings record like any folder, so an entry added there is seen by the next run.
   */
  probe(abs: string, prefix = this.prefixOf(abs)): void {
    let added = false;
    for (const entry of this.list(abs)) {
      if (!entry.isFile() || !this.options.pluginEntry.includes(entry.name)) continue;
      if (!added) this.addDir(prefix);
      added = true;
      this.addFile(prefix + entry.name, child(abs, entry.name));
    }
  }

  /** A `plugins/` folder: every directory in it is a child plugin. */
  walkPluginsFolder(abs: string, real: string, chain: readonly string[]): void {
    const prefix = this.prefixOf(abs);
    for (const plugin of this.list(abs)) {
      if (isIgnoredEntry(plugin.name)) continue;
      const pluginAbs = child(abs, plugin.name);
      const pluginKind = this.kind(pluginAbs, plugin, real, chain);
      if (pluginKind?.kind === 'dir') {
        this.addDir(`${prefix}${plugin.name}/`);
        this.walkPlugin(pluginAbs, pluginKind.real, pluginKind.chain);
        this.tick();
      } else if (pluginKind?.kind === 'file') {
        this.addFile(prefix + plugin.name, pluginAbs);
      }
    }
  }
}

/**
 * The stamps a walk took of its list, in list order (cache/tree-record.ts `statList`'s layout),
 * and for each path a clock reading from before its stat (ms since the epoch; -1 for a directory).
 */
export interface WalkStamps {
  readonly table: Float64Array;
  readonly taken: Float64Array;
}

/** Whether the list is in code-unit order with no path twice (what the sort below would give). */
function sortedUnique(paths: readonly string[]): boolean {
  for (let i = 1; i < paths.length; i++) if (!(paths[i - 1]! < paths[i]!)) return false;
  return true;
}

/**
 * Walks the root plugin and the given extra plugin directories (absolute). With `stamp`, every
 * listed file is stat'ed as it is listed, and the result carries the stamps in list order
 * (`stamps`, as cache/tree-record.ts `statList` takes them), unless the list had to be sorted
 * again (extra plugin directories): then there are none and the caller stats the list itself.
 * With `listings`, a directory whose stamp is the recorded one is stat'ed instead of listed.
 */
export function walkTree(
  input: WalkOptions,
  extraPluginDirs: readonly string[] = [],
  stamp = false,
  listings?: DirListings,
  unstat?: readonly number[],
): Inventory & { readonly stamps?: WalkStamps } {
  // Normal form once: every path below is built by concatenation from these.
  const options = { ...input, root: resolve(input.root) };
  const walker = new Walker(options, stamp, listings, unstat);
  walker.walkPlugin(options.root, safeRealpath(options.root), []);
  for (const dir of extraPluginDirs.map((d) => resolve(d))) {
    walker.paths.push(`${walker.rel(dir)}/`);
    walker.stamps?.push(-1, -1, -1);
    walker.taken?.push(-1);
    walker.walkPlugin(dir, safeRealpath(dir), []);
  }
  // Sibling entries are listed in path order (compareEntries), so a walk of one plugin lists
  // every path once and in order: no sort of ~90,000 paths at 20,000 tools, and no comparison
  // either (comparing flattens every path string: ~5% of a 1,000-tool walk). A followed link
  // sits among its siblings by its own name, not as a directory, and extra plugin directories
  // come after the root's (they may lie inside it): those lists are checked, and sorted if need be.
  const inOrder = !walker.sawLink && extraPluginDirs.length === 0;
  if (inOrder || sortedUnique(walker.paths)) {
    const stamps = walker.stamps
      ? { stamps: { table: Float64Array.from(walker.stamps), taken: Float64Array.from(walker.taken!) } }
      : {};
    return { paths: walker.paths, diagnostics: walker.diagnostics, links: walker.links, ...stamps };
  }
  // The default sort orders strings by UTF-16 code units (as compareStrings in diagnostics.ts
  // does) without a call per comparison.
  const unique = [...new Set(walker.paths)].sort();
  return { paths: unique, diagnostics: walker.diagnostics, links: walker.links };
}

/**
 * How the walk treats a directory's contents: a plugin's, a `plugins/` folder's, everything, or
 * (a folder beside a child plugin's conventions) its plugin entry files only.
 */
export type WalkMode = 'plugin' | 'plugins' | 'all' | 'probe';

/**
 * What a fresh walk lists below one directory (watch mode: a directory that appeared, or was
 * renamed or copied in), by the walk's own rules, so the patched inventory equals a fresh one.
 * `exact` is false when the subtree holds a symbolic link or an unreadable directory: their
 * rules and diagnostics belong to the whole walk, which the caller then repeats.
 */
export function walkBelow(
  input: WalkOptions,
  abs: string,
  mode: WalkMode,
): { readonly paths: readonly string[]; readonly exact: boolean } {
  const options = { ...input, root: resolve(input.root) };
  const walker = new Walker(options, false);
  const real = safeRealpath(abs);
  if (mode === 'plugin') walker.walkPlugin(abs, real, []);
  else if (mode === 'plugins') walker.walkPluginsFolder(abs, real, []);
  else if (mode === 'probe') walker.probe(abs);
  else walker.walkAll(abs, walker.prefixOf(abs), real, []);
  return { paths: walker.paths, exact: !walker.sawLink && walker.diagnostics.length === 0 };
}
