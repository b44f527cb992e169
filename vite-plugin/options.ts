/** Options of the zhin-gen build plugin (every bundler). */
import type { CompileResult, UserConfig } from '../compiler/index.js';

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
  /** Quiet period (ms) that coalesces a burst of file events into one run in dev. Default 30. */
  readonly quietMs?: number;
}
