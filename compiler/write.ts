/**
 * Write discipline (SPEC §5): write only when the bytes differ, and atomically (temp file in the
 * same directory + rename), so a reader — a bundler, tsc, a running bot — never sees a
 * half-written manifest.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** What this process last wrote or read per file, with the file's stamp then (watch mode). */
const known = new Map<string, { content: string; mtimeMs: number; size: number }>();

function stamp(file: string): { mtimeMs: number; size: number } | undefined {
  try {
    const s = statSync(file);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return undefined;
  }
}

/** Returns true when the file was (re)written. */
export function writeIfChanged(file: string, content: string): boolean {
  // In watch mode the output is compared with what we last wrote (if the file still carries that
  // write's stamp) instead of being read back: ~1.5 MB per run at 1,000 tools.
  const last = known.get(file);
  const now = stamp(file);
  const unchanged = last && now && last.mtimeMs === now.mtimeMs && last.size === now.size ? last.content === content : readIfExists(file) === content;
  if (unchanged) {
    if (now) known.set(file, { content, ...now });
    return false;
  }
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    writeFileSync(temp, content);
    renameSync(temp, file);
    const written = stamp(file);
    if (written) known.set(file, { content, ...written });
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return true;
}
