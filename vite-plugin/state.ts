/**
 * Per-plugin-instance state shared by every hook: one compiler (created lazily once the bundler's
 * root is known), the compiler's watch loop (every run of the plugin, build start or file
 * events, goes through it, so runs never overlap and see events by one rule), and bookkeeping
 * for "warnings are printed once".
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  CONVENTION_FOLDERS,
  createCompiler,
  WatchLoop,
  type CompileResult,
  type Compiler,
  type FileEvent,
} from '../compiler/index.js';
import { toPosix } from '../compiler/scan/walk.js';
import { validatorsDir } from '../compiler/write/folder-stamp.js';
import { diagnosticKey, warningsOf } from './diagnostics.js';
import type { ZhinGenPluginOptions } from './options.js';

export class ZhinGenState {
  private compilerInstance?: Compiler;
  /** The root as given (before realpath), to map watcher paths onto the compiler's real root. */
  private givenRoot?: string;
  private loopInstance?: WatchLoop;
  /** Where the results of watch batches go (the dev server's overlay, or the side watcher's log). */
  private watchConsumer?: (result: CompileResult) => void | Promise<void>;
  private printedWarnings = new Set<string>();
  last?: CompileResult;
  /** Where the last run without errors wrote (or kept) the manifest. */
  private lastGoodOutFile?: string;
  runs = 0;

  constructor(readonly options: ZhinGenPluginOptions = {}) {}

  /** Creates the compiler on first call; later calls keep the first root. */
  init(bundlerRoot?: string): Compiler {
    if (this.compilerInstance) return this.compilerInstance;
    const base = bundlerRoot ?? process.cwd();
    this.givenRoot = resolve(base, this.options.root ?? '.');
    const config = { ...this.options.config, ...(this.options.out ? { out: this.options.out } : {}) };
    this.compilerInstance = createCompiler({ root: this.givenRoot, config });
    return this.compilerInstance;
  }

  get compiler(): Compiler {
    return this.compilerInstance ?? this.init();
  }

  get root(): string {
    return this.compiler.root;
  }

  /**
   * Absolute output path: known after the first run (config decides it). While the tree has
   * errors, the last good manifest's: a half-saved config (which falls back to the default `out`)
   * must not point the app at another file, or at none.
   */
  get outFile(): string {
    if (this.last !== undefined && this.last.errors > 0 && this.lastGoodOutFile !== undefined)
      return this.lastGoodOutFile;
    return (
      this.compiler.resolved?.outFile ??
      this.last?.outFile ??
      join(this.root, this.options.config?.out ?? this.options.out ?? 'zhin-capabilities.gen.ts')
    );
  }

  /** Module names whose `define*` helpers the compiler recognises (from the resolved config). */
  get modules(): readonly string[] {
    return (
      this.compiler.resolved?.modules ??
      this.last?.options.modules ?? [
        '@zhin.js/tool',
        '@zhin.js/prompt-section',
        '@zhin.js/agent',
        '@zhin-gen/runtime',
        'zhin-gen/runtime',
      ]
    );
  }

  /** Maps a watcher path onto the compiler's (real) root. */
  normalize(path: string): string {
    const abs = isAbsolute(path) ? path : resolve(this.root, path);
    const given = this.givenRoot;
    if (given && given !== this.root && (abs === given || abs.startsWith(given + sep)))
      return join(this.root, relative(given, abs));
    return abs;
  }

  /**
   * Whether a path is the output (the main module, its temp files, the generated folder and what
   * is in it): false until the configuration is known, which decides where the output goes.
   * Vite's watcher asks this of every path it meets, so it is a few string comparisons.
   */
  isOutput(path: string): boolean {
    const place = this.outputPlace();
    if (!place) return false;
    const abs = this.normalize(path);
    const { outFile, folder } = place;
    return abs === outFile || abs.startsWith(`${outFile}.`) || abs === folder || abs.startsWith(folder + sep);
  }

  /** The main module and the generated folder beside it, once the configuration is known. */
  outputPlace(): { readonly outFile: string; readonly folder: string } | undefined {
    const outFile = this.compilerInstance?.resolved?.outFile;
    if (outFile === undefined) return undefined;
    if (this.place?.outFile !== outFile)
      this.place = { outFile, folder: validatorsDir(this.root, toPosix(relative(this.root, outFile))) };
    return this.place;
  }

  private place?: { readonly outFile: string; readonly folder: string };

  /** Called as each run starts, before it writes anything (the dev server stamps the served output). */
  onRunStart?: () => void;

  /**
   * Paths that never trigger a run: outside the root, ignored entries, the output and its temp
   * files. `byName`: outside the root, by the name alone (`Compiler.ignores`).
   */
  ignores(path: string, byName = false): boolean {
    const abs = this.normalize(path);
    if (this.outputDirs.some((dir) => abs === dir || abs.startsWith(dir + sep))) return true;
    return this.compiler.ignores(abs, byName) && !this.compiler.isConfigFile(abs);
  }

  /** Directories the bundler writes its output to (inside the root): never an input. */
  private outputDirs: string[] = [];

  /**
   * Records the bundler's output directory, so its writes after every rebuild start no run.
   * Only a proper subdirectory of the root that is not a convention folder counts: an output
   * written into the root itself (or a tools/ folder) must not hide the tree.
   */
  addOutputDir(dir: string | undefined): void {
    if (!dir || !isAbsolute(dir)) return;
    const abs = this.normalize(dir);
    const rel = relative(this.root, abs);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return;
    const first = rel.split(sep)[0]!;
    if ((CONVENTION_FOLDERS as readonly string[]).includes(first) || first === 'plugins') return;
    if (!this.outputDirs.includes(abs)) this.outputDirs.push(abs);
  }

  /** Watch batches left out because nothing in them can change the output (plain app edits). */
  skipped = 0;
  private skipping = false;

  /** The one loop every run of this plugin instance goes through. */
  get loop(): WatchLoop {
    const quietMs = this.options.quietMs ?? 30;
    this.loopInstance ??= new WatchLoop({
      quietMs,
      // A save (adds and changes only) runs soon after its last event, as in `zhin-gen watch`;
      // a batch with a removal waits the full quiet period (a delete-and-create save is one run).
      settleMs: Math.min(4, quietMs),
      maxWaitMs: 1_000,
      ignore: (path) => this.ignores(path) && !this.compiler.outputRemoved(this.normalize(path)),
      run: async (events, requested) => {
        const compiler = this.compiler;
        // Decided when the batch runs, not when an event comes: the run before it may have
        // recorded a new dependency (a tool that now imports a src/ module).
        const relevant = events.filter(
          (event) => compiler.affects(event.path, isDirEvent(event)) || compiler.outputRemoved(event.path),
        );
        const last = this.last;
        if (!requested && relevant.length === 0 && last) {
          this.skipped++;
          this.skipping = true;
          return last;
        }
        this.onRunStart?.();
        if (relevant.length > 0) compiler.notify(relevant);
        const result = await compiler.run({ write: true });
        this.last = result;
        if (result.errors === 0) this.lastGoodOutFile = result.outFile;
        this.runs++;
        this.options.onRun?.(result, requested ? 'build' : 'watch');
        return result;
      },
      onResult: (result) => {
        if (this.skipping) {
          this.skipping = false;
          return;
        }
        return this.watchConsumer?.(result);
      },
      onError: (error) => console.error('[zhin-gen]', error),
    });
    return this.loopInstance;
  }

  /** Sets who reports the results of watch batches. */
  onWatchResult(consumer: (result: CompileResult) => void | Promise<void>): void {
    this.watchConsumer = consumer;
  }

  /** A file event from a watcher: a run follows after the quiet period. */
  push(event: FileEvent): void {
    this.loop.push({ type: event.type, path: this.normalize(event.path) });
  }

  /** File events the bundler reported: they reach the compiler with its next run. */
  notify(events: readonly FileEvent[]): void {
    for (const event of events) this.loop.queue({ type: event.type, path: this.normalize(event.path) });
  }

  /** A run now (after the one in flight), with every queued event; writes when there are no errors. */
  run(events: readonly FileEvent[] = []): Promise<CompileResult> {
    this.notify(events);
    return this.loop.request();
  }

  /** Warnings of this result that were not in the previous report (each is printed once). */
  newWarnings(result: CompileResult): CompileResult['diagnostics'] {
    const current = new Set<string>();
    const fresh = warningsOf(result).filter((d) => {
      const key = diagnosticKey(d);
      current.add(key);
      return !this.printedWarnings.has(key);
    });
    this.printedWarnings = current;
    return fresh;
  }

  manifestExists(): boolean {
    return existsSync(this.outFile);
  }

  async dispose(): Promise<void> {
    this.loopInstance?.close();
    await this.loopInstance?.idle();
    await this.compilerInstance?.dispose();
  }
}

/** Whether an event names a directory: known for (add|unlink)Dir and for file adds and changes. */
function isDirEvent(event: FileEvent): boolean | undefined {
  if (event.type === 'addDir' || event.type === 'unlinkDir') return true;
  if (event.type === 'add' || event.type === 'change') return false;
  return undefined;
}

export function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
