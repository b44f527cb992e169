/**
 * The unit cache on disk: one JSON base file, plus an append-only journal of the entries that
 * changed since the base was written. A run that re-parsed one tool appends one line instead of
 * re-serialising and rewriting every unit's result (megabytes at 1,000 tools, ~40 ms of a
 * one-change run here); the base is rewritten, and the journal dropped, once the journal grows
 * past a quarter of the base.
 *
 * The journal names the base it extends (a random id written into the base). A journal that
 * belongs to another base, or a line that does not parse (a write cut short), ends what is
 * applied: the cache is an accelerator, so anything doubtful costs a re-parse, never a wrong
 * result (every entry is still checked against its files' stamps on use).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeAtomically } from './write.js';

interface Base<E, O> {
  readonly version: string;
  readonly configKey: string;
  readonly id?: string;
  readonly entries: Record<string, E>;
  readonly output?: O;
}

type JournalLine<E, O> = { readonly base: string } | { readonly k: string; readonly e: E } | { readonly o: O };

export interface CacheContents<E, O> {
  readonly entries: Map<string, E>;
  readonly output: O | undefined;
}

/** The journal is folded into a new base once it is larger than this share of the base. */
const JOURNAL_SHARE = 0.25;

export class CacheFile<E, O> {
  private baseId: string | undefined;
  private baseBytes = 0;
  private journalBytes = 0;
  /** False after a journal that was not applied to its end: the next save writes a new base. */
  private journalUsable = true;
  private readonly journal: string;

  constructor(
    private readonly file: string,
    private readonly version: string,
  ) {
    this.journal = `${file}.journal`;
  }

  /** The persisted contents for this configuration, or undefined (missing, corrupt, other config). */
  load(configKey: string): CacheContents<E, O> | undefined {
    this.baseId = undefined;
    let base: Base<E, O>;
    let size: number;
    try {
      const bytes = readFileSync(this.file);
      size = bytes.length;
      base = JSON.parse(bytes.toString('utf8')) as Base<E, O>;
    } catch {
      return undefined;
    }
    if (base.version !== this.version || base.configKey !== configKey || typeof base.entries !== 'object' || base.entries === null) return undefined;
    const entries = new Map(Object.entries(base.entries));
    let output = base.output;
    this.baseId = base.id;
    this.baseBytes = size;
    this.journalBytes = 0;
    this.journalUsable = true;
    if (base.id !== undefined) {
      let bytes: Buffer | undefined;
      try {
        bytes = readFileSync(this.journal);
      } catch {
        bytes = undefined;
      }
      const lines = bytes === undefined ? [] : bytes.toString('utf8').split('\n');
      if (bytes !== undefined && (parse<E, O>(lines[0]!) as { base?: unknown } | undefined)?.base !== base.id) this.journalUsable = false;
      else if (bytes !== undefined) {
        this.journalBytes = bytes.length;
        for (const line of lines.slice(1)) {
          if (line === '') continue;
          const change = parse<E, O>(line);
          if (change === undefined) {
            // Lines after this one would never be read either: start over at the next save.
            this.journalUsable = false;
            break;
          }
          if ('k' in change && typeof change.k === 'string') entries.set(change.k, change.e);
          else if ('o' in change) output = change.o;
        }
      }
    }
    return { entries, output };
  }

  /**
   * Persists: the changed entries (and output record) as journal lines when a base of this
   * process's knowledge is on disk and the journal is still small, else everything as a new base.
   */
  save(configKey: string, all: () => CacheContents<E, O>, changed: readonly (readonly [string, E])[], output: O | undefined): void {
    const lines = changed.map(([k, e]) => JSON.stringify({ k, e } satisfies JournalLine<E, O>));
    if (output !== undefined) lines.push(JSON.stringify({ o: output } satisfies JournalLine<E, O>));
    const delta = lines.length > 0 ? `${lines.join('\n')}\n` : '';
    if (this.baseId !== undefined && this.journalUsable && this.onDisk() && this.journalBytes + Buffer.byteLength(delta) <= this.baseBytes * JOURNAL_SHARE) {
      if (this.journalBytes === 0) {
        // A new journal: created (or truncated) with its header, never appended to a stray file.
        const text = `${JSON.stringify({ base: this.baseId } satisfies JournalLine<E, O>)}\n${delta}`;
        writeFileSync(this.journal, text);
        this.journalBytes = Buffer.byteLength(text);
      } else {
        appendFileSync(this.journal, delta);
        this.journalBytes += Buffer.byteLength(delta);
      }
      return;
    }
    const contents = all();
    const id = randomBytes(8).toString('hex');
    const text = JSON.stringify({
      version: this.version,
      configKey,
      id,
      entries: Object.fromEntries(contents.entries),
      ...(contents.output !== undefined ? { output: contents.output } : {}),
    } satisfies Base<E, O>);
    writeAtomically(this.file, text);
    rmSync(this.journal, { force: true });
    this.baseId = id;
    this.baseBytes = Buffer.byteLength(text);
    this.journalBytes = 0;
    this.journalUsable = true;
  }

  /** The base this process loaded or wrote is still the file on disk (as far as its size says). */
  private onDisk(): boolean {
    try {
      return statSync(this.file).size === this.baseBytes;
    } catch {
      return false;
    }
  }
}

function parse<E, O>(line: string): JournalLine<E, O> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? (value as JournalLine<E, O>) : undefined;
  } catch {
    return undefined;
  }
}
