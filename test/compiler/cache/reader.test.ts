/**
 * The run's file reader (compiler/cache/reader.ts): every file read once through one descriptor,
 * whose stat gives the stamp and the size to read (no second stat). The bytes are the file's,
 * whatever its size: empty, a few bytes, megabytes, and a file the kernel reports as 0 bytes
 * although it has content (`/proc`), which is read to its end.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createReader } from '../../../compiler/cache/reader.js';
import { removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function root(): string {
  const dir = tempDir('reader');
  dirs.push(dir);
  return dir;
}

const hash16 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

describe('the file reader', () => {
  it('reads every size whole, hashes the raw bytes and stamps from the same descriptor', () => {
    const dir = root();
    const big = `${'é 漢字 '.repeat(300_000)}\n`;
    const files: Record<string, string> = { 'empty.ts': '', 'one.ts': 'x', 'small.ts': 'export {};\n', 'big.ts': big };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    // Dated back: a settled file's stamp is its mtime (a fresh one is racy, below).
    const past = Date.now() / 1000 - 60;
    for (const name of Object.keys(files)) utimesSync(join(dir, name), past, past);
    const reader = createReader(dir);
    for (const [name, text] of Object.entries(files)) {
      expect(reader.read(name), name).toBe(text);
      expect(reader.hashOf(name), name).toBe(hash16(readFileSync(join(dir, name))));
      const stat = statSync(join(dir, name));
      expect(reader.stampOf(name), name).toEqual({ mtimeMs: stat.mtimeMs, size: stat.size });
    }
    expect(Buffer.byteLength(big)).toBeGreaterThan(3_000_000);
  });

  it('removes a BOM, refuses invalid UTF-8 and a missing file with a reason, and marks a fresh stamp racy', () => {
    const dir = root();
    writeFileSync(join(dir, 'bom.ts'), '\uFEFFexport {};\n');
    writeFileSync(join(dir, 'bad.ts'), Buffer.from([0x61, 0xff, 0x62]));
    const reader = createReader(dir);
    expect(reader.read('bom.ts')).toBe('export {};\n');
    expect(reader.stampOf('bom.ts')?.mtimeMs).toBe(-1);
    expect(reader.read('bad.ts')).toBeUndefined();
    expect(reader.problem('bad.ts')).toBe('it is not valid UTF-8 text');
    expect(reader.read('nope.ts')).toBeUndefined();
    expect(reader.problem('nope.ts')).toBe('it does not exist');
  });

  it.runIf(existsSync('/proc/self/status'))('reads a file its stat calls empty to its end', () => {
    const reader = createReader('/proc');
    expect(statSync('/proc/self/status').size).toBe(0);
    const text = reader.read('self/status');
    expect(text).toMatch(/^Name:/);
    expect(text).toContain('\nPid:');
  });
});
