/** `zhin-gen watch`: regenerate on change (and on config change), coalescing bursts. */
import type { CompileResult, Compiler } from '../context.js';
import { WatchLoop } from '../watch/loop.js';
import { prewarmEditPath } from '../watch/prewarm.js';
import { watchTree } from '../watch/tree.js';
import { DependencyDirs } from '../watch/dependency-dirs.js';
import { formatPretty, runJson, summary, type Palette } from '../report/index.js';
import type { Io } from './io.js';

/** `json`: one line of JSON per run (the shape of `generate --json`), nothing else on stdout. */
export async function runWatch(compiler: Compiler, io: Io, colors: Palette, json = false): Promise<number> {
  const report = (result: CompileResult): void => {
    if (json) return io.out(JSON.stringify(runJson(result)));
    if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, colors, { root: compiler.root }));
    io.out(summary(result) + (result.errors > 0 ? ' — last good manifest kept' : ''));
  };
  // ZHIN_GEN_WATCH_TRACE=1: one `zhin-gen: trace {...}` line on stderr per run, with wall-clock
  // times (ms since the epoch, sub-millisecond) of the batch's first event, the run's start and
  // end, so bench/watch-cli.ts can split a save's latency into event, wait, compile and report.
  const trace = process.env.ZHIN_GEN_WATCH_TRACE === '1';
  const now = (): number => performance.timeOrigin + performance.now();
  // Directories outside the walk that hold a file some unit depends on (a `src/` schema module).
  const deps = new DependencyDirs(
    compiler.root,
    (abs, isDir) => compiler.outsideWalk(abs, isDir),
    () => compiler.configRevision,
  );
  const follow = (): void => {
    for (const event of deps.follow(compiler.outsideDependencies(), (dirs) => watcher.add(dirs))) loop.push(event);
  };
  const loop = new WatchLoop({
    // A save (adds and changes only) runs 4 ms after its last event: a rename over the file is one
    // event, and a temp file plus its rename come within a millisecond. A batch with a removal
    // waits the full quiet period, as a delete-and-create save would otherwise run in between.
    settleMs: 4,
    // The output's removal runs (then the run writes it again); anything else of the output never does.
    // The output found missing counts, but for a folder the last run removed itself. A root file
    // no unit reads (a log watch itself writes: `watch > watch.log`, notes.txt) never does either.
    ignore: (abs) => !compiler.affects(abs, undefined) && !compiler.outputRemoved(abs),
    run: async (events, _requested, event) => {
      const start = now();
      compiler.notify(events);
      const result = await compiler.run({ write: true });
      follow();
      if (trace)
        io.err(
          `zhin-gen: trace ${JSON.stringify({ event, start, end: now(), events: events.length, written: result.written })}`,
        );
      return result;
    },
    onResult: report,
    onError: (error) => io.err(`zhin-gen: run failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  // An exhausted watcher (out of inotify watches or descriptors) no longer sees changes: watch
  // says so with the fix and exits 1 rather than keep a manifest that silently goes stale.
  let exhausted: (() => void) | undefined;
  let failed = false;
  // Ctrl+C at any point stops watch cleanly (exit 0, the cache kept): while the configuration
  // loads and the tree's folders are being watched too, which takes seconds on a large tree.
  let stopping = false;
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => {
      stopping = true;
      resolve();
    };
    exhausted = stop;
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  // The configuration first: it names the plugin folders to watch besides the conventions.
  await compiler.prepare();
  if (stopping) {
    await compiler.dispose();
    return 0;
  }
  // Watch first, then generate: a change made while the first run is in flight is queued, not lost.
  const watcher = watchTree(
    compiler.root,
    (event) => {
      loop.push(event);
      for (const implied of deps.implied(event)) loop.push(implied);
    },
    {
      // By name: whether a module outside the root counts is asked by the loop, not mid-run here.
      ignore: (abs) => compiler.ignores(abs, true) && !compiler.isConfigFile(abs) && !deps.has(abs),
      listings: compiler.listingsFile,
      isOutput: (abs) => compiler.isOutput(abs),
      outsideWalk: (abs, isDir) => !compiler.isConfigFile(abs) && compiler.outsideWalk(abs, isDir) && !deps.has(abs),
      onError: (problem) => {
        if (!problem.exhausted)
          return io.err(`zhin-gen: warning: ${problem.message}; changes may be missed until watch restarts`);
        if (failed) return;
        failed = true;
        io.err(`zhin-gen: error: ${problem.message}`);
        exhausted?.();
      },
    },
  );
  // Every directory is watched once `ready` resolves (one readdir each, no file is read), so
  // edits are seen from here on: an edit made while the first run is in flight is queued for the
  // run after it. Saying so before the first run lets a large tree's user start editing at once.
  await Promise.race([watcher.ready, stopped]);
  if (stopping) {
    loop.close();
    await Promise.all([watcher.close(), loop.idle()]);
    await compiler.dispose();
    return failed ? 1 : 0;
  }
  if (!json && !failed) io.out('zhin-gen: watching for changes (Ctrl+C to stop)');
  const first = await loop.request();
  report(first);
  // A warm first run (nothing changed) loads no parser, no cache body and runs none of the edit
  // path: do that now, while nothing is pending, not on the first save (watch/prewarm.ts).
  const traced = (start: number, end: number): void =>
    io.err(
      `zhin-gen: trace ${JSON.stringify({ prewarm: true, start: performance.timeOrigin + start, end: performance.timeOrigin + end })}`,
    );
  if (!failed)
    void prewarmEditPath(compiler, loop, first, undefined, trace ? traced : undefined).catch(() => undefined);
  await stopped;
  loop.close();
  await Promise.all([watcher.close(), loop.idle()]);
  await compiler.dispose();
  return failed ? 1 : 0;
}
