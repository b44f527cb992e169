/**
 * Per-unit cache (docs/architecture.md): each capability unit's parse result is keyed by its
 * files' mtime + size, with a content-hash fallback (a touched but unchanged file is a hit). In
 * watch mode file events are trusted instead of stat calls. The cache persists between CLI runs
 * as a JSON file plus a journal of later changes (cache/file.ts), so `generate` with nothing
 * changed neither reads nor parses sources.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UnitResult } from '../parse/units.js';
import type { SchemaOutcome } from '../schema/types.js';
import { sha256 } from '../util/hash.js';
import { LruMap } from '../util/lru.js';
import { CacheFile } from './file.js';
import { isEntry, isOutputRecord } from './entry-shape.js';
import { packageVersion } from '../version.js';

// Bumped when parse results change for the same input (2: too-deep files got located
// diagnostics); every release of zhin-gen has its own cache besides (see version.ts).
const CACHE_VERSION = `zhin-gen-cache-2@${packageVersion()}`;

interface FileStamp {
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
}

/** The last output this cache vouches for: same inputs digest + same file stamp → same bytes. */
export interface OutputRecord {
  readonly digest: string;
  readonly file: string;
  readonly mtimeMs: number;
  readonly size: number;
}

export interface FileReader {
  /** File text (BOM removed) for a POSIX path relative to the root; memoised per run. */
  read(path: string): string | undefined;
  /** sha256 (16 hex) of the raw bytes of a file read in this run. */
  hashOf(path: string): string | undefined;
  /** Why `read` returned undefined. */
  problem(path: string): string | undefined;
  /** mtime and size of a file read in this run, taken from the descriptor it was read through. */
  stampOf(path: string): { mtimeMs: number; size: number } | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function sha(data: string | Buffer): string {
  return sha256(data).slice(0, 16);
}

/**
 * A root-relative POSIX path made absolute. Plain concatenation: `path.join` normalises, which
 * costs more than the stat it is for when every file of a large tree is stamped (Windows
 * accepts forward slashes).
 */
function under(root: string, path: string): string {
  return `${root}/${path}`;
}

/** node_modules/.cache/zhin-gen when the project has node_modules, else a per-root file in the OS temp dir. */
export function defaultCacheFile(root: string): string {
  if (existsSync(join(root, 'node_modules'))) return join(root, 'node_modules', '.cache', 'zhin-gen', 'units.json');
  return join(tmpdir(), 'zhin-gen-cache', `${sha(root)}.json`);
}

/** The schema snippet is only needed until the schema is evaluated; keep the file small. */
function persistable(entry: Entry): Entry {
  const data = entry.result.data;
  return entry.schema && data && data.kind === 'tool' && 'schema' in data
    ? { ...entry, result: { ...entry.result, data: { ...data, schema: undefined } } }
    : entry;
}

export class UnitCache {
  private entries = new Map<string, Entry>();
  private output: OutputRecord | undefined;
  private configKey = '';
  /** What changed since the cache was loaded or last persisted (persisted as journal lines). */
  private readonly changedKeys = new Set<string>();
  private outputChanged = false;
  /** The loaded file had parts dropped as doubtful: rewrite it at the next persist. */
  private damaged = false;
  private readonly disk: CacheFile<Entry, OutputRecord> | undefined;

  constructor(
    private readonly root: string,
    cacheFile: string | false | undefined,
  ) {
    this.disk =
      cacheFile === false
        ? undefined
        : new CacheFile(cacheFile ?? defaultCacheFile(root), CACHE_VERSION, { entry: isEntry, output: isOutputRecord });
  }

  /** Starts over for a (new) configuration; loads the persisted cache when it matches. */
  reset(configKey: string): void {
    this.configKey = configKey;
    this.entries = new Map();
    this.output = undefined;
    this.changedKeys.clear();
    this.outputChanged = false;
    // Missing, corrupt or for another configuration: a cold run rebuilds it. Entries of the
    // wrong shape are dropped on load (cache/entry-shape.ts): those units are parsed again.
    const loaded = this.disk?.load(configKey);
    this.damaged = loaded?.damaged ?? false;
    if (loaded) {
      this.entries = loaded.entries;
      this.output = loaded.output;
    }
  }

  private markChanged(key: string): void {
    this.changedKeys.add(key);
  }

  reader(): FileReader {
    // Bounded: a file is read once by its unit; keeping every text of a 5,000-tool tree alive
    // until the run ends only made each garbage collection copy them again.
    const texts = new LruMap<string, string | undefined>(512);
    const hashes = new Map<string, string>();
    const problems = new Map<string, string>();
    const stamps = new Map<string, { mtimeMs: number; size: number }>();
    const root = this.root;
    return {
      read(path) {
        if (texts.has(path)) return texts.get(path);
        let text: string | undefined;
        let bytes: Buffer | undefined;
        try {
          // The stamp comes from the descriptor the bytes are read through: no second stat per
          // file when the unit is stored, and never a stamp newer than the content.
          const fd = openSync(under(root, path), 'r');
          try {
            const stat = fstatSync(fd);
            bytes = readFileSync(fd);
            stamps.set(path, { mtimeMs: stat.mtimeMs, size: stat.size });
          } finally {
            closeSync(fd);
          }
          hashes.set(path, sha(bytes));
        } catch (error) {
          problems.set(
            path,
            (error as NodeJS.ErrnoException).code === 'ENOENT'
              ? 'it does not exist'
              : `it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          );
        }
        if (bytes) {
          try {
            // Invalid UTF-8 would otherwise turn into U+FFFD inside the manifest.
            text = utf8.decode(bytes).replace(/^\uFEFF/, '');
          } catch {
            problems.set(path, 'it is not valid UTF-8 text');
          }
        }
        texts.set(path, text);
        return text;
      },
      problem(path) {
        return problems.get(path);
      },
      hashOf(path) {
        if (!hashes.has(path)) this.read(path);
        return hashes.get(path);
      },
      stampOf(path) {
        if (!hashes.has(path)) this.read(path);
        return stamps.get(path);
      },
    };
  }

  private stat(path: string): { mtimeMs: number; size: number } | undefined {
    try {
      const s = statSync(under(this.root, path));
      return { mtimeMs: s.mtimeMs, size: s.size };
    } catch {
      return undefined;
    }
  }

  /** The stamped files of an entry, listed once per entry (watch mode asks every run). */
  private readonly stampedFiles = new WeakMap<Entry, readonly string[]>();
  private filesOf(entry: Entry): readonly string[] {
    let files = this.stampedFiles.get(entry);
    if (!files) {
      files = Object.keys(entry.stamps);
      this.stampedFiles.set(entry, files);
    }
    return files;
  }

  /** A cached result still valid for these files, or undefined. */
  lookup(key: string, files: readonly string[], dirty: ReadonlySet<string> | undefined): UnitResult | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.files !== files) {
      if (entry.files.length !== files.length || entry.files.some((f, i) => f !== files[i])) return undefined;
      // Watch mode passes the same (memoised) list on every run: compare identities from now on.
      entry.files = files;
    }
    if (dirty) {
      // Watch mode: events are trusted; no array per unit per run.
      for (const file of this.filesOf(entry)) if (dirty.has(file)) return undefined;
      return entry.result;
    }
    for (const file of this.filesOf(entry)) {
      const stamp = entry.stamps[file]!;
      const now = this.stat(file);
      if (!now) return undefined;
      if (now.mtimeMs === stamp.mtimeMs && now.size === stamp.size) continue;
      if (now.size !== stamp.size) return undefined;
      // Same size, new mtime (checkout, touch): compare content before re-parsing.
      let hash: string;
      try {
        hash = sha(readFileSync(under(this.root, file)));
      } catch {
        return undefined;
      }
      if (hash !== stamp.hash) return undefined;
      entry.stamps[file] = { ...stamp, mtimeMs: now.mtimeMs };
      this.markChanged(key);
    }
    return entry.result;
  }

  store(key: string, files: readonly string[], result: UnitResult, reader: FileReader): void {
    const stamps: Record<string, FileStamp> = {};
    for (const file of [...files, ...result.dependencies]) {
      const hash = reader.hashOf(file);
      const now = reader.stampOf(file) ?? this.stat(file);
      if (now && hash) stamps[file] = { ...now, hash };
    }
    const hash = sha(files.map((f) => `${f}\0${stamps[f]?.hash ?? ''}`).join('\n'));
    this.entries.set(key, { files, stamps, hash, result });
    this.markChanged(key);
  }

  hashOf(key: string): string {
    return this.entries.get(key)?.hash ?? '';
  }

  /** Content of everything the unit's result depends on (its files and its dependencies). */
  contentOf(key: string): string {
    const entry = this.entries.get(key);
    if (!entry) return '';
    return Object.keys(entry.stamps)
      .sort()
      .map((file) => `${file}:${entry.stamps[file]!.hash}`)
      .join('|');
  }

  schemaOf(key: string): SchemaOutcome | undefined {
    return this.entries.get(key)?.schema;
  }

  setSchema(key: string, outcome: SchemaOutcome, extraFiles: readonly string[], reader: FileReader): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.schema = outcome;
    // Files a bundled schema read become dependencies of the unit.
    for (const file of extraFiles) {
      if (entry.stamps[file]) continue;
      const hash = reader.hashOf(file);
      const now = reader.stampOf(file) ?? this.stat(file);
      if (now && hash) entry.stamps[file] = { ...now, hash };
    }
    this.stampedFiles.delete(entry);
    this.markChanged(key);
  }

  /**
   * Whether the output file on disk is the one this cache wrote (or verified) for the same inputs
   * digest and still carries that stamp: then emitting again would give the same bytes.
   */
  vouchedOutput(digest: string, file: string): boolean {
    const record = this.output;
    if (!record || record.digest !== digest || record.file !== file) return false;
    const now = this.statAbs(file);
    return now !== undefined && now.mtimeMs === record.mtimeMs && now.size === record.size;
  }

  recordOutput(digest: string, file: string): void {
    const now = this.statAbs(file);
    if (!now) return;
    if (
      this.output &&
      this.output.digest === digest &&
      this.output.mtimeMs === now.mtimeMs &&
      this.output.size === now.size
    )
      return;
    this.output = { digest, file, ...now };
    this.outputChanged = true;
  }

  private statAbs(file: string): { mtimeMs: number; size: number } | undefined {
    try {
      const s = statSync(file);
      return { mtimeMs: s.mtimeMs, size: s.size };
    } catch {
      return undefined;
    }
  }

  persist(): void {
    if (!this.disk || (this.changedKeys.size === 0 && !this.outputChanged && !this.damaged)) return;
    const changed = [...this.changedKeys].map((key) => [key, persistable(this.entries.get(key)!)] as const);
    const output = this.outputChanged ? this.output : undefined;
    this.changedKeys.clear();
    this.outputChanged = false;
    this.damaged = false;
    try {
      this.disk.save(
        this.configKey,
        () => ({
          entries: new Map([...this.entries].map(([key, entry]) => [key, persistable(entry)])),
          output: this.output,
        }),
        changed,
        output,
      );
    } catch {
      // A read-only node_modules only costs speed.
    }
  }
}
