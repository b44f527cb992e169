/**
 * Single-flight with a coalescing queue: a call while one is in progress waits for it and then
 * starts one follow-up (with the arguments of the first call that queued it); every call made
 * meanwhile shares that follow-up.
 */
export class SingleFlight<A, T> {
  private running?: Promise<T>;
  private queued?: Promise<T>;

  constructor(private readonly start: (arg: A) => Promise<T>) {}

  run(arg: A): Promise<T> {
    if (!this.running) {
      this.running = this.start(arg).finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running
      .then(
        () => this.run(arg),
        () => this.run(arg),
      )
      .finally(() => {
        this.queued = undefined;
      });
    return this.queued;
  }

  /** Settles once the run in progress (if any) has, whatever its outcome. */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }
}
