/**
 * What another process (a `watch` beside an `inspect`, a CLI run beside a dev server) can leave
 * between a run's decision and its read of the cache's bodies: the bodies rewritten in place with
 * the same size, every tool description no longer a string (so no entry is what its record says),
 * and the index and tree record still naming them (their bodies stamp patched to the new file).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { bodiesStamp } from '../../../compiler/cache/index-file.js';

export function replaceBodiesInPlace(cacheFile: string): void {
  const before = JSON.stringify(bodiesStamp(cacheFile));
  const base = readFileSync(cacheFile, 'utf8');
  const replaced = base.replaceAll('"description":"', '"description":{');
  expect(replaced).not.toBe(base);
  writeFileSync(cacheFile, replaced);
  const after = JSON.stringify(bodiesStamp(cacheFile));
  for (const beside of [`${cacheFile}.index`, `${cacheFile}.tree`]) {
    const text = readFileSync(beside, 'utf8');
    expect(text).toContain(before);
    writeFileSync(beside, text.replaceAll(before, after));
  }
}
