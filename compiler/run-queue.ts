/**
 * How the compiler's runs are started (context.ts): one at a time, a run asked for while one is in
 * progress coalescing into one follow-up (util/single-flight.ts); the file events recorded between
 * runs, which each run takes when it starts; and the one retry of a run whose cache body was
 * changed under it (cache/lost-body.ts). Kept apart from the pass itself, which only sees the
 * events it was given, so that what belongs to this run and what to the next is decided here.
 * One queue per compiler: its events are never shared with another compiler's.
 */
import { isAbsolute, join, relative } from 'node:path';
import { LostCacheBody } from './cache/lost-body.js';
import type { CompileResult, FileEvent, RunOptions } from './run-types.js';
import { toPosix } from './scan/walk.js';
import { SingleFlight } from './util/single-flight.js';
import type { EventRelevance } from './watch/relevance.js';

/** One pass of the pipeline over the events it is given (undefined: verify every file by stat). */
export type Pass = (runOptions: RunOptions, dirty: Set<string> | undefined) => Promise<CompileResult>;

export class RunQueue {
  /** Paths changed since the last run (watch mode); undefined = verify every file by stat. */
  private dirty?: Set<string>;
  /** A config file changed since the configuration was loaded (or none was loaded yet). */
  private configDirty = true;
  private readonly flight = new SingleFlight<RunOptions, CompileResult>((runOptions) => this.runOnce(runOptions));

  constructor(
    private readonly root: string,
    private readonly relevance: Pick<EventRelevance, 'isConfigFile' | 'isConfigModule' | 'ignores'>,
    private readonly pass: Pass,
    /** Forgets what the retried pass must not trust (the cache's index, the inventory). */
    private readonly beforeRetry: () => void,
  ) {}

  /** Single-flight: a run requested while one is in progress coalesces into one follow-up run. */
  run(runOptions: RunOptions): Promise<CompileResult> {
    return this.flight.run(runOptions);
  }

  /** Settles once the run in progress (if any) has, whatever its outcome. */
  idle(): Promise<void> {
    return this.flight.idle();
  }

  /**
   * Records file events for the next run (the compiler's `notify`): a config file marks the
   * configuration stale, an ignored path is dropped, any other is a changed path (POSIX, relative)
   * handed to `patch` with the set it joined, to patch the inventory. From the first call on, even
   * with no event, runs trust events instead of a stat per file (watch mode).
   */
  record(events: readonly FileEvent[], patch: (rel: string, dirty: Set<string>) => void): void {
    this.dirty ??= new Set();
    for (const event of events) {
      const abs = isAbsolute(event.path) ? event.path : join(this.root, event.path);
      if (this.relevance.isConfigFile(abs)) {
        this.configDirty = true;
        // A module the config imports may be a unit's too (a shared schema file): recorded as well.
        if (!this.relevance.isConfigModule(abs)) continue;
      }
      if (this.relevance.ignores(abs)) continue;
      const rel = toPosix(relative(this.root, abs));
      this.dirty.add(rel);
      patch(rel, this.dirty);
    }
  }

  /** Whether the configuration must be loaded (again); false once `configLoaded` was called since. */
  get configStale(): boolean {
    return this.configDirty;
  }

  configLoaded(): void {
    this.configDirty = false;
  }

  private async runOnce(runOptions: RunOptions): Promise<CompileResult> {
    // Take this run's events; events that arrive while it runs belong to the next run.
    const dirty = this.dirty;
    if (this.dirty) this.dirty = new Set();
    try {
      return await this.pass(runOptions, dirty);
    } catch (error) {
      if (!(error instanceof LostCacheBody)) throw error;
      // A cache body changed in place under this run (cache/lost-body.ts): once more, from a
      // fresh walk (every unit verified by stat) and the bodies read whole, without the index.
      this.beforeRetry();
      return await this.pass(runOptions, undefined);
    }
  }
}
