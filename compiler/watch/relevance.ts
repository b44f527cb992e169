/**
 * Which file events can change what a run produces (the compiler's `ignores`, `outsideWalk` and
 * `affects`): watch mode and the build plugins ask before they notify the compiler, so a plain
 * app edit never costs a run.
 */
import { relative } from 'node:path';
import { CONFIG_FILES, type ResolvedOptions } from '../config/load.js';
import { toPosix } from '../scan/walk.js';
import { ignoredEvent, outsideWalkOf } from '../scan/watched.js';
import { configuredDirs } from '../scan/fresh-walk.js';
import { validatorsDir } from '../write/validators.js';

export class EventRelevance {
  /** Configured plugin directories inside the root (POSIX, relative), for `outsideWalk`. */
  private dirs?: readonly string[];

  constructor(
    private readonly root: string,
    /** The options of the last run; undefined before the configuration is known. */
    private readonly options: () => ResolvedOptions | undefined,
    /** Whether some unit's result depends on the path (the unit cache's record of what units read). */
    private readonly dependsOn: (rel: string) => boolean,
  ) {}

  /** The configuration changed: the configured directories are listed again. */
  reset(): void {
    this.dirs = undefined;
  }

  isConfigFile(path: string): boolean {
    const rel = toPosix(relative(this.root, path));
    return (CONFIG_FILES as readonly string[]).includes(rel) || rel === 'package.json';
  }

  ignores(abs: string): boolean {
    const options = this.options();
    const output = options && {
      outFile: options.outFile,
      generatedDir: validatorsDir(this.root, toPosix(relative(this.root, options.outFile))),
    };
    return ignoredEvent(this.root, output, abs);
  }

  outsideWalk(abs: string, isDir: boolean | undefined): boolean {
    const options = this.options();
    if (!options) return false;
    this.dirs ??= configuredDirs(this.root, options);
    return outsideWalkOf(this.root, this.dirs, abs, isDir);
  }

  affects(abs: string, isDir: boolean | undefined): boolean {
    if (this.isConfigFile(abs)) return true;
    if (this.ignores(abs)) return false;
    const options = this.options();
    if (!options) return true;
    const rel = toPosix(relative(this.root, abs));
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
}
