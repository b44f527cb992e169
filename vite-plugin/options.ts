/** Options of the zhin-gen build plugin (every bundler). */
import type { CompileResult, UserConfig } from '../compiler/index.js';
import type { PrincipalChoice } from '../compiler/report/page/index.js';

export type RunTrigger =
  /** `buildStart` of a build (or of a watch-mode rebuild, or the dev server's start). */
  | 'build'
  /** A batch of file events in dev or watch mode. */
  | 'watch';

export interface ZhinGenPluginOptions {
  /**
   * Project root the compiler scans and resolves every path against. Default: the bundler's
   * root (Vite `root`, webpack `context`, esbuild `absWorkingDir`), else `process.cwd()`.
   * A relative path is resolved against that default.
   */
  readonly root?: string;
  /** Output module, relative to `root` (overrides `out` of the config file). */
  readonly out?: string;
  /** Config overrides applied over `zhin-gen.config.*` / the `zhin-gen` key of package.json. */
  readonly config?: UserConfig;
  /**
   * Called after every compiler run the plugin makes (build start, and each coalesced batch of
   * file events in dev / watch mode). For tooling and tests: counting runs, timing, custom logs.
   */
  readonly onRun?: (result: CompileResult, trigger: RunTrigger) => void;
  /**
   * Quiet period (ms) that coalesces a burst of file events into one run in dev. Default 30; a
   * batch of adds and changes only (a save) waits at most 4 ms.
   */
  readonly quietMs?: number;
  /**
   * Load verification at the end of every build (not in the Vite dev server): import each tool,
   * hook and prompt-section module in isolated child processes and fail the build when one
   * throws, hangs, or really exports something other than what the manifest says (the same as
   * `zhin-gen check --load`; docs/build-plugin.md). Costs about one import of every module per
   * build; meant for CI builds. `true` uses a 10 s limit per module.
   */
  readonly verifyLoad?: boolean | { readonly timeoutMs?: number };
  /**
   * The dev inspector: the `zhin-gen report` page, live at `/__zhin-gen/` on the Vite dev server
   * (docs/report.md). On by default in dev, never in builds; `false` turns it off; an object
   * chooses the access matrix's platforms, scopes and roles, as `zhin-gen report` flags do.
   */
  readonly inspector?: boolean | PrincipalChoice;
}
