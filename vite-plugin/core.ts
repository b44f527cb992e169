/**
 * The zhin-gen build plugin: ONE unplugin factory over the same compiler API the CLI uses.
 * Entries (`zhin-gen/vite`, `/rollup`, `/rolldown`, `/esbuild`, `/webpack`, `/rspack`) only pick
 * the bundler flavour of this factory.
 *
 * - Build start (every bundler): generate the manifest; error diagnostics fail the build with the
 *   diagnostic's file, line and column; warnings are printed once.
 * - `virtual:zhin-capabilities` re-exports the generated manifest (`./virtual.ts`).
 * - Seed module names (`@zhin.js/tool`, ...) fall back to `@zhin-gen/runtime` when not installed.
 * - Vite dev: Vite's watcher drives incremental regeneration, HMR and the error overlay (`./dev.ts`).
 * - Watch modes of the other bundlers: a recursive tree watcher notices creations (`./side-watcher.ts`).
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createUnplugin, type UnpluginFactory, type UnpluginOptions } from 'unplugin';
import type { CompileResult } from '../compiler/index.js';
import { summary } from '../compiler/report/index.js';
import {
  errorMessage,
  errorsOf,
  esbuildMessage,
  PLUGIN_NAME,
  rollupError,
  rollupWarning,
  warningMessage,
  webpackError,
} from './diagnostics.js';
import { ViteDev } from './dev.js';
import { FailedStart } from './failed-start.js';
import type { ZhinGenPluginOptions } from './options.js';
import { startSideWatcher, type SideWatcher } from './side-watcher.js';
import { ZhinGenState } from './state.js';
import { loadErrorMessage, loadErrors, loadRollupError } from './verify.js';
import {
  generatedModuleJs,
  isAliasable,
  isInstalled,
  isVirtualId,
  ownRuntimeEntry,
  RESOLVED_VIRTUAL_ID,
  RUNTIME_MODULE,
  VIRTUAL_ID,
  virtualModuleCode,
} from './virtual.js';

export type { ZhinGenPluginOptions, RunTrigger } from './options.js';

/** The Rollup-family plugin context as far as this plugin uses it (unplugin types it narrower). */
interface RollupLikeContext {
  error(error: ReturnType<typeof rollupError>): never;
  warn(warning: ReturnType<typeof rollupWarning>): void;
  resolve(
    source: string,
    importer: string | undefined,
    options: { skipSelf: boolean },
  ): Promise<{ id: string; external: boolean | 'absolute' | 'relative' } | null>;
  meta?: { watchMode?: boolean };
  addWatchFile?(id: string): void;
}

/** The parts of esbuild's `PluginBuild` used here (structural, so esbuild stays optional). */
interface EsbuildLike {
  initialOptions: { absWorkingDir?: string; outdir?: string; outfile?: string };
  onStart(callback: () => Promise<{ errors?: object[]; warnings?: object[] } | undefined>): void;
  onEnd(callback: (result: { errors: readonly object[] }) => Promise<{ errors?: object[] } | undefined>): void;
  onResolve(
    options: { filter: RegExp; namespace?: string },
    callback: (args: {
      path: string;
      importer: string;
      resolveDir: string;
      kind: string;
      pluginData?: unknown;
    }) => Promise<object | undefined> | object | undefined,
  ): void;
  onLoad(
    options: { filter: RegExp; namespace?: string },
    callback: (args: { path: string }) => object | undefined | Promise<object | undefined>,
  ): void;
  onDispose?(callback: () => void): void;
  resolve(
    path: string,
    options: { kind: string; resolveDir: string; importer?: string; pluginData?: unknown },
  ): Promise<{ path: string; external: boolean; errors: unknown[] }>;
}

/** The parts of a webpack/rspack `Compiler` used here. */
interface WebpackLikeCompiler {
  options: { context?: string; output?: { path?: string } };
  watching?: { invalidate(): void };
  hooks: {
    watchRun: { tapPromise(name: string, fn: () => Promise<void>): void };
    beforeRun: { tapPromise(name: string, fn: () => Promise<void>): void };
    watchClose: { tap(name: string, fn: () => void): void };
    normalModuleFactory: {
      tap(
        name: string,
        fn: (factory: {
          hooks: { beforeResolve: { tap(name: string, fn: (data: { request: string }) => void): void } };
        }) => void,
      ): void;
    };
  };
}

interface WebpackLikeCompilation {
  errors: Error[];
  warnings: Error[];
}

const ESBUILD_NAMESPACE = 'zhin-gen-virtual';

export const unpluginFactory: UnpluginFactory<ZhinGenPluginOptions | undefined, false> = (userOptions, meta) => {
  const state = new ZhinGenState(userOptions ?? {});
  const framework = meta.framework;
  const webpackLike = framework === 'webpack' || framework === 'rspack';
  /** webpack/rspack: unplugin turns a non-absolute id into an in-memory module. */
  const virtualResolved = webpackLike ? VIRTUAL_ID : RESOLVED_VIRTUAL_ID;
  let bundlerRoot: string | undefined;
  let serve = false;
  let dev: ViteDev | undefined;
  let sideWatcher: SideWatcher | undefined;
  let hadErrors = false;

  const firstRun = (): Promise<CompileResult> => (state.last ? Promise.resolve(state.last) : state.run());

  const startWatching = (onResult: (result: CompileResult) => void): void => {
    sideWatcher ??= startSideWatcher(state, onResult);
  };
  // The bundler's watch is over: the unit cache is written now, as \`zhin-gen watch\` writes it at
  // Ctrl+C, not by a timer that a process about to exit never fires (or that fires later still).
  const stopWatching = (): void => {
    const closing = sideWatcher?.close();
    sideWatcher = undefined;
    void Promise.resolve(closing).then(() => state.dispose());
  };
  /** Out-of-band runs (side watcher) with errors: printed now, reported by the next build too. */
  const failedStart = new FailedStart();
  // After printed errors, the clean run says so (a fix that gives back the manifest's bytes starts no build).
  let outOfBandFailed = false;
  const printOutOfBand = (result: CompileResult): void => {
    for (const d of state.newWarnings(result)) console.warn(`[${PLUGIN_NAME}] ${warningMessage(d)}`);
    if (result.errors > 0) console.error(`[${PLUGIN_NAME}] ${errorMessage(result)}`);
    else if (outOfBandFailed) console.info(`[${PLUGIN_NAME}] ${summary(result)}`);
    outOfBandFailed = result.errors > 0;
    failedStart.sideRun(result, state.outFile);
  };

  const plugin: UnpluginOptions = {
    name: PLUGIN_NAME,
    enforce: 'pre',

    async buildStart() {
      const result = await state.run();
      if (serve) {
        dev?.report(result);
        return;
      }
      if (webpackLike) {
        const native = this.getNativeBuildContext?.() as { compilation?: WebpackLikeCompilation } | undefined;
        const compilation = native?.compilation;
        for (const d of state.newWarnings(result)) compilation?.warnings.push(webpackError(state.root, d));
        for (const d of errorsOf(result)) compilation?.errors.push(webpackError(state.root, d));
        if (!compilation && result.errors > 0) throw new Error(errorMessage(result));
        return;
      }
      const ctx = this as unknown as RollupLikeContext;
      const watching = ctx.meta?.watchMode === true;
      if (watching) startWatching(printOutOfBand);
      for (const d of state.newWarnings(result)) ctx.warn(rollupWarning(state.root, d));
      if (result.errors === 0) return failedStart.started();
      if (watching) failedStart.failedWith(ctx, state.root, state.outFile, result);
      ctx.error(rollupError(state.root, result));
    },

    // `verifyLoad`: once the bundle is built, import every capability module for real. Rollup
    // and Vite pass the build's own error (unplugin's type leaves it out): that one wins.
    async buildEnd(...args: unknown[]) {
      if (serve || args[0]) return;
      const errors = await loadErrors(userOptions?.verifyLoad, state.last);
      if (errors.length === 0) return;
      if (webpackLike) {
        const compilation = (this.getNativeBuildContext?.() as { compilation?: WebpackLikeCompilation } | undefined)
          ?.compilation;
        for (const d of errors) compilation?.errors.push(webpackError(state.root, d));
        if (!compilation) throw new Error(loadRollupError(state.root, errors).message);
        return;
      }
      (this as unknown as RollupLikeContext).error(
        loadRollupError(state.root, errors) as ReturnType<typeof rollupError>,
      );
    },

    watchChange(id, change) {
      // Vite dev has its own watcher wiring; elsewhere these are the files in the module graph.
      if (serve) return;
      state.notify([
        { type: change.event === 'create' ? 'add' : change.event === 'delete' ? 'unlink' : 'change', path: id },
      ]);
    },

    resolveId: {
      // Only the virtual module and seed names reach the handler: bundlers that evaluate hook
      // filters natively (Rolldown) then never call into it for the tools' own imports.
      filter: { id: /^(?:virtual:zhin-capabilities$|@zhin\.js\/)/ },
      async handler(id, importer) {
        if (id === VIRTUAL_ID) return virtualResolved;
        if (!isAliasable(id, state.modules)) return null;
        const fromDir = importer && !isVirtualId(importer) ? dirname(importer) : state.root;
        if (webpackLike) {
          if (isInstalled(id, fromDir)) return null;
          try {
            return createRequire(join(fromDir, 'noop.js')).resolve(RUNTIME_MODULE);
          } catch {
            return ownRuntimeEntry();
          }
        }
        const ctx = this as unknown as RollupLikeContext;
        if (await ctx.resolve(id, importer, { skipSelf: true })) return null;
        const runtime = await ctx.resolve(RUNTIME_MODULE, importer, { skipSelf: true });
        // Unresolvable bare module (Rollup without node-resolve): keep it an external import.
        if (!runtime || runtime.external) return { id: runtime?.id ?? RUNTIME_MODULE, external: true };
        return runtime.id;
      },
    },

    // Rollup: the generated modules as JavaScript (./virtual.ts `generatedModuleJs`), after
    // Rollup's own read of the file (its watch and cache stay its own).
    ...(framework === 'rollup'
      ? {
          transform: {
            filter: { id: /\.ts$/ },
            handler: (code: string, id: string) => (state.isOutput(id) ? generatedModuleJs(code, id) : null),
          },
        }
      : {}),

    load: {
      filter: { id: /virtual:zhin-capabilities$/ },
      async handler(id) {
        if (!isVirtualId(id)) return null;
        await firstRun();
        const exists = state.manifestExists();
        dev?.virtualLoaded(exists ? state.outFile : '');
        return virtualModuleCode(state.outFile);
      },
    },

    vite: {
      // Dev: the output is the plugin's to report (./output-events.ts), so Vite's watcher never
      // lists the generated folder. A server without a watcher (`watch: null`) stays without one.
      config(userConfig, env) {
        if (env.command !== 'serve' || userConfig.server?.watch === null) return;
        return { server: { watch: { ignored: [(path: string) => serve && state.isOutput(path)] } } };
      },
      async configResolved(config) {
        bundlerRoot = config.root;
        serve = config.command === 'serve';
        state.init(bundlerRoot);
        state.addOutputDir(resolve(config.root, config.build.outDir));
        // Where the output goes is known before the watcher starts (it is created after this hook).
        if (serve) await state.compiler.prepare().catch(() => undefined);
      },
      configureServer(server) {
        dev = new ViteDev(state, server);
      },
      // A generated module a run created or removed: its importer's change is the update (ViteDev).
      hotUpdate(options) {
        return dev?.outputAddedOrRemoved(options.type, options.file, this.environment.moduleGraph, options.modules);
      },
      // Dev: the server is closing. (In `vite build --watch` closeBundle follows every rebuild;
      // the tree watcher lives until closeWatcher.)
      closeBundle() {
        if (!serve) return;
        dev?.close();
        void state.dispose();
      },
      closeWatcher: stopWatching,
    },

    rollup: {
      renderStart(outputOptions) {
        state.addOutputDir(outputDirOf(outputOptions));
      },
      closeWatcher: stopWatching,
    },

    rolldown: {
      options(inputOptions) {
        bundlerRoot ??= inputOptions.cwd;
        state.init(bundlerRoot);
      },
      renderStart(outputOptions) {
        state.addOutputDir(outputDirOf(outputOptions));
      },
      closeWatcher: stopWatching,
    },

    webpack(compiler) {
      setupWebpackLike(compiler as unknown as WebpackLikeCompiler);
    },
    rspack(compiler) {
      setupWebpackLike(compiler as unknown as WebpackLikeCompiler);
    },

    esbuild: {
      setup(rawBuild) {
        setupEsbuild(rawBuild as unknown as EsbuildLike);
      },
    },
  };

  function setupWebpackLike(compiler: WebpackLikeCompiler): void {
    bundlerRoot ??= compiler.options.context;
    state.init(bundlerRoot);
    state.addOutputDir(compiler.options.output?.path);
    // The generated file must exist before webpack resolves the entry's imports of it: before
    // the first compile of `run()` and of watch mode alike (the build's own run is tapped on
    // `make`, a parallel hook, where the entries are resolved at the same time: a watch on a tree
    // without the file yet failed its first build with "Can't resolve").
    compiler.hooks.watchRun.tapPromise(PLUGIN_NAME, async () => {
      await firstRun();
      startWatching((result) => {
        // A rewritten manifest is a changed dependency: webpack rebuilds by itself. A change in
        // the error state with identical bytes is not, so ask for a rebuild to report/clear it.
        const errorStateChanged = result.errors > 0 || hadErrors;
        hadErrors = result.errors > 0;
        if (!result.written && errorStateChanged) compiler.watching?.invalidate();
      });
    });
    compiler.hooks.watchClose.tap(PLUGIN_NAME, stopWatching);
    compiler.hooks.beforeRun.tapPromise(PLUGIN_NAME, async () => {
      await firstRun();
    });
    // `virtual:` reads as a URL scheme to webpack/rspack, which never reach resolveId for it:
    // rewrite the request to the generated file before resolution.
    compiler.hooks.normalModuleFactory.tap(PLUGIN_NAME, (factory) => {
      factory.hooks.beforeResolve.tap(PLUGIN_NAME, (data) => {
        if (data.request !== VIRTUAL_ID) return;
        // No manifest yet (a clean checkout whose tree has errors): the empty stub, so the tree's
        // errors are the build's only ones, not a "Can't resolve" of a file never written.
        data.request = state.manifestExists()
          ? state.outFile
          : `data:text/javascript,${encodeURIComponent(virtualModuleCode(state.outFile))}`;
      });
    });
  }

  /**
   * esbuild, natively: unplugin's generic esbuild adapter can neither attach locations to
   * build-start errors nor load a resolved file from its plugin namespace.
   */
  function setupEsbuild(build: EsbuildLike): void {
    bundlerRoot ??= build.initialOptions.absWorkingDir;
    state.init(bundlerRoot);
    const { outdir, outfile } = build.initialOptions;
    const outputs = outdir ?? (outfile ? dirname(outfile) : undefined);
    state.addOutputDir(
      outputs === undefined ? undefined : resolve(build.initialOptions.absWorkingDir ?? process.cwd(), outputs),
    );
    build.onStart(async () => {
      const result = await state.run();
      return {
        errors: errorsOf(result).map((d) => esbuildMessage(state.root, d)),
        warnings: state.newWarnings(result).map((d) => esbuildMessage(state.root, d)),
      };
    });
    // esbuild's watch mode sees only files in its graph (no new tool, no SKILL.md edit), and tells
    // plugins nothing about watching. A context (watch, serve, rebuild) outlives its first build;
    // `esbuild.build()` is disposed right after it: only the former gets the tree watcher.
    let disposed = false;
    let ended = 0;
    build.onEnd(async (result) => {
      if (ended++ === 0) setTimeout(() => disposed || startWatching(printOutOfBand), 200).unref();
      if (result.errors.length > 0) return undefined;
      const errors = await loadErrors(userOptions?.verifyLoad, state.last);
      // esbuild fails the build with what `onEnd` returns but prints none of it (its log said
      // "Done"), and has written the output by then: the errors are printed here.
      if (errors.length > 0) console.error(`[${PLUGIN_NAME}] ${loadErrorMessage(errors)}`);
      return { errors: errors.map((d) => esbuildMessage(state.root, d)) };
    });
    build.onResolve({ filter: /^virtual:zhin-capabilities$/ }, async () => {
      await firstRun();
      // No HMR in esbuild: resolve straight to the manifest; an empty stub when none exists yet.
      return state.manifestExists() ? { path: state.outFile } : { path: VIRTUAL_ID, namespace: ESBUILD_NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: ESBUILD_NAMESPACE }, () => ({
      contents: virtualModuleCode(state.outFile),
      loader: 'js',
      resolveDir: state.root,
    }));
    build.onResolve({ filter: /^@zhin\.js\// }, async (args) => {
      if (!isAliasable(args.path, state.modules) || args.pluginData === PLUGIN_NAME) return undefined;
      const resolveDir = args.resolveDir || state.root;
      const own = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir,
        importer: args.importer,
        pluginData: PLUGIN_NAME,
      });
      if (own.errors.length === 0) return undefined;
      const runtime = await build.resolve(RUNTIME_MODULE, {
        kind: args.kind,
        resolveDir,
        importer: args.importer,
        pluginData: PLUGIN_NAME,
      });
      if (runtime.errors.length > 0) return { path: RUNTIME_MODULE, external: true };
      return { path: runtime.path, external: runtime.external };
    });
    build.onDispose?.(() => {
      disposed = true;
      stopWatching();
      void state.dispose();
    });
  }

  if (framework === 'esbuild') {
    // Everything happens in `esbuild.setup`; the generic hooks would only add no-op callbacks.
    return { name: PLUGIN_NAME, esbuild: plugin.esbuild };
  }
  return plugin;
};

/** Rollup / Rolldown: where this output goes (relative paths are the process's, as Rollup reads them). */
function outputDirOf(output: { dir?: string; file?: string }): string | undefined {
  const dir = output.dir ?? (output.file ? dirname(output.file) : undefined);
  return dir === undefined ? undefined : resolve(dir);
}

export const unplugin = /* #__PURE__ */ createUnplugin(unpluginFactory);

export default unplugin;
