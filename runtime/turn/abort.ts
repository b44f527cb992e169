/**
 * Abort plumbing for the pipeline: one signal per call (the turn's and the call's own), and a
 * race that stops *waiting* for a promise when that signal aborts. Every await of the pipeline on
 * code it does not own (module imports, permission checkers, schemas, hooks, risk policies, the
 * approval port, the tool) goes through `raceAbort`, so an abort ends every phase even when the
 * awaited promise never settles. The promise itself is not cancelled: JavaScript cannot.
 */

export type Settled<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'aborted' };

const NOTHING_TO_DISPOSE = () => undefined;

/**
 * The links that follow each signal, behind one listener of its own: a reply of 34 calls linked
 * each to the loop's signal, and Node warned (MaxListenersExceededWarning, past 10 listeners) on
 * the host's stderr. Keyed weakly: a signal's entry goes with it.
 */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/** Aborts `controller` when `signal` aborts; returns the undo. */
function follow(signal: AbortSignal, controller: AbortController): () => void {
  let links = followers.get(signal);
  if (links === undefined) {
    const created = new Set<AbortController>();
    links = created;
    followers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const link of [...created]) link.abort(signal.reason);
        created.clear();
      },
      { once: true },
    );
  }
  links.add(controller);
  const own = links;
  return () => own.delete(controller);
}

/**
 * One signal that aborts when any of `signals` does. With a single signal (a call without a
 * signal of its own, the common case) that signal is returned as it is: a linked copy would abort
 * at the same moment with the same reason, and cost an AbortController and a listener per call.
 */
export function linkSignals(signals: readonly (AbortSignal | undefined)[]): { signal: AbortSignal; dispose(): void } {
  let only: AbortSignal | undefined;
  let count = 0;
  for (const signal of signals)
    if (signal && signal !== only) {
      only = signal;
      count += 1;
    }
  if (count === 1) return { signal: only!, dispose: NOTHING_TO_DISPOSE };
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    cleanups.push(follow(signal, controller));
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const cleanup of cleanups) cleanup();
    },
  };
}

/**
 * Settles with whichever comes first: the promise, or the abort. Given a function, the race calls
 * it synchronously only if the signal has not aborted yet (an aborted call starts nothing new),
 * and a synchronous throw becomes an `error`, not a crash. An already aborted signal wins at once.
 */
export function raceAbort<T>(start: Promise<T> | (() => T | Promise<T>), signal: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ kind: 'aborted' });
    const onAbort = () => resolve({ kind: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    let promise: Promise<T>;
    try {
      promise = typeof start === 'function' ? Promise.resolve(start()) : start;
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'value', value });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'error', error });
      },
    );
  });
}

/**
 * The promise's value, or its error; when `signal` aborts first, the error `aborted()` makes.
 * For awaits that end with the caller's wait (a system prompt waiting on a seam provider).
 */
export async function untilAborted<T>(
  start: () => Promise<T>,
  signal: AbortSignal,
  aborted: () => unknown,
): Promise<T> {
  const settled = await raceAbort(start, signal);
  if (settled.kind === 'aborted') throw aborted();
  if (settled.kind === 'error') throw settled.error;
  return settled.value;
}
