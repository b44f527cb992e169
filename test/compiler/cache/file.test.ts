/**
 * The unit cache file's base, written entry by entry (cache/file.ts): the bytes on disk are
 * exactly `JSON.stringify` of the base (frame, entries in order, output record) with every
 * non-ASCII character escaped (util/ascii-json.ts: the text decodes to a one-byte string), whatever
 * the keys and values hold (quotes, control characters, non-ASCII text, `__proto__`), the base loads
 * back to the same entries, and the journal that follows it still finds the base on disk by its
 * byte size: a base measured in UTF-16 units instead of bytes would send every later save to a
 * new base, which the last case sees.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CacheFile } from '../../../compiler/cache/file.js';
import { asciiJson } from '../../../compiler/util/ascii-json.js';
import { removeDir, tempDir } from '../../helpers.js';

type Value = { readonly text: string; readonly n?: number; readonly list?: readonly unknown[] };
const any = (value: unknown): value is Value => typeof value === 'object' && value !== null;
const shapes = { entry: any, output: any };

function entries(): Map<string, Value> {
  return new Map<string, Value>([
    ['tool:tools/天气', { text: '查询天气 "quoted" \\ back\nslash \u2028', n: 1.5 }],
    ['tool:tools/"odd"key', { text: 'tab\there', list: [null, true, { nested: '\u0000' }] }],
    ['__proto__', { text: 'an own key, not a prototype' }],
    ['skill:skills/emoji', { text: '🙂 outside the BMP' }],
    // Large enough that a few journal lines stay under the journal's share of the base.
    ['tool:tools/long', { text: '长'.repeat(2000) }],
  ]);
}

describe('the unit cache base file', () => {
  it('writes exactly JSON.stringify of the base (ASCII), with and without an output record, and loads it back', () => {
    const dir = tempDir('cache-file');
    try {
      for (const output of [{ text: '输出 record' }, undefined]) {
        const file = join(dir, output ? 'with.json' : 'without.json');
        const cache = new CacheFile<Value, Value>(file, 'v-test', shapes);
        const all = entries();
        cache.save(
          'config-键',
          () => ({ entries: all, output }),
          () => [...all],
          output,
        );
        const text = readFileSync(file, 'utf8');
        const id = (JSON.parse(text) as { id: string }).id;
        expect(text).toBe(
          asciiJson(
            JSON.stringify({
              version: 'v-test',
              configKey: 'config-键',
              id,
              entries: Object.fromEntries(all),
              ...(output ? { output } : {}),
            }),
          ),
        );
        expect(text).toMatch(/^[\x00-\x7f]*$/);
        // A cold run's save writes a base, never a journal.
        expect(existsSync(`${file}.journal`)).toBe(false);
        const loaded = new CacheFile<Value, Value>(file, 'v-test', shapes).load('config-键');
        expect(loaded?.damaged).toBe(false);
        expect([...(loaded?.entries ?? [])]).toEqual([...all]);
        expect(loaded?.output).toEqual(output);
      }
      const empty = join(dir, 'empty.json');
      new CacheFile<Value, Value>(empty, 'v-test', shapes).save(
        'c',
        () => ({ entries: [], output: undefined }),
        () => [],
        undefined,
      );
      expect(JSON.parse(readFileSync(empty, 'utf8'))).toMatchObject({ version: 'v-test', configKey: 'c', entries: {} });
    } finally {
      removeDir(dir);
    }
  });

  it('appends a small change to the journal after a base of non-ASCII text, leaving the base as written', () => {
    const dir = tempDir('cache-file');
    try {
      const file = join(dir, 'units.json');
      const all = entries();
      const writer = new CacheFile<Value, Value>(file, 'v-test', shapes);
      writer.save(
        'c',
        () => ({ entries: all, output: undefined }),
        () => [...all],
        undefined,
      );
      const base = readFileSync(file);
      expect(statSync(file).size).toBe(base.length);
      // The process that wrote the base (watch mode) journals its next change: it measured the
      // base it wrote in bytes, as the file's size on disk says.
      const first = [['skill:skills/emoji', { text: '再改' }]] as const;
      writer.save(
        'c',
        () => ({ entries: [...all, ...first], output: undefined }),
        () => first,
        undefined,
      );
      expect(readFileSync(file).equals(base)).toBe(true);
      expect(readFileSync(`${file}.journal`, 'utf8')).toContain(asciiJson('再改'));
      // The same process and a fresh one (loading the base) both journal a one-entry change.
      const fresh = new CacheFile<Value, Value>(file, 'v-test', shapes);
      fresh.load('c');
      const change = [['tool:tools/天气', { text: '改了' }]] as const;
      fresh.save(
        'c',
        () => ({ entries: [...all, ...change], output: undefined }),
        () => change,
        undefined,
      );
      expect(readFileSync(file).equals(base)).toBe(true);
      expect(readFileSync(`${file}.journal`, 'utf8')).toContain(asciiJson('改了'));
      expect(readFileSync(`${file}.journal`, 'utf8')).toMatch(/^[\x00-\x7f]*$/);
      const reloaded = new CacheFile<Value, Value>(file, 'v-test', shapes).load('c');
      expect(reloaded?.entries.get('tool:tools/天气')).toEqual({ text: '改了' });
    } finally {
      removeDir(dir);
    }
  });
});
