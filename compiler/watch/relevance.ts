/**
 * Which file events can change what a run produces (the compiler's `ignores`, `outsideWalk` and
 * `affects`): watch mode and the build plugins ask before they notify the compiler, so a plain
 * app edit never costs a run.
 *
 * These are asked for every entry of every directory a watcher attaches (~22,000 paths at 5,000
 * tools when `watch` starts) and for every event, so a path inside the root is made relative by
 * slicing off the root rather than by `path.relative` (which resolves both paths each time); the
 * rules themselves are scan/watched.ts's and scan/ignore.ts's, on that relative path.
 */
import { basename, dirname, isAbsolute, relative, sep } from 'node:path';
import { CONFIG_FILES, type ResolvedOptions } from '../config/load.js';
import { toPosix } from '../scan/walk.js';
import { isIgnoredPath } from '../scan/ignore.js';
import { outsideWalk } from '../scan/watched.js';
import { configuredDirs } from '../scan/fresh-walk.js';
import { configuredPaths } from '../scan/configured.js';
import { validatorsDir } from '../write/folder-stamp.js';

const CONFIG_NAMES: ReadonlySet<string> = new Set<string>([...CONFIG_FILES, 'package.json']);

/** The output file and its generated folder, for one options object. */
interface OutputPaths {
  readonly options: ResolvedOptions;
  readonly outFile: string;
  readonly generatedDir: string;
}

/**
 * Whether a path outside the root (`../…`) may be watched as a dependency: not the root's parent
 * itself, and no name below the `..` segments that the walk ignores.
 */
export function watchableOutside(rel: string): boolean {
  let inner = rel;
  while (inner.startsWith('../')) inner = inner.slice(3);
  return inner !== '..' && inner !== '' && !isIgnoredPath(inner);
}

export class EventRelevance {
  /** Configured plugin directories inside the root (POSIX, relative), for `outsideWalk`. */
  private dirs?: readonly string[];
  private output?: OutputPaths;
  /** The root with a trailing separator: a path starting with it is inside the root. */
  private readonly prefix: string;

  constructor(
    private readonly root: string,
    /** The options of the last run; undefined before the configuration is known. */
    private readonly options: () => ResolvedOptions | undefined,
    /** Whether some unit's result depends on the path (the unit cache's record of what units read). */
    private readonly dependsOn: (rel: string) => boolean,
    /** Whether the path is a module the config module imports (an edit reloads the configuration). */
    private readonly configModule: (rel: string) => boolean = () => false,
    /** Whether the path is a link's target (the walk follows a link whatever the name it leads to). */
    private readonly linkTarget: (rel: string) => boolean = () => false,
  ) {
    this.prefix = root.endsWith(sep) ? root : root + sep;
  }

  /** The configuration changed: the configured directories are listed again. */
  reset(): void {
    this.dirs = undefined;
    this.configured = undefined;
    this.output = undefined;
  }

  /** The configured plugins' deciding paths (scan/configured.ts `configuredPaths`). */
  private configured?: readonly string[];

  /**
   * Whether a changed path (POSIX, relative) is one that decides what the configured plugins
   * resolve to, or a folder above one: then only a fresh walk finds what it now decides (ZG1008
   * for a `plugins/<key>` that appeared or a configured folder that went; a folder that came).
   */
  decidesConfigured(rel: string): boolean {
    const options = this.options();
    if (!options) return false;
    this.configured ??= configuredPaths(this.root, options.plugins);
    return this.configured.some((path) => path === rel || path.startsWith(`${rel}/`));
  }

  /**
   * The POSIX path relative to the root, as `path.relative` gives it. A normalised path below
   * the root (what a watcher joins: no `.` or `..` segment, no doubled or trailing separator) is
   * sliced; anything else goes through `path.relative`.
   */
  relativeOf(abs: string): string {
    if (sep === '/' && abs.startsWith(this.prefix) && abs.length > this.prefix.length) {
      const rest = abs.slice(this.prefix.length);
      const first = rest.charCodeAt(0);
      // Not '.' (a dot segment or a dot file: both left to `path.relative`) nor '/' (a doubled separator).
      if (first !== 0x2e && first !== 0x2f && !rest.includes('/.') && !rest.includes('//') && !rest.endsWith('/'))
        return rest;
    }
    return toPosix(relative(this.root, abs));
  }

  /** A config file, or a module the config module imports. */
  isConfigFile(path: string): boolean {
    const rel = this.relativeOf(path);
    return CONFIG_NAMES.has(rel) || this.configModule(rel);
  }

  /** A module the config module imports: its edit reloads the configuration and is an edit like any other. */
  isConfigModule(path: string): boolean {
    return this.configModule(this.relativeOf(path));
  }

  /**
   * `byName`: by the path alone, whatever the units depend on: a path outside the root counts
   * when its name may be watched. What a path outside the root is worth depends on what the
   * runs stored (a module some unit's schema read), which a run in flight is changing: a watcher
   * filters by name as events come, and the watch loop asks the rest once no run is in flight
   * (watch/loop.ts).
   */
  ignores(abs: string, byName = false): boolean {
    // The same rule as scan/watched.ts `ignoredEvent`, on the sliced path, but for the files
    // outside the root that a unit depends on.
    const rel = this.relativeOf(abs);
    if (rel === '' || isAbsolute(rel)) return true;
    if (rel === '..' || rel.startsWith('../')) return byName ? !watchableOutside(rel) : !this.outsideDependency(rel);
    const output = this.outputPaths();
    if (output && (abs === output.outFile || abs.startsWith(`${output.outFile}.`))) return true;
    if (output && (abs + sep).startsWith(output.generatedDir + sep)) return true;
    // A name the walk ignores counts when a link of the tree leads there; asked only of events,
    // never by name (a watcher attaching lets them in through DependencyDirs).
    return isIgnoredPath(rel) && (byName || !this.linkTarget(rel));
  }

  /**
   * Whether a path outside the root is a file some unit depends on, or a folder above one (a
   * workspace package's module a schema imports): its events count, as a `src/` module's do.
   * Below the `..` segments the names the walk ignores stay ignored (an installed package is
   * stamped by its `package.json` in `node_modules/`, which no watcher enters).
   */
  private outsideDependency(rel: string): boolean {
    return watchableOutside(rel) && this.dependsOn(rel);
  }

  outsideWalk(abs: string, isDir: boolean | undefined): boolean {
    const options = this.options();
    if (!options) return false;
    this.dirs ??= configuredDirs(this.root, options);
    // The same rule as scan/watched.ts `outsideWalkOf`, on the sliced path.
    const rel = this.relativeOf(abs);
    if (rel === '' || rel.startsWith('../') || isAbsolute(rel)) return false;
    for (const dir of this.dirs)
      if (rel === dir || rel.startsWith(`${dir}/`) || dir.startsWith(`${rel}/`)) return false;
    return outsideWalk(rel, isDir);
  }

  affects(abs: string, isDir: boolean | undefined): boolean {
    if (this.isConfigFile(abs)) return true;
    if (this.ignores(abs)) return false;
    const options = this.options();
    if (!options) return true;
    const rel = this.relativeOf(abs);
    // A file beside the root's convention folders the walk does not list (index.html, vite.config.ts).
    const unlistedRootFile =
      !rel.includes('/') &&
      isDir !== true &&
      rel.includes('.') &&
      rel !== 'AGENTS.md' &&
      !options.pluginEntry.includes(rel);
    if (!unlistedRootFile && !this.outsideWalk(abs, isDir)) return true;
    return this.dependsOn(rel);
  }

  /**
   * Whether a path is the output file, its generated folder, or a module in that folder (not an
   * editor's or a write's temp file): a watcher reports only their removal, and an edit of a
   * module the compiler says it did not write (watch/tree.ts), after which a run writes them again.
   */
  isOutput(abs: string): boolean {
    const output = this.outputPaths();
    if (output === undefined) return false;
    return abs === output.outFile || abs === output.generatedDir || this.isGenerated(abs);
  }

  /** A module directly in the generated folder (`tools-0.ts`, `search.ts`, a validator). */
  isGenerated(abs: string): boolean {
    const output = this.outputPaths();
    return output !== undefined && dirname(abs) === output.generatedDir && !isIgnoredPath(basename(abs));
  }

  /** The output paths of the current options, worked out once per options object. */
  private outputPaths(): OutputPaths | undefined {
    const options = this.options();
    if (!options) return undefined;
    if (this.output?.options !== options) {
      const outRel = toPosix(relative(this.root, options.outFile));
      this.output = { options, outFile: options.outFile, generatedDir: validatorsDir(this.root, outRel) };
    }
    return this.output;
  }
}
