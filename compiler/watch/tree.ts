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
import { lstatSync } from 'node:fs';
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
  /** A watching problem (e.g. out of inotify watches): changes may be missed until restart. */
  readonly onError?: (error: Error) => void;
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
    // A save by rename shows up as one `change` instead of unlink + add.
    atomic: true,
    ignored: (path: string) => path !== root && options.ignore(path),
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
  watcher.on('error', (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
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
