/**
 * The tree check's stamp lookup (cache/tree-check.ts ListStamps) finds a listed file by a binary
 * search over the walked list, trying the entry after the last hit first: it relies on the walk
 * listing paths sorted by code units (scan/walk.ts). Checked here on every fixture tree and on a
 * generated tree with child plugins, helpers and names that sort around '/': every file is found
 * at its position in any lookup order, directories and unlisted paths are not.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTree } from '../../../bench/gen-tree.js';
import { ListStamps } from '../../../compiler/cache/tree-check.js';
import { walkTree } from '../../../compiler/scan/walk.js';
import { FIXTURES, removeDir, seededRandom, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function roots(): string[] {
  const generated = tempDir('list-stamps');
  dirs.push(generated);
  generateTree(300, generated);
  // Names that sort next to a folder's '/': '-' and '.' below it, '0' and '_' above it.
  writeTree(generated, {
    'tools/a-b/index.ts': toolSource("{ description: 'x', async execute() { return 1; } }"),
    'tools/a/index.ts': toolSource("{ description: 'x', async execute() { return 1; } }"),
    'tools/a/a.ts': 'export {};\n',
    'tools/a.b/index.ts': toolSource("{ description: 'x', async execute() { return 1; } }"),
    'tools/a0/index.ts': toolSource("{ description: 'x', async execute() { return 1; } }"),
    'tools/a_/index.ts': toolSource("{ description: 'x', async execute() { return 1; } }"),
  });
  const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(FIXTURES, entry.name));
  return [generated, ...fixtures];
}

describe('ListStamps', () => {
  it('finds every listed file at its position, in any order, and nothing else', () => {
    const random = seededRandom(7);
    let checked = 0;
    for (const root of roots()) {
      const { paths, stamps } = walkTree(
        { root, pluginEntry: ['plugin.ts'], allowed: [], outFile: `${root}/out.ts` },
        [],
        true,
      );
      // The invariant the lookup relies on.
      for (let i = 1; i < paths.length; i++) expect(paths[i - 1]! < paths[i]!, `${root}: ${paths[i]}`).toBe(true);
      const files = paths.map((path, at) => ({ path, at })).filter(({ path }) => !path.endsWith('/'));
      if (files.length === 0) continue; // a fixture of the earlier layout only (nothing the walk lists)
      checked++;
      const shuffled = [...files].sort(() => random() - 0.5);
      for (const order of [files, [...files].reverse(), shuffled]) {
        const lookup = new ListStamps(paths, Float64Array.from(stamps!.table));
        for (const { path, at } of order) expect(lookup.indexOf(path), path).toBe(at);
      }
      const lookup = new ListStamps(paths, Float64Array.from(stamps!.table));
      for (const dir of paths.filter((p) => p.endsWith('/'))) {
        expect(lookup.indexOf(dir), dir).toBe(-1);
        expect(lookup.indexOf(dir.slice(0, -1)), dir).toBe(-1);
      }
      for (const missing of ['', 'zzz', 'tools/none/index.ts', `${files[0]!.path}x`])
        expect(lookup.indexOf(missing)).toBe(-1);
    }
    expect(checked).toBeGreaterThan(40);
  });
});
