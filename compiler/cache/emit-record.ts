/**
 * The emit record beside the unit cache (`units.json.emit`): the stamp of each generated module
 * of the folder (a large bot's tool shards and `types.ts`) by the fingerprint of what it is made
 * of (emit/shards.ts). A fresh process whose one tool changed fingerprints every shard, takes the
 * recorded stamp of each unchanged one and renders only the rest; the writer still compares every
 * stamp with the file's and renders a module whose file differs (write/validators.ts).
 *
 * It also keeps the folder's modules as the last process verified or wrote them (name, stamp
 * line, mtime, size and inode, settled ones only: cache/racy.ts), so the next one takes a module
 * whose file has that stat as current instead of reading and hashing it again
 * (write/validators.ts `seedVerified`): the same trust in a stamp the tree record puts in it.
 *
 * It is small (two lines per module, 512 modules at 20,000 tools), written whole and atomically,
 * and only when it changed. A record of another version or of any wrong shape is not used: the
 * run renders and reads every module as a cacheless one does, so a damaged record costs time,
 * never bytes.
 */
import { isRecord } from './json-shape.js';
import { readText } from '../util/read-text.js';
import { writeAtomically } from '../write/output.js';
import type { VerifiedModule } from '../write/validators.js';
import { stringifyAscii } from '../util/ascii-json.js';

export interface EmitRecord {
  /** Module stamps by the fingerprint of what each is made of. */
  readonly prints: ReadonlyMap<string, string>;
  /** The generated folder (absolute) and its modules as last verified, by file name. */
  readonly folder?: { readonly dir: string; readonly modules: ReadonlyMap<string, VerifiedModule> };
}

const EMPTY: EmitRecord = { prints: new Map() };

const FINGERPRINT = /^[0-9a-f]{64}$/;

export class EmitRecordFile {
  /** What the file holds now (as loaded or last saved), to write it only when it changes. */
  private onDisk: string | undefined;

  constructor(
    readonly file: string,
    private readonly version: string,
  ) {}

  /** The record; empty when the file is missing, of another version or damaged. */
  load(): EmitRecord {
    let text: string;
    try {
      text = readText(this.file);
    } catch {
      return EMPTY;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return EMPTY;
    }
    const record = parseRecord(raw, this.version);
    if (record !== undefined) this.onDisk = serialise(this.version, record);
    return record ?? EMPTY;
  }

  /** Writes this record unless the file already holds exactly it. */
  save(record: EmitRecord): void {
    const text = serialise(this.version, record);
    if (text === this.onDisk) return;
    writeAtomically(this.file, text);
    this.onDisk = text;
  }
}

function byName<T>(entries: Iterable<readonly [string, T]>): (readonly [string, T])[] {
  return [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function serialise(version: string, { prints, folder }: EmitRecord): string {
  const modules = byName(prints);
  const files = folder
    ? byName(folder.modules).map(([name, m]) => [name, m.stamp, m.changedMs, m.size, m.at, m.ino] as const)
    : undefined;
  return `${stringifyAscii({ version, modules, ...(folder ? { folder: { dir: folder.dir, files } } : {}) })}\n`;
}

/** A stamp is one line of a generated module: nothing else may ever reach a file from here. */
function isStampLine(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('// ') && !/[\r\n\u2028\u2029]/.test(value);
}

function parseRecord(raw: unknown, version: string): EmitRecord | undefined {
  if (!isRecord(raw) || raw.version !== version || !Array.isArray(raw.modules)) return undefined;
  const prints = new Map<string, string>();
  for (const item of raw.modules) {
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const [print, stamp] = item as unknown[];
    if (typeof print !== 'string' || !FINGERPRINT.test(print) || !isStampLine(stamp)) return undefined;
    prints.set(print, stamp);
  }
  if (raw.folder === undefined) return { prints };
  const folder = raw.folder;
  if (!isRecord(folder) || typeof folder.dir !== 'string' || !Array.isArray(folder.files)) return undefined;
  const modules = new Map<string, VerifiedModule>();
  for (const item of folder.files) {
    if (!Array.isArray(item) || item.length !== 6) return undefined;
    const [name, stamp, changedMs, size, at, ino] = item as unknown[];
    // A validator's stamp is '' (write/validators.ts); a side module's is its second line.
    if (typeof name !== 'string' || name.includes('/') || (stamp !== '' && !isStampLine(stamp))) return undefined;
    if (!Number.isFinite(changedMs) || !Number.isSafeInteger(size) || !Number.isFinite(at) || !Number.isFinite(ino))
      return undefined;
    modules.set(name, {
      stamp: stamp as string,
      changedMs: changedMs as number,
      size: size as number,
      ino: ino as number,
      at: at as number,
    });
  }
  return { prints, folder: { dir: folder.dir, modules } };
}
