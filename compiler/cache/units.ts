/**
 * Per-unit cache (docs/architecture.md): each capability unit's parse result is keyed by its
 * files' mtime + size, with a content-hash fallback (a touched but unchanged file is a hit). In
 * watch mode file events are trusted instead of stat calls. The cache persists between CLI runs
 * as a JSON file plus a journal of later changes (cache/file.ts), so `generate` with nothing
 * changed neither reads nor parses sources.
 */
import type { UnitResult } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import { LostCacheBody } from './lost-body.js';
import { SingleBodies } from './single-bodies.js';
import { createReader, type FileReader } from './reader.js';

export type { FileReader } from './reader.js';
import { allStamps, anyDependsOn, currentByIndex, eachStampOfUnits } from './index-queries.js';
import { compareStamps, type FileStat, type RunStamps, StatSource } from './stat-source.js';
import { statNow } from '../util/file-stat.js';
import { rmSync, statSync } from 'node:fs';
import { UnitState } from './unit-state.js';
import { type FlatStamps, stampedPaths, stampIndex } from './flat-stamps.js';
import { unitContent, unitHash, unitModelPrint, unitSchema } from './unit-prints.js';
import { noteWriteFailure, persistUnits } from './persist.js';
import { tidyTempCache } from './temp-dir.js';
import { packageVersion } from '../version.js';
import { resultPrint, sha256 } from '../util/hash.js';
import type { EmitRecord, EmitRecordFile } from './emit-record.js';
import { TreeRecordFile } from './tree-record.js';
import { OutputRecords } from './output-records.js';
import { StampedSince, type StampedFile } from './stamped-since.js';
import { defaultCacheFile, type Entry, addStamps, sha, under } from './unit-entry.js';

export { defaultCacheFile, type Entry, type OutputRecord } from './unit-entry.js';

// Bumped when parse results change for the same input (2: too-deep files got located
// diagnostics) or the entries' format does (3: digests of result and schema; 4: the index holds
// each unit's record and its body's place in the base; 5: entries hold their stamps flat, as the
// index does; 6: a unit stamps the files it looked for and did not find, and a failed bundled
// schema what its bundle read; 7–8: stamps carry the inode, then the change time; 9: access and approval
// fields the build cannot read are errors, quoted and bracketed keys are read); every release of
// zhin-gen has its own cache besides (see version.ts).
const CACHE_VERSION = `zhin-gen-cache-14@${packageVersion()}`;

export class UnitCache {
  /** Everything this cache holds and knows of its files, shared with the persist step (cache/unit-state.ts). */
  private readonly state: UnitState;
  private readonly stats: StatSource;
  /** The tree record beside the cache (cache/tree-record.ts), read and written by cache/tree-check.ts. */
  readonly treeFile: TreeRecordFile | undefined;
  /** Where the last walk's layout is kept (scan/layout-store.ts). */
  readonly layoutFile: string | undefined;
  /** Where the last fresh walk's directory listings are kept (scan/listings.ts). */
  readonly listingsFile: string | undefined;
  private readonly file: string | undefined;
  /** Bodies read one by one so far (RunStats.bodies). */
  bodiesRead = 0;
  constructor(
    readonly root: string,
    cacheFile: string | false | undefined,
  ) {
    this.stats = new StatSource(root);
    const file = cacheFile === false ? undefined : (cacheFile ?? defaultCacheFile(root));
    this.file = file;
    this.state = new UnitState(file, CACHE_VERSION);
    this.treeFile = file === undefined ? undefined : new TreeRecordFile(file, CACHE_VERSION);
    this.layoutFile = file === undefined ? undefined : `${file}.layout`;
    this.listingsFile = file === undefined ? undefined : `${file}.dirs`;
    this.emitRecord = this.state.emitRecord;
  }

  /** The generated modules' stamps and files as last verified (cache/emit-record.ts), saved at the next persist. */
  readonly emitRecord: EmitRecordFile | undefined;

  /** What the last emit's modules were made of and how their files were found, for the next persist. */
  noteEmit(record: EmitRecord): void {
    this.state.emitNoted = record;
  }

  /** Starts over for a (new) configuration; loads the persisted cache when it matches. */
  reset(configKey: string): void {
    this.state.configKey = configKey;
    this.state.pending = true;
  }

  /** What reset() deferred: the index, or the bodies when there is no usable index. */
  private ensure(): void {
    if (!this.state.pending) return;
    this.state.pending = false;
    this.state.loadIndexOrBodies();
  }

  /**
   * Reads the bodies whole and stops believing the index, which contradicts the tree record (the
   * record saw a unit's file change; the index finds every unit current): the same state as a run
   * whose index is missing (the summary comes with this run's output). Only before a unit is
   * stored: what lookups handed out is dropped.
   */
  distrustIndex(): void {
    this.ensure();
    this.state.distrustIndex();
  }

  /**
   * The entries' bodies, available once something needs them (a unit changed, the model was asked
   * for): read one by one as needed when the index has every unit's record and body range, else
   * all at once.
   */
  loadBodies(): void {
    this.ensure();
    if (!this.state.bodiesLoaded && !this.openBodies()) this.state.readBodies();
  }

  /** Bodies read one by one from here on, when the index knows where each unit's is. */
  private openBodies(): boolean {
    const { index, disk } = this.state;
    if (!index || !disk) return false;
    this.state.single = SingleBodies.open(index, () => disk.open(this.state.configKey), this.state.entries, {
      root: this.root,
      stat: (path) => this.stat(path),
      lost: (key) => this.lostBody(key),
      read: () => {
        this.bodiesRead++;
      },
    });
    if (this.state.single) this.state.bodiesLoaded = true;
    return this.state.single !== undefined;
  }

  /**
   * A body the index placed in the base is not there (the base was changed in place): the index
   * is removed, so the next run reads the bodies whole and parses that unit again.
   */
  private lostBody(key: string): never {
    this.dropIndex();
    throw new LostCacheBody(`the body of ${key}`);
  }

  /** Removes the index and the tree record (both vouch for bodies that proved not to be theirs)
   * and loads the cache afresh at the next use: the bodies are then read whole. */
  dropIndex(): void {
    if (this.state.indexFile) rmSync(this.state.indexFile.file, { force: true });
    if (this.treeFile) rmSync(this.treeFile.file, { force: true });
    this.state.pending = true;
  }

  /**
   * Whether every unit listed is current by the index alone (its files, and the stamps of
   * everything its result depends on, exactly as recorded): then no body is needed to know that
   * nothing changed. False whenever the bodies are loaded already or any unit differs.
   */
  currentByIndex(units: readonly (readonly [key: string, files: readonly string[]])[]): boolean {
    this.ensure();
    // Once bodies are read or stored, the index no longer describes every entry.
    if (this.state.single && this.state.entries.size > 0) return false;
    return this.state.index !== undefined && currentByIndex(this.state.index, units, (path) => this.stats.stat(path));
  }

  private markChanged(key: string): void {
    this.state.changedKeys.add(key);
  }

  private readonly stampedSince = new StampedSince();

  /**
   * Every path the units stamp, at the first call; at later calls, those stamped since (watch
   * mode watches the ones outside the walk: compiler/watch/dependency-dirs.ts).
   */
  takeStamped(): readonly StampedFile[] {
    return this.stampedSince.take(() => {
      this.ensure();
      return allStamps(this.state.index, this.state.entries);
    });
  }

  reader(): FileReader {
    return createReader(this.root);
  }

  /**
   * The stamps a fresh run took of every listed file before reading any (undefined: stat each
   * file when asked): the index check and the lookups use them instead of a stat per file each.
   */
  useStamps(stamps: RunStamps | undefined): void {
    this.stats.use(stamps);
  }

  private stat(path: string): FileStat | undefined {
    return this.stats.stat(path);
  }

  /** The stamped files of an entry, listed once per entry (watch mode asks every run). */
  private readonly stampedFiles = new WeakMap<Entry, readonly string[]>();
  private filesOf(entry: Entry): readonly string[] {
    let files = this.stampedFiles.get(entry);
    if (!files) {
      files = stampedPaths(entry.stamps);
      this.stampedFiles.set(entry, files);
    }
    return files;
  }

  /**
   * The tree record saw a unit's file change (cache/vouched.ts): the lookups of this run must find
   * a change (a miss or a new stamp). If none does, the index contradicts the record
   * (`contradicted`), and neither is believed.
   */
  expectChange(): void {
    this.expected = { differed: false };
  }

  /** Whether the lookups since `expectChange` found every unit as the index has it (then forgets it). */
  contradicted(): boolean {
    const expected = this.expected;
    this.expected = undefined;
    return expected !== undefined && !expected.differed;
  }

  private expected: { differed: boolean } | undefined;

  /** A cached result still valid for these files, or undefined. */
  lookup(key: string, files: readonly string[], dirty: ReadonlySet<string> | undefined): UnitResult | undefined {
    const found = this.find(key, files, dirty);
    if (found === undefined && this.expected) this.expected.differed = true;
    return found;
  }

  private find(key: string, files: readonly string[], dirty: ReadonlySet<string> | undefined): UnitResult | undefined {
    this.loadBodies();
    const entry = this.state.entries.get(key);
    if (!entry) {
      const unit = this.state.single?.indexed(key);
      const found = unit && this.state.single!.lookup(key, unit, files, dirty);
      // 'touched': the body was read and took the new stamps (same bytes); 'read': the body was
      // read for a new stamp, which the lookup of a loaded entry takes.
      if (found === 'touched') return this.touched(key, this.state.entries.get(key)!);
      return found === 'read' ? this.find(key, files, dirty) : found;
    }
    if (entry.files !== files) {
      if (entry.files.length !== files.length || entry.files.some((f, i) => f !== files[i])) return undefined;
      // Watch mode passes the same (memoised) list on every run: compare identities from now on.
      entry.files = files;
    }
    if (dirty) {
      // Watch mode: events are trusted; no array per unit per run.
      for (const file of this.filesOf(entry)) if (dirty.has(file)) return undefined;
      return entry.result;
    }
    const seen = compareStamps(this.root, entry.stamps, (file) => this.stat(file), true);
    if (seen === 'changed') return undefined;
    return seen === 'touched' ? this.touched(key, entry) : entry.result;
  }

  /** An entry whose files kept their bytes under new stamps: persisted with them, a change the tree record saw. */
  private touched(key: string, entry: Entry): UnitResult {
    this.markChanged(key);
    if (this.expected) this.expected.differed = true;
    return entry.result;
  }

  /**
   * `print`: the result's `resultPrint`, when the thread that parsed it took it already.
   * `read`: the files of `files` the result is made from (cache/unit-key.ts `stampedFilesOf`);
   * the others are stamped by name only, through `files`.
   */
  store(
    key: string,
    files: readonly string[],
    result: UnitResult,
    reader: FileReader,
    print?: string,
    read: readonly string[] = files,
  ): void {
    this.loadBodies();
    const stamps: FlatStamps = [];
    addStamps(stamps, [...read, ...result.dependencies], reader, (file) => this.stat(file));
    const hash = sha(
      files
        .map((f) => {
          const i = stampIndex(stamps, f);
          return `${f}\0${i < 0 ? '' : (stamps[i + 3] as string)}`;
        })
        .join('\n'),
    );
    this.state.entries.set(key, { files, stamps, hash, result, resultPrint: print ?? resultPrint(result) });
    this.state.single?.forget(key);
    this.markChanged(key);
    this.stampedSince.note(stamps);
  }

  /** What a tool's generated text depends on from its entry (cache/unit-prints.ts). */
  modelPrint(key: string, result: UnitResult, outcome: SchemaOutcome | undefined): string | undefined {
    return unitModelPrint(this.state, key, result, outcome);
  }

  hashOf(key: string): string {
    this.ensure();
    return unitHash(this.state, key);
  }

  /** Content of everything the unit's result depends on (its files and its dependencies). */
  contentOf(key: string): string {
    this.ensure();
    return unitContent(this.state, key);
  }

  schemaOf(key: string): SchemaOutcome | undefined {
    this.loadBodies();
    return unitSchema(this.state, key);
  }

  /**
   * `readSince`: when something else than `reader` began reading `extraFiles` (the bundle of a
   * schema): a file written since is stamped to match nothing (cache/unit-entry.ts `addStamps`).
   */
  setSchema(
    key: string,
    outcome: SchemaOutcome,
    extraFiles: readonly string[],
    reader: FileReader,
    readSince?: number,
  ): void {
    const elsewhere =
      readSince === undefined
        ? undefined
        : { at: readSince, statNow: (file: string) => statNow(under(this.root, file)) };
    this.loadBodies();
    const entry = this.state.single?.indexed(key) ? this.state.single.bodyOf(key) : this.state.entries.get(key);
    if (!entry) return;
    this.state.single?.forget(key);
    entry.schema = outcome;
    entry.schemaPrint = sha256(JSON.stringify(outcome));
    // Files a bundled schema read become dependencies of the unit.
    addStamps(entry.stamps, extraFiles, reader, (file) => this.stat(file), elsewhere);
    this.stampedFiles.delete(entry);
    this.markChanged(key);
    this.stampedSince.note(entry.stamps);
  }

  /** The output this cache vouches for, and its run's summary (cache/output-records.ts). */
  readonly outputs = new OutputRecords(
    () => this.state,
    () => this.ensure(),
  );

  /** The configuration this cache is for (what reset() was given). */
  get config(): string {
    return this.state.configKey;
  }

  /** Writes what changed to disk (cache/persist.ts); a run's reads of the base end here. */
  /** Writes what changed; never throws: a cache that cannot be written only costs speed ({@link writeFailure}). */
  persist(): void {
    try {
      persistUnits(this.state);
      tidyTempCache(this.file, this.root);
    } catch (error) {
      noteWriteFailure(this.state, error);
    }
  }

  /** Why a write of this cache failed in this process (the first failure), if one did. */
  get writeFailure(): string | undefined {
    return this.state.writeFailure;
  }

  /**
   * Calls `each` with the stamp the cache holds for every file and dependency of these units;
   * false when a unit is missing.
   */
  eachStampOf(
    keys: readonly string[],
    each: (path: string, changedMs: number, size: number, ino: number) => void,
  ): boolean {
    this.ensure();
    return eachStampOfUnits(this.state.index, this.state.entries, keys, each, this.state.single !== undefined);
  }

  /**
   * Whether some unit's result depends on this file (POSIX, relative), or on a file below it
   * when it is a directory: one of the unit's own files, or one its schema read.
   */
  dependsOn(path: string): boolean {
    this.ensure();
    return anyDependsOn(this.state.index, this.state.entries, path, this.state.single !== undefined);
  }

  /**
   * The other stamped paths (POSIX, relative) of the file at `path` when it has hard links: one
   * inode, so an edit through one path changes them all, and a watcher's event names only that
   * one. A scan of every stamp, made only for a file with more than one link (rare).
   */
  hardLinksOf(path: string): string[] {
    let s: { nlink: number; ino: number; isFile(): boolean } | undefined;
    try {
      s = statSync(under(this.root, path), { throwIfNoEntry: false });
    } catch {
      return [];
    }
    if (s === undefined || s.nlink < 2 || !s.isFile()) return [];
    this.ensure();
    const others: string[] = [];
    for (const [other, stamp] of allStamps(this.state.index, this.state.entries))
      if (stamp.ino === s.ino && other !== path) others.push(other);
    return others;
  }
}
