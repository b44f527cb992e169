/**
 * The one event-batching loop of every watch mode: `zhin-gen watch`, the Vite dev server (fed by
 * Vite's watcher) and the Rollup / Rolldown / webpack / rspack / esbuild watch modes (fed by
 * ./tree.ts). File events are merged per path and flushed after a quiet period, bounded by a
 * maximum wait so a steady trickle cannot starve the manifest; runs never overlap, and events
 * that arrive during a run wait for the next one, so a `git checkout` of hundreds of files is one
 * or two compiler runs. Explicit runs (a bundler's build start) go through the same queue, so the
 * order of runs and the events each one sees follow one rule everywhere.
 *
 * The event type is only a hint: the compiler checks every named path against the disk (see
 * `Compiler.notify`), so merging keeps the latest event per path and nothing else.
 */
import type { CompileResult, FileEvent } from '../context.js';

export interface WatchLoopOptions {
  /** Quiet period after the last event before a run starts (ms). Default 30. */
  readonly quietMs?: number;
  /**
   * Quiet period while every pending event is a file's add or change (a save), ms; default
   * `quietMs`. A removal may be the first half of a delete-and-create save, so a batch holding
   * one waits the full `quietMs` for the create to join it; so does a batch holding a new
   * directory: no save creates one, but a branch checkout or a copied folder does, and its
   * events come with gaps longer than a save's settle time (a run per gap, before).
   */
  readonly settleMs?: number;
  /** Upper bound on how long a continuous trickle of events can delay a run (ms). Default 1000. */
  readonly maxWaitMs?: number;
  /** Absolute paths that never trigger a run (the output, its temp files, ignored entries). */
  readonly ignore: (abs: string) => boolean;
  /**
   * One compiler run over a batch of events; `requested` when `request()` asked for it.
   * `firstEventAt`: when the earliest event of the batch came (ms since the epoch, sub-millisecond),
   * counting only the events the run is given (one the loop dropped as ignored does not date it).
   */
  readonly run: (
    events: readonly FileEvent[],
    requested: boolean,
    firstEventAt: number | undefined,
  ) => Promise<CompileResult>;
  /** Results of the runs nobody requested (the watch batches). */
  readonly onResult?: (result: CompileResult) => void | Promise<void>;
  readonly onError?: (error: unknown) => void;
}

interface Waiter {
  readonly resolve: (result: CompileResult) => void;
  readonly reject: (error: unknown) => void;
}

export class WatchLoop {
  private pending = new Map<string, FileEvent>();
  /**
   * When each pending path's first event (since it was last run or dropped) came: `Date.now()`
   * (the maximum wait's clock) and the sub-millisecond wall clock handed to `run`.
   */
  private pendingSince = new Map<string, readonly [date: number, wall: number]>();
  private waiters: Waiter[] = [];
  private timer?: ReturnType<typeof setTimeout>;
  private firstPendingAt = 0;
  /** Whether a pending event removes a path or adds a directory (the batch waits the full quiet period). */
  private pendingTreeChange = false;
  private running?: Promise<void>;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly settleMs: number;

  constructor(private readonly options: WatchLoopOptions) {
    this.quietMs = options.quietMs ?? 30;
    this.settleMs = Math.min(options.settleMs ?? this.quietMs, this.quietMs);
    this.maxWaitMs = options.maxWaitMs ?? 1_000;
  }

  /** A file event: runs after the quiet period. */
  push(event: FileEvent): void {
    if (this.queue(event)) this.schedule();
  }

  /**
   * A file event for the next run, whenever that is (it schedules none of its own). During a run
   * it is kept unasked and `ignore` decides when the run has ended: what a path is worth can
   * depend on what the run is storing (a folder outside the root counts while some unit's
   * schema read a file below it, which the cache learns only at the end of the schema stage),
   * and asked halfway it once dropped a folder's move that the run after it had to see.
   */
  queue(event: FileEvent): boolean {
    if (this.closed || (this.running === undefined && this.options.ignore(event.path))) return false;
    const at = Date.now();
    if (this.pending.size === 0) this.firstPendingAt = at;
    this.pending.set(event.path, event);
    if (!this.pendingSince.has(event.path))
      this.pendingSince.set(event.path, [at, performance.timeOrigin + performance.now()]);
    if (event.type === 'unlink' || event.type === 'unlinkDir' || event.type === 'addDir') this.pendingTreeChange = true;
    return true;
  }

  /** A run as soon as the one in flight (if any) ends, with every event queued until then. */
  request(): Promise<CompileResult> {
    return new Promise<CompileResult>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      if (!this.running) this.flush();
    });
  }

  /**
   * Runs `task` in the run slot if nothing is pending, queued or in flight (watch's pre-warming,
   * ./prewarm.ts); false when the loop was busy and the task did not run. Events that come
   * during the task wait for the run after it, as during any run; its errors go to `onError`.
   */
  whenIdle(task: () => Promise<unknown>): Promise<boolean> {
    if (this.closed || this.busy()) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.running = task()
        .then(
          () => undefined,
          (error: unknown) => this.options.onError?.(error),
        )
        .finally(() => {
          this.ended();
          resolve(true);
        });
    });
  }

  /** Resolves once no event is pending and no run is in flight. */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  busy(): boolean {
    return this.pending.size > 0 || this.waiters.length > 0 || this.running !== undefined || this.timer !== undefined;
  }

  /** Stops reacting to events; requested runs are still served. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.pendingSince.clear();
    this.pendingTreeChange = false;
    if (!this.running) this.settle();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) return; // flushed when the run ends
    const waited = Date.now() - this.firstPendingAt;
    const quiet = this.pendingTreeChange ? this.quietMs : this.settleMs;
    const delay = waited >= this.maxWaitMs ? 0 : Math.min(quiet, this.maxWaitMs - waited);
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.running) return;
    this.prune();
    const waiters = this.waiters;
    if (this.pending.size === 0 && waiters.length === 0) {
      this.settle();
      return;
    }
    const batch = [...this.pending.values()];
    let firstEventAt: number | undefined;
    for (const [, wall] of this.pendingSince.values())
      if (firstEventAt === undefined || wall < firstEventAt) firstEventAt = wall;
    this.pending = new Map();
    this.pendingSince = new Map();
    this.pendingTreeChange = false;
    this.waiters = [];
    const requested = waiters.length > 0;
    this.running = this.options
      .run(batch, requested, firstEventAt)
      .then(
        async (result) => {
          if (requested) for (const waiter of waiters) waiter.resolve(result);
          else await this.options.onResult?.(result);
        },
        (error: unknown) => {
          if (requested) for (const waiter of waiters) waiter.reject(error);
          else this.options.onError?.(error);
        },
      )
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => this.ended());
  }

  /** The events queued during a run, asked now that it has ended (see `queue`). */
  private prune(): void {
    if (this.pending.size === 0) return;
    let tree = false;
    let first: number | undefined;
    for (const [path, event] of this.pending)
      if (this.options.ignore(path)) {
        this.pending.delete(path);
        this.pendingSince.delete(path);
      } else {
        const [at] = this.pendingSince.get(path)!;
        if (first === undefined || at < first) first = at;
        if (event.type === 'unlink' || event.type === 'unlinkDir' || event.type === 'addDir') tree = true;
      }
    this.pendingTreeChange = tree;
    // The maximum wait counts from the first event kept (one dropped here, such as the run's own
    // write into the output, must not cut the next batch's quiet period short).
    if (first !== undefined) this.firstPendingAt = first;
  }

  /** A run (or an idle task) ended: serve what came meanwhile. */
  private ended(): void {
    this.running = undefined;
    this.prune();
    if (this.waiters.length > 0) this.flush();
    else if (this.pending.size > 0 && !this.closed) this.schedule();
    else this.settle();
  }

  private settle(): void {
    if (this.busy()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
