/**
 * Write discipline (SPEC §5): write only when the bytes differ, and atomically (temp file in the
 * same directory + rename), so a reader — a bundler, tsc, a running bot — never sees a
 * half-written manifest.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Returns true when the file was (re)written. */
export function writeIfChanged(file: string, content: string): boolean {
  if (readIfExists(file) === content) return false;
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    writeFileSync(temp, content);
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return true;
}
