/**
 * The installed packages' shipped manifests as the compiler last read them (scan/shipped.ts,
 * scan/fresh-walk.ts), with the modules watch mode follows for them (scan/module-graph.ts):
 * a watch-mode run whose events name one of them reads the packages again (`refresh`). One per
 * compiler.
 */
import { NOTHING_SHIPPED, readShippedAgain, type Shipped } from './fresh-walk.js';
import { FollowedModules } from './module-graph.js';

export class ShippedFollow {
  private current: Shipped = NOTHING_SHIPPED;
  /** Their modules, handed to the watcher and asked of events. */
  readonly modules: FollowedModules;

  constructor(root: string) {
    this.modules = new FollowedModules(root);
  }

  get shipped(): Shipped {
    return this.current;
  }

  /** The packages as a fresh walk (or a read again) found them. */
  use(shipped: Shipped): void {
    this.current = shipped;
    this.modules.use(shipped.files);
  }

  /** Reads the packages again when a watch-mode run's events name one of their modules. */
  async refresh(dirty: ReadonlySet<string>): Promise<void> {
    if (this.modules.changedIn(dirty)) this.use(await readShippedAgain(this.current));
  }
}
