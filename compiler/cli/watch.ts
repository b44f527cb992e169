/** `zhin-gen watch`: regenerate on change (and on config change), coalescing bursts. */
import type { CompileResult, Compiler } from '../context.js';
import { WatchLoop } from '../watch/loop.js';
import { watchTree } from '../watch/tree.js';
import { formatPretty, runJson, summary, type Palette } from '../report/index.js';
import type { Io } from './io.js';

/** `json`: one line of JSON per run (the shape of `generate --json`), nothing else on stdout. */
export async function runWatch(compiler: Compiler, io: Io, colors: Palette, json = false): Promise<number> {
  const report = (result: CompileResult): void => {
    if (json) return io.out(JSON.stringify(runJson(result)));
    if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, colors, { root: compiler.root }));
    io.out(summary(result) + (result.errors > 0 ? ' — last good manifest kept' : ''));
  };
  const loop = new WatchLoop({
    ignore: (abs) => compiler.ignores(abs),
    run: (events) => {
      compiler.notify(events);
      return compiler.run({ write: true });
    },
    onResult: report,
    onError: (error) => io.err(`zhin-gen: run failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  // An exhausted watcher (out of inotify watches or descriptors) no longer sees changes: watch
  // says so with the fix and exits 1 rather than keep a manifest that silently goes stale.
  let exhausted: (() => void) | undefined;
  let failed = false;
  // The configuration first: it names the plugin folders to watch besides the conventions.
  await compiler.prepare();
  // Watch first, then generate: a change made while the first run is in flight is queued, not lost.
  const watcher = watchTree(compiler.root, (event) => loop.push(event), {
    ignore: (abs) => compiler.ignores(abs) && !compiler.isConfigFile(abs),
    outsideWalk: (abs, isDir) => !compiler.isConfigFile(abs) && compiler.outsideWalk(abs, isDir),
    onError: (problem) => {
      if (!problem.exhausted)
        return io.err(`zhin-gen: warning: ${problem.message}; changes may be missed until watch restarts`);
      if (failed) return;
      failed = true;
      io.err(`zhin-gen: error: ${problem.message}`);
      exhausted?.();
    },
  });
  await watcher.ready;
  report(await loop.request());
  if (!json && !failed) io.out('zhin-gen: watching for changes (Ctrl+C to stop)');
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    exhausted = stop;
    if (failed) return resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  loop.close();
  await Promise.all([watcher.close(), loop.idle()]);
  await compiler.dispose();
  return failed ? 1 : 0;
}
