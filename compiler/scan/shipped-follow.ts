/**
 * The installed packages' shipped manifests as the compiler last read them (scan/shipped.ts,
 * scan/fresh-walk.ts), with the files watch mode follows for them: each read's modules, handed
 * to the watcher once (`take`), and asked of every event (`has`) and of every watch-mode run
 * (`changedIn`: then the packages are read again). One per compiler.
 */
import { relative } from 'node:path';
import type { StampedFile } from '../cache/stamped-since.js';
import { NOTHING_SHIPPED, readShippedAgain, type Shipped } from './fresh-walk.js';
import { toPosix } from './walk.js';

export class ShippedFollow {
  private current: Shipped = NOTHING_SHIPPED;
  /** Their modules (POSIX, relative to the root). */
  private files = new Set<string>();
  /** The modules with their stamps, until the watcher takes them. */
  private untaken: readonly StampedFile[] = [];

  constructor(private readonly root: string) {}

  get shipped(): Shipped {
    return this.current;
  }

  /** The packages as a fresh walk (or a read again) found them. */
  use(shipped: Shipped): void {
    this.current = shipped;
    this.untaken = shipped.files.map(({ path, stamp }) => ({ path: toPosix(relative(this.root, path)), stamp }));
    this.files = new Set(this.untaken.map((file) => file.path));
  }

  /** Whether a path (POSIX, relative) is one of the packages' modules. */
  has(rel: string): boolean {
    return this.files.has(rel);
  }

  /** Reads the packages again when a watch-mode run's events name one of their modules. */
  async refresh(dirty: ReadonlySet<string>): Promise<void> {
    for (const rel of this.files) {
      if (dirty.has(rel)) return this.use(await readShippedAgain(this.current));
    }
  }

  /** The modules of the last read, once: what the watcher has yet to follow. */
  take(): readonly StampedFile[] {
    const taken = this.untaken;
    this.untaken = [];
    return taken;
  }
}
