/**
 * File watching outside a bundler's own watcher (`zhin-gen watch`, and the Rollup / Rolldown /
 * webpack / rspack / esbuild watch modes, whose module graphs miss new files and SKILL.md
 * edits). Built on chokidar, the watcher Vite itself uses: it watches each directory (not a
 * recursive `fs.watch`, which on Node 20 loses a file once a save replaces it by rename, as
 * `sed -i`, vim and JetBrains' safe write all do) and re-attaches to a replaced file.
 *
 * chokidar suppresses repeats: a second `change` of a path within 50 ms of the first, and a
 * second removal within 100 ms, are dropped with no trailing event (chokidar's `_throttle`), so a
 * save that follows another quickly (a formatter after the editor, a script) could be the last
 * change and never be reported. This layer adds the trailing edge: every reported path is looked
 * at again once those windows have passed, and a state that differs from the one seen with the
 * event (size, mtime and ctime in nanoseconds, inode, kind) is reported as one more event.
 *
 * Merging and scheduling events is the watch loop's job (./loop.ts), and the compiler reconciles
 * every named path with the disk, so a misreported event type cannot leave the inventory wrong.
 */
import { lstatSync, type Stats } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import type { FileEvent } from '../context.js';

export interface TreeWatcher {
  /** Resolves once the initial directory scan is done: from then on no change is missed. */
  readonly ready: Promise<void>;
  /** Adds directories (outside the root: configured child plugins). */
  add(dirs: readonly string[]): void;
  close(): Promise<void>;
}

export interface TreeWatcherOptions {
  /** Absolute paths whose events (and, for directories, whose contents) are never reported. */
  readonly ignore: (abs: string) => boolean;
  /**
   * Absolute paths a fresh walk never enters (`Compiler.outsideWalk`): not watched at all, so
   * their directories and files cost no inotify watch. `isDir` when the watcher knows.
   */
  readonly outsideWalk?: (abs: string, isDir: boolean | undefined) => boolean;
  /**
   * A watching problem. `exhausted`: the system refused another watch (ENOSPC: out of inotify
   * watches; EMFILE: out of file descriptors), so changes below some directory are no longer
   * seen; `message` says where and how to raise the limit. Required: a watcher that stops
   * seeing changes must never do so silently.
   */
  readonly onError: (problem: WatchProblem) => void;
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

const EVENTS = ['add', 'addDir', 'change', 'unlink', 'unlinkDir'] as const;

/** Longer than chokidar's longest per-path suppression window (removals: 100 ms). */
const TRAILING_CHECK_MS = 120;

/** What a path is on disk now, precisely enough to see any write; '' when it does not exist. */
function stateOf(path: string): string {
  try {
    const s = lstatSync(path, { bigint: true });
    return `${s.isDirectory() ? 'd' : s.isSymbolicLink() ? 'l' : 'f'}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return '';
  }
}

export function watchTree(root: string, onEvent: (event: FileEvent) => void, options: TreeWatcherOptions): TreeWatcher {
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    // Not chokidar's `atomic` mode: it holds every unlink back 100 ms to see whether an add
    // follows (a save by rename), which is most of the save → manifest latency. The event type
    // is only a hint here (the compiler checks every named path against the disk, and the watch
    // loop merges the unlink and the add of one save into one batch), so nothing needs it.
    atomic: false,
    // Ignored paths, and what the walk never enters (scan/watched.ts): never watched at all.
    ignored: (path: string, stats?: Stats) =>
      path !== root && (options.ignore(path) || options.outsideWalk?.(path, stats?.isDirectory()) === true),
  });
  const checks = new Map<string, { state: string; timer: ReturnType<typeof setTimeout> }>();
  const trailing = (path: string): void => {
    const check = checks.get(path);
    checks.delete(path);
    if (!check) return;
    const now = stateOf(path);
    if (now === check.state) return;
    const type: FileEvent['type'] =
      now === ''
        ? check.state.startsWith('d')
          ? 'unlinkDir'
          : 'unlink'
        : now.startsWith('d')
          ? 'addDir'
          : check.state === ''
            ? 'add'
            : 'change';
    report({ type, path });
  };
  const report = (event: FileEvent): void => {
    const previous = checks.get(event.path);
    if (previous) clearTimeout(previous.timer);
    const timer = setTimeout(() => trailing(event.path), TRAILING_CHECK_MS);
    timer.unref?.();
    checks.set(event.path, { state: stateOf(event.path), timer });
    onEvent(event);
  };
  for (const type of EVENTS) watcher.on(type, (path: string) => report({ type, path }));
  watcher.on('error', (error: unknown) =>
    options.onError(watchProblem(error instanceof Error ? error : new Error(String(error)))),
  );
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  // ZHIN_GEN_WATCH_FAULT=ENOSPC|EMFILE: once ready, the watcher reports that error through its
  // own error event, as the system would (a test cannot lower a per-user kernel limit without
  // disturbing every other process of that user).
  const fault = process.env.ZHIN_GEN_WATCH_FAULT;
  if (fault)
    void ready.then(() =>
      watcher.emit('error', Object.assign(new Error(`${fault}: injected`), { code: fault, path: root })),
    );
  return {
    ready,
    add(dirs) {
      if (dirs.length > 0) watcher.add([...dirs]);
    },
    close: () => {
      for (const check of checks.values()) clearTimeout(check.timer);
      checks.clear();
      return watcher.close();
    },
  };
}
