/**
 * The run's file reader (compiler/cache/reader.ts): every file read once through one descriptor,
 * whose stat gives the stamp and the size to read (no second stat). The bytes are the file's,
 * whatever its size: empty, a few bytes, megabytes, and a file the kernel reports as 0 bytes
 * although it has content (`/proc`), which is read to its end.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UNKNOWN_CONTENT } from '../../../compiler/cache/flat-stamps.js';
import { createReader } from '../../../compiler/cache/reader.js';
import { fileStat } from '../../../compiler/util/file-stat.js';
import { pastATick, removeDir, tempDir } from '../../helpers.js';

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
    pastATick();
    const reader = createReader(dir);
    for (const [name, text] of Object.entries(files)) {
      expect(reader.read(name), name).toBe(text);
      expect(reader.hashOf(name), name).toBe(hash16(readFileSync(join(dir, name))));
      const stat = statSync(join(dir, name));
      expect(reader.stampOf(name), name).toEqual(fileStat(stat));
    }
    expect(Buffer.byteLength(big)).toBeGreaterThan(3_000_000);
  });

  it('removes a BOM, refuses invalid UTF-8 and a missing file with a reason, and marks a fresh stamp racy', () => {
    const dir = root();
    writeFileSync(join(dir, 'bom.ts'), '\uFEFFexport {};\n');
    writeFileSync(join(dir, 'bad.ts'), Buffer.from([0x61, 0xff, 0x62]));
    const reader = createReader(dir);
    expect(reader.read('bom.ts')).toBe('export {};\n');
    expect(reader.stampOf('bom.ts')?.changedMs).toBe(-1);
    expect(reader.read('bad.ts')).toBeUndefined();
    expect(reader.problem('bad.ts')).toBe('it is not valid UTF-8 text');
    expect(reader.read('nope.ts')).toBeUndefined();
    expect(reader.problem('nope.ts')).toBe('it does not exist');
  });

  // Its text memo is bounded: a file read again later in the run is read from the disk again.
  it('stamps a file that was not the same at two reads of one run to match nothing, and one that was as it was', () => {
    const dir = root();
    const past = Date.now() / 1000 - 60;
    const write = (name: string, text: string): void => {
      writeFileSync(join(dir, name), text);
      utimesSync(join(dir, name), past, past);
    };
    write('shared.ts', 'export const a = 1;\n');
    write('steady.ts', 'export const b = 1;\n');
    for (let i = 0; i < 40; i++) write(`other-${i}.ts`, `export const x = ${i};\n`);
    pastATick();
    const reader = createReader(dir);
    const evict = (): void => {
      for (let i = 0; i < 40; i++) reader.read(`other-${i}.ts`);
    };
    expect(reader.read('shared.ts')).toContain('a = 1');
    reader.read('steady.ts');
    evict();
    // Same size and an mtime put back: only the bytes differ.
    write('shared.ts', 'export const a = 2;\n');
    expect(reader.read('shared.ts')).toContain('a = 2');
    expect(reader.read('steady.ts')).toContain('b = 1');
    expect(reader.hashOf('shared.ts')).toBe(UNKNOWN_CONTENT);
    expect(reader.stampOf('shared.ts')).toEqual({ changedMs: -1, size: 20, ino: -1 });
    const steady = statSync(join(dir, 'steady.ts'));
    expect(reader.hashOf('steady.ts')).toBe(hash16(readFileSync(join(dir, 'steady.ts'))));
    expect(reader.stampOf('steady.ts')).toEqual(fileStat(steady));
    // Found, then gone: not stamped missing (a next run that finds it missing must not match).
    write('gone.ts', 'export {};\n');
    reader.read('gone.ts');
    evict();
    rmSync(join(dir, 'gone.ts'));
    expect(reader.read('gone.ts')).toBeUndefined();
    expect(reader.hashOf('gone.ts')).toBe(UNKNOWN_CONTENT);
    expect(reader.stampOf('gone.ts')?.size).toBeGreaterThanOrEqual(0);
  });

  it.runIf(existsSync('/proc/self/status'))('reads a file its stat calls empty to its end', () => {
    const reader = createReader('/proc');
    expect(statSync('/proc/self/status').size).toBe(0);
    const text = reader.read('self/status');
    expect(text).toMatch(/^Name:/);
    expect(text).toContain('\nPid:');
  });
});
