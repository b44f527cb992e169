/**
 * The unit cache's files are pure ASCII whatever the tree holds (util/ascii-json.ts): a tree under
 * a root whose path is Chinese, with Chinese descriptions, writes an index, bodies, layout store
 * and journals that decode to one-byte strings, and the runs that read them back (nothing
 * changed, one description edited) write what a run without a cache writes.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTree } from '../../../bench/gen-tree.js';
import { chineseDescriptions } from '../../../bench/zh-tree.js';
import { createCompiler } from '../../../compiler/index.js';
import { copyTree, removeDir, settleTree, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * The JSON files of the cache. The directory listings (`.dirs`, scan/listings.ts) hold paths and
 * names as they are, and are not JSON: their own test replays a Chinese tree's listings.
 */
function cacheFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith('units.json') && !name.endsWith('.dirs'))
    .map((name) => join(dir, name));
}

async function cacheless(root: string): Promise<string> {
  const copy = copyTree(root, '无缓存');
  dirs.push(copy);
  const result = await createCompiler({ root: copy, cacheFile: false }).run({ write: false });
  expect(result.errors).toBe(0);
  return result.code.replaceAll(copy, '<root>');
}

describe('unit cache files', () => {
  it('are ASCII for a Chinese tree under a Chinese path, and read back to the same output', async () => {
    const root = tempDir('中文-bot');
    const cacheDir = tempDir('中文-cache');
    dirs.push(root, cacheDir);
    generateTree(90, root);
    expect(chineseDescriptions(root)).toBeGreaterThan(0);
    settleTree(root);
    const cacheFile = join(cacheDir, 'units.json');

    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.errors).toBe(0);
    const written = cacheFiles(cacheDir);
    expect(written.map((f) => f.slice(cacheFile.length))).toEqual(expect.arrayContaining(['', '.index', '.layout']));
    for (const file of written) expect(readFileSync(file, 'latin1'), file).toMatch(/^[\x00-\x7f]*$/);
    // The tree's own text is wide: the escapes are what kept the files narrow.
    expect(readFileSync(join(cacheDir, 'units.json'), 'latin1')).toMatch(/\\u[0-9a-f]{4}/);

    // The index's byte ranges of the bodies (read one by one by a run that changed a unit) hold
    // exactly one JSON value each: the escaped texts' lengths are their sizes in bytes.
    const bodies = readFileSync(cacheFile);
    const index = JSON.parse(readFileSync(`${cacheFile}.index`, 'latin1')) as {
      units: Record<string, { a?: [number, number] }>;
    };
    const ranged = Object.values(index.units).filter((unit) => unit.a !== undefined);
    expect(ranged.length).toBeGreaterThan(90);
    for (const { a } of ranged)
      expect(() => JSON.parse(bodies.subarray(a![0], a![0] + a![1]).toString())).not.toThrow();

    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.code.replaceAll(root, '<root>')).toBe(await cacheless(root));

    // One description edited (to other Chinese text): the journals stay ASCII too.
    const tool = join(root, 'tools', 'weather-0', 'index.ts');
    const text = readFileSync(tool, 'utf8');
    const edited = text.replace(/description: '([^']*)'/, "description: '改过的描述：$1'");
    expect(edited).not.toBe(text);
    writeFileSync(tool, edited);
    const one = await createCompiler({ root, cacheFile }).run();
    expect(one.stats.parsed).toBe(1);
    // Read by their ranges, not whole after a lost body (cache/lost-body.ts).
    expect(one.stats.bodies).toBeGreaterThan(0);
    expect(one.stats.bodies).toBeLessThan(one.stats.units);
    for (const file of cacheFiles(cacheDir)) expect(readFileSync(file, 'latin1'), file).toMatch(/^[\x00-\x7f]*$/);
    expect(one.code.replaceAll(root, '<root>')).toBe(await cacheless(root));
    const again = await createCompiler({ root, cacheFile }).run();
    expect(again.stats.parsed).toBe(0);
    expect(again.code).toBe(one.code);
  });
});
