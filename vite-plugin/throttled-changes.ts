/**
 * Vite's file watcher (the chokidar 3 it bundles) drops a second `change` of a path that comes
 * within 50 ms of the one it reported: its throttle has no trailing call, so the later write is
 * never reported at all. A save followed at once by a formatter's or a linter's write (or a
 * script writing a file twice) left the compiler with the first text: the overlay kept an error
 * the file no longer had, or the manifest missed the second edit, until the next save.
 *
 * So each reported `add` or `change` stamps the file, and a moment after the throttle window
 * stamps it again: a file that changed in between was written during the window, and its change
 * is reported then. A file that did not change costs one `stat`; one that is gone is left to the
 * watcher's `unlink`, which it never throttles.
 */
import { statSync } from 'node:fs';

/** Past the watcher's 50 ms window, with room for its own `stat` of a late write. */
export const RECHECK_MS = 70;

type Stamp = string | undefined;

function stampOf(path: string): Stamp {
  try {
    const s = statSync(path, { throwIfNoEntry: false, bigint: true });
    return s && `${s.mtimeNs}:${s.ctimeNs}:${s.size}:${s.ino}`;
  } catch {
    return undefined;
  }
}

export class ThrottledChanges {
  private readonly pending = new Map<string, { readonly stamp: Stamp; readonly timer: NodeJS.Timeout }>();
  private closed = false;

  constructor(private readonly changed: (path: string) => void) {}

  /** A reported `add` or `change` of `path` (as the watcher names it). */
  saw(path: string): void {
    if (this.closed) return;
    const stamp = stampOf(path);
    if (stamp === undefined) return;
    const earlier = this.pending.get(path);
    // A change the watcher reported starts a new window: the check counts from it.
    if (earlier) clearTimeout(earlier.timer);
    const timer = setTimeout(() => {
      this.pending.delete(path);
      if (this.closed) return;
      const now = stampOf(path);
      if (now !== undefined && now !== stamp) this.changed(path);
    }, RECHECK_MS);
    timer.unref();
    this.pending.set(path, { stamp, timer });
  }

  close(): void {
    this.closed = true;
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
