/**
 * Watch mode outside the Vite dev server (Rollup/Rolldown `--watch`, `vite build --watch`,
 * webpack/rspack watch): those bundlers only report changes to files already in their module
 * graph (webpack/rspack report no creations at all), so a new tool directory, a SKILL.md or an
 * agent.json edit would go unnoticed. The compiler's tree watcher feeds the plugin's one watch
 * loop; a rewritten manifest is a changed module for the bundler, which rebuilds on its own.
 */
import { watchTree, type CompileResult } from '../compiler/index.js';
import type { ZhinGenState } from './state.js';

export interface SideWatcher {
  /** Resolves once the watcher's initial scan is done and no run is pending or in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function startSideWatcher(state: ZhinGenState, onResult: (result: CompileResult) => void): SideWatcher {
  state.onWatchResult(onResult);
  const watcher = watchTree(state.root, (event) => state.push(event), {
    ignore: (abs) => state.ignores(abs),
    // An exhausted watcher is an error with the fix; the build keeps running on what it has.
    onError: (problem) =>
      problem.exhausted
        ? console.error(`[zhin-gen] error: ${problem.message}`)
        : console.warn(`[zhin-gen] ${problem.message}; changes may be missed until the watch restarts`),
  });
  // The build's own run came before the watcher's initial scan: one more run once it is done
  // verifies every file by stat (nothing was notified yet), so an edit made in between is kept.
  const caughtUp = watcher.ready
    .then(() => state.run())
    .then(
      (result) => (result.written ? onResult(result) : undefined),
      () => undefined,
    );
  return {
    idle: async () => {
      await caughtUp;
      await watcher.ready;
      await state.loop.idle();
    },
    close: () => watcher.close(),
  };
}
