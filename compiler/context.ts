/**
 * The one orchestrating context (the compiler API). The CLI, `watch` and every bundler plugin are
 * thin shells over `createCompiler()`: scan → parse (cached per unit) → schema → validate →
 * resolve → emit → write. Runs are single-flight with a coalescing queue (run-queue.ts, which also
 * keeps the file events each run takes); file events patch the inventory so a watch-mode run
 * re-parses only the changed units.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { ts as TS } from 'ts-morph';
import { loadConfig, type ResolvedOptions } from './config/load.js';
import type { Diagnostic } from './diagnostics.js';
import { freshMemos, type RunMemos } from './run-memos.js';
import { withModel } from './run-result.js';
import { EventRelevance } from './watch/relevance.js';
import type { DependencyStamp } from './watch/dependency-dirs.js';
import { TextMemo } from './cache/texts.js';
import { warmStages } from './warmup.js';
import { inputsDigest, pluginInputs } from './cache/inputs-digest.js';
import { modelStep } from './run-model.js';
import { LayoutMemo } from './scan/layout-memo.js';
import type { TreeInventory } from './scan/inventory.js';
import { toPosix } from './scan/walk.js';
import { SchemaCache, staticSchemas, type SchemaStage } from './schema/stage.js';
import { UnitCache } from './cache/units.js';
import { freshWalk } from './scan/fresh-walk.js';
import { WatchFollow } from './watch/follow.js';
import { listingsEnabled } from './scan/listings.js';
import { keptOnDisk, readIfExists } from './write/output.js';
import { folderExpected } from './write/validators.js';
import { validatorsStamp } from './write/folder-stamp.js';
import { LastEmitted } from './write/last-emitted.js';
import { RUNTIME_PACKAGE } from './runtime-entry.js';
import { type CachedModelInputs, modelFromCache, vouchByIndex } from './cache/vouched.js';
import { TreeCheck } from './cache/tree-check.js';
import type { CapabilityModel } from './model.js';
import { PersistSchedule } from './cache/persist-schedule.js';
import { countsOf } from './resolve/counts.js';
import { realRoot } from './util/real-root.js';
import { RunQueue } from './run-queue.js';
import type { CompileResult, CompilerOptions, FileEvent, RunOptions } from './run-types.js';

export type { CompileResult, CompilerOptions, FileEvent, RunOptions, RunStats } from './run-types.js';

export class Compiler {
  readonly root: string;
  private memos = freshMemos();
  private options?: ResolvedOptions;
  private configDiagnostics: readonly Diagnostic[] = [];
  /** What watch mode follows besides the walk: shipped manifests, config modules, link targets (watch/follow.ts). */
  private readonly follow: WatchFollow;
  /** What a fresh walk lists, patched by file events in watch mode; undefined = walk next run. */
  private inventory?: TreeInventory;
  private readonly layouts: LayoutMemo;
  private readonly units: UnitCache;
  private readonly persistence: PersistSchedule;
  private readonly schemas: SchemaStage;
  private readonly relevance: EventRelevance;
  /** Texts read outside any unit (AGENTS.md), kept across watch-mode runs. */
  private readonly texts = new TextMemo();
  private ts?: typeof TS;
  /** Runs one at a time, with the events each is given and the retry of a lost cache body. */
  private readonly queue: RunQueue;
  /** The validators the last emitted manifest imports. */
  private readonly emitted: LastEmitted;

  constructor(private readonly compilerOptions: CompilerOptions) {
    this.root = realRoot(resolve(compilerOptions.root));
    this.emitted = new LastEmitted(this.root);
    this.follow = new WatchFollow(this.root);
    this.units = new UnitCache(this.root, compilerOptions.cacheFile);
    this.layouts = new LayoutMemo(this.units.layoutFile);
    this.schemas = new SchemaCache(this.root);
    this.persistence = new PersistSchedule(this.units);
    this.relevance = new EventRelevance(
      this.root,
      () => this.options,
      (rel) => this.units.dependsOn(rel) || this.follow.has(rel),
      (rel) => this.follow.configModules.has(rel),
      (rel) => this.follow.linkTargets.has(rel),
    );
    this.queue = new RunQueue(
      this.root,
      this.relevance,
      (runOptions, dirty) => this.pass(runOptions, dirty),
      () => {
        this.units.dropIndex();
        this.inventory = undefined;
      },
    );
  }

  private revision = 0;

  /** Moves each time the configuration loaded differs from the one before (watch mode re-enters the tree). */
  get configRevision(): number {
    return this.revision;
  }

  /** Resolved options of the last run (after the first run). */
  get resolved(): ResolvedOptions | undefined {
    return this.options;
  }

  /** Whether a path (absolute) is one the compiler reads: a config file or inside the root. */
  isConfigFile(path: string): boolean {
    return this.relevance.isConfigFile(path);
  }

  /** Whether an (absolute) path is the output file or its generated folder itself (watch reports their removal). */
  isOutput(abs: string): boolean {
    return this.relevance.isOutput(abs);
  }

  /**
   * Whether an (absolute) path is the output file or its generated folder, missing where the last
   * run left it: removed by someone else (an `rm`, a `git clean`), which a watch run writes again.
   * A folder the last run removed itself (no module left in it) is not.
   */
  outputRemoved(abs: string): boolean {
    if (this.relevance.isGenerated(abs)) return this.emitted.damaged(abs, this.memos.folders);
    if (abs === this.options?.outFile && existsSync(abs)) {
      // Edited in place or checked out: not the file this compiler wrote or compared last (one it
      // has not looked at yet, after a run that reused the output, the run this starts compares).
      return keptOnDisk(abs, this.memos.written) !== true;
    }
    if (!this.relevance.isOutput(abs) || existsSync(abs)) return false;
    return abs === this.options?.outFile || folderExpected(this.memos.folders, abs);
  }

  /**
   * Whether a watch event for this (absolute) path can matter: outside the root, ignored
   * entries (scan/ignore.ts: dot files, node_modules, editor swap/backup files) and the output
   * with its temp files never do. Config files and package.json do. `byName`: outside the
   * root, by the name alone (watch/relevance.ts): what a file watcher asks as events come.
   */
  ignores(abs: string, byName = false): boolean {
    return this.relevance.ignores(abs, byName);
  }

  /**
   * Records file events (watch mode). From the first call on, unchanged files are trusted
   * without a stat; the inventory is patched instead of re-walked. The event type is only a
   * hint: every named path is checked against the disk (one lstat), so an event lost or
   * misreported by a watcher (a save by rename, a directory renamed, a copy whose inner events
   * never come) cannot leave the inventory different from what a fresh walk finds.
   */
  notify(events: readonly FileEvent[]): void {
    this.queue.record(events, (rel, dirty) => {
      // A change at a link's target is a change of the link's path (watch/follow.ts), and one
      // through a hard link a change of the file's other paths.
      const relinked = this.follow.throughLinks(this.inventory, rel, dirty);
      for (const other of this.units.hardLinksOf(rel)) dirty.add(other);
      if (relinked || this.relevance.decidesConfigured(rel) || this.inventory?.reconcile(rel, dirty) === 'walk')
        this.inventory = undefined;
    });
  }

  /** Single-flight: a run requested while one is in progress coalesces into one follow-up run. */
  run(runOptions: RunOptions = {}): Promise<CompileResult> {
    return this.queue.run(runOptions);
  }

  private async pass(runOptions: RunOptions, dirty: Set<string> | undefined): Promise<CompileResult> {
    const started = performance.now();
    const bodiesBefore = this.units.bodiesRead;
    const options = await this.prepare();
    const diagnostics: Diagnostic[] = [...this.configDiagnostics];
    const outRel = toPosix(relative(this.root, options.outFile));

    // A fresh walk (first run, config change) verifies every unit by stat instead of by events.
    const walkedNow = !this.inventory;
    // The tree record first: the files it left unstamped (helper modules) are not stat'ed by the walk.
    const record = walkedNow ? this.units.treeFile?.load(this.units.config) : undefined;
    if (!this.inventory) {
      const walked = await freshWalk(this.root, options, this.listingsFile, record?.unstat);
      this.follow.walked(walked.inventory, walked.shipped);
      this.inventory = walked.inventory;
    } else if (dirty) {
      // A package's manifest changed under watch mode (a workspace package rebuilt).
      await this.follow.packages.refresh(dirty);
    }
    const shipped = this.follow.packages.shipped;
    const inventory = this.inventory;
    diagnostics.push(...inventory.diagnostics, ...shipped.diagnostics);
    const runtimeModule = this.compilerOptions.runtimeModule ?? RUNTIME_PACKAGE;
    const shippedStamp = shipped.packages.map((p) => p.stamp).join('\0');
    // A fresh walk that finds the tree as the tree record has it: done before any layout is built.
    const context = [this.root, outRel, shippedStamp, runtimeModule, ...options.pluginEntry];
    const tree = walkedNow ? new TreeCheck(this.units, this.root, inventory, context, record) : undefined;
    this.units.useStamps(tree?.stamps);
    const validatorsNow = walkedNow ? validatorsStamp(this.root, outRel) : '';
    const hit = tree?.vouched(options.outFile, validatorsNow);
    // Not vouched for: the files the walk left unstamped are stat'ed before the run reads any file.
    if (tree && !hit) tree.fill();
    if (tree && hit) {
      const model = (): CapabilityModel => {
        const { layout, units } = this.layouts.of(inventory, options.pluginEntry);
        return this.cachedModel({ layout, units: units.units, options });
      };
      return withModel(tree.result(hit, { diagnostics, model, options, outRel, started }), runOptions);
    }
    // The emit stage is loaded only by runs the tree record did not vouch for (most runs of
    // `generate` and `check` never load it), and from here on: its files are read while this
    // thread loads the layout and the index, instead of after them.
    const emitStageLoaded = import('./run-emit.js');
    // Awaited below; a run the index vouches for returns before that, and must not leave it unhandled.
    emitStageLoaded.catch(() => undefined);
    const derived = this.layouts.of(inventory, options.pluginEntry);
    const { layout } = derived;
    diagnostics.push(...layout.diagnostics);
    const { units, diagnostics: unitDiagnostics } = derived.units;
    diagnostics.push(...unitDiagnostics);
    const recordTree = (key: string, validators: string): void =>
      tree?.record({ layout, units, diagnostics: [...layout.diagnostics, ...unitDiagnostics], key, validators });

    // AGENTS.md texts carry over between watch-mode runs unless an event names the file.
    this.texts.forget(dirty, walkedNow);
    const readTextWith = (read: (path: string) => string | undefined) => this.texts.readerOf(read);
    // The output's inputs digest (see cache/inputs-digest.ts), over the cached units' contents.
    const digestOf = (readText: (path: string) => string | undefined): string =>
      inputsDigest(
        units,
        pluginInputs(layout.plugins, readText),
        `${this.root}\0${outRel}\0${shippedStamp}`,
        runtimeModule,
        (key) => this.units.contentOf(key),
      );

    // A fresh walk that finds every unit as the cache's index recorded it, and an output on disk
    // the cache vouches for: nothing to do, and nothing of the cache's bodies to read.
    if (walkedNow) {
      const fileReader = this.units.reader();
      const readText = readTextWith((path) => fileReader.read(path));
      const validators = validatorsNow;
      const vouched = vouchByIndex({
        cache: this.units,
        layout,
        units,
        vouchKey: () => `${digestOf(readText)}:${validators}`,
        cannotVouch: () => tree?.indexCannotVouch(validators) ?? false,
        diagnostics,
        model: () => this.cachedModel({ layout, units, options, readText }),
        options,
        outRel,
        started,
      });
      if (vouched) {
        recordTree(vouched.summaryKey, validators);
        return withModel(vouched.result, runOptions);
      }
    }

    const emitStage = await emitStageLoaded;
    const memos: RunMemos = { ...this.memos, emit: (this.memos.emit ??= emitStage.emitMemo()) };
    const model = await modelStep({
      layout,
      units,
      options,
      cache: this.units,
      schemas: this.schemas,
      dirty: walkedNow ? undefined : dirty,
      ts: this.ts,
      memos,
      packages: shipped.packages,
      textReader: readTextWith,
    });
    this.ts = model.ts;
    const { readText } = model;
    const parsedCount = model.parsed;
    diagnostics.push(...model.diagnostics);

    // Nothing re-parsed or re-evaluated, same units, same AGENTS.md texts: the output this cache
    // last wrote (still on disk with that stamp) is what emit would produce — skip emit + compare.
    const unchanged = parsedCount === 0 && this.schemas.evaluated === 0;
    // In watch mode the in-memory caches do this job; the digest is for runs of a fresh process.
    // The root is part of it: an output outside the root imports the tree through the root's own path.
    const digest = unchanged || dirty === undefined ? digestOf(readText) : undefined;
    const counts = countsOf(model.model);
    // Vouched for: the file on disk is the output; it is read only if someone asks for `code`.
    // The validators folder is output too: a module removed by hand must not be vouched for, so
    // its stamp (the folder's mtime) is part of what the record vouches for.
    const validatorsThen = unchanged && digest !== undefined ? validatorsStamp(this.root, outRel) : '';
    const vouched =
      unchanged && digest !== undefined && this.units.outputs.vouched(`${digest}:${validatorsThen}`, options.outFile);
    return emitStage.emitStep({
      root: this.root,
      outRel,
      options,
      runtimeModule,
      model: model.model,
      counts,
      units: this.units,
      memos,
      reused: vouched ? { read: () => readIfExists(options.outFile), validators: validatorsThen } : undefined,
      write: runOptions.write !== false,
      outOverridden: this.compilerOptions.config?.out !== undefined,
      diagnostics,
      modelDiagnostics: model.diagnostics,
      digest,
      onEmitted: (validators) => this.emitted.record(outRel, validators),
      // One-shot runs persist now (and leave the tree record); in watch mode the cache (megabytes
      // of JSON for a big tree) is written once things settle and at dispose, not on every edit.
      settle: (recorded) => {
        if (dirty !== undefined) return this.persistence.later();
        this.units.persist();
        if (recorded) recordTree(recorded.key, recorded.validators);
      },
      stats: {
        units: units.length,
        parsed: parsedCount,
        workers: model.workers,
        bodies: () => this.units.bodiesRead - bodiesBefore,
        started,
      },
    });
  }

  /** The model of a run that found everything as the cache has it (no unit parsed). */
  private cachedModel(inputs: Omit<CachedModelInputs, 'cache' | 'packages' | 'memos'>): CapabilityModel {
    return modelFromCache({
      ...inputs,
      cache: this.units,
      packages: this.follow.packages.shipped.packages,
      memos: this.memos.assemble,
    });
  }

  /**
   * Loads the configuration (again, after a config file changed) without running: watch mode
   * decides from it what to watch before its first run.
   */
  async prepare(): Promise<ResolvedOptions> {
    if (this.queue.configStale || !this.options) {
      const loaded = await loadConfig(this.root, this.compilerOptions.config);
      this.follow.configModules.use(loaded.modules);
      const changed = JSON.stringify(loaded.options) !== JSON.stringify(this.options);
      this.options = loaded.options;
      this.configDiagnostics = loaded.diagnostics;
      this.queue.configLoaded();
      if (changed) {
        this.revision++;
        this.inventory = undefined;
        this.relevance.reset();
        // `diagnostics` only changes what a result reports (applied after the cache): toggling a
        // warning must not cost a cold run.
        const { diagnostics: _reported, ...keyed } = loaded.options;
        this.units.reset(`${JSON.stringify(keyed)}${staticSchemas() ? '' : '\0evaluate-all'}`);
      }
    }
    return this.options;
  }

  /**
   * Where the directory listings of the fresh walks are kept (scan/listings.ts), which a watcher
   * starting on this tree may read (watch/tree.ts); undefined when there is no cache file or
   * `ZHIN_GEN_DIR_CACHE=0`.
   */
  get listingsFile(): string | undefined {
    return listingsEnabled() ? this.units.listingsFile : undefined;
  }

  /**
   * Whether an absolute path lies where a fresh walk never looks (scan/watched.ts): beside the
   * convention folders of a plugin, and not a configured plugin directory or on the way to one.
   * False before the configuration is known (`prepare`) and outside the root.
   */
  outsideWalk(abs: string, isDir: boolean | undefined): boolean {
    return this.relevance.outsideWalk(abs, isDir);
  }

  /**
   * Whether an event for this (absolute) path can change what a run produces: a config file, a
   * path a fresh walk lists or enters, or a file outside the walk that some unit's result
   * depends on (a `src/` module a tool's schema imports: the unit cache records every file a
   * unit read). Anything else, a plain app edit, would make a run that re-reads nothing, so the
   * build plugin leaves it out. True before the configuration is known.
   */
  affects(abs: string, isDir: boolean | undefined): boolean {
    return this.relevance.affects(abs, isDir);
  }

  /**
   * The files the units depend on that watch mode must watch although the walk never enters
   * them (compiler/watch/dependency-dirs.ts): absolute, inside the root or in a folder outside
   * it, and not of a name the walk ignores, each with the stamp the cache holds. All of them at the first call, then those stamped since the last.
   * With them, the modules of the shipped package manifests as last read (scan/shipped.ts): a
   * change to one reads the packages again at the next run.
   */
  outsideDependencies(): DependencyStamp[] {
    return this.follow.take(this.units.takeStamped(), this.relevance, this.options?.outFile);
  }

  /**
   * Loads the parsers and the schema stage ahead of the first edit. Warm runs never need them,
   * so a dev server that started from the cache calls this in the background after start-up
   * to keep the first edit fast.
   */
  warmup(): Promise<void> {
    return warmStages();
  }

  /**
   * POSIX paths (relative to the root) of generated validator modules the last emitted manifest
   * imports that are not on disk (for `check`: the manifest is only current with them).
   */
  missingValidators(): readonly string[] {
    return this.emitted.missing(this.memos.folders);
  }

  /** The generated folder's modules as last written or verified (name → stamp line), for the dev server (vite-plugin/output-events.ts). */
  outputStamps(): ReadonlyMap<string, { readonly stamp: string }> | undefined {
    return this.emitted.stamps(this.memos.folders);
  }

  /** The discover index's encoder made ready for an edit's patch (watch/prewarm.ts: idle time). */
  prewarmSearch(): void {
    this.memos.emit?.search?.module.text();
  }

  /** The output as it is on disk now (for `check`). */
  readOutput(): string | undefined {
    return this.options ? readIfExists(this.options.outFile) : undefined;
  }

  /** Why this process could not write the cache (a read-only or full disk), if it could not: runs stay right, only slower. */
  get cacheWriteFailure(): string | undefined {
    return this.units.writeFailure;
  }

  async dispose(): Promise<void> {
    await this.queue.idle();
    this.persistence.now();
    this.schemas.delta.cancel();
    // What the memos hold (texts, encoded bytes of the last write, models) goes with them.
    this.memos = freshMemos();
  }
}

export function createCompiler(options: CompilerOptions): Compiler {
  return new Compiler(options);
}
