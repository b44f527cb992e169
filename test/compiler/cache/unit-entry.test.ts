/**
 * How a unit's stamps are added (compiler/cache/unit-entry.ts `addStamps`) for files something
 * else read first (esbuild, for a bundled schema): a file that may not hold the bytes the result
 * was made from is stamped to match nothing, so the next run makes the result again; one that
 * stayed as it was keeps a stamp the next run can match. Real files, the run's real reader.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STAMP_SLOTS, UNKNOWN_CONTENT } from '../../../compiler/cache/flat-stamps.js';
import { createReader } from '../../../compiler/cache/reader.js';
import { changedTime, statNow as statAbs } from '../../../compiler/util/file-stat.js';
import { addStamps } from '../../../compiler/cache/unit-entry.js';
import { pastATick, removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
const hash16 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
afterAll(() => dirs.forEach(removeDir));

function tree(): { dir: string; write: (name: string, text: string, ageS: number) => void } {
  const dir = tempDir('unit-entry');
  dirs.push(dir);
  return {
    dir,
    write: (name, text, ageS) => {
      writeFileSync(join(dir, name), text);
      const t = Date.now() / 1000 - ageS;
      utimesSync(join(dir, name), t, t);
    },
  };
}

describe('addStamps for files read elsewhere first', () => {
  it('keeps what stayed as it was, and stamps to match nothing what moved or was written since', () => {
    const { dir, write } = tree();
    write('entry.ts', 'export const limit = 1;\n', 60);
    write('steady.ts', 'export const a = 1;\n', 60);
    write('fresh.ts', 'export const b = 1;\n', 60);
    pastATick();
    // The entry as its parse read it: stamped before the bundle.
    const parse = createReader(dir);
    const stamps: (string | number)[] = [];
    addStamps(stamps, ['entry.ts'], parse, () => undefined);
    const elsewhere = { at: Date.now(), statNow: (file: string) => statAbs(join(dir, file)) };
    // Saved while the bundle ran (same size), then put back as it was: the bytes the bundle read are unknown.
    write('entry.ts', 'export const limit = 2;\n', 0);
    write('entry.ts', 'export const limit = 1;\n', 0);
    // Written once the bundle had begun.
    write('fresh.ts', 'export const b = 2;\n', 0);
    const after = createReader(dir);
    addStamps(stamps, ['entry.ts', 'steady.ts', 'fresh.ts', 'missing.ts'], after, () => undefined, elsewhere);
    const byFile = new Map<string, (string | number)[]>();
    for (let i = 0; i < stamps.length; i += STAMP_SLOTS) byFile.set(stamps[i] as string, stamps.slice(i + 1, i + 4));
    expect(byFile.get('entry.ts')).toEqual([-1, 24, UNKNOWN_CONTENT]);
    expect(byFile.get('fresh.ts')).toEqual([-1, 20, UNKNOWN_CONTENT]);
    const steady = statSync(join(dir, 'steady.ts'));
    expect(byFile.get('steady.ts')?.slice(0, 2)).toEqual([changedTime(steady), steady.size]);
    expect(byFile.get('steady.ts')?.[2]).toMatch(/^[0-9a-f]{16}$/);
    expect(byFile.get('missing.ts')).toEqual([-1, -1, '-']);
  });

  // A clock-skewed mount, an archive unpacked with dates ahead: no write of this run. Stamped
  // racy (mtime -1) with its content hash, the next run compares the content and parses nothing;
  // an unmatchable stamp would have made every run bundle the schema again until that date.
  it('keeps the content hash of a file dated ahead of the clock, new or stamped already', () => {
    const { dir, write } = tree();
    write('entry.ts', 'export const limit = 1;\n', -3600);
    write('ahead.ts', 'export const a = 1;\n', -3600);
    const stamps: (string | number)[] = [];
    addStamps(stamps, ['entry.ts'], createReader(dir), () => undefined);
    expect(stamps.slice(1, 3)).toEqual([-1, 24]);
    const elsewhere = { at: Date.now(), statNow: (file: string) => statAbs(join(dir, file)) };
    addStamps(stamps, ['entry.ts', 'ahead.ts'], createReader(dir), () => undefined, elsewhere);
    const hash = (name: string): string => hash16(readFileSync(join(dir, name)));
    const ino = (name: string): number => statSync(join(dir, name)).ino;
    expect(stamps).toEqual([
      ...['entry.ts', -1, 24, hash('entry.ts'), ino('entry.ts')],
      ...['ahead.ts', -1, 20, hash('ahead.ts'), ino('ahead.ts')],
    ]);
  });

  it('leaves a file stamped already alone when it is still as stamped and older than the bundle', () => {
    const { dir, write } = tree();
    write('entry.ts', 'export const limit = 1;\n', 60);
    pastATick();
    const stamps: (string | number)[] = [];
    addStamps(stamps, ['entry.ts'], createReader(dir), () => undefined);
    const before = [...stamps];
    const elsewhere = { at: Date.now(), statNow: (file: string) => statAbs(join(dir, file)) };
    addStamps(stamps, ['entry.ts'], createReader(dir), () => undefined, elsewhere);
    expect(stamps).toEqual(before);
    expect(stamps[3]).not.toBe(UNKNOWN_CONTENT);
  });
});
