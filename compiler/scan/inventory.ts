/**
 * The tree's inventory: every path a fresh walk lists (sorted; directories end in `/`), kept
 * between watch-mode runs and patched from file events instead of re-walked. Patching follows the
 * walk's own rules (scan/walk.ts), so after any sequence of events the inventory is what a fresh
 * walk would list; whatever only a whole walk can decide (symbolic links, unreadable
 * directories, a path that had a walk diagnostic) asks for one instead.
 */
import { lstatSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { sha256 } from '../util/hash.js';
import type { ExtraPlugin } from './layout.js';
import type { DirListings } from './listings.js';
import {
  CONVENTION_FOLDERS,
  isGroupingCandidate,
  toPosix,
  walkBelow,
  walkTree,
  type WalkMode,
  type WalkOptions,
  type WalkStamps,
} from './walk.js';
import type { TreeLink } from './walk-links.js';

/**
 * One digest of a walked list (its paths joined by newlines). The tree record's digest and the
 * layout store's key are both made over the list: at 20,000 tools it is ~47,000 paths (~3 MB
 * joined), and a one-change run joined and hashed it five times (~35 ms) before it had one.
 */
export function listDigest(list: readonly string[]): string {
  return sha256(list.join('\n'));
}

/** What patching one path did: the inventory is exact again, or only a fresh walk can tell. */
export type Reconciled = 'exact' | 'walk';

export class TreeInventory {
  /** Bumped whenever a path is added or removed: layouts derived from an older revision are stale. */
  revision = 0;

  private constructor(
    private paths: string[],
    /** The walk's stamps of `paths` (scan/walk.ts), until {@link takeStamps} hands them over. */
    private stamps: WalkStamps | undefined,
    private readonly root: string,
    private readonly options: WalkOptions,
    private readonly pluginEntry: readonly string[],
    readonly extra: readonly ExtraPlugin[],
    readonly diagnostics: readonly Diagnostic[],
  ) {}

  /** A fresh walk of the root and of the plugins the config adds outside it (with the last walk's `listings`). */
  static walk(
    root: string,
    options: Omit<WalkOptions, 'root'>,
    extra: readonly ExtraPlugin[],
    diagnostics: readonly Diagnostic[],
    listings?: DirListings,
    /** List indices of files not to stat (scan/walk.ts `walkTree`). */
    unstat?: readonly number[],
  ): TreeInventory {
    const walkOptions: WalkOptions = { ...options, root };
    const walked = walkTree(
      walkOptions,
      extra.map((p) => resolve(root, p.dir)),
      true,
      listings,
      unstat,
    );
    const inventory = new TreeInventory(walked.paths, walked.stamps, root, walkOptions, options.pluginEntry, extra, [
      ...diagnostics,
      ...walked.diagnostics,
    ]);
    inventory.links = walked.links;
    return inventory;
  }

  /** The fresh walk's symbolic links (scan/walk.ts `Inventory.links`); a link met later makes watch walk afresh. */
  links: readonly TreeLink[] = [];

  /**
   * The paths of the tree (POSIX, relative) a change of this path is a change of, through a link:
   * a link to this file, or this path below a link's folder or its missing target, with how the
   * link was taken. Links are few: a scan of them.
   */
  linksTo(rel: string): { readonly path: string; readonly kind: TreeLink[2]; readonly atTarget: boolean }[] {
    const found: { path: string; kind: TreeLink[2]; atTarget: boolean }[] = [];
    for (const [link, target, kind] of this.links) {
      const at = toPosix(relative(this.root, target));
      if (rel === at) found.push({ path: link, kind, atTarget: true });
      else if ((kind === 'dir' || kind === 'broken') && rel.startsWith(`${at}/`))
        found.push({ path: link + rel.slice(at.length), kind, atTarget: false });
    }
    return found;
  }

  get list(): readonly string[] {
    return this.paths;
  }

  private listed?: { readonly revision: number; readonly digest: string };

  /** {@link listDigest} of the list, made once per revision. */
  get digest(): string {
    if (this.listed?.revision !== this.revision)
      this.listed = { revision: this.revision, digest: listDigest(this.paths) };
    return this.listed.digest;
  }

  /**
   * The mtime, size and inode of every listed file as the walk found it (cache/tree-record.ts
   * `statList`'s layout), once, and only while the list is the walk's own: a patched inventory
   * or a second caller gets undefined and stats the list itself.
   */
  takeStamps(): WalkStamps | undefined {
    const stamps = this.revision === 0 ? this.stamps : undefined;
    this.stamps = undefined;
    return stamps;
  }

  /**
   * Makes the inventory agree with the disk for one path. Paths a fresh walk would not list (a
   * `src/` fragment a tool imports) stay out of it; a directory that appeared is listed by the
   * walker itself, and the paths it brings are added to `dirty` (a copied folder's contents may
   * come without events of their own).
   */
  reconcile(path: string, dirty: Set<string>): Reconciled {
    // A path whose directory is not listed (the directory's own event may come later, or never):
    // its outermost unlisted ancestor is reconciled instead, which lists it if the walk would.
    let rel = path;
    for (let slash = rel.lastIndexOf('/'); slash !== -1; slash = rel.lastIndexOf('/')) {
      const parent = rel.slice(0, slash);
      if (this.isPluginDir(parent) || this.has(`${parent}/`)) break;
      rel = parent;
    }
    const mode = this.walkModeOf(rel);
    if (mode === undefined) return 'exact';
    if (mode === 'probe') return this.reprobe(rel, dirty);
    if (this.diagnostics.some((d) => d.file === rel || d.file.startsWith(`${rel}/`))) return 'walk';
    let stat: ReturnType<typeof lstatSync> | undefined;
    try {
      stat = lstatSync(join(this.root, rel));
    } catch {
      stat = undefined;
    }
    if (stat?.isSymbolicLink()) return 'walk';
    if (stat?.isFile()) {
      // The common case, an edit: the path is listed already and the layout stays valid.
      if (this.has(rel) && !this.has(`${rel}/`)) return 'exact';
      this.remove(rel);
      this.add(rel, false);
      return 'exact';
    }
    this.remove(rel);
    // The last plugin entry of a folder beside a child plugin's conventions gone: the walk lists
    // that folder no more either.
    const folder = rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
    if (mode === 'file' && this.isProbeDir(folder)) return this.reprobe(folder, dirty);
    if (!stat?.isDirectory() || mode === 'file') return 'exact';
    const below = walkBelow(this.options, join(this.root, rel), mode);
    if (!below.exact) return 'walk';
    this.add(rel, true);
    for (const listed of below.paths) {
      dirty.add(listed.endsWith('/') ? listed.slice(0, -1) : listed);
      this.insert(listed);
    }
    return 'exact';
  }

  /**
   * Whether a fresh walk lists this path, and how it walks it if it is a directory (`'file'`:
   * only as a file: AGENTS.md, the plugin entry). Mirrors scan/walk.ts: a plugin directory
   * contributes its convention folders, `plugins/`, AGENTS.md and its entry; a `plugins/`
   * folder's directories are plugins; below a convention folder, everything not ignored.
   */
  private walkModeOf(rel: string): WalkMode | 'file' | undefined {
    const slash = rel.lastIndexOf('/');
    const parent = slash === -1 ? '' : rel.slice(0, slash);
    const name = rel.slice(slash + 1);
    if (this.isPluginDir(parent)) {
      if ((CONVENTION_FOLDERS as readonly string[]).includes(name)) return 'all';
      if (name === 'plugins') return 'plugins';
      if (name === 'AGENTS.md' || this.pluginEntry.includes(name)) return 'file';
      // Beside a child plugin's conventions: listed for its plugin entry files only.
      if (parent !== '' && isGroupingCandidate(name)) return 'probe';
      return undefined;
    }
    if (this.isProbeDir(parent)) return this.pluginEntry.includes(name) ? 'file' : undefined;
    if (!this.has(`${parent}/`)) return undefined;
    const grand = parent.lastIndexOf('/');
    if (parent.slice(grand + 1) === 'plugins' && this.isPluginDir(grand === -1 ? '' : parent.slice(0, grand)))
      return 'plugin';
    return 'all';
  }

  /** A folder beside a child plugin's conventions (the walk lists its plugin entries only). */
  private isProbeDir(dir: string): boolean {
    const slash = dir.lastIndexOf('/');
    if (slash === -1) return false;
    return isGroupingCandidate(dir.slice(slash + 1)) && this.isPluginDir(dir.slice(0, slash));
  }

  /** Lists a probed folder again, as the walk does: the folder and its entries, or nothing. */
  private reprobe(rel: string, dirty: Set<string>): Reconciled {
    this.remove(rel);
    let stat: ReturnType<typeof lstatSync> | undefined;
    try {
      stat = lstatSync(join(this.root, rel));
    } catch {
      stat = undefined;
    }
    // A link there is never followed by the probe; a file there is no folder of plugins.
    if (!stat?.isDirectory()) return 'exact';
    const below = walkBelow(this.options, join(this.root, rel), 'probe');
    if (!below.exact) return 'walk';
    for (const listed of below.paths) {
      dirty.add(listed.endsWith('/') ? listed.slice(0, -1) : listed);
      this.insert(listed);
    }
    return 'exact';
  }

  private isPluginDir(dir: string): boolean {
    if (dir === '' || this.extra.some((p) => p.dir === dir)) return true;
    if (!this.has(`${dir}/`)) return false;
    const slash = dir.lastIndexOf('/');
    if (slash === -1) return false;
    const folder = dir.slice(0, slash);
    const grand = folder.lastIndexOf('/');
    return folder.slice(grand + 1) === 'plugins' && this.isPluginDir(grand === -1 ? '' : folder.slice(0, grand));
  }

  private add(rel: string, isDir: boolean): void {
    const segments = rel.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const isLast = i === segments.length;
      this.insert(segments.slice(0, i).join('/') + (isLast && !isDir ? '' : '/'));
    }
  }

  private remove(rel: string): void {
    if (!this.has(rel) && !this.has(`${rel}/`)) return;
    this.revision++;
    this.paths = this.paths.filter((p) => p !== rel && !p.startsWith(`${rel}/`));
  }

  private insert(path: string): void {
    const at = lowerBound(this.paths, path);
    if (this.paths[at] === path) return;
    this.revision++;
    this.paths.splice(at, 0, path);
  }

  private has(path: string): boolean {
    return this.paths[lowerBound(this.paths, path)] === path;
  }
}

/** Index of the first entry not below `value` in a list sorted by code units. */
export function lowerBound(list: readonly string[], value: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
