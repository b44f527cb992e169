/**
 * Watch mode outside the Vite dev server (Rollup/Rolldown `--watch`, `vite build --watch`,
 * webpack/rspack watch): those bundlers only report changes to files already in their module
 * graph (webpack/rspack report no creations at all), so a new tool directory, a SKILL.md or an
 * agent.json edit would go unnoticed. A recursive watcher on the plugin tree (the compiler's
 * `watchTree`) feeds the same coalescing loop; a rewritten manifest is a changed module for the
 * bundler, which rebuilds on its own.
 */
import { watchTree, type CompileResult } from '../compiler/index.js';
import { Regenerator } from './regenerate.js';
import type { ZhinGenState } from './state.js';

export interface SideWatcher {
  idle(): Promise<void>;
  close(): void;
}

export function startSideWatcher(state: ZhinGenState, onResult: (result: CompileResult) => void): SideWatcher {
  const loop = new Regenerator({
    quietMs: state.options.quietMs ?? 30,
    maxWaitMs: 1_000,
    ignore: (path) => state.ignores(path),
    run: (events) => state.run('watch', events),
    onResult,
    onError: (error) => console.error('[zhin-gen]', error),
  });
  const watcher = watchTree(
    state.root,
    (events) => {
      for (const event of events) loop.push(event);
    },
    { quietMs: 10, ignore: (abs) => state.ignores(abs) },
  );
  return {
    idle: () => loop.idle(),
    close() {
      watcher.close();
      loop.close();
    },
  };
}
