/**
 * The directories outside the walk that `zhin-gen watch` (and the bundlers' side watcher) must
 * watch after all: those holding a file some unit depends on, such as a `src/` module a tool's
 * schema imports (the earlier zhin.js layout), or a file that must stay missing for an import
 * to resolve as it did (cache/flat-stamps.ts `ABSENT`). The tree watcher leaves out everything a
 * fresh walk never enters (scan/watched.ts); these paths, and every directory on the way to
 * them, are let back in, and nothing else beside them is.
 *
 * What they are is known only once a run stamped them: after each run the watcher asks the
 * compiler for the paths stamped since (`Compiler.outsideDependencies`) and attaches the
 * directories that became relevant: the highest folder above each dependency that is outside the
 * walk. When that folder does not exist yet, the walked folder above it is watched already and
 * reports its creation; the watcher then attaches it, since it is on the way to a dependency.
 */
import { existsSync } from 'node:fs';
import { dirname, sep } from 'node:path';

export class DependencyDirs {
  /** Dependency files and every directory above them, up to the root (absolute). */
  private readonly paths = new Set<string>();
  private readonly prefix: string;

  constructor(
    root: string,
    /** Whether a directory lies outside what the walk enters (`Compiler.outsideWalk`). */
    private readonly outsideWalk: (abs: string) => boolean,
  ) {
    this.prefix = root.endsWith(sep) ? root : root + sep;
  }

  /** Whether a path outside the walk is a dependency or on the way to one (then it is watched). */
  has(abs: string): boolean {
    return this.paths.has(abs);
  }

  /**
   * Takes dependency files (absolute); returns the directories to attach: for each file inside
   * the root and outside the walk, the highest directory above it that is outside the walk too
   * (so its removal and re-creation are seen), when it exists. When it does not, the walked
   * directory above it is watched already and reports its creation.
   */
  add(files: readonly string[]): string[] {
    const attach = new Set<string>();
    for (const file of files) {
      if (!file.startsWith(this.prefix) || this.paths.has(file) || !this.outsideWalk(file)) continue;
      this.paths.add(file);
      let top = dirname(file);
      while (top.startsWith(this.prefix) && this.outsideWalk(top)) {
        this.paths.add(top);
        const up = dirname(top);
        if (!up.startsWith(this.prefix) || !this.outsideWalk(up)) break;
        top = up;
      }
      if (this.outsideWalk(top) && existsSync(top)) attach.add(top);
    }
    return [...attach];
  }
}
