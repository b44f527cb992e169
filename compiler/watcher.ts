/**
 * File watching outside a bundler (`zhin-gen watch`, webpack/rspack creations): Node's recursive
 * `fs.watch`, with events coalesced over a short quiet period so a `git checkout` of hundreds of
 * files becomes one or two runs. Raw `rename` events are classified by checking the path.
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { FileEvent } from './context.js';

export interface TreeWatcher {
  close(): void;
}

const IGNORED = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

export function watchTree(root: string, onBatch: (events: FileEvent[]) => void, options: { quietMs?: number; ignore?: (abs: string) => boolean } = {}): TreeWatcher {
  const quietMs = options.quietMs ?? 25;
  let pending = new Map<string, FileEvent>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    const batch = [...pending.values()];
    pending = new Map();
    if (batch.length > 0) onBatch(batch);
  };
  const watcher: FSWatcher = watch(root, { recursive: true }, (kind, filename) => {
    if (!filename) return;
    const name = filename.toString();
    if (IGNORED.test(name)) return;
    const abs = join(root, name);
    if (options.ignore?.(abs)) return;
    let type: FileEvent['type'];
    if (kind === 'change') type = 'change';
    else if (!existsSync(abs)) type = 'unlink';
    else type = statSync(abs).isDirectory() ? 'addDir' : pending.get(abs)?.type === 'unlink' ? 'change' : 'add';
    const previous = pending.get(abs);
    // add + change within one batch stays an add.
    pending.set(abs, previous?.type === 'add' && type === 'change' ? previous : { type, path: abs });
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, quietMs);
  });
  watcher.on('error', () => {
    // A vanished directory is reported by the next event; the watcher keeps running.
  });
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
