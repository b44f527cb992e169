/**
 * File watching outside a bundler's own watcher (`zhin-gen watch`, and the Rollup / Rolldown /
 * webpack / rspack / esbuild watch modes, whose module graphs miss new files and SKILL.md
 * edits): one non-recursive `fs.watch` per directory the walk enters, and nothing per file.
 *
 * Why per directory: the kernel reports every change of a directory's entries (a write, a
 * create, a delete, a rename over an entry) to the directory's own watch, so a save by rename
 * (`sed -i`, vim, JetBrains' safe write) is seen by name and no watch has to re-attach to a
 * replaced file. Node 20's recursive `fs.watch` on Linux loses a file once a save replaces it by
 * rename, and chokidar (before this) added a watch per file, listed a directory again on every
 * rename in it, dropped a second change of a path within 50 ms, and took seconds to scan a
 * 5,000-tool tree before its first event. Here a tree costs one inotify watch per directory, the
 * start is one `readdir` per directory (a `stat` for one the compiler's listings record holds as
 * it is: scan/listings.ts), and an event costs one `lstat`.
 *
 * The event type is the watcher's best reading (the path's kind now, and whether it was listed
 * before); merging and scheduling events is the watch loop's job (./loop.ts), and the compiler
 * checks every named path against the disk, so a misread type cannot leave the inventory wrong.
 * A directory is watched before it is listed, so an entry created while it is being attached is
 * either listed or reported.
 */
import { type Dirent, type FSWatcher, lstatSync, readdirSync, statSync, watch } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import type { FileEvent } from '../context.js';
import { DirListings, type WalkEntry } from '../scan/listings.js';
import { isIgnoredEntry } from '../scan/ignore.js';

export interface TreeWatcher {
  /** Resolves once every directory is watched: from then on no change is missed. */
  readonly ready: Promise<void>;
  /**
   * Adds directories (outside the root: configured child plugins); for one watched already, what
   * below it is let in since it was listed. Returns the directories it started to watch.
   */
  add(dirs: readonly string[]): string[];
  /** How many directories are watched (one system watch each). */
  readonly watched: () => number;
  /** How many directories were listed with `readdir` (the start's others came from the listings record). */
  readonly listed: () => number;
  close(): Promise<void>;
}

export interface TreeWatcherOptions {
  /** Absolute paths whose events (and, for directories, whose contents) are never reported. */
  readonly ignore: (abs: string) => boolean;
  /**
   * Absolute paths a fresh walk never enters (`Compiler.outsideWalk`): not watched at all, so
   * their directories cost no inotify watch. `isDir` when the watcher knows.
   */
  readonly outsideWalk?: (abs: string, isDir: boolean | undefined) => boolean;
  /**
   * A watching problem. `exhausted`: the system refused another watch (ENOSPC: out of inotify
   * watches; EMFILE: out of file descriptors), so changes below some directory are no longer
   * seen; `message` says where and how to raise the limit. Required: a watcher that stops
   * seeing changes must never do so silently.
   */
  readonly onError: (problem: WatchProblem) => void;
  /**
   * The output file and its generated folder (`Compiler.isOutput`): ignored, except that their
   * removal is reported (an `rm` of the output while watch runs), so a run writes them again.
   */
  readonly isOutput?: (abs: string) => boolean;
  /**
   * The directory listings the compiler's fresh walks keep (`Compiler.listingsFile`). At the
   * start, a directory whose stamp, taken once its watch is attached, is the recorded one is not
   * listed: its entries are the recorded ones at that stat, and the watch reports every change
   * after it. A directory attached later (created, or added) is always listed.
   */
  readonly listings?: string;
}

export interface WatchProblem {
  readonly error: Error;
  readonly exhausted: boolean;
  /** One paragraph for the user: what failed, where, and the fix. */
  readonly message: string;
}

/** The problem report for a watcher error (exported for the bundler watch modes' own watchers). */
export function watchProblem(error: Error): WatchProblem {
  const { code, path } = error as NodeJS.ErrnoException;
  const where = path ? ` while watching ${path}` : '';
  if (code === 'ENOSPC')
    return {
      error,
      exhausted: true,
      message: `file watching stopped: the system limit of inotify watches is reached (ENOSPC)${where}; changes are no longer seen.\n  fix: raise the limit, e.g. \`sudo sysctl fs.inotify.max_user_watches=524288\` (add \`fs.inotify.max_user_watches=524288\` to /etc/sysctl.conf to keep it), or stop other watchers of this user`,
    };
  if (code === 'EMFILE')
    return {
      error,
      exhausted: true,
      message: `file watching stopped: too many open files (EMFILE)${where}; changes are no longer seen.\n  fix: raise the open-file limit (\`ulimit -n 65536\`, or LimitNOFILE for a service) and on Linux \`sudo sysctl fs.inotify.max_user_instances=1024\``,
    };
  return { error, exhausted: false, message: `file watching failed (${error.message})${where}` };
}

/** One watched directory: its system watch, the entries it holds (as last seen), its inode. */
interface Watched {
  readonly watcher: FSWatcher;
  readonly names: Set<string>;
  readonly ino: number;
  /** The generated folder: every run writes into it, so its events are sorted out first. */
  readonly output: boolean;
}

type Kind = 'dir' | 'file' | undefined;

function kindOf(path: string): { kind: Kind; ino: number } {
  try {
    const s = lstatSync(path);
    if (s.isDirectory()) return { kind: 'dir', ino: s.ino };
    // A link to a directory is watched as one (the walk follows it), anything else is a file.
    if (s.isSymbolicLink()) {
      try {
        const target = statSync(path);
        if (target.isDirectory()) return { kind: 'dir', ino: target.ino };
      } catch {
        // A dangling link: a file as far as events go.
      }
    }
    return { kind: 'file', ino: s.ino };
  } catch {
    return { kind: undefined, ino: 0 };
  }
}

export function watchTree(root: string, onEvent: (event: FileEvent) => void, options: TreeWatcherOptions): TreeWatcher {
  const dirs = new Map<string, Watched>();
  let closed = false;
  let exhaustedReported = false;
  const problem = (error: unknown, path: string): void => {
    const err = error instanceof Error ? error : new Error(String(error));
    if ((err as NodeJS.ErrnoException).path === undefined) Object.assign(err, { path });
    const report = watchProblem(err);
    // Once the system refuses watches it refuses every further one: one report says it all.
    if (report.exhausted) {
      if (exhaustedReported) return;
      exhaustedReported = true;
    }
    options.onError(report);
  };
  const skipped = (abs: string, isDir: boolean | undefined): boolean =>
    abs !== root && (options.ignore(abs) || options.outsideWalk?.(abs, isDir) === true);

  /** Stops watching a directory and everything below it. */
  const detach = (dir: string): void => {
    const prefix = dir + sep;
    for (const [path, watched] of dirs)
      if (path === dir || path.startsWith(prefix)) {
        watched.watcher.close();
        dirs.delete(path);
      }
  };

  /** The inodes of the watched directories above `dir` (a directory attached after the start). */
  const inodesAbove = (dir: string): number[] => {
    const inodes: number[] = [];
    for (let at = dirname(dir); dirs.has(at); at = dirname(at)) {
      inodes.push(dirs.get(at)!.ino);
      if (at === root || dirname(at) === at) break;
    }
    return inodes;
  };

  /** Watches a directory and every directory below it the walk enters (watch first, then list). */
  const attach = (top: string): void => {
    // Each directory with the inodes of the directories above it: a link back to one of them
    // would recurse forever (a link to a sibling is watched under its own name, as the walk lists it).
    // A link created later is checked against the watched directories above it, as at the start.
    const stack: [string, readonly number[]][] = [[top, inodesAbove(top)]];
    while (stack.length > 0 && !closed) {
      const [dir, above] = stack.pop()!;
      if (dirs.has(dir)) continue;
      const { kind, ino } = kindOf(dir);
      if (kind !== 'dir' || above.includes(ino)) continue;
      const chain = [...above, ino];
      let watcher: FSWatcher;
      try {
        watcher = watch(dir, { persistent: true }, (type, name) => changed(dir, name, type === 'rename'));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') problem(error, dir);
        continue;
      }
      watcher.on('error', (error) => problem(error, dir));
      let entries: readonly WalkEntry[];
      try {
        const read = (): Dirent[] => {
          listed++;
          return readdirSync(dir, { withFileTypes: true });
        };
        entries = record ? record.list(dir, read) : read();
      } catch {
        watcher.close();
        continue;
      }
      const names = new Set<string>();
      dirs.set(dir, { watcher, names, ino, output: options.isOutput?.(dir) === true });
      // Last entry first onto the stack: directories come off it in the walk's order, the order the
      // listings record keeps, so each is found at the record's cursor.
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i]!;
        // A file's name is only remembered (an event for it is checked against `ignore` and
        // `outsideWalk` when it comes, before the name is looked at): no check per file here,
        // which at the start of a large tree is three in four entries.
        if (!entry.isDirectory() && !entry.isSymbolicLink()) {
          names.add(entry.name);
          continue;
        }
        const abs = join(dir, entry.name);
        const isDir = entry.isDirectory() || kindOf(abs).kind === 'dir';
        if (isDir && skipped(abs, true)) {
          // Not walked, but known: its removal is reported; the generated folder is watched
          // (not walked) for its modules' removals and edits.
          if (options.isOutput?.(abs) === true) {
            names.add(entry.name);
            stack.push([abs, chain]);
          }
          continue;
        }
        names.add(entry.name);
        if (isDir) stack.push([abs, chain]);
      }
    }
  };

  /**
   * Attaches what below a watched directory is let in since it was listed (a module's folder
   * beside one followed already, a plugin folder a new configuration names): each watched
   * directory below it is listed again, and a directory it skipped then and no longer skips is
   * attached. A directory not watched yet is attached as `add` does.
   */
  const reenter = (top: string, attached: string[]): void => {
    const stack = [top];
    while (stack.length > 0 && !closed) {
      const dir = stack.pop()!;
      const watched = dirs.get(dir);
      if (!watched) {
        attach(dir);
        if (dirs.has(dir)) attached.push(dir);
        continue;
      }
      let entries: Dirent[];
      try {
        listed++;
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
        const abs = join(dir, entry.name);
        if (dirs.has(abs)) {
          stack.push(abs);
          continue;
        }
        if (kindOf(abs).kind !== 'dir' || skipped(abs, true)) continue;
        watched.names.add(entry.name);
        attach(abs);
        if (dirs.has(abs)) attached.push(abs);
      }
    }
  };

  /**
   * A raw event of a watched directory: what happened to the entry `name`, read from the disk.
   * `renamed`: the entry was created, removed or moved (not only written to or re-attributed).
   */
  const changed = (dir: string, name: string | Buffer | null, renamed = false): void => {
    if (closed) return;
    const parent = dirs.get(dir);
    if (!parent) return;
    if (name === null) return rescan(dir, parent);
    const entry = String(name);
    // A run's writes there are a temp file each (written in many pieces, every one an event) and
    // its rename: only the modules' own names are looked at, nothing else costs a stat.
    if (parent.output && isIgnoredEntry(entry)) return;
    // The watched directory itself went (inotify's self events carry the directory's own name)
    // where no watched parent reports it: a folder outside the root attached alone.
    if (entry === basename(dir) && dir !== root && !dirs.has(dirname(dir)) && kindOf(dir).ino !== parent.ino) {
      detach(dir);
      return onEvent({ type: 'unlinkDir', path: dir });
    }
    const abs = join(dir, entry);
    // The generated folder's own removal, named by its own watch (its parent reports it too).
    if (entry === basename(dir) && options.isOutput?.(dir) === true) return;
    if (options.isOutput?.(abs) === true) {
      // The compiler's own writes are never events; the output found missing always is (also
      // when the event of its re-creation came after a second removal: the run is then due).
      // An output file that is there (the manifest, a module of the generated folder) is reported
      // as changed, and the compiler tells its own writes from an edit or a checkout
      // (`Compiler.outputRemoved`).
      const { kind, ino } = kindOf(abs);
      const watched = dirs.get(abs);
      if (kind === undefined) {
        parent.names.delete(entry);
        if (watched) detach(abs);
        onEvent({ type: 'unlink', path: abs });
      } else {
        parent.names.add(entry);
        if (kind === 'dir') {
          // Made again (a rename event), perhaps with the removed one's inode number: watched afresh.
          if (watched && (watched.ino !== ino || renamed)) detach(abs);
          if (!dirs.has(abs)) attach(abs);
        } else onEvent({ type: 'change', path: abs });
      }
      return;
    }
    if (options.ignore(abs)) return;
    const { kind, ino } = kindOf(abs);
    if (kind !== undefined && options.outsideWalk?.(abs, kind === 'dir') === true) return;
    const known = parent.names.has(entry);
    const watched = dirs.get(abs);
    if (kind === undefined) {
      // Gone. Never listed (a temp file created and renamed away before it was looked at): nothing changed.
      if (!known && !watched) return;
      parent.names.delete(entry);
      if (watched) detach(abs);
      return onEvent({ type: watched ? 'unlinkDir' : 'unlink', path: abs });
    }
    parent.names.add(entry);
    if (kind === 'dir') {
      // An attribute change of a watched directory: its entries report for themselves. A directory
      // removed and made again at once can get the same inode back (\`rm -r d && mkdir d\`, a
      // checkout): a rename event says the watched one is gone, whatever the inode.
      if (watched && watched.ino === ino && !renamed) return;
      // New, replaced (a directory renamed over it), or a file that became a directory.
      if (watched) detach(abs);
      attach(abs);
      return onEvent({ type: 'addDir', path: abs });
    }
    if (watched) detach(abs);
    onEvent({ type: known && !watched ? 'change' : 'add', path: abs });
  };

  /** A directory event without a name (the system's event queue overflowed): compare listings. */
  const rescan = (dir: string, watched: Watched): void => {
    let now: Set<string>;
    try {
      now = new Set(readdirSync(dir));
    } catch {
      now = new Set();
    }
    for (const name of new Set([...watched.names, ...now])) changed(dir, name);
  };

  // The record serves the start only, then is dropped (megabytes at 20,000 tools, for a watch that
  // runs for hours): a directory attached later is new or moved, and is listed.
  let record = options.listings !== undefined ? DirListings.load(options.listings) : undefined;
  let listed = 0;
  attach(root);
  record = undefined;
  const ready = Promise.resolve();
  // ZHIN_GEN_WATCH_FAULT=ENOSPC|EMFILE: once ready, the root's watch reports that error through
  // its own error event, as the system would (a test cannot lower a per-user kernel limit
  // without disturbing every other process of that user).
  const fault = process.env.ZHIN_GEN_WATCH_FAULT;
  if (fault)
    void ready.then(() =>
      dirs
        .get(root)
        ?.watcher.emit('error', Object.assign(new Error(`${fault}: injected`), { code: fault, path: root })),
    );
  return {
    ready,
    add(extra) {
      const attached: string[] = [];
      for (const dir of extra) reenter(dir, attached);
      return attached;
    },
    watched: () => dirs.size,
    listed: () => listed,
    close: () => {
      closed = true;
      for (const watched of dirs.values()) watched.watcher.close();
      dirs.clear();
      return Promise.resolve();
    },
  };
}
