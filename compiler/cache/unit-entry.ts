/**
 * One unit-cache entry and the output record as the cache holds them (cache/units.ts), with the
 * small pure helpers around them: where the cache lives, what of an entry is persisted, and the
 * content string the inputs digest reads of an indexed unit.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UnitResult } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import { sha256 } from '../util/hash.js';
import type { IndexedUnit } from './index-file.js';
import type { FileReader } from './reader.js';

export interface FileStamp {
  readonly mtimeMs: number;
  readonly size: number;
  readonly hash: string;
}

export interface Entry {
  /** Replaced by the caller's equal array on lookup, so later runs compare one identity. */
  files: readonly string[];
  readonly stamps: Record<string, FileStamp>;
  readonly hash: string;
  result: UnitResult;
  schema?: SchemaOutcome;
  /**
   * Digests of `result` and `schema` as JSON, taken when each is set and kept with the entry: a
   * fresh process fingerprints a tool's generated text from them (`UnitCache.modelPrint`)
   * instead of serialising every tool again.
   */
  resultPrint?: string;
  schemaPrint?: string;
}

/** The last output this cache vouches for: same inputs digest + same file stamp → same bytes. */
export interface OutputRecord {
  readonly digest: string;
  readonly file: string;
  readonly mtimeMs: number;
  readonly size: number;
}

export function sha(data: string | Buffer): string {
  return sha256(data).slice(0, 16);
}

/**
 * A root-relative POSIX path made absolute. Plain concatenation: `path.join` normalises, which
 * costs more than the stat it is for when every file of a large tree is stamped (Windows
 * accepts forward slashes).
 */
export function under(root: string, path: string): string {
  return `${root}/${path}`;
}

/** node_modules/.cache/zhin-gen when the project has node_modules, else a per-root file in the OS temp dir. */
export function defaultCacheFile(root: string): string {
  if (existsSync(join(root, 'node_modules'))) return join(root, 'node_modules', '.cache', 'zhin-gen', 'units.json');
  return join(tmpdir(), 'zhin-gen-cache', `${sha(root)}.json`);
}

/** The schema snippet is only needed until the schema is evaluated; keep the file small. */
export function persistable(entry: Entry): Entry {
  const data = entry.result.data;
  return entry.schema && data && data.kind === 'tool' && 'schema' in data
    ? { ...entry, result: { ...entry.result, data: { ...data, schema: undefined } } }
    : entry;
}

/** The entries as persisted, one at a time (no second map of every entry at a cold run's peak). */
export function* persistableEntries(entries: ReadonlyMap<string, Entry>): Iterable<readonly [string, Entry]> {
  for (const [key, entry] of entries) yield [key, persistable(entry)];
}

/**
 * Stamps files the unit now depends on into `stamps` (mtime and size as the reader read them, or
 * a stat, and the content hash); files stamped already, or unreadable, are left as they are.
 */
export function addStamps(
  stamps: Record<string, FileStamp>,
  files: readonly string[],
  reader: FileReader,
  stat: (file: string) => { readonly mtimeMs: number; readonly size: number } | undefined,
): void {
  for (const file of files) {
    if (stamps[file]) continue;
    const hash = reader.hashOf(file);
    const now = reader.stampOf(file) ?? stat(file);
    if (now && hash) stamps[file] = { ...now, hash };
  }
}

/** Content of everything an entry's result depends on: its stamped files with their hashes, sorted. */
export function entryContent(entry: Entry | undefined): string {
  if (!entry) return '';
  return Object.keys(entry.stamps)
    .sort()
    .map((file) => `${file}:${entry.stamps[file]!.hash}`)
    .join('|');
}

/** `contentOf` for an indexed unit: the same text as for its entry. */
export function indexedContent(unit: IndexedUnit | undefined): string {
  if (!unit) return '';
  const hashes = new Map<string, string>();
  for (let i = 0; i < unit.stamps.length; i += 4) hashes.set(unit.stamps[i] as string, unit.stamps[i + 3] as string);
  return [...hashes.keys()]
    .sort()
    .map((file) => `${file}:${hashes.get(file)}`)
    .join('|');
}

export function sameRecord(a: OutputRecord | undefined, b: OutputRecord | undefined): boolean {
  return (
    a === b ||
    (a !== undefined &&
      b !== undefined &&
      a.digest === b.digest &&
      a.file === b.file &&
      a.mtimeMs === b.mtimeMs &&
      a.size === b.size)
  );
}
