/**
 * Write discipline for the parts-based writer (compiler/write/output.ts): the bytes on disk are the
 * parts joined, identical bytes are never rewritten (whoever wrote them), a file changed behind
 * the writer's back is repaired, and thousands of parts (more than one writev) come out whole.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePartsIfChanged } from '../../../compiler/write/output.js';
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
