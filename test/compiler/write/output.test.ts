/**
 * Write discipline for the parts-based writer (compiler/write/output.ts): the bytes on disk are the
 * parts joined, identical bytes are never rewritten (whoever wrote them), a file changed behind
 * the writer's back is repaired, and thousands of parts (more than one writev) come out whole.
 */
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChunksAtomically, writePartsIfChanged } from '../../../compiler/write/output.js';
import { removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function parts(count: number, edit = ''): { parts: string[]; digest: string } {
  const list = Array.from(
    { length: count },
    (_, i) => `${i === 7 ? edit : ''}line ${i} ${'x'.repeat(300 + (i % 5))}\n`,
  );
  return { parts: list, digest: `${count}:${edit}` };
}

describe('writePartsIfChanged', () => {
  it('writes the joined parts atomically, across more parts than one writev takes', () => {
    const dir = tempDir('write-parts');
    dirs.push(dir);
    const file = join(dir, 'out.gen.ts');
    const first = parts(2500);
    expect(writePartsIfChanged(file, first)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(first.parts.join(''));
    // Same digest, untouched file: nothing is written.
    const stamp = statSync(file).mtimeMs;
    expect(writePartsIfChanged(file, first)).toBe(false);
    expect(statSync(file).mtimeMs).toBe(stamp);
    // One part changes: the file is rewritten with it (earlier parts' bytes are reused).
    const edited = parts(2500, 'EDITED ');
    expect(writePartsIfChanged(file, edited)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(edited.parts.join(''));
  });

  it('compares bytes when the file is not the one it last wrote, and repairs hand edits', () => {
    const dir = tempDir('write-parts');
    dirs.push(dir);
    const file = join(dir, 'out.gen.ts');
    const output = parts(40);
    // Written by someone else (another process) with exactly these bytes: left alone.
    writeFileSync(file, output.parts.join(''));
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    expect(writePartsIfChanged(file, output)).toBe(false);
    expect(statSync(file).mtimeMs).toBe(1_000_000);
    // Edited by hand after our write: the digest alone would say "same", the stamp says otherwise.
    writeFileSync(file, `${output.parts.join('')}// edited\n`);
    expect(writePartsIfChanged(file, output)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(output.parts.join(''));
    // Same length, different bytes: still rewritten.
    const same = output.parts.join('');
    writeFileSync(file, `${same.slice(0, -2)}!\n`);
    expect(writePartsIfChanged(file, output)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(same);
  });
});

describe('writeChunksAtomically', () => {
  it('writes the chunks joined, through batches, with characters of every UTF-8 width and chunks larger than a batch', () => {
    const dir = tempDir('write-chunks');
    dirs.push(dir);
    const file = join(dir, 'units.json');
    // ~3 MB in all: many small chunks crossing the 1 MB batch boundary at every offset mod 4,
    // two- to four-byte characters (a surrogate pair among them) and single chunks of 0.5 and 2 MB.
    const chunks: string[] = [];
    for (let i = 0; i < 20_000; i++) chunks.push(`${'a'.repeat(i % 7)}é中😀${i},`);
    chunks.push('名'.repeat(180_000), 'b'.repeat(2_100_000), '');
    for (let i = 0; i < 5_000; i++) chunks.push(`{"k":${i}}`);
    const joined = chunks.join('');
    expect(writeChunksAtomically(file, chunks)).toBe(Buffer.byteLength(joined));
    expect(readFileSync(file, 'utf8')).toBe(joined);
    // Only the file itself: the temp file was renamed onto it.
    expect(readdirSync(dir)).toEqual(['units.json']);
  });

  it('leaves the previous file and no temp file when the chunks fail part-way', () => {
    const dir = tempDir('write-chunks-fail');
    dirs.push(dir);
    const file = join(dir, 'units.json');
    writeFileSync(file, 'before');
    function* failing(): Generator<string> {
      yield 'x'.repeat(1_500_000);
      throw new Error('serialising failed');
    }
    expect(() => writeChunksAtomically(file, failing())).toThrow('serialising failed');
    expect(readFileSync(file, 'utf8')).toBe('before');
    expect(readdirSync(dir)).toEqual(['units.json']);
  });
});
