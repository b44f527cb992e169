/**
 * Which paths the unit cache stamped since it was last asked (cache/units.ts `takeStamped`):
 * watch mode watches the ones outside the walk (compiler/watch/dependency-dirs.ts). Off, and
 * free, until first asked: a one-shot run never collects them.
 */
import { stampedPaths } from './flat-stamps.js';

export class StampedSince {
  private since: Set<string> | undefined;

  /** Every path `all` gives at the first call; at later calls, those noted since the last. */
  take(all: () => Iterable<string>): readonly string[] {
    if (!this.since) {
      this.since = new Set();
      return [...all()];
    }
    const out = [...this.since];
    this.since.clear();
    return out;
  }

  /** A unit's stamps were set or grew. */
  note(stamps: readonly (string | number)[]): void {
    if (this.since) for (const path of stampedPaths(stamps)) this.since.add(path);
  }
}
