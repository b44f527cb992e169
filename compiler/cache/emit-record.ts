/**
 * The emit record beside the unit cache (`units.json.emit`): the stamp of each generated module
 * of the folder (a large bot's tool shards and `types.ts`) by the fingerprint of what it is made
 * of (emit/shards.ts). A fresh process whose one tool changed fingerprints every shard, takes the
 * recorded stamp of each unchanged one and renders only the rest; the writer still compares every
 * stamp with the file's and renders a module whose file differs (write/validators.ts).
 *
 * It is small (one line per module, 512 at 20,000 tools), written whole and atomically, and
 * only when it changed. A record of another version or of any wrong shape is not used: the run
 * renders every module as a cacheless one does, so a damaged record costs time, never bytes.
 */
import { readFileSync } from 'node:fs';
import { writeAtomically } from '../write/output.js';

const FINGERPRINT = /^[0-9a-f]{64}$/;

export class EmitRecordFile {
  /** What the file holds now (as loaded or last saved), to write it only when it changes. */
  private onDisk: string | undefined;

  constructor(
    readonly file: string,
    private readonly version: string,
  ) {}

  /** The recorded stamps by fingerprint; empty when the file is missing, of another version or damaged. */
  load(): ReadonlyMap<string, string> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return new Map();
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return new Map();
    }
    const prints = parseRecord(raw, this.version);
    if (prints !== undefined) this.onDisk = serialise(this.version, prints);
    return prints ?? new Map();
  }

  /** Writes these stamps as the record unless the file already holds exactly them. */
  save(prints: ReadonlyMap<string, string>): void {
    const text = serialise(this.version, prints);
    if (text === this.onDisk) return;
    writeAtomically(this.file, text);
    this.onDisk = text;
  }
}

function serialise(version: string, prints: ReadonlyMap<string, string>): string {
  const sorted = [...prints].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${JSON.stringify({ version, modules: sorted })}\n`;
}

function parseRecord(raw: unknown, version: string): Map<string, string> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  if (record.version !== version || !Array.isArray(record.modules)) return undefined;
  const prints = new Map<string, string>();
  for (const item of record.modules) {
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const [print, stamp] = item as unknown[];
    // A stamp is one line of a generated module: nothing else may ever reach a file from here.
    if (typeof print !== 'string' || !FINGERPRINT.test(print)) return undefined;
    if (typeof stamp !== 'string' || !stamp.startsWith('// ') || /[\r\n\u2028\u2029]/.test(stamp)) return undefined;
    prints.set(print, stamp);
  }
  return prints;
}
