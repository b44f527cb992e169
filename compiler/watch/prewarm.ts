/**
 * Pre-warming the edit path of `zhin-gen watch` once it has started, off the user's saves.
 *
 * Why: a warm start (the tree as the cache knows it) answers the first run from the tree record
 * without loading the cache's bodies, building the model or emitting anything, and none of the
 * edit path's code has run yet. So the first save paid for all of it: at 20,000 tools it took
 * 1.2–2.4 s (the bodies, the whole model, every shard compared, a fresh discover index), and the
 * next ten or twenty saves ran 2–3× slower than later ones while V8 compiled the edit path's
 * functions (measured from outside: 20 ms → 10 ms per run at 1,000 tools, 40 → 25 ms at 5,000).
 *
 * What: while the loop is idle, a few runs of the edit path on a file that did not change: one
 * tool's entry file is named as changed, so the run re-parses it, evaluates its schema,
 * assembles the model and emits, exactly as a save would, but writes nothing (see below) and
 * reports nothing. Each run takes the loop's run slot only when nothing is pending
 * (WatchLoop.whenIdle), and the first real event ends the pre-warming: a save made meanwhile
 * waits at most for the one pre-warm run in flight, never for the rest.
 *
 * Why nothing is written: a pre-warm run reads the tree as it is, so an edit made right
 * after the last run, whose event has not reached the loop yet, is in it. Written, that edit
 * reached the manifest unreported, and the run its event started found nothing to say (a CI
 * run saw a package folder moved away and no ZG2023 printed). Unwritten, the run that event
 * starts writes it and reports it as for any save. Emitting is warmed all the same: only the
 * write step, a compare with what is on disk, is left out.
 */
import type { CompileResult, FileEvent, RunOptions } from '../context.js';
import type { WatchLoop } from './loop.js';

/** What pre-warming needs of the compiler (a subset of `Compiler`). */
export interface PrewarmCompiler {
  notify(events: readonly FileEvent[]): void;
  run(options?: RunOptions): Promise<CompileResult>;
  warmup(): Promise<void>;
  /** Builds the discover index encoder's state, which a run with unchanged searched texts never needs. */
  prewarmSearch(): void;
}

/**
 * How many runs: enough for V8 to optimise the edit path's hot loops (the figures above level
 * off after ten to twenty saves), bounded in time so a huge tree does not keep a core busy for
 * long after start. ZHIN_GEN_WATCH_PREWARM=N sets the count (0: none), for measuring.
 */
const RUNS = 12;
const BUDGET_MS = 4_000;

export function prewarmRuns(): number {
  const set = process.env.ZHIN_GEN_WATCH_PREWARM;
  if (set === undefined || set === '') return RUNS;
  const n = Number(set);
  return Number.isInteger(n) && n >= 0 ? n : RUNS;
}

/** The pre-warm runs done (0 when there is no tool to name, or a real event came first). */
export async function prewarmEditPath(
  compiler: PrewarmCompiler,
  loop: Pick<WatchLoop, 'whenIdle'>,
  first: CompileResult,
  runs: number = prewarmRuns(),
  /** Each pre-warm run's start and end (performance.now()), for ZHIN_GEN_WATCH_TRACE. */
  traced?: (start: number, end: number) => void,
): Promise<number> {
  if (runs === 0) return 0;
  await compiler.warmup();
  const started = performance.now();
  let path: string | undefined;
  let done = 0;
  while (done < runs && performance.now() - started < BUDGET_MS) {
    // A macrotask between runs: file events that arrived meanwhile reach the loop first.
    await new Promise((resolve) => setImmediate(resolve));
    const ran = await loop.whenIdle(async () => {
      // Read inside the run slot: a first run the tree record answered builds the model here
      // (from the cache, without parsing), which is part of what the first save used to pay for.
      path ??= first.model.tools[0]?.source ?? '';
      if (path === '') return;
      const start = performance.now();
      compiler.notify([{ type: 'change', path }]);
      await compiler.run({ write: false });
      traced?.(start, performance.now());
    });
    if (!ran || path === '') break;
    done++;
  }
  // The pre-warm saves leave every searched text as it was, so the discover index is never
  // encoded by them: the first save that edits a description would encode every tool's document
  // (about 270 ms of CPU at 5,000 tools). Encoding the current catalog once now leaves that save
  // a patch of one document (RunStats.searchIndexed).
  if (done > 0) await loop.whenIdle(async () => compiler.prewarmSearch());
  return done;
}
