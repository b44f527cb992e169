/**
 * What the unit cache (cache/units.ts) holds between its calls: the entries, the index standing in
 * for them, the flags that say what is on disk, and the files it reads and writes. One object, one
 * owner (the cache), so that the steps kept in files of their own (cache/persist.ts) read and
 * change the same state the lookups do instead of a copy, and the cache's own fields stay few.
 * Belongs to one compiler's cache, never to the module: two compilers never share it.
 */
import { CacheFile } from './file.js';
import { isEntry, isOutputRecord } from './entry-shape.js';
import { IndexFile, type CacheIndex } from './index-file.js';
import { OutputState } from './output-state.js';
import type { SingleBodies } from './single-bodies.js';
import { type EmitRecord, EmitRecordFile } from './emit-record.js';
import { type Entry, type OutputRecord, sameRecord } from './unit-entry.js';

export class UnitState {
  entries = new Map<string, Entry>();
  /** The output this cache vouches for and its run's summary (cache/output-state.ts). */
  readonly out = new OutputState();
  configKey = '';
  /** What changed since the cache was loaded or last persisted (persisted as journal lines). */
  readonly changedKeys = new Set<string>();
  /** The loaded file had parts dropped as doubtful: rewrite it at the next persist. */
  damaged = false;
  readonly disk: CacheFile<Entry, OutputRecord> | undefined;
  readonly indexFile: IndexFile | undefined;
  /** The generated modules' stamps by fingerprint (cache/emit-record.ts), saved at the next persist. */
  readonly emitRecord: EmitRecordFile | undefined;
  /** What the last emit's modules were made of (and their files), saved to `emitRecord` at the next persist. */
  emitNoted: EmitRecord | undefined;
  /**
   * reset() only names the configuration; the index (or the bodies) is read on first use, so a
   * run the tree record vouches for (cache/tree-record.ts) never reads it.
   */
  pending = false;
  /**
   * Until some unit needs its body, the index stands in for the entries (cache/index-file.ts):
   * a run that finds nothing to do never reads the bodies.
   */
  index: CacheIndex | undefined;
  bodiesLoaded = true;
  /** The index on disk does not describe what is persisted (missing, damaged, outdated). */
  indexStale = false;
  /** The index on disk is believed current: a persist may append to its journal (cache/index-journal.ts). */
  indexAppendable = false;
  /**
   * While set, bodies are read one by one (cache/single-bodies.ts): `entries` holds only those
   * read so far and those stored this run, and the index's records stand in for the rest. A run
   * that re-parses one tool reads the bodies of the units whose output it renders again.
   */
  single: SingleBodies | undefined;

  /** Whether this cache removed a killed run's temp files of its own yet (write/temp-files.ts). */
  tempsSwept = false;
  /** The first cache write of this process that failed (a read-only or full disk): for one note. */
  writeFailure: string | undefined;

  /** `file`: the cache's base file (undefined: no cache on disk, nothing is read or written). */
  constructor(
    readonly file: string | undefined,
    version: string,
  ) {
    this.disk =
      file === undefined ? undefined : new CacheFile(file, version, { entry: isEntry, output: isOutputRecord });
    this.indexFile = file === undefined ? undefined : new IndexFile(file, version);
    this.emitRecord = file === undefined ? undefined : new EmitRecordFile(`${file}.emit`, version);
  }

  /** Loads for the configuration named: the index when it is usable, else the bodies whole. */
  loadIndexOrBodies(): void {
    this.clearLoaded();
    this.index = this.indexFile?.load(this.configKey);
    this.bodiesLoaded = this.index === undefined;
    this.indexStale = this.index === undefined;
    this.indexAppendable = this.index !== undefined;
    if (this.index) {
      this.out.record = this.index.output;
      this.out.setSummary(this.index.summary);
    } else this.readBodies();
  }

  /** Forgets what was loaded, before loading for the configuration named. */
  clearLoaded(): void {
    this.entries = new Map();
    this.single?.close();
    this.single = undefined;
    this.out.clear();
    this.changedKeys.clear();
    this.damaged = false;
  }

  /** The bodies whole and no index: as if the index were missing (the summary comes with the next output). */
  distrustIndex(): void {
    this.clearLoaded();
    this.index = undefined;
    this.indexStale = true;
    this.indexAppendable = false;
    this.readBodies();
  }

  /** Reads the bodies whole; the index no longer stands in for them. */
  readBodies(): void {
    this.bodiesLoaded = true;
    this.index = undefined;
    // Missing, corrupt or for another configuration: a cold run rebuilds it. Entries of the
    // wrong shape are dropped on load (cache/entry-shape.ts): those units are parsed again.
    const loaded = this.disk?.load(this.configKey);
    this.damaged = loaded?.damaged ?? false;
    // Dropped entries stay in an appended index: after damage the index is written whole.
    if (this.damaged) this.indexAppendable = false;
    this.entries = loaded?.entries ?? new Map();
    const output = loaded?.output;
    // The index and the bodies were written together; if they disagree, trust neither's record.
    if (this.out.record !== undefined && !sameRecord(this.out.record, output)) {
      this.out.clear();
      this.indexStale = true;
      this.indexAppendable = false;
    } else this.out.record = output;
  }
}
