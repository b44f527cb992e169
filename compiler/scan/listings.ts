/**
 * Directory listings kept between fresh walks (`units.json.dirs`, beside the unit cache), so a
 * walk lists only the directories that changed, as git's untracked cache does.
 *
 * Why: on the machines the benches run on a `readdir` costs about five times a `stat` (an open,
 * two reads of entries and a close, each a costly system call: ~28 µs against ~5.5 µs), and a
 * fresh walk of a 20,000-tool tree lists ~20,000 directories: more than half of a run that finds
 * nothing to do.
 *
 * A directory's entries change only with its stamp: creating, removing or renaming an entry
 * moves the directory's mtime and ctime (POSIX), and replacing the directory changes its inode.
 * So the walk stats a recorded directory instead of listing it, and takes the recorded entries
 * (name and kind, as `readdir` gave them, sorted as the walk sorts them) while the stamp (device,
 * inode, mtime, ctime) is the recorded one. The walk's rules (ignored names, convention folders,
 * links and their checks) run on those entries exactly as on a fresh listing; what a recorded
 * entry says is only what `readdir` said. A file's own edits do not move its directory's stamp,
 * and the walk stats every file anyway.
 *
 * A listing is taken again only when its stamp was settled (cache/racy.ts): a directory changed
 * within a clock tick of its stat could change again without its stamp moving, so its line is
 * recorded with a stamp that matches none, and the next walk lists it again. Unreadable
 * directories are never recorded (their diagnostic comes from `readdir`), nor those whose path or
 * entry names hold a tab or a newline (the file is lines).
 *
 * The file is one line per directory the last walk listed, in walk order: its absolute path, its
 * stamp, one kind letter per entry and the entries' names joined by '/', separated by tabs. It is
 * not parsed ahead: the walk asks for its directories in that same order while nothing changed,
 * so each lookup compares the line at a cursor (at 20,000 tools the file is ~3.6 MB, and parsing
 * it as JSON into a map cost ~100 ms, a third of what it saved), passing over the lines of
 * directories removed since. A lookup out of order (a directory added) indexes the lines once.
 * The file is written only when its text changes. Its first line names the format and the release
 * that wrote it, counts the lines and seals their bytes (sha256): a file of another release, cut
 * short, edited or converted (CRLF) is ignored whole, and a line of the wrong shape or whose names
 * are not in the walk's order is not used: damage costs the listings it would have saved, never a
 * wrong list. `ZHIN_GEN_DIR_CACHE=0` turns this off (file systems whose directory times are not
 * kept, such as some network mounts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Dirent } from 'node:fs';
import { isRacy } from '../cache/racy.js';
import { packageVersion } from '../version.js';
import { compareEntries } from './walk.js';
import { writeChunksAtomically } from '../write/output.js';

/** What the walk needs of a directory entry: a `Dirent`, or one the record restored. */
export interface WalkEntry {
  readonly name: string;
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The file's first line: the format and the release that wrote it (a release may walk by other
 * rules), the number of directory lines after it and the seal of those lines' bytes.
 */
const VERSION = `zhin-gen-dirs-3@${packageVersion()}`;
/** Kind codes of the file: directory, file, symbolic link, anything else (a fifo, a socket: never walked). */
const DIR = 'd';
const FILE = 'f';
const LINK = 'l';
const OTHER = 'o';
/** Names are joined by '/', which no file name holds. */
const JOIN = '/';
const TAB = 9;
const NEWLINE = 10;
/** A path or name that would break a line (a tab or a newline): its directory is never recorded. */
const UNSAFE = /[\t\n]/;
/**
 * The stamp recorded for a directory changed within a clock tick of its stat: it matches no stamp,
 * so the next walk lists the directory again, and the line keeps its place in walk order (a
 * directory left out would send the next walk's lookup for it through the whole record).
 */
const RACY = '-';
/** Characters per piece handed to the writer (write/output.ts encodes a piece of up to a third of its megabyte in place). */
const WINDOW = 256 * 1024;
/** Recorded lines the cursor passes over to find a directory (those of directories removed since). */
const SKIP = 64;

class Listed implements WalkEntry {
  constructor(
    readonly name: string,
    private readonly kind: string,
  ) {}
  isDirectory(): boolean {
    return this.kind === DIR;
  }
  isFile(): boolean {
    return this.kind === FILE;
  }
  isSymbolicLink(): boolean {
    return this.kind === LINK;
  }
}

function kindOf(entry: Dirent): string {
  return entry.isSymbolicLink() ? LINK : entry.isDirectory() ? DIR : entry.isFile() ? FILE : OTHER;
}

/**
 * The entries of a recorded line's kinds and names (undefined: not a well-formed line). The walk
 * records them sorted as it sorts a listing (scan/walk.ts `compareEntries`), and takes a list made
 * of them as sorted, so a line whose names are not strictly in that order is not used.
 */
function restore(kinds: string, names: string): WalkEntry[] | undefined {
  if (kinds.length === 0) return names === '' ? [] : undefined;
  const split = names.split(JOIN);
  if (split.length !== kinds.length) return undefined;
  const entries: WalkEntry[] = new Array(split.length);
  for (let i = 0; i < split.length; i++) {
    const kind = kinds[i]!;
    if ((kind !== DIR && kind !== FILE && kind !== LINK && kind !== OTHER) || split[i] === '') return undefined;
    const entry = new Listed(split[i]!, kind);
    if (i > 0 && compareEntries(entries[i - 1]!, entry) >= 0) return undefined;
    entries[i] = entry;
  }
  return entries;
}

/** One directory's line: `path TAB stamp TAB kinds TAB names NEWLINE` (undefined: it cannot be one). */
function lineOf(abs: string, stamp: string, entries: readonly Dirent[]): string | undefined {
  if (UNSAFE.test(abs)) return undefined;
  const names: string[] = [];
  let kinds = '';
  for (const entry of entries) {
    const kind = kindOf(entry);
    if (UNSAFE.test(entry.name)) return undefined;
    names.push(entry.name);
    kinds += kind;
  }
  return `${abs}\t${stamp}\t${kinds}\t${names.join(JOIN)}\n`;
}

/** The seal of the directory lines' bytes (the first 128 bits of their sha256). */
function sealOfBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/** Whether directory listings are kept at all (`ZHIN_GEN_DIR_CACHE=0` turns them off). */
export function listingsEnabled(): boolean {
  return process.env.ZHIN_GEN_DIR_CACHE !== '0';
}

/**
 * The listings of one fresh walk: those recorded by the last one (one text, read line by line in
 * walk order as the walk asks for them, nothing parsed ahead), and the lines this one makes.
 */
export class DirListings {
  /** Directories whose recorded listing this walk took. */
  replayed = 0;
  /** Directories this walk listed with `readdir`. */
  listed = 0;
  /**
   * This walk's lines, in walk order, as pieces of text: recorded lines taken one after the other
   * are one run of the record's text (`runStart`..`runEnd`, cut out only when the run ends), so a
   * walk that replays everything holds no copy of any line.
   */
  private readonly pieces: string[] = [];
  private runStart = 0;
  private runEnd = 0;
  /** How many lines this walk made or took. */
  private lineCount = 0;
  /** Where the next line of the record starts: the walk asks for the directories in recorded order while nothing changed. */
  private cursor: number;
  /** Where each recorded directory's line starts, made on the first lookup out of order. */
  private starts?: Map<string, number>;

  private constructor(
    private readonly file: string | undefined,
    /** The record's text ('' when there is none). */
    private readonly text: string,
    /** Its number of directory lines, as its first line says. */
    private readonly count: number,
    first: number,
  ) {
    this.cursor = first;
  }

  /** The record in `file` (none when it is missing or not a record); `undefined` file: none kept. */
  static load(file: string | undefined): DirListings {
    const none = new DirListings(file, '', 0, 0);
    let bytes: Buffer;
    try {
      if (file === undefined) return none;
      bytes = readFileSync(file);
    } catch {
      return none;
    }
    // `<version> <count> <seal>`: a record of another release, cut short or edited is not read.
    const header = bytes.indexOf(NEWLINE);
    if (header === -1 || header > 200) return none;
    const [version, counted, seal] = bytes.toString('latin1', 0, header).split(' ');
    const count = Number(counted);
    if (version !== VERSION || !Number.isSafeInteger(count) || count < 0) return none;
    if (bytes[bytes.length - 1] !== NEWLINE && bytes.length > header + 1) return none;
    if (seal !== sealOfBytes(bytes.subarray(header + 1))) return none;
    return new DirListings(file, bytes.toString('utf8'), count, header + 1);
  }

  /** Whether the line at `at` is directory `abs`'s. */
  private isLineOf(at: number, abs: string): boolean {
    const text = this.text;
    return at < text.length && text.startsWith(abs, at) && text.charCodeAt(at + abs.length) === TAB;
  }

  /**
   * Where the line of directory `abs` starts in the record, or -1. The walk asks in recorded order,
   * so the line is at the cursor, or a few lines on when directories were removed (their lines are
   * passed over); only a directory found nowhere near (one added, or a walk in another order) has
   * every line's place indexed, once, and looked up (`anywhere`; else -1).
   */
  private find(abs: string, anywhere: boolean): number {
    const text = this.text;
    let at = this.cursor;
    // Once indexed (lookups out of order), only the cursor's line is worth a look before the index.
    const skip = this.starts === undefined ? SKIP : 0;
    for (let probe = 0; probe <= skip && at > 0 && at < text.length; probe++) {
      if (this.isLineOf(at, abs)) return at;
      at = text.indexOf('\n', at) + 1;
    }
    if (!anywhere) return -1;
    if (this.starts === undefined) {
      this.starts = new Map();
      // The next tab at or after the line: searched again only once passed, so lines without one
      // (never written so: the seal holds) cost no search to the end of the text each.
      const first = text.indexOf('\n') + 1;
      let tab = text.indexOf('\t', first);
      for (let line = first; line > 0 && line < text.length; ) {
        const end = text.indexOf('\n', line);
        if (tab !== -1 && tab < line) tab = text.indexOf('\t', line);
        if (tab !== -1 && (end === -1 || tab < end)) {
          const path = text.slice(line, tab);
          if (!this.starts.has(path)) this.starts.set(path, line);
        }
        line = end + 1;
      }
    }
    return this.starts.get(abs) ?? -1;
  }

  /** The recorded entries of `abs`'s line (`start`..`end`) when its stamp is `stamp` (undefined: not usable). */
  private replay(start: number, end: number, abs: string, stamp: string): WalkEntry[] | undefined {
    const text = this.text;
    const stampAt = start + abs.length + 1;
    if (!text.startsWith(stamp, stampAt) || text.charCodeAt(stampAt + stamp.length) !== TAB) return undefined;
    const kindsAt = stampAt + stamp.length + 1;
    const namesAt = text.indexOf('\t', kindsAt) + 1;
    if (namesAt === 0 || namesAt > end) return undefined;
    const entries = restore(text.slice(kindsAt, namesAt - 1), text.slice(namesAt, end));
    if (entries === undefined) return undefined;
    if (start !== this.runEnd) {
      this.endRun();
      this.runStart = start;
    }
    this.runEnd = end + 1;
    this.lineCount++;
    return entries;
  }

  /**
   * The entries of directory `abs`: the recorded ones while its stamp holds, else `read()`'s
   * (a `readdir`, sorted as the walk sorts), to be taken again when its stamp is settled. Throws what
   * `read` throws.
   */
  list(abs: string, read: () => Dirent[]): readonly WalkEntry[] {
    const at = Date.now();
    // undefined: not a directory we could stat (no line: `read` says why).
    let stamp: string | undefined;
    try {
      const s = statSync(abs, { throwIfNoEntry: false });
      if (s?.isDirectory())
        stamp = isRacy(s.mtimeMs, at) || isRacy(s.ctimeMs, at) ? RACY : `${s.dev}:${s.ino}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      stamp = undefined;
    }
    const usable = stamp !== undefined && stamp !== RACY;
    if (this.count > 0) {
      // A racy directory is listed whatever its line says: its line is only passed over.
      const start = this.find(abs, usable);
      const end = start === -1 ? -1 : this.text.indexOf('\n', start);
      if (end !== -1) {
        // Whatever becomes of this directory, the walk asks next for one after it.
        this.cursor = end + 1;
        const entries = usable ? this.replay(start, end, abs, stamp!) : undefined;
        if (entries !== undefined) {
          this.replayed++;
          return entries;
        }
      }
    }
    const entries = read();
    this.listed++;
    const line = stamp === undefined ? undefined : lineOf(abs, stamp, entries);
    if (line !== undefined) {
      this.endRun();
      this.pieces.push(line);
      this.lineCount++;
    }
    return entries;
  }

  /** Ends the current run of recorded lines (keeping its text as one piece). */
  private endRun(): void {
    if (this.runEnd > this.runStart) this.pieces.push(this.text.slice(this.runStart, this.runEnd));
    this.runStart = this.runEnd = 0;
  }

  /** Whether a lookup out of order had every recorded line's place indexed (a directory added). */
  get indexed(): boolean {
    return this.starts !== undefined;
  }

  /** Whether the record on disk differs from what this walk found. */
  get changed(): boolean {
    return this.listed > 0 || this.lineCount !== this.count;
  }

  /** Writes the listings of this walk, when they differ from the record. A failed write only costs speed. */
  save(): void {
    if (this.file === undefined || !this.changed) return;
    this.endRun();
    const seal = createHash('sha256');
    for (const chunk of this.body()) seal.update(chunk);
    const head = `${VERSION} ${this.lineCount} ${seal.digest('hex').slice(0, 32)}\n`;
    // Directories listed again with the same stamp and entries (racy ones, or one never recorded:
    // a name with a tab) leave the same text: nothing to write.
    if (this.unchanged(head)) return;
    try {
      writeChunksAtomically(this.file, this.chunks(head));
    } catch {
      // The cache folder is not writable: the next walk lists every directory, as without a record.
    }
  }

  /** Whether `head` and the pieces are the record's text, compared in place (never joined). */
  private unchanged(head: string): boolean {
    const text = this.text;
    if (!text.startsWith(head)) return false;
    let at = head.length;
    for (const piece of this.pieces) {
      if (!text.startsWith(piece, at)) return false;
      at += piece.length;
    }
    return at === text.length;
  }

  /**
   * The text to write, in windows small enough for the writer's reused buffer: the record's runs
   * are megabytes, and joining them (or encoding one whole) touched as many fresh pages as the
   * record has bytes, twice (35 ms of a run at 20,000 tools).
   */
  private *chunks(head: string): Generator<string> {
    yield head;
    yield* this.body();
  }

  /** The directory lines, in windows (never joined). */
  private *body(): Generator<string> {
    for (const piece of this.pieces) yield* windows(piece, WINDOW);
  }
}

/** `text` in pieces of `size` characters, one longer where a surrogate pair would be cut (its halves would be written as U+FFFD). */
export function* windows(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff && end < text.length) end++;
    yield text.slice(at, end);
    at = end;
  }
}
