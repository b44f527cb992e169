/**
 * One fresh run's use of the tree record (cache/tree-record.ts): right after the walk, whether
 * the record vouches for the output (then the run is over), and at the end of a run that
 * recorded its output, the record for the next run.
 */
import type { ResolvedOptions } from '../config/load.js';
import type { CompileResult } from '../run-types.js';
import type { CapabilityModel } from '../model.js';
import type { Diagnostic } from '../diagnostics.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import { lowerBound, type TreeInventory } from '../scan/inventory.js';
import { unitKey } from './unit-key.js';
import { vouchedResult } from './vouched.js';
import { isRacy } from './racy.js';
import { sameFile, statNow } from '../util/file-stat.js';
import {
  putStat,
  type Stamp,
  stampInto,
  stampOf,
  stampText,
  statList,
  TABLE_SLOTS,
  type TreeRecord,
  treeDigest,
  unitsDigest,
  withoutUnstat,
} from './tree-record.js';
import { helperFilesOf } from './unit-key.js';
import type { UnitCache } from './units.js';
import type { RunStamps } from './stat-source.js';

/**
 * Beyond this many files no unit depends on, the record keeps no units digest (the index check
 * decides). A tool's helper modules are such files (cache/unit-key.ts `stampedFilesOf`): 20,000
 * at 20,000 tools, ~130 KB of indices in the record, read only when the record does not vouch.
 */
const MAX_LOOSE = 262_144;

export interface TreeRecordInputs {
  readonly layout: Layout;
  readonly units: readonly CapabilityUnit[];
  /** The layout's and the units' diagnostics. */
  readonly diagnostics: readonly Diagnostic[];
  /** The vouched-output key this run recorded or verified: its inputs digest, `:` and `validators`. */
  readonly key: string;
  /** The validators folder's stamp in that key. */
  readonly validators: string;
}

/**
 * The stamps of the listed files by path, as the unit cache looks them up (cache/stat-source.ts):
 * positions into the table, so no lookup prints or parses a number. The list is sorted by code
 * units (scan/walk.ts, and scan/inventory.ts keeps it so), and the lookups mostly come in list
 * order (a unit's files, then the next unit's): the entry after the last one found is tried
 * first, then a binary search. A map of every listed path cost 30–58 ms at 20,000 tools. A path
 * not found (never the case for a listed file) only costs the caller a stat of its own.
 */
export class ListStamps implements RunStamps {
  private last = -1;

  constructor(
    private readonly list: readonly string[],
    private readonly table: Float64Array,
  ) {}

  indexOf(path: string): number {
    // Directories are listed with a trailing '/'; a file's path never has one.
    if (path.endsWith('/')) return -1;
    const list = this.list;
    const next = this.last + 1;
    let i: number;
    if (next < list.length && list[next] === path) i = next;
    else {
      i = lowerBound(list, path);
      if (list[i] !== path) return -1;
    }
    this.last = i;
    return i;
  }
  changedAt(i: number): number {
    return this.table[TABLE_SLOTS * i]!;
  }
  sizeAt(i: number): number {
    return this.table[TABLE_SLOTS * i + 1]!;
  }
  inoAt(i: number): number {
    return this.table[TABLE_SLOTS * i + 2]!;
  }
}

export class TreeCheck {
  /** Stamps of the listed files, taken before the run read any of them. */
  readonly stamps: ListStamps;
  /** The same stamps in list order ({@link statList}): what the digest is made of. */
  private readonly table: Float64Array;
  private readonly list: readonly string[];
  private readonly listDigest: string;
  /** Root, output path, shipped packages' stamp, runtime module, plugin entry names, configured plugins. */
  private readonly context: string;
  /**
   * When each stamp was taken (ms since the epoch; a clock reading from before its stat): one time
   * for the whole list, or the walk's reading per path (scan/walk.ts). Racy stamps are judged against it.
   */
  private readonly stampedAt: number | Float64Array;
  /** A clock reading from before the run read any unit's file (a helper stat'ed late is judged against it). */
  private readonly began = Date.now();

  constructor(
    private readonly cache: UnitCache,
    private readonly root: string,
    inventory: TreeInventory,
    context: readonly string[],
    /** The record beside the bodies now on disk, loaded before the walk (its `unstat` told the walk what not to stat). */
    private readonly loaded: TreeRecord | undefined,
  ) {
    this.list = inventory.list;
    this.listDigest = inventory.digest;
    // The configured plugins outside the root are part of what the walk was asked to do.
    this.context = [...context, ...inventory.extra.map((p) => p.dir)].join('\0');
    // The walk stat'ed every file as it listed it; a list it could not stamp is stat'ed here.
    const walked = inventory.takeStamps();
    this.stampedAt = walked?.taken ?? Date.now();
    this.table = walked?.table ?? statList(root, this.list);
    this.stamps = new ListStamps(this.list, this.table);
  }

  /** Whether some listed file was written within a timestamp tick of the stamps (cache/racy.ts). */
  private racy(): boolean {
    const at = this.stampedAt;
    for (let i = 0; i < this.list.length; i++) {
      if (!(this.stamps.sizeAt(i) >= 0)) continue;
      if (isRacy(this.stamps.changedAt(i), typeof at === 'number' ? at : at[i]!)) return true;
    }
    return false;
  }

  /** The record, when the tree, the validators folder and the output are as it recorded them. */
  vouched(outFile: string, validators: string): TreeRecord | undefined {
    const record = this.loaded;
    if (!record || record.output.file !== outFile) return undefined;
    if (!sameFile(statNow(outFile), record.output)) return undefined;
    const extras = new Map<string, Stamp>();
    for (const path of record.extras) extras.set(path, stampOf(`${this.root}/${path}`));
    const digest = treeDigest({
      context: this.context,
      listDigest: this.listDigest,
      stamps: withoutUnstat(this.table, record.unstat),
      extras,
      validators,
    });
    return digest === record.digest ? record : undefined;
  }

  /**
   * Stats the files the walk left unstamped (the record's `unstat`) when they may be others than
   * the record's helper modules: call when the record did not vouch, before the run reads
   * anything. While the list is the recorded one they are exactly those helpers, which no unit
   * read when the record was made; one that a unit starts to depend on in this run is judged
   * when the next record is made ({@link record}), and the unit cache's stat source stats one it
   * is asked about itself. So a one-change run does not stat them (20,000 files at 20,000 tools).
   */
  fill(): void {
    if (this.loaded?.list !== undefined && this.loaded.list === this.listDigest) return;
    const taken = typeof this.stampedAt === 'number' ? undefined : this.stampedAt;
    const prefix = `${this.root}/`;
    for (let i = 0; i < this.list.length; i++) {
      if (!Number.isNaN(this.stamps.sizeAt(i))) continue;
      if (taken) taken[i] = Date.now();
      stampInto(this.table, i, prefix + this.list[i]!);
    }
  }

  /**
   * Whether the cache's index cannot vouch for these units (call after vouched()): the record was
   * written with the index now on disk, and its units digest differs from this walk's, so some
   * unit's file list or a file's stamp is not the index's. The index check is then skipped (its
   * load is the cost of a one-change run it cannot save). False when the record cannot tell.
   */
  indexCannotVouch(validators: string): boolean {
    const recorded = this.loaded;
    if (recorded?.unitsDigest === undefined || recorded.loose === undefined) return false;
    const input = { context: this.context, listDigest: this.listDigest, stamps: this.table, validators };
    return unitsDigest(input, recorded.loose) !== recorded.unitsDigest;
  }

  /**
   * The units digest and its loose files for the record, unless loose files are too many to list.
   * `stamped` marks the list positions of the files some unit depends on.
   */
  private unitsPart(stamped: Uint8Array, validators: string): Pick<TreeRecord, 'unitsDigest' | 'loose'> {
    const loose: number[] = [];
    for (let i = 0; i < this.list.length; i++) {
      if (!this.list[i]!.endsWith('/') && stamped[i] === 0 && loose.push(i) > MAX_LOOSE) return {};
    }
    const input = { context: this.context, listDigest: this.listDigest, stamps: this.table, validators };
    return { unitsDigest: unitsDigest(input, loose), loose };
  }

  /**
   * The list indices of code units' helper modules that no unit depends on (their content is
   * never read: cache/unit-key.ts `stampedFilesOf`), ascending; undefined when a stamp the digest
   * takes is missing (a file the walk did not stat and nothing stat'ed since).
   */
  private unstatOf(units: readonly CapabilityUnit[], stamped: Uint8Array): number[] | undefined {
    const skip = new Uint8Array(this.list.length);
    for (const unit of units) {
      for (const file of helperFilesOf(unit)) {
        const i = this.stamps.indexOf(file);
        if (i >= 0 && stamped[i] === 0) skip[i] = 1;
      }
    }
    const out: number[] = [];
    for (let i = 0; i < skip.length; i++) {
      if (skip[i] === 1) out.push(i);
      else if (Number.isNaN(this.stamps.sizeAt(i))) return undefined;
    }
    return out;
  }

  /** The result of a run the record vouched for, over this run's own (configuration, walk) diagnostics. */
  result(
    hit: TreeRecord,
    input: {
      readonly diagnostics: readonly Diagnostic[];
      readonly model: () => CapabilityModel;
      readonly options: ResolvedOptions;
      readonly outRel: string;
      readonly started: number;
    },
  ): CompileResult {
    return vouchedResult({
      ...input,
      summary: hit.summary,
      diagnostics: [...input.diagnostics, ...hit.layout],
      units: hit.units,
    });
  }

  /**
   * Writes the record of this run's output (call after the cache persisted). Nothing is written
   * when the cache records another output, or when a file's stamp in the cache is not the one taken
   * when the run started (it changed while the run read it), or some listed file's stamp is racy:
   * a same-size save within the same tick would leave the digest as it is.
   */
  record(input: TreeRecordInputs): void {
    // Only the output of this run's own inputs: a run that recorded nothing leaves an older record.
    const recorded = this.cache.outputs.recorded();
    if (recorded?.output.digest !== input.key || !input.key.endsWith(`:${input.validators}`)) return;
    const keys = input.units.map(unitKey);
    for (const plugin of input.layout.plugins) if (plugin.entry) keys.push(`plugin-entry:${plugin.entry}`);
    // Every stamp the cache holds for a listed file must be the one taken at the start: compared
    // as numbers (no string per file); files outside the walk go into the digest as extras.
    const stamped = new Uint8Array(this.list.length);
    const extras = new Map<string, Stamp>();
    let moved = false;
    const complete = this.cache.eachStampOf(keys, (path, changedMs, size, ino) => {
      const i = this.stamps.indexOf(path);
      // A file stamped missing (cache/flat-stamps.ts ABSENT) is what `stampOf` gives a missing file.
      if (i < 0) extras.set(path, stampText(changedMs, size, ino));
      else if (Number.isNaN(this.stamps.sizeAt(i))) {
        // A file the walk did not stat (a helper module that a unit now depends on): its stamp is
        // the one the run read it with, and stands for a stat at the start only when nothing
        // wrote the file since the run began (else no record: the next run reads it again).
        if (size >= 0 && changedMs >= 0 && !isRacy(changedMs, this.began)) {
          putStat(this.table, i, { changedMs, size, ino });
          if (typeof this.stampedAt !== 'number') this.stampedAt[i] = this.began;
          stamped[i] = 1;
        } else moved = true;
      } else if (
        this.stamps.sizeAt(i) !== size ||
        this.stamps.changedAt(i) !== changedMs ||
        this.stamps.inoAt(i) !== ino
      )
        moved = true;
      else stamped[i] = 1;
    });
    if (!complete || moved || this.racy()) return;
    const unstat = this.unstatOf(input.units, stamped);
    if (unstat === undefined) return;
    const sorted = new Map([...extras].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const record: TreeRecord = {
      digest: treeDigest({
        context: this.context,
        listDigest: this.listDigest,
        stamps: withoutUnstat(this.table, unstat),
        extras: sorted,
        validators: input.validators,
      }),
      extras: [...sorted.keys()],
      units: input.units.length,
      output: recorded.output,
      summary: recorded.summary,
      layout: input.diagnostics,
      ...this.unitsPart(stamped, input.validators),
      ...(unstat.length > 0 ? { unstat } : {}),
      list: this.listDigest,
    };
    try {
      this.cache.treeFile?.save(this.cache.config, record);
    } catch {
      // A read-only cache folder only costs speed.
    }
  }
}
