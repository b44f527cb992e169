/**
 * The unit cache's shape check: the declaration accepts everything the compiler writes (every
 * fixture, valid and invalid, so no entry is silently re-parsed on every run), and the compiled
 * checks reject what the declarations do not describe.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { isEntry, isFileStamps, isOutputRecord } from '../../../compiler/cache/entry-shape.js';
import {
  array,
  boolean,
  compile,
  flat,
  jsonObject,
  number,
  object,
  oneOf,
  optional,
  record,
  string,
  union,
  variants,
} from '../../../compiler/cache/json-shape.js';
import { FIXTURES, removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('compiled shapes', () => {
  const loc = object({ file: string, line: number, hint: optional(string) });
  const isLoc = compile(loc);
  const cases: readonly (readonly [string, (value: unknown) => boolean, unknown, boolean])[] = [
    ['an object with its keys', isLoc, { file: 'a', line: 1 }, true],
    ['an optional key present', isLoc, { file: 'a', line: 1, hint: 'h' }, true],
    ['an optional key of the wrong type', isLoc, { file: 'a', line: 1, hint: 2 }, false],
    ['a required key missing', isLoc, { file: 'a' }, false],
    ['a key of the wrong type', isLoc, { file: 'a', line: '1' }, false],
    ['an undeclared key (ignored, never read)', isLoc, { file: 'a', line: 1, extra: true }, true],
    ['an own __proto__ key (ignored)', isLoc, JSON.parse('{"file":"a","line":1,"__proto__":{"x":1}}'), true],
    [
      'an own __proto__ key does not stand in for a declared one',
      isLoc,
      JSON.parse('{"__proto__":{"file":"a","line":1}}'),
      false,
    ],
    ['an array for an object', isLoc, [], false],
    ['null for an object', isLoc, null, false],
    ['an array of objects', compile(array(loc)), [{ file: 'a', line: 1 }], true],
    ['an array with one bad item', compile(array(loc)), [{ file: 'a', line: 1 }, 3], false],
    ['a record', compile(record(number)), { a: 1, b: 2 }, true],
    ['a record with one bad value', compile(record(number)), { a: 1, b: '2' }, false],
    ['a record that is an array', compile(record(number)), [1], false],
    ['a listed value (few)', compile(oneOf(['a', 'b'])), 'b', true],
    ['an unlisted value (few)', compile(oneOf(['a', 'b'])), 'c', false],
    ['a listed value (many, a set)', compile(oneOf(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])), 'j', true],
    ['an unlisted value (many, a set)', compile(oneOf(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'])), 'k', false],
    ['a union member', compile(union(string, number)), 3, true],
    ['not a union member', compile(union(string, number)), true, false],
    [
      'a variant',
      compile(
        variants('kind', {
          a: object({ kind: oneOf(['a']), n: number }),
          b: object({ kind: oneOf(['b']), s: string }),
        }),
      ),
      { kind: 'b', s: 'x' },
      true,
    ],
    [
      'a variant with the other variant’s fields',
      compile(
        variants('kind', {
          a: object({ kind: oneOf(['a']), n: number }),
          b: object({ kind: oneOf(['b']), s: string }),
        }),
      ),
      { kind: 'b', n: 1 },
      false,
    ],
    [
      'an unknown variant tag',
      compile(variants('kind', { a: object({ kind: oneOf(['a']) }) })),
      { kind: 'toString' },
      false,
    ],
    ['a JSON object', compile(jsonObject), { type: 'object', x: [1] }, true],
    ['a JSON array for a JSON object', compile(jsonObject), [], false],
    ['a boolean', compile(boolean), false, true],
    ['flat records', compile(flat(string, number)), ['a', 1, 'b', 2], true],
    ['no flat records', compile(flat(string, number)), [], true],
    ['flat records cut short', compile(flat(string, number)), ['a', 1, 'b'], false],
    ['flat records with a column swapped', compile(flat(string, number)), ['a', 1, 2, 'b'], false],
    ['flat records in an object', compile(flat(string, number)), { 0: 'a', 1: 1, length: 2 }, false],
    ['file stamps as the cache writes them', isFileStamps, ['a.ts', 1.5, 10, 'ab12', 42], true],
    ['file stamps without the inode (format 7)', isFileStamps, ['a.ts', 1.5, 10, 'ab12'], false],
    ['file stamps keyed by path (format 4)', isFileStamps, { 'a.ts': { mtimeMs: 1, size: 1, hash: 'h' } }, false],
    ['a quoted key is read as a key', compile(object({ 'a"b': number })), { 'a"b': 1 }, true],
  ];
  it.each(cases)('%s', (_name, check, value, expected) => {
    expect(check(value)).toBe(expected);
  });
});

describe('every entry the compiler writes matches the declaration', () => {
  const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  it.each(fixtures)('%s', async (name) => {
    const cacheDir = tempDir('shape-cache');
    dirs.push(cacheDir);
    const cacheFile = join(cacheDir, 'units.json');
    const result = await createCompiler({ root: join(FIXTURES, name), cacheFile }).run({ write: false });
    // A tree refused at the layout (a bad directory name) parses nothing and writes no cache.
    if (result.stats.parsed === 0) return expect(existsSync(cacheFile)).toBe(false);
    const lines = existsSync(`${cacheFile}.journal`)
      ? readFileSync(`${cacheFile}.journal`, 'utf8').split('\n').filter(Boolean)
      : [];
    const base = JSON.parse(readFileSync(cacheFile, 'utf8')) as { entries: Record<string, unknown>; output?: unknown };
    const entries = Object.entries(base.entries);
    expect(entries.length).toBeGreaterThan(0);
    for (const [key, entry] of entries) expect(isEntry(entry), key).toBe(true);
    if (base.output !== undefined) expect(isOutputRecord(base.output)).toBe(true);
    expect(lines).toEqual([]);
  });
});
