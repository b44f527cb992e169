/**
 * The last walk's directory listings (`units.json.dirs`, beside the unit cache), so a fresh walk
 * reads a directory only when it changed: one stat per directory instead of a readdir, a `Dirent`
 * per entry and a sort. Adding, removing or renaming an entry moves its directory's mtime on
 * every local file system (a file's own edit does not, which is why every file is still stat'ed
 * by the tree check, cache/tree-check.ts). A listing is reused only when its directory has the
 * recorded mtime and inode, and is recorded only when that mtime is older than a timestamp tick
 * when the directory was read (cache/racy.ts): a change within the same tick could keep the mtime.
 *
 * Entries are recorded raw (every name with its type) and go through the walk's own rules on
 * reuse, so ignore rules, convention folders and symbolic links (re-resolved on every walk) behave
 * exactly as on a fresh read. A record of another version, of any wrong shape or unreadable is
 * ignored whole: the walk reads every directory, as without one.
 */
import { readFileSync } from 'node:fs';
import { isRacy } from '../cache/racy.js';
import { packageVersion } from '../version.js';
import { writeAtomically } from '../write/output.js';

/** One directory entry: its name and what readdir said it is. */
export interface ListedEntry {
  readonly name: string;
  readonly type: 'file' | 'dir' | 'link' | 'other';
}

interface Listing {
  readonly mtimeMs: number;
  readonly ino: number;
  readonly entries: readonly ListedEntry[];
}

const VERSION = `zhin-gen-dirs-1@${packageVersion()}`;
const TYPES = { f: 'file', d: 'dir', l: 'link', o: 'other' } as const;
const CODES = { file: 'f', dir: 'd', link: 'l', other: 'o' } as const;

/** Directories whose mtime moved with the same entries are written back once there are this many. */
const MOVED_REWRITE = 16;

export class DirListings {
  private loaded: Map<string, Listing> | undefined;
  private readonly next = new Map<string, Listing>();
  /** Listings read again this walk whose entries differ from (or are missing in) the record. */
  private changed = 0;
  /** Listings read again with the recorded entries (only the mtime moved). */
  private moved = 0;
  /** Directories the record holds that this walk never asked for. */
  private asked = 0;

  constructor(readonly file: string | undefined) {}

  private record(): Map<string, Listing> {
    if (this.loaded) return this.loaded;
    this.loaded = new Map();
    if (this.file === undefined) return this.loaded;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.file, 'utf8'));
    } catch {
      return this.loaded;
    }
    const dirs = shapeOf(raw);
    if (dirs) this.loaded = dirs;
    return this.loaded;
  }

  /** The recorded entries of this directory when it still has the recorded mtime and inode. */
  reuse(abs: string, mtimeMs: number, ino: number): readonly ListedEntry[] | undefined {
    const listing = this.record().get(abs);
    if (listing === undefined || listing.mtimeMs !== mtimeMs || listing.ino !== ino) return undefined;
    this.asked++;
    this.next.set(abs, listing);
    return listing.entries;
  }

  /** A directory read now (its mtime and inode taken before the read, at `at`). */
  listed(abs: string, mtimeMs: number, ino: number, at: number, entries: readonly ListedEntry[]): void {
    const before = this.record().get(abs);
    if (before !== undefined) this.asked++;
    if (before !== undefined && sameEntries(before.entries, entries)) this.moved++;
    else this.changed++;
    // A racy mtime is not recorded: the next walk reads the directory again.
    if (!isRacy(mtimeMs, at)) this.next.set(abs, { mtimeMs, ino, entries });
  }

  /** Writes what this walk listed, when it differs enough from the record to be worth a write. */
  save(): void {
    if (this.file === undefined) return;
    const dropped = this.record().size > this.asked;
    if (this.changed === 0 && this.moved < MOVED_REWRITE && !dropped) return;
    const dirs: Record<string, [number, number, string]> = {};
    for (const [abs, listing] of this.next)
      dirs[abs] = [listing.mtimeMs, listing.ino, listing.entries.map((e) => `${CODES[e.type]}${e.name}`).join('/')];
    try {
      writeAtomically(this.file, JSON.stringify({ version: VERSION, dirs }));
    } catch {
      // A read-only cache folder only costs speed.
    }
  }
}

function sameEntries(a: readonly ListedEntry[], b: readonly ListedEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.name !== b[i]!.name || a[i]!.type !== b[i]!.type) return false;
  return true;
}

/** The record's directories, or undefined when any part of it is not of this version's shape. */
function shapeOf(raw: unknown): Map<string, Listing> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { version, dirs } = raw as Record<string, unknown>;
  if (version !== VERSION || typeof dirs !== 'object' || dirs === null || Array.isArray(dirs)) return undefined;
  const out = new Map<string, Listing>();
  for (const [abs, value] of Object.entries(dirs as Record<string, unknown>)) {
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [mtimeMs, ino, text] = value as unknown[];
    if (typeof mtimeMs !== 'number' || typeof ino !== 'number' || typeof text !== 'string') return undefined;
    const entries: ListedEntry[] = [];
    // Names never hold '/'; an empty directory is the empty string.
    for (const item of text === '' ? [] : text.split('/')) {
      const type = TYPES[item[0] as keyof typeof TYPES];
      if (type === undefined || item.length < 2) return undefined;
      entries.push({ name: item.slice(1), type });
    }
    out.set(abs, { mtimeMs, ino, entries });
  }
  return out;
}
