/**
 * The file reader of one run: each file read once through one descriptor, which also gives its
 * stamp (mtime, size, inode) and the hash of its bytes for the unit cache (cache/units.ts).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { LruMap } from '../util/lru.js';
import { settledTime } from './racy.js';
import { contentHash, type FileStat, UNKNOWN_CONTENT } from './flat-stamps.js';
import { fileStat } from '../util/file-stat.js';

export interface FileReader {
  /** File text (BOM removed) for a POSIX path relative to the root; memoised per run. */
  read(path: string): string | undefined;
  /** sha256 (16 hex) of the raw bytes of a file read in this run. */
  hashOf(path: string): string | undefined;
  /** Why `read` returned undefined. */
  problem(path: string): string | undefined;
  /** Whether `read` found no file at the path (it, or a directory on the way, does not exist). */
  missing(path: string): boolean;
  /** mtime, size and inode of a file read in this run, taken from the descriptor it was read through. */
  stampOf(path: string): FileStat | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes of an open file whose size a stat just gave: what `readFileSync(fd)` reads (up to
 * that size, or to the end when the size is 0), without its own second stat of the descriptor.
 * A cold run at 5,000 tools made 37,000 `statx` calls, 12,000 of them that second stat.
 */
function readOpen(fd: number, size: number): Buffer {
  if (size > 0) {
    const buffer = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, buffer, at, size - at, null);
      if (n === 0) break;
      at += n;
    }
    return at === size ? buffer : buffer.subarray(0, at);
  }
  // A size of 0 may be a file the kernel sizes only by reading it: read to the end.
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return Buffer.concat(chunks);
}

export function createReader(root: string): FileReader {
  // Bounded: a file is read once by its unit; keeping every text of a 5,000-tool tree alive
  // until the run ends only made each garbage collection copy them again. Small: a text kept
  // longer than a few units is promoted and dies in the old generation (schema/extract.ts
  // `createSchemaModuleCache`).
  const texts = new LruMap<string, string | undefined>(32);
  const hashes = new Map<string, string>();
  const problems = new Map<string, string>();
  const missing = new Set<string>();
  const stamps = new Map<string, FileStat>();
  // Files read more than once in this run (the bounded text memo let them go) that were not the
  // same each time: units stored after both reads (the pool stores the main thread's results
  // once every unit is parsed) cannot tell which bytes theirs were made from.
  const unstable = new Set<string>();
  const outcomeOf = (path: string): string | undefined =>
    hashes.get(path) ?? (missing.has(path) ? 'missing' : problems.has(path) ? 'problem' : undefined);
  return {
    read(path) {
      if (texts.has(path)) return texts.get(path);
      const before = outcomeOf(path);
      hashes.delete(path);
      missing.delete(path);
      problems.delete(path);
      let text: string | undefined;
      let bytes: Buffer | undefined;
      try {
        // The stamp comes from the descriptor the bytes are read through: no second stat per
        // file when the unit is stored, and never a stamp newer than the content.
        // Plain concatenation (see cache/units.ts `under`).
        const fd = openSync(`${root}/${path}`, 'r');
        try {
          const readAt = Date.now();
          const stat = fstatSync(fd);
          bytes = readOpen(fd, stat.size);
          // A file written within a timestamp tick of this read can be written again with the
          // same size and time: its stamp vouches for nothing (the next run compares its hash).
          const now = fileStat(stat);
          stamps.set(path, { ...now, changedMs: settledTime(now.changedMs, readAt) });
        } finally {
          closeSync(fd);
        }
        hashes.set(path, contentHash(bytes));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') missing.add(path);
        problems.set(
          path,
          code === 'ENOENT'
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
      if (before !== undefined && before !== outcomeOf(path)) unstable.add(path);
      texts.set(path, text);
      return text;
    },
    problem(path) {
      return problems.get(path);
    },
    missing(path) {
      if (!hashes.has(path) && !problems.has(path)) this.read(path);
      return missing.has(path);
    },
    hashOf(path) {
      if (!hashes.has(path)) this.read(path);
      return unstable.has(path) ? UNKNOWN_CONTENT : hashes.get(path);
    },
    stampOf(path) {
      if (!hashes.has(path)) this.read(path);
      const stamp = stamps.get(path);
      if (!unstable.has(path)) return stamp;
      // Not ABSENT (a negative size): a file missing at the next run must count as changed too.
      return { changedMs: -1, size: stamp?.size ?? 0, ino: -1 };
    },
  };
}
