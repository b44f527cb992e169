/**
 * The directories outside the walk that `zhin-gen watch` (and the bundlers' side watcher) must
 * watch after all: those holding a file some unit depends on, such as a `src/` module a tool's
 * schema imports (the earlier zhin.js layout), or a file that must stay missing for an import
 * to resolve as it did (cache/flat-stamps.ts `ABSENT`). The tree watcher leaves out everything a
 * fresh walk never enters (scan/watched.ts); these paths, and every directory on the way to
 * them, are let back in, and nothing else beside them is.
 *
 * What they are is known only once a run stamped them: after each run the watcher asks the
 * compiler for the paths stamped since, with their stamps (`Compiler.outsideDependencies`), and
 * attaches the directories that became relevant: the highest folder above each dependency that
 * is outside the walk. When that folder does not exist yet, the walked folder above it is watched
 * already and reports its creation; the watcher then attaches it, since it is on the way to a
 * dependency.
 *
 * A watch sees only what happens after it is attached, and a folder that appears is listed once,
 * not reported file by file. So the stamps are compared with the disk where no event can tell:
 * right after a run stamped them (a file edited while the run read it, before its folder was
 * watched), and below a folder on the way to a dependency that appeared or went
 * (`mkdir -p src/lib && cp x.ts src/lib/`, a folder moved away). Each file that differs is
 * reported as a change: the compiler checks every named path against the disk anyway.
 */
import { existsSync, readFileSync, type Stats, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { contentHash, isAbsent, sameStat } from '../cache/flat-stamps.js';
import { fileStat } from '../util/file-stat.js';
import type { StampedFile } from '../cache/stamped-since.js';
import type { FileStamp } from '../cache/flat-stamps.js';
import type { FileEvent } from '../run-types.js';
import { type EventRelevance, watchableOutside } from './relevance.js';

/** A file some unit depends on (absolute) and the stamp the unit cache holds for it. */
export interface DependencyStamp {
  readonly path: string;
  readonly stamp: FileStamp;
}

/**
 * The stamped files (POSIX, relative to the root) watch mode must follow although the walk never
 * enters them, absolute: inside the root and outside the walk, or outside the root; never one
 * of a name the walk ignores (`node_modules/`, dot files).
 */
export function dependencyStamps(
  root: string,
  stamped: readonly StampedFile[],
  relevance: Pick<EventRelevance, 'ignores' | 'outsideWalk'>,
): DependencyStamp[] {
  const deps: DependencyStamp[] = [];
  for (const { path: rel, stamp } of stamped) {
    const path = join(root, rel);
    if (
      rel.startsWith('../') ? watchableOutside(rel) : !relevance.ignores(path) && relevance.outsideWalk(path, undefined)
    )
      deps.push({ path, stamp });
  }
  return deps;
}

/**
 * Whether the file is not what its stamp says: present where it was missing or the reverse, or
 * another time, size or inode and other bytes (a racy stamp matches no stat; its hash still decides).
 */
function differs(abs: string, stamp: FileStamp): boolean {
  let now: Stats | undefined;
  try {
    now = statSync(abs, { throwIfNoEntry: false });
  } catch (error) {
    // A file on the way is not a directory: missing, as the reader has it (cache/reader.ts).
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') return true;
  }
  if (sameStat(now && fileStat(now), stamp.changedMs, stamp.size, stamp.ino)) return false;
  if (now === undefined || isAbsent(stamp)) return true;
  try {
    return contentHash(readFileSync(abs)) !== stamp.hash;
  } catch {
    return true;
  }
}

export class DependencyDirs {
  /** Dependency files and every directory above them, up to the root (absolute). */
  private readonly paths = new Set<string>();
  /** The folder attached for each dependency file outside the root. */
  private readonly attached = new Map<string, string>();
  /** The dependency files, with their last stamp. */
  private readonly files = new Map<string, FileStamp>();
  private readonly prefix: string;

  /** The configuration the watcher was attached for (`Compiler.configRevision`). */
  private revision: number | undefined;

  constructor(
    private readonly root: string,
    /** Whether a path lies outside what the walk enters (`Compiler.outsideWalk`; `isDir` when known). */
    private readonly outsideWalk: (abs: string, isDir?: boolean) => boolean,
    /** The configuration's revision: when it moves, what the walk enters may have too. */
    private readonly configRevision: () => number = () => 0,
  ) {
    this.prefix = root.endsWith(sep) ? root : root + sep;
  }

  /** Whether a path outside the walk is a dependency or on the way to one (then it is watched). */
  has(abs: string): boolean {
    return this.paths.has(abs);
  }

  /**
   * Takes the dependencies a run stamped; attaches the directories that became relevant (for
   * each file inside the root and outside the walk, the highest directory above it that is outside
   * the walk too, so its removal and re-creation are seen, when it exists; for a file outside the
   * root, its own folder, or the nearest one above it that exists while it does not), then returns a change event for each of these files that is no longer
   * as stamped.
   */
  follow(stamped: readonly DependencyStamp[], attach: (dirs: string[]) => string[] | unknown): FileEvent[] {
    const dirs = new Set<string>();
    // A new configuration (a plugin folder named, another one dropped) changes what the walk
    // enters: the whole tree is entered again for what it now lets in (watch/tree.ts `add`).
    const revision = this.configRevision();
    const reentered = this.revision !== undefined && this.revision !== revision;
    if (reentered) dirs.add(this.root);
    this.revision = revision;
    const taken: string[] = [];
    for (const { path: file, stamp } of stamped) {
      const inside = file.startsWith(this.prefix);
      if (inside && !this.outsideWalk(file)) continue;
      this.files.set(file, stamp);
      taken.push(file);
      if (inside) {
        if (this.paths.has(file)) continue;
        this.paths.add(file);
        const top = this.topInside(file);
        if (top !== undefined) dirs.add(top);
        continue;
      }
      // Outside the root no watched folder above reports a folder that went or came back: the
      // nearest one that exists is looked up again at each run that stamps the file.
      this.paths.add(file);
      const near = this.nearestOutside(file);
      if (near !== undefined && this.attached.get(file) !== near) {
        this.attached.set(file, near);
        dirs.add(near);
      }
    }
    const attached = dirs.size > 0 ? attach([...dirs]) : undefined;
    const events = this.changed(taken);
    // The folders a new configuration let in were watched only after the run that read them:
    // an edit made in between would never be an event. Each is named as a directory that came,
    // so the next run checks every file below it (scan/inventory.ts `reconcile`).
    if (reentered && Array.isArray(attached))
      for (const dir of attached as string[]) events.push({ type: 'addDir', path: dir });
    return events;
  }

  /** The highest directory above a file in the root that is outside the walk, when it exists. */
  private topInside(file: string): string | undefined {
    let top = dirname(file);
    // Folders, said so: a folder's name with a dot (`.shared`) is no file.
    while (top.startsWith(this.prefix) && this.outsideWalk(top, true)) {
      this.paths.add(top);
      const up = dirname(top);
      if (!up.startsWith(this.prefix) || !this.outsideWalk(up, true)) break;
      top = up;
    }
    return this.outsideWalk(top, true) && existsSync(top) ? top : undefined;
  }

  /**
   * The nearest existing directory above a file outside the root (a workspace package's module):
   * its own folder, or the one that will report the creation of the missing folders on the way,
   * which are let in. Never the root's own parent folders: a package that is missing up to
   * there is seen by the next fresh run.
   */
  private nearestOutside(file: string): string | undefined {
    for (let dir = dirname(file); dirname(dir) !== dir && !this.prefix.startsWith(dir + sep); dir = dirname(dir)) {
      this.paths.add(dir);
      if (existsSync(dir)) return dir;
    }
    return undefined;
  }

  /**
   * The events an event implies: a folder on the way to a dependency that appeared or went
   * brings a change event for each dependency below it that is not as stamped.
   */
  implied(event: FileEvent): FileEvent[] {
    if ((event.type !== 'addDir' && event.type !== 'unlinkDir') || !this.paths.has(event.path)) return [];
    const below = event.path + sep;
    return this.changed([...this.files.keys()].filter((file) => file.startsWith(below)));
  }

  private changed(files: readonly string[]): FileEvent[] {
    const events: FileEvent[] = [];
    for (const file of files) if (differs(file, this.files.get(file)!)) events.push({ type: 'change', path: file });
    return events;
  }
}
