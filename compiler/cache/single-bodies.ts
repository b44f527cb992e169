/**
 * The unit cache reading bodies one by one (cache/units.ts): the index's records stand in for the
 * entries (cache/unit-record.ts), each unit's lookup is answered from its indexed files and
 * stamps with a deferred result (cache/deferred.ts), and a body is read from its byte range in
 * the base (cache/file.ts `open`) only when something asks for what its record leaves out. The
 * bodies read (and the entries stored this run) live in the cache's `entries` map, which this
 * fills; the rest of the cache treats an entry there as loaded and the index as the others.
 */
import type { SchemaOutcome } from '../schema/types.js';
import { DeferredResult, deferredOutcome } from './deferred.js';
import type { OpenedBase } from './file.js';
import type { CacheIndex, IndexedUnit } from './index-file.js';
import { compareStamps, type FileStat } from './stat-source.js';
import { type FileStamp, putStamp, STAMP_SLOTS } from './flat-stamps.js';
import type { Entry } from './unit-entry.js';
import type { UnitRecord } from './unit-record.js';
import type { UnitResult } from '../parse/units.js';
import { sameList } from '../util/lists.js';

export interface SingleBodiesHost {
  readonly root: string;
  stat(path: string): FileStat | undefined;
  /** A body that is not at its range: never returns (cache/units.ts removes the index). */
  lost(key: string): never;
  /** Counts a body read. */
  read(): void;
}

export class SingleBodies {
  /** The deferred result and outcome handed out per unit (the same objects in every run). */
  private readonly deferred = new Map<
    string,
    { readonly result: DeferredResult; readonly outcome: SchemaOutcome | undefined }
  >();

  private constructor(
    private readonly index: CacheIndex,
    private readonly opened: OpenedBase<Entry>,
    private readonly entries: Map<string, Entry>,
    private readonly host: SingleBodiesHost,
  ) {}

  /**
   * Bodies read one by one, when every unit of the index has its record and its body is at a
   * recorded range of the base or in its journal (whose entries join `entries` now).
   */
  static open(
    index: CacheIndex,
    open: () => OpenedBase<Entry> | undefined,
    entries: Map<string, Entry>,
    host: SingleBodiesHost,
  ): SingleBodies | undefined {
    for (const unit of index.units.values()) if (!unit.record) return undefined;
    const opened = open();
    if (!opened) return undefined;
    for (const [key, unit] of index.units) if (!unit.at && !opened.journal.has(key)) return undefined;
    for (const [key, entry] of opened.journal) if (index.units.has(key)) entries.set(key, entry);
    return new SingleBodies(index, opened, entries, host);
  }

  /** The indexed unit standing in for a body not read yet. */
  indexed(key: string): IndexedUnit | undefined {
    return this.entries.has(key) ? undefined : this.index.units.get(key);
  }

  /** A unit's entry, its body read from the base now if it was not yet. */
  bodyOf(key: string): Entry {
    const entry = this.entries.get(key);
    if (entry) return entry;
    const at = this.index.units.get(key)?.at;
    const read = at && this.opened.entryAt(at);
    if (!read) return this.host.lost(key);
    this.entries.set(key, read);
    this.host.read();
    return read;
  }

  /** Every body not read yet, into `entries`; false when one could not be read (left out). */
  readAll(): boolean {
    let whole = true;
    for (const [key, unit] of this.index.units) {
      if (this.entries.has(key)) continue;
      const read = unit.at && this.opened.entryAt(unit.at);
      if (read) this.entries.set(key, read);
      else whole = false;
    }
    this.close();
    return whole;
  }

  close(): void {
    this.opened.close();
  }

  /** A unit stored or given a schema anew: what was handed out for it no longer stands for it. */
  forget(key: string): void {
    this.deferred.delete(key);
  }

  /** `UnitCache.lookup` of a unit whose body was not read: its files and stamps as indexed. */
  lookup(
    key: string,
    unit: IndexedUnit,
    files: readonly string[],
    dirty: ReadonlySet<string> | undefined,
  ): UnitResult | 'touched' | 'read' | undefined {
    if (unit.files.length !== files.length) return undefined;
    for (let i = 0; i < files.length; i++) if (unit.files[i] !== files[i]) return undefined;
    if (dirty) {
      for (let i = 0; i < unit.stamps.length; i += STAMP_SLOTS)
        if (dirty.has(unit.stamps[i] as string)) return undefined;
      return this.deferredOf(key, unit.record!);
    }
    const moved: [string, FileStamp][] = [];
    const seen = compareStamps(
      this.host.root,
      unit.stamps,
      (file) => this.host.stat(file),
      (file, stamp) => moved.push([file, stamp]),
    );
    if (seen === 'changed') return undefined;
    if (seen === 'touched') {
      // Touched, same bytes: the body takes the new stamps, without reading and hashing each file
      // again. A body whose stamps are not the index's is compared by the caller as a loaded one.
      const entry = this.bodyOf(key);
      if (!sameList(entry.stamps, unit.stamps) || !sameList(entry.files, unit.files)) return 'read';
      for (const [file, stamp] of moved) putStamp(entry.stamps, file, stamp);
      return 'touched';
    }
    return this.deferredOf(key, unit.record!);
  }

  private deferredOf(key: string, record: UnitRecord): DeferredResult {
    let held = this.deferred.get(key);
    if (!held || held.result.record !== record) {
      const body = (): Entry => this.bodyOf(key);
      held = { result: new DeferredResult(record, body), outcome: deferredOutcome(record.outcome, body) };
      this.deferred.set(key, held);
    }
    return held.result;
  }

  /** The schema outcome handed out with the unit's deferred result, if it has one. */
  held(key: string): { readonly result: DeferredResult; readonly outcome: SchemaOutcome | undefined } | undefined {
    return this.deferred.get(key);
  }
}
