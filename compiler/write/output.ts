/**
 * Write discipline (docs/architecture.md): write only when the bytes differ, and atomically (temp file in the
 * same directory + rename), so a reader — a bundler, tsc, a running bot — never sees a
 * half-written manifest.
 */
import {
  close,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { type FileStat, fileStat, placedStat, sameFile, statNow } from '../util/file-stat.js';
import { tempPath } from './temp-files.js';

export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The rename that makes a write atomic. The replaced file's blocks are freed when its last
 * descriptor closes, inside rename() otherwise: holding one across the rename and closing it in
 * the background takes that (~4 ms for a 7 MB manifest) off the edit → manifest path. Windows
 * cannot rename over an open file, so there it is a plain rename.
 */
function replaceWith(temp: string, file: string): void {
  let held: number | undefined;
  if (process.platform !== 'win32') {
    try {
      held = openSync(file, 'r');
    } catch {
      held = undefined;
    }
  }
  try {
    renameSync(temp, file);
  } finally {
    if (held !== undefined) close(held, () => undefined);
  }
}

/**
 * Writes a file atomically, without comparing: for the unit cache, which is only written when it
 * changed (comparing meant reading megabytes back first).
 */
export function writeAtomically(file: string, content: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  viaTemp(file, content, replaceWith);
}

/** The bytes of one write of writeChunksAtomically: its one buffer, reused for every batch. */
const CHUNK_BATCH = 1 << 20;

function writeBytes(fd: number, bytes: Uint8Array, length = bytes.length): void {
  for (let done = 0; done < length; ) done += writeSync(fd, bytes, done, length - done);
}

/**
 * Writes a file atomically from string chunks, encoded into one reused megabyte buffer and
 * written as it fills, never joined: the unit cache's bodies are ~40 MB at 20,000 tools, and
 * their bytes in one buffer (with the chunks it was joined from) were the cold run's peak RSS.
 * Joining each megabyte first made a string too big for the young generation and a fresh
 * buffer per batch, 40 of each left for the next full collection. Returns the bytes written.
 */
export function writeChunksAtomically(file: string, chunks: Iterable<string>): number {
  mkdirSync(dirname(file), { recursive: true });
  const temp = tempPath(file);
  let bytes = 0;
  try {
    const fd = openSync(temp, 'w');
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BATCH);
      let used = 0;
      const flush = (): void => {
        writeBytes(fd, buffer, used);
        bytes += used;
        used = 0;
      };
      for (const chunk of chunks) {
        // UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 for 2), so a
        // chunk that passes this check is never cut inside a character.
        if (chunk.length * 3 > CHUNK_BATCH - used) {
          flush();
          if (chunk.length * 3 > CHUNK_BATCH) {
            const large = Buffer.from(chunk);
            writeBytes(fd, large);
            bytes += large.length;
            continue;
          }
        }
        used += buffer.write(chunk, used);
      }
      flush();
    } finally {
      closeSync(fd);
    }
    replaceWith(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return bytes;
}

/**
 * A file under a name nothing has yet, in a directory that exists (the generated validator
 * modules, thousands on a cold run): temp file + rename, so a reader never sees half of it,
 * without the directory check and the held descriptor a replacement needs.
 */
export function writeNewAtomically(file: string, content: string): FileStat {
  const temp = tempPath(file);
  try {
    const fd = openSync(temp, 'w');
    let stamp: FileStat;
    try {
      writeBytes(fd, Buffer.from(content));
      // The stamp of the bytes written, from this descriptor, taken again after the rename only
      // while the path is still this file: a plain stat after it could find another process's
      // file there (a concurrent `generate`) and vouch for it.
      stamp = fileStat(fstatSync(fd));
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    return placedStat(file, stamp);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function viaTemp(file: string, content: string | Uint8Array, place: (temp: string, file: string) => void): void {
  const temp = tempPath(file);
  try {
    writeFileSync(temp, content);
    place(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Parts of a generated file (emit/manifest.ts) and a digest of their content. */
export interface OutputParts {
  readonly parts: readonly string[];
  readonly digest: string;
}

/** Parts at least this long keep their encoded bytes between writes (the per-tool lines). */
const KEEP_BYTES = 256;
/**
 * What a writer last wrote per file: digest, the file's stamp then, and the parts with their
 * bytes, by position (between edits most parts are the very same strings at the same index).
 * The compiler owns one (it dies with the compiler); without it every write compares bytes.
 */
export type WrittenParts = Map<
  string,
  FileStat & { digest: string; parts: readonly string[]; buffers: readonly Buffer[] }
>;

function sameBytes(disk: Buffer, buffers: readonly Buffer[]): boolean {
  let offset = 0;
  for (const buffer of buffers) {
    if (offset + buffer.length > disk.length || !buffer.equals(disk.subarray(offset, offset + buffer.length)))
      return false;
    offset += buffer.length;
  }
  return offset === disk.length;
}

/**
 * Whether `file` still holds what this process last wrote or compared there: by its stamp, else
 * by its bytes (someone wrote the same bytes again: its stamp is then taken as the known one).
 * Undefined when this process knows nothing of the file.
 */
export function keptOnDisk(file: string, knownParts: WrittenParts): boolean | undefined {
  const last = knownParts.get(file);
  if (last === undefined) return undefined;
  const now = statNow(file);
  if (now === undefined) return false;
  if (sameFile(last, now)) return true;
  let disk: Buffer;
  try {
    disk = readFileSync(file);
  } catch {
    return false;
  }
  if (!sameBytes(disk, last.buffers)) return false;
  knownParts.set(file, { ...last, ...now });
  return true;
}

/**
 * Write-only-if-changed for a file emitted as parts, without ever joining them: in watch mode
 * "changed?" is a digest comparison, and the write is one `writev` of the parts' bytes, most of
 * them encoded in an earlier run. A file this process did not write last (or that changed since)
 * is compared byte for byte first, so identical bytes are still never rewritten.
 */
export function writePartsIfChanged(file: string, output: OutputParts, knownParts: WrittenParts = new Map()): boolean {
  const last = knownParts.get(file);
  const now = statNow(file);
  const trusted = sameFile(last, now);
  if (trusted && last!.digest === output.digest) return false;
  // A long part equal to the one at the same position last time keeps its bytes (usually the
  // same string object: a pointer comparison). Parts that moved are encoded again, which only
  // happens when tools are added or removed.
  const previous = last?.parts;
  const previousBuffers = last?.buffers;
  const buffers = output.parts.map((part, index) =>
    part.length >= KEEP_BYTES && previous !== undefined && previous[index] === part
      ? previousBuffers![index]!
      : Buffer.from(part),
  );
  if (!trusted && now !== undefined) {
    let disk: Buffer | undefined;
    try {
      disk = readFileSync(file);
    } catch {
      disk = undefined;
    }
    if (disk && sameBytes(disk, buffers)) {
      knownParts.set(file, { digest: output.digest, ...now, parts: output.parts, buffers });
      return false;
    }
  }
  mkdirSync(dirname(file), { recursive: true });
  const temp = tempPath(file);
  // The stamp of the bytes this process wrote, from its own descriptor (and after the rename, while
  // the path is still this file: util/file-stat.ts placedStat): a plain stat of the path after
  // the rename could be another process's file renamed over it meanwhile, which this run's
  // output record would then vouch for (cache/output-state.ts).
  let written: FileStat;
  try {
    const fd = openSync(temp, 'w');
    try {
      writeAll(fd, buffers);
      written = fileStat(fstatSync(fd));
    } finally {
      closeSync(fd);
    }
    replaceWith(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  written = placedStat(file, written);
  knownParts.set(file, { digest: output.digest, ...written, parts: output.parts, buffers });
  return true;
}

/** writev in groups (IOV_MAX is 1024 on Linux), resuming after short writes. */
function writeAll(fd: number, buffers: readonly Buffer[]): void {
  for (let start = 0; start < buffers.length; start += 1024) {
    let group = buffers.slice(start, start + 1024);
    let left = group.reduce((sum, b) => sum + b.length, 0);
    while (left > 0) {
      const done = writevSync(fd, group);
      left -= done;
      if (left === 0) break;
      // Short write: drop what went out and go on with the rest.
      let skip = done;
      const rest: Buffer[] = [];
      for (const buffer of group) {
        if (skip >= buffer.length) skip -= buffer.length;
        else {
          rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
          skip = 0;
        }
      }
      group = rest;
    }
  }
}
