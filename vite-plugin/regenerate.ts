/**
 * Dev / watch-mode regeneration loop: file events are merged per path and flushed after a quiet
 * period (bounded by a maximum wait), and never while a run is in flight, so a `git checkout` of
 * hundreds of files becomes one or two compiler runs. Events that arrive during a run wait for
 * the next flush.
 */
import type { CompileResult, FileEvent } from '../compiler/index.js';

export interface RegeneratorOptions {
  /** Quiet period after the last event before a run starts (ms). */
  readonly quietMs: number;
  /** Upper bound on how long a continuous trickle of events can delay a run (ms). */
  readonly maxWaitMs: number;
  /** Whether an (absolute) path is to be ignored: the output, its temp files, node_modules. */
  readonly ignore: (abs: string) => boolean;
  /** Runs the compiler with the batch of events (serialised by the caller). */
  readonly run: (events: FileEvent[]) => Promise<CompileResult>;
  readonly onResult: (result: CompileResult) => void | Promise<void>;
  readonly onError: (error: unknown) => void;
}

export class Regenerator {
  private pending = new Map<string, FileEvent>();
  private timer?: NodeJS.Timeout;
  private firstPendingAt = 0;
  private running?: Promise<void>;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: RegeneratorOptions) {}

  push(event: FileEvent): void {
    if (this.closed || this.options.ignore(event.path)) return;
    const previous = this.pending.get(event.path);
    let merged: FileEvent | undefined = event;
    if (previous) {
      if (previous.type === 'add' && event.type === 'change') merged = previous;
      else if (previous.type === 'unlink' && event.type === 'add') merged = { type: 'change', path: event.path };
    }
    if (this.pending.size === 0) this.firstPendingAt = Date.now();
    this.pending.set(event.path, merged);
    this.schedule();
  }

  /** Resolves once no event is pending and no run is in flight. */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  busy(): boolean {
    return this.pending.size > 0 || this.running !== undefined || this.timer !== undefined;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    if (!this.running) this.settle();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.running) return; // flushed when the run ends
    const waited = Date.now() - this.firstPendingAt;
    const delay = waited >= this.options.maxWaitMs ? 0 : Math.min(this.options.quietMs, this.options.maxWaitMs - waited);
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.running || this.closed) return;
    if (this.pending.size === 0) {
      this.settle();
      return;
    }
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.running = this.options
      .run(batch)
      .then((result) => this.options.onResult(result))
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => {
        this.running = undefined;
        if (this.closed) this.settle();
        else if (this.pending.size > 0) this.schedule();
        else this.settle();
      });
  }

  private settle(): void {
    if (this.busy() && !this.closed) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
