/**
 * Watch mode outside the Vite dev server (Rollup/Rolldown `--watch`, `vite build --watch`,
 * webpack/rspack watch, esbuild contexts): those bundlers only report changes to files already in
 * their module graph (webpack/rspack report no creations at all), so a new tool directory, a
 * SKILL.md or an agent.json edit would go unnoticed. The compiler's tree watcher feeds the
 * plugin's one watch loop; a rewritten manifest is a changed module for the bundler, which
 * rebuilds on its own.
 *
 * It watches what `zhin-gen watch` watches (compiler/scan/watched.ts): the directories a fresh
 * walk enters, so a bot's `src/`, `docs/`, `dist/` or `node_modules/` cost no system watch and
 * start no run (but for the folders of a schema's modules, compiler/watch/dependency-dirs.ts); the
 * configuration decides the configured plugin folders, so it is loaded first.
 */
import { type CompileResult, type TreeWatcher, watchTree } from '../compiler/index.js';
import { DependencyDirs } from '../compiler/watch/dependency-dirs.js';
import type { ZhinGenState } from './state.js';

export interface SideWatcher {
  /** Resolves once the watcher watches every directory and no run is pending or in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export function startSideWatcher(state: ZhinGenState, onResult: (result: CompileResult) => void): SideWatcher {
  const compiler = state.compiler;
  let closed = false;
  let exhausted = false;
  // As `zhin-gen watch`: the folders outside the walk that hold a schema's module are watched
  // once a run has stamped them (a creation there is nothing the bundler's graph would report).
  const deps = new DependencyDirs(
    compiler.root,
    (abs, isDir) => compiler.outsideWalk(abs, isDir),
    () => compiler.configRevision,
  );
  let attached: TreeWatcher | undefined;
  const follow = (): void => {
    // Before the watcher exists nothing is taken: its first follow gets every dependency.
    const watcher = attached;
    if (!watcher) return;
    for (const event of deps.follow(compiler.outsideDependencies(), (dirs) => watcher.add(dirs))) state.push(event);
  };
  state.onWatchResult((result) => {
    follow();
    onResult(result);
  });
  const started: Promise<TreeWatcher | undefined> = compiler.prepare().then(
    () =>
      closed
        ? undefined
        : watchTree(
            state.root,
            (event) => {
              state.push(event);
              for (const implied of deps.implied(event)) state.push(implied);
            },
            {
              // By name: whether a module outside the root counts is asked by the loop, not mid-run here.
              ignore: (abs) => state.ignores(abs, true),
              listings: compiler.listingsFile,
              // The output and its generated folder: their removal (an `rm`, a `git clean`) is an
              // event (the watcher reports nothing else of them), so a run writes them again. The
              // bundle imports the virtual module: no bundler reports the file.
              isOutput: (abs) => compiler.isOutput(abs),
              outsideWalk: (abs, isDir) =>
                !compiler.isConfigFile(abs) && compiler.outsideWalk(abs, isDir) && !deps.has(abs),
              // An exhausted watcher no longer sees changes below some folder: the same error with
              // the fix as `zhin-gen watch` prints (the bundler's own watch keeps running, so it
              // cannot exit; the message says the manifest may now go stale).
              onError: (problem) => {
                if (!problem.exhausted)
                  return console.warn(`[zhin-gen] ${problem.message}; changes may be missed until the watch restarts`);
                if (exhausted) return;
                exhausted = true;
                console.error(
                  `[zhin-gen] error: ${problem.message}\n  until then the generated manifest is not updated on changes the bundler does not see; restart the watch after the fix`,
                );
              },
            },
          ),
    () => undefined,
  );
  // The build's own run came before the watcher was attached: one more run once it is verifies
  // every file by stat (nothing was notified yet), so an edit made in between is kept.
  const caughtUp = started
    .then((watcher) => {
      attached = watcher;
      return watcher ? state.run() : undefined;
    })
    .then((result) => {
      follow();
      return result;
    })
    .then(
      // A clean catch-up that wrote nothing counts too: a fix made before the watcher attached
      // must still wake a bundler whose last build failed at its start (failed-start.ts).
      (result) => (result && (result.written || result.errors === 0) ? onResult(result) : undefined),
      () => undefined,
    );
  return {
    idle: async () => {
      await caughtUp;
      await state.loop.idle();
    },
    close: async () => {
      closed = true;
      await (await started)?.close();
    },
  };
}
