/**
 * The tree record: a small file beside the unit cache (`units.json.tree`) that lets a fresh run
 * with nothing to do stop after the walk. It holds one digest over everything the last output
 * was made from that a walk and a stat per file can see again: the walked paths, the mtime and
 * size of every listed file and of every file outside the walk a unit depends on (a `src/`
 * fragment), the validators folder's stamp, and the run's context (root, output path, runtime
 * module, shipped packages, plugin entry names). With it go what the run reported (counts, the
 * diagnostics of the parse, the model and the layout) and the output record. A run whose walk
 * gives the same digest, whose output file still carries the recorded stamp and whose cache
 * bodies are those the record was written beside returns the recorded result without building
 * the layout, reading the index or loading a parser.
 *
 * Every stamp in the digest is one the unit cache stamped the unit's result with (taken through
 * the descriptor the bytes were read from), or, for a listed file no unit depends on, one taken
 * when the run started, before it read anything; a listed file whose stamp moved while the run
 * read it leaves no record. A record of another version or configuration, of any wrong shape,
 * or beside other bodies is ignored (the run takes the index's path): a damaged record costs the
 * index read it would have saved, never a wrong result.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Diagnostic } from '../diagnostics.js';
import { isDiagnostic, isOutputRecord } from './entry-shape.js';
import { readBeside, type RunSummary, toSummary, writeBeside } from './index-file.js';
import type { OutputRecord } from './units.js';

/** mtime and size of a file as one comparable string; '-' when it cannot be stat'ed. */
export type Stamp = string;

export function stampOf(abs: string): Stamp {
  try {
    const s = statSync(abs);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return '-';
  }
}

/** The stamps of every listed file (directories, which end in '/', have none), taken now. */
export function listStamps(root: string, list: readonly string[]): Map<string, Stamp> {
  const stamps = new Map<string, Stamp>();
  for (const path of list) if (!path.endsWith('/')) stamps.set(path, stampOf(`${root}/${path}`));
  return stamps;
}

export interface TreeInputs {
  /** Root, output path, runtime module, shipped packages, plugin entry names, configured plugins. */
  readonly context: string;
  readonly list: readonly string[];
  /** Stamp of each listed file. */
  readonly stamps: ReadonlyMap<string, Stamp>;
  /** Files outside the walk a unit depends on, with their stamps. */
  readonly extras: ReadonlyMap<string, Stamp>;
  readonly validators: string;
}

export function treeDigest(input: TreeInputs): string {
  const hash = createHash('sha256').update(`${input.context}\0${input.validators}\0`);
  // One string per call: thousands of small update() calls cost more than the join.
  const parts: string[] = [];
  for (const path of input.list) parts.push(path.endsWith('/') ? path : `${path}\0${input.stamps.get(path) ?? '-'}`);
  hash.update(parts.join('\n'));
  hash.update('\0extras\0');
  for (const [path, stamp] of input.extras) hash.update(`${path}\0${stamp}\n`);
  return hash.digest('hex');
}

export interface TreeRecord {
  readonly digest: string;
  /** Files outside the walk the units depend on (their stamps are in the digest). */
  readonly extras: readonly string[];
  readonly units: number;
  readonly output: OutputRecord;
  readonly summary: RunSummary;
  /** Diagnostics of the layout (a function of the walked paths and their contents). */
  readonly layout: readonly Diagnostic[];
}

export class TreeRecordFile {
  readonly file: string;

  constructor(
    private readonly bodies: string,
    private readonly version: string,
  ) {
    this.file = `${bodies}.tree`;
  }

  /** The record, when it is of this version and configuration and written beside these bodies. */
  load(configKey: string): TreeRecord | undefined {
    const raw = readBeside(this.file, this.bodies, this.version, configKey);
    if (!raw) return undefined;
    const { digest, extras, units, output, layout } = raw;
    if (typeof digest !== 'string' || typeof units !== 'number' || !isOutputRecord(output)) return undefined;
    if (!Array.isArray(extras) || !extras.every((e) => typeof e === 'string')) return undefined;
    if (!Array.isArray(layout) || !layout.every(isDiagnostic)) return undefined;
    const summary = toSummary(raw.summary);
    if (summary === undefined) return undefined;
    return { digest, extras, units, output, summary, layout };
  }

  /** Writes the record for the bodies now on disk (call after they are written). */
  save(configKey: string, record: TreeRecord): void {
    writeBeside(this.file, this.bodies, this.version, configKey, { ...record });
  }
}
