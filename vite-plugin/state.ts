/**
 * Per-plugin-instance state shared by every hook: one compiler (created lazily once the bundler's
 * root is known), serialised runs (file events are handed to the compiler only between runs), and
 * bookkeeping for "warnings are printed once".
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createCompiler, type CompileResult, type Compiler, type FileEvent } from '../compiler/index.js';
import { diagnosticKey, warningsOf } from './diagnostics.js';
import type { RunTrigger, ZhinGenPluginOptions } from './options.js';

const IGNORED_DIRS = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

export class ZhinGenState {
  private compilerInstance?: Compiler;
  /** The root as given (before realpath), to map watcher paths onto the compiler's real root. */
  private givenRoot?: string;
  private chain: Promise<unknown> = Promise.resolve();
  private queuedEvents: FileEvent[] = [];
  private printedWarnings = new Set<string>();
  last?: CompileResult;
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

  /** Absolute output path: known after the first run (config decides it). */
  get outFile(): string {
    return this.compiler.resolved?.outFile ?? this.last?.outFile ?? join(this.root, this.options.config?.out ?? this.options.out ?? 'zhin-capabilities.gen.ts');
  }

  /** Module names whose `define*` helpers the compiler recognises (from the resolved config). */
  get modules(): readonly string[] {
    return this.compiler.resolved?.modules ?? this.last?.options.modules ?? ['@zhin.js/tool', '@zhin.js/prompt-section', '@zhin.js/agent', 'zhin-gen/runtime'];
  }

  /** Maps a watcher path onto the compiler's (real) root. */
  normalize(path: string): string {
    const abs = isAbsolute(path) ? path : resolve(this.root, path);
    const given = this.givenRoot;
    if (given && given !== this.root && (abs === given || abs.startsWith(given + sep))) return join(this.root, relative(given, abs));
    return abs;
  }

  /** Paths that never trigger a run: outside the root, node_modules/.git, the output and its temp files. */
  ignores(path: string): boolean {
    const abs = this.normalize(path);
    const rel = relative(this.root, abs);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return true;
    if (IGNORED_DIRS.test(rel)) return true;
    const out = this.outFile;
    // The output, and temp files (the compiler's atomic writes are `<out>.<pid>.<t>.tmp`).
    return abs === out || abs.endsWith('.tmp');
  }

  /** Queues file events; they reach the compiler right before its next run. */
  notify(events: readonly FileEvent[]): void {
    for (const event of events) {
      if (!this.ignores(event.path)) this.queuedEvents.push({ type: event.type, path: this.normalize(event.path) });
    }
  }

  /**
   * Runs the compiler (writing the manifest when there are no errors). Runs are serialised:
   * queued events are applied between runs, never during one (the compiler resets its dirty set
   * at the end of a run, so events notified mid-run would be lost).
   */
  run(trigger: RunTrigger, events: readonly FileEvent[] = []): Promise<CompileResult> {
    this.notify(events);
    const task = this.chain.then(async () => {
      const compiler = this.compiler;
      const batch = this.queuedEvents;
      this.queuedEvents = [];
      if (batch.length > 0) compiler.notify(batch);
      const result = await compiler.run({ write: true });
      this.last = result;
      this.runs++;
      this.options.onRun?.(result, trigger);
      return result;
    });
    this.chain = task.catch(() => undefined);
    return task;
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
    await this.chain;
    await this.compilerInstance?.dispose();
  }
}

export function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
