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
 *
 * Everything read is checked against declared shapes (json-shape.ts, cache/entry-shape.ts) before it is
 * used: a base that is not a base of this version and configuration is dropped whole; an entry
 * or output record of the wrong shape, in the base or in a journal line, is dropped alone (its
 * unit is parsed again), as is a journal line of no known shape. A damaged journal entry drops
 * its key altogether, the base's older entry included: that one would still be safe (stamps and
 * hashes are checked on use), but a file that lost one write is not worth reasoning about. After
 * any of this the next save writes a fresh base, even when nothing else changed.
 */
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { compile, jsonObject, object, optional, present, string, type Check } from './json-shape.js';
import { writeChunksAtomically } from '../write/output.js';
import { stringifyAscii } from '../util/ascii-json.js';

interface Base<E, O> {
  readonly version: string;
  readonly configKey: string;
  readonly id?: string;
  readonly entries: Record<string, E>;
  readonly output?: O;
}

type JournalLine<E, O> = { readonly base: string } | { readonly k: string; readonly e: E } | { readonly o: O };

/** The base's frame; entries and the output record are checked with the caller's shapes. */
const BASE = compile(
  object({ version: string, configKey: string, id: optional(string), entries: jsonObject, output: optional(present) }),
);
const HEADER = compile(object({ base: string }));
const FRAME = compile(object({ version: string, configKey: string, id: optional(string) }));
/** Where the base's frame ends and its entries begin. */
const ENTRIES_MARK = ',"entries":{';
/** No output line in the journal. */
const NO_OUTPUT = Symbol('no output line');

/** An entry's value in the base: byte offset and length. */
export type EntryRange = readonly [start: number, length: number];

/** A base opened for reading some of its entries (`CacheFile.open`). */
export interface OpenedBase<E> {
  /** The journal's entries, which replace the base's. */
  readonly journal: ReadonlyMap<string, E>;
  /** The entry at this range of the base, undefined when it is not one (or the base was replaced). */
  entryAt(range: EntryRange): E | undefined;
  /** Closes the descriptor the reads went through (the next read opens it again). */
  close(): void;
}
const ENTRY_LINE = compile(object({ k: string, e: present }));
const OUTPUT_LINE = compile(object({ o: present }));

export interface CacheShapes<E, O> {
  readonly entry: Check<E>;
  readonly output: Check<O>;
}

export interface CacheContents<E, O> {
  readonly entries: Map<string, E>;
  readonly output: O | undefined;
}

/** What a new base is written from: the entries in the order they are written. */
export interface BaseContents<E, O> {
  readonly entries: Iterable<readonly [string, E]>;
  readonly output: O | undefined;
}

export interface LoadedCache<E, O> extends CacheContents<E, O> {
  /** Something was dropped as doubtful: the file should be rewritten even if nothing changes. */
  readonly damaged: boolean;
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
    private readonly shapes: CacheShapes<E, O>,
  ) {
    this.journal = `${file}.journal`;
  }

  /** The persisted contents for this configuration, or undefined (missing, corrupt, other config). */
  load(configKey: string): LoadedCache<E, O> | undefined {
    this.baseId = undefined;
    let base: unknown;
    let size: number;
    try {
      const bytes = readFileSync(this.file);
      size = bytes.length;
      base = JSON.parse(bytes.toString('utf8'));
    } catch {
      return undefined;
    }
    if (!BASE(base) || base.version !== this.version || base.configKey !== configKey) return undefined;
    const { entry: isEntry, output: isOutput } = this.shapes;
    let damaged = false;
    const entries = new Map<string, E>();
    for (const key in base.entries) {
      const value = base.entries[key];
      if (isEntry(value)) entries.set(key, value);
      else damaged = true;
    }
    let output: O | undefined;
    if (base.output !== undefined) {
      if (isOutput(base.output)) output = base.output;
      else damaged = true;
    }
    this.baseId = base.id;
    this.baseBytes = size;
    this.journalBytes = 0;
    this.journalUsable = true;
    if (base.id !== undefined) {
      const journal = this.readJournal(base.id, entries);
      if (journal.damaged) damaged = true;
      if (journal.output !== NO_OUTPUT) output = journal.output as O | undefined;
    }
    // The next save writes a new base, without what was dropped.
    if (damaged) this.journalUsable = false;
    return { entries, output, damaged };
  }

  /**
   * Applies the journal of the base `id` to `entries` (this process's state follows it): the
   * output record its last output line sets (NO_OUTPUT: none), and whether anything was dropped.
   */
  private readJournal(
    id: string,
    entries: Map<string, E>,
  ): { damaged: boolean; output: O | undefined | typeof NO_OUTPUT } {
    const { entry: isEntry, output: isOutput } = this.shapes;
    let damaged = false;
    let output: O | undefined | typeof NO_OUTPUT = NO_OUTPUT;
    let bytes: Buffer | undefined;
    try {
      bytes = readFileSync(this.journal);
    } catch {
      bytes = undefined;
    }
    if (bytes === undefined) return { damaged, output };
    const lines = bytes.toString('utf8').split('\n');
    const header = parse(lines[0]!);
    if (!(HEADER(header) && header.base === id)) {
      this.journalUsable = false;
      return { damaged, output };
    }
    this.journalBytes = bytes.length;
    for (const line of lines.slice(1)) {
      if (line === '') continue;
      const change = parse(line);
      if (change === undefined) {
        // Lines after this one would never be read either: start over at the next save.
        this.journalUsable = false;
        break;
      }
      if (ENTRY_LINE(change)) {
        if (isEntry(change.e)) entries.set(change.k, change.e);
        else {
          entries.delete(change.k);
          damaged = true;
        }
      } else if (OUTPUT_LINE(change) && isOutput(change.o)) output = change.o;
      else if (OUTPUT_LINE(change)) {
        output = undefined;
        damaged = true;
      } else damaged = true;
    }
    return { damaged, output };
  }

  /**
   * The base on disk opened without parsing its entries, for a run that reads only some of them
   * by the byte ranges the index recorded when the base was written (`save`): the journal's
   * entries (parsed whole: it is at most a quarter of the base) and a reader of one entry. This
   * process's state follows the base as `load` would leave it, so `save` appends to its journal.
   * Undefined when the base is not one of this version and configuration, or anything of the
   * journal is doubtful: the caller loads everything instead.
   */
  open(configKey: string): OpenedBase<E> | undefined {
    this.baseId = undefined;
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return undefined;
    }
    try {
      const stat = fstatSync(fd);
      // The frame is everything before the entries (JSON.stringify puts them after version,
      // configKey and id; a quote inside a string is escaped, so the marker is the frame's end).
      const head = Buffer.alloc(Math.min(stat.size, 1 << 16));
      const read = readSync(fd, head, 0, head.length, 0);
      const at = head.subarray(0, read).indexOf(ENTRIES_MARK);
      if (at < 0) return undefined;
      const frame = parse(`${head.toString('utf8', 0, at)}}`);
      if (!FRAME(frame) || frame.version !== this.version || frame.configKey !== configKey || frame.id === undefined)
        return undefined;
      this.baseBytes = stat.size;
      this.journalBytes = 0;
      this.journalUsable = true;
      const journal = new Map<string, E>();
      const applied = this.readJournal(frame.id, journal);
      if (applied.damaged || !this.journalUsable) return undefined;
      this.baseId = frame.id;
      const { ino, size, mtimeMs } = stat;
      const isEntry = this.shapes.entry;
      const file = this.file;
      // One descriptor for the reads of a run, opened at the first (`close` after the run): the
      // file it names must still be the base these ranges are of.
      let reading: number | undefined;
      const descriptor = (): number | undefined => {
        if (reading !== undefined) return reading;
        const opened = openSync(file, 'r');
        const now = fstatSync(opened);
        if (now.ino !== ino || now.size !== size || now.mtimeMs !== mtimeMs) {
          closeSync(opened);
          return undefined;
        }
        reading = opened;
        return reading;
      };
      return {
        journal,
        entryAt(range) {
          const [start, length] = range;
          const fd = descriptor();
          if (fd === undefined) return undefined;
          const bytes = Buffer.alloc(length);
          if (readSync(fd, bytes, 0, length, start) !== length) return undefined;
          const value = parse(bytes.toString('utf8'));
          return isEntry(value) ? value : undefined;
        },
        close() {
          if (reading !== undefined) closeSync(reading);
          reading = undefined;
        },
      };
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Persists: the changed entries (and output record) as journal lines when a base of this
   * process's knowledge is on disk and the journal is still small, else everything as a new base,
   * whose entries' byte ranges it returns.
   */
  save(
    configKey: string,
    all: () => BaseContents<E, O>,
    /** Called only when a journal takes the changes (a cold run writes a base: no second copy of every entry). */
    changed: () => readonly (readonly [string, E])[],
    output: O | undefined,
    /** A new base even when the journal could take the changes (its ranges are wanted). */
    whole = false,
  ): ReadonlyMap<string, EntryRange> | undefined {
    // The journal lines are serialised only when a journal can take them: a cold run changes
    // every entry and writes a base, and serialising each entry twice cost a second full pass.
    if (!whole && this.baseId !== undefined && this.journalUsable && this.onDisk()) {
      const lines = changed().map(([k, e]) => stringifyAscii({ k, e } satisfies JournalLine<E, O>));
      if (output !== undefined) lines.push(stringifyAscii({ o: output } satisfies JournalLine<E, O>));
      const delta = lines.length > 0 ? `${lines.join('\n')}\n` : '';
      if (this.journalBytes + Buffer.byteLength(delta) <= this.baseBytes * JOURNAL_SHARE) {
        if (this.journalBytes === 0) {
          // A new journal: created (or truncated) with its header, never appended to a stray file.
          const text = `${stringifyAscii({ base: this.baseId } satisfies JournalLine<E, O>)}\n${delta}`;
          writeFileSync(this.journal, text);
          this.journalBytes = Buffer.byteLength(text);
        } else {
          appendFileSync(this.journal, delta);
          this.journalBytes += Buffer.byteLength(delta);
        }
        return undefined;
      }
    }
    const contents = all();
    const id = randomBytes(8).toString('hex');
    const ranges = new Map<string, EntryRange>();
    const bytes = writeChunksAtomically(
      this.file,
      baseChunks({ version: this.version, configKey, id }, contents, ranges),
    );
    rmSync(this.journal, { force: true });
    this.baseId = id;
    this.baseBytes = bytes;
    this.journalBytes = 0;
    this.journalUsable = true;
    return ranges;
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

/**
 * `JSON.stringify` of the base (same key order: frame, entries, output), entry by entry: at
 * 20,000 tools the base is ~50 MB, and one string of it (or one buffer, plus its chunks) held
 * that much again at the run's peak; the writer encodes a megabyte of chunks at a time.
 */
function* baseChunks<E, O>(
  frame: Omit<Base<E, O>, 'entries' | 'output'>,
  contents: BaseContents<E, O>,
  ranges: Map<string, EntryRange>,
): Generator<string> {
  const head = stringifyAscii(frame);
  const open = `${head.slice(0, -1)}${ENTRIES_MARK}`;
  yield open;
  // Byte offsets of each entry's value, for `open`'s reader (the index keeps them). Every text
  // here is ASCII (util/ascii-json.ts), so its length is its size in bytes.
  let at = open.length;
  let first = true;
  for (const [key, entry] of contents.entries) {
    // `undefined` is left out of an object by JSON.stringify; an entry is never undefined.
    const value = stringifyAscii(entry);
    if (value === undefined) continue;
    const name = `${first ? '' : ','}${stringifyAscii(key)}:`;
    const nameBytes = name.length;
    const valueBytes = value.length;
    ranges.set(key, [at + nameBytes, valueBytes]);
    at += nameBytes + valueBytes;
    yield `${name}${value}`;
    first = false;
  }
  const output = contents.output === undefined ? undefined : stringifyAscii(contents.output);
  yield output === undefined ? '}}' : `},"output":${output}}`;
}

/** A JSON line, or undefined when it does not parse (a write cut short). */
function parse(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
