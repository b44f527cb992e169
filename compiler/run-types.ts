/**
 * The compiler API's data types (compiler/context.ts runs; the CLI, watch and the bundler
 * plugins read): what a compiler is created with, what a run is asked for and what it returns.
 */
import type { ResolvedOptions, UserConfig } from './config/load.js';
import type { Diagnostic } from './diagnostics.js';
import type { CapabilityModel } from './model.js';

/** What the summary line and `--json` report of a run (the model's sizes). */
export interface RunCounts {
  readonly tools: number;
  readonly skills: number;
  readonly agents: number;
  readonly promptSections: number;
  readonly hooks: number;
}

export interface CompilerOptions {
  /** Project root; every relative path resolves against it. */
  readonly root: string;
  /** Config overrides (e.g. `--out`), applied over the config file. */
  readonly config?: UserConfig;
  /** Persistent cache file; `false` disables it (default: node_modules/.cache/zhin-gen under the root, when node_modules exists). */
  readonly cacheFile?: string | false;
  /** Module name the generated types import and augment (default `@zhin-gen/runtime`). */
  readonly runtimeModule?: string;
}

export interface RunStats {
  readonly units: number;
  /** Units that had to be read and parsed (cache misses). */
  readonly parsed: number;
  /** Worker threads that parsed them (0: the main thread; see parse/pool.ts). */
  readonly workers: number;
  /**
   * Generated modules of a large bot's folder (tool shards, `types.ts`) whose text this run built:
   * the others were current by their recorded fingerprints (cache/emit-record.ts) or unchanged
   * since the last run. Absent when the run emitted nothing.
   */
  readonly rendered?: number;
  /**
   * Documents the `discover` index's encoder tokenized in this run: an edit of one tool's
   * searched text indexes that one, an encoder with nothing to patch every tool and skill.
   * Absent when the run emitted nothing.
   */
  readonly searchIndexed?: number;
  /**
   * Unit-cache bodies this run read one by one (cache/unit-record.ts): a fresh run after one
   * edit reads those of the units whose output it renders again; 0 when it read the cache file
   * whole or needed no body. Absent when the run emitted nothing.
   */
  readonly bodies?: number;
  readonly ms: number;
}

export interface CompileResult {
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: number;
  readonly warnings: number;
  /** The model's sizes (what the summary line reports), known without building the model. */
  readonly counts: RunCounts;
  /**
   * The capability model. A run that found nothing to do builds it only when this is read
   * (from the unit cache, without parsing): `generate` and `check` never need it.
   */
  readonly model: CapabilityModel;
  /** The generated module text (also produced when there are errors, for `check` diffs). */
  readonly code: string;
  readonly outFile: string;
  /** POSIX output path relative to the root. */
  readonly outRel: string;
  /** True when this run wrote the output file. */
  readonly written: boolean;
  readonly stats: RunStats;
  readonly options: ResolvedOptions;
}

export interface RunOptions {
  /** Write the output when there are no errors (default true). */
  readonly write?: boolean;
  /**
   * The caller reads `model`: a run with nothing to do builds it before returning, where a cache
   * body lost to another process costs one more pass instead of an error (default false: built
   * when first read).
   */
  readonly model?: boolean;
}

export type FileEvent = { readonly type: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir'; readonly path: string };
