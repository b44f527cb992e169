/**
 * One fresh run's use of the tree record (cache/tree-record.ts): right after the walk, whether
 * the record vouches for the output (then the run is over), and at the end of a run that
 * recorded its output, the record for the next run.
 */
import { statSync } from 'node:fs';
import type { ResolvedOptions } from '../config/load.js';
import type { CompileResult } from '../run-types.js';
import type { CapabilityModel } from '../model.js';
import type { Diagnostic } from '../diagnostics.js';
import type { CapabilityUnit, Layout } from '../scan/layout.js';
import type { TreeInventory } from '../scan/inventory.js';
import { unitKey } from './unit-key.js';
import { vouchedResult } from './vouched.js';
import { isRacy } from './racy.js';
import { listStamps, type Stamp, stampOf, type TreeRecord, treeDigest } from './tree-record.js';
import type { UnitCache } from './units.js';

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

export class TreeCheck {
  /** Stamps of the listed files, taken before the run read any of them. */
  readonly stamps: ReadonlyMap<string, Stamp>;
  private readonly list: readonly string[];
  /** Root, output path, shipped packages' stamp, runtime module, plugin entry names, configured plugins. */
  private readonly context: string;
  /** When the stamps were taken (ms since the epoch). */
  private readonly stampedAt: number;

  constructor(
    private readonly cache: UnitCache,
    private readonly root: string,
    inventory: TreeInventory,
    context: readonly string[],
  ) {
    this.list = inventory.list;
    // The configured plugins outside the root are part of what the walk was asked to do.
    this.context = [...context, ...inventory.extra.map((p) => p.dir)].join('\0');
    this.stampedAt = Date.now();
    this.stamps = listStamps(root, this.list);
  }

  /** Whether some listed file was written within a timestamp tick of the stamps (cache/racy.ts). */
  private racy(): boolean {
    for (const stamp of this.stamps.values()) {
      if (stamp === '-') continue;
      if (isRacy(Number(stamp.slice(0, stamp.indexOf(':'))), this.stampedAt)) return true;
    }
    return false;
  }

  /** The record, when the tree, the validators folder and the output are as it recorded them. */
  vouched(outFile: string, validators: string): TreeRecord | undefined {
    const record = this.cache.treeFile?.load(this.cache.config);
    if (!record || record.output.file !== outFile) return undefined;
    let now: { mtimeMs: number; size: number };
    try {
      now = statSync(outFile);
    } catch {
      return undefined;
    }
    if (now.mtimeMs !== record.output.mtimeMs || now.size !== record.output.size) return undefined;
    const extras = new Map<string, Stamp>();
    for (const path of record.extras) extras.set(path, stampOf(`${this.root}/${path}`));
    const digest = treeDigest({ context: this.context, list: this.list, stamps: this.stamps, extras, validators });
    return digest === record.digest ? record : undefined;
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
    const recorded = this.cache.recorded();
    if (recorded?.output.digest !== input.key || !input.key.endsWith(`:${input.validators}`)) return;
    const keys = input.units.map(unitKey);
    for (const plugin of input.layout.plugins) if (plugin.entry) keys.push(`plugin-entry:${plugin.entry}`);
    const stamped = this.cache.stampsOf(keys);
    if (!stamped || this.racy()) return;
    const extras = new Map<string, Stamp>();
    for (const [path, stamp] of stamped) {
      const atStart = this.stamps.get(path);
      if (atStart === undefined) extras.set(path, stamp);
      else if (atStart !== stamp) return;
    }
    const sorted = new Map([...extras].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const record: TreeRecord = {
      digest: treeDigest({
        context: this.context,
        list: this.list,
        stamps: this.stamps,
        extras: sorted,
        validators: input.validators,
      }),
      extras: [...sorted.keys()],
      units: input.units.length,
      output: recorded.output,
      summary: recorded.summary,
      layout: input.diagnostics,
    };
    try {
      this.cache.treeFile?.save(this.cache.config, record);
    } catch {
      // A read-only cache folder only costs speed.
    }
  }
}
