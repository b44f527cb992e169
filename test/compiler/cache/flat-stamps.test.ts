/**
 * A unit's file stamps as one flat array (compiler/cache/flat-stamps.ts): restamping in place,
 * the paths in stamping order, and the content text the inputs digest reads, which must be the
 * same for an entry and for its indexed unit whatever order the files were stamped in.
 */
import { describe, expect, it } from 'vitest';
import {
  eachStamp,
  type FlatStamps,
  putStamp,
  stampAt,
  stampedPaths,
  stampIndex,
  stampsContent,
} from '../../../compiler/cache/flat-stamps.js';

describe('flat stamps', () => {
  it('stamps a file once and restamps it in place', () => {
    const stamps: FlatStamps = [];
    putStamp(stamps, 'tools/a/index.ts', { changedMs: 1.5, size: 10, hash: 'aa', ino: 7 });
    putStamp(stamps, 'tools/a/format.ts', { changedMs: 2, size: 20, hash: 'bb', ino: 8 });
    putStamp(stamps, 'tools/a/index.ts', { changedMs: 3, size: 10, hash: 'aa', ino: 9 });
    expect(stamps).toEqual(['tools/a/index.ts', 3, 10, 'aa', 9, 'tools/a/format.ts', 2, 20, 'bb', 8]);
    expect(stampIndex(stamps, 'tools/a/format.ts')).toBe(5);
    expect(stampIndex(stamps, 'tools/a')).toBe(-1);
    expect(stampAt(stamps, 5)).toEqual({ changedMs: 2, size: 20, hash: 'bb', ino: 8 });
    expect(stampedPaths(stamps)).toEqual(['tools/a/index.ts', 'tools/a/format.ts']);
    const seen: unknown[] = [];
    eachStamp(stamps, (...args) => seen.push(args));
    expect(seen).toEqual([
      ['tools/a/index.ts', 3, 10, 9],
      ['tools/a/format.ts', 2, 20, 8],
    ]);
  });

  it('reads as one content text, sorted by path, in any stamping order', () => {
    const one: FlatStamps = ['b/x.ts', 1, 1, 'h2', 1, 'a-b/y.ts', 1, 1, 'h1', 2, 'a/z.ts', 1, 1, 'h3', 3];
    const other: FlatStamps = ['a/z.ts', 9, 9, 'h3', 4, 'b/x.ts', 8, 8, 'h2', 5, 'a-b/y.ts', 7, 7, 'h1', 6];
    // Sorted as strings: '-' (0x2d) before '/' (0x2f), as the format-4 sort of the paths did.
    expect(stampsContent(one)).toBe('a-b/y.ts:h1|a/z.ts:h3|b/x.ts:h2');
    expect(stampsContent(other)).toBe(stampsContent(one));
    expect(stampsContent([])).toBe('');
    expect(stampsContent(undefined)).toBe('');
  });
});
