/**
 * The walk's own order and stamps (compiler/scan/walk.ts): siblings are listed in the order a
 * sort of every path gives, so the list is sorted without a sort of its own, and a stamping walk
 * takes each file's stamp as it lists it — the same stamps a stat of the list afterwards gives.
 * Names that sort differently as a bare name than as a path (`a.ts` and `a-b` before `a/`, a
 * link to a directory) and a configured plugin outside the root (listed after the root's paths)
 * must still give the sorted list.
 */
import { mkdirSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statList, TABLE_SLOTS } from '../../../compiler/cache/tree-record.js';
import { TreeInventory } from '../../../compiler/scan/inventory.js';
import { walkTree } from '../../../compiler/scan/walk.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const TRICKY = {
  'tools/a/index.ts': 'export {}',
  'tools/a.ts': 'export {}',
  'tools/a-b/index.ts': 'export {}',
  'tools/a0/index.ts': 'export {}',
  'tools/a!/index.ts': 'export {}',
  'tools/a/x.ts': 'export {}',
  'tools/a/x-y.ts': 'export {}',
  'tools/a/x/deep.ts': 'export {}',
  'tools/ä/index.ts': 'export {}',
  'tools/Z/index.ts': 'export {}',
  'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\n',
  'skills/s.md': 'stray',
  'plugins/p/tools/t/index.ts': 'export {}',
  'plugins/p-q/tools/t/index.ts': 'export {}',
  'plugins/p.x/tools/t/index.ts': 'export {}',
  'AGENTS.md': '# root\n',
  'index.ts': 'export {}',
};

function tree(name: string, files: Record<string, string>): string {
  const root = writeTree(tempDir(name), files);
  roots.push(root);
  return root;
}

const options = (root: string) => ({ root, pluginEntry: ['index.ts'], allowed: [], outFile: `${root}/out.ts` });

/** What the list must be: every walked path, sorted by code units, each once. */
function sortedCopy(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}

describe('the walk', () => {
  it('lists in sorted order where a bare-name sort of siblings would not', () => {
    const root = tree('walk-order', TRICKY);
    const { paths } = walkTree(options(root));
    expect(paths).toEqual(sortedCopy(paths));
    // The pairs a name sort would put the other way round.
    expect(paths.indexOf('tools/a.ts')).toBeLessThan(paths.indexOf('tools/a/'));
    expect(paths.indexOf('tools/a-b/')).toBeLessThan(paths.indexOf('tools/a/'));
    expect(paths.indexOf('tools/a/x-y.ts')).toBeLessThan(paths.indexOf('tools/a/x/'));
    expect(paths.indexOf('plugins/p-q/')).toBeLessThan(paths.indexOf('plugins/p/'));
    expect(paths).toContain('tools/a/x/deep.ts');
  });

  it('takes the stamps a stat of the list gives, in list order, each with the time it was taken', () => {
    const root = tree('walk-stamps', TRICKY);
    utimesSync(join(root, 'tools/a/x.ts'), 1_700_000_000, 1_700_000_000.25);
    const before = Date.now();
    const walked = walkTree(options(root), [], true);
    const after = Date.now();
    expect(walked.stamps).toBeDefined();
    expect([...walked.stamps!.table]).toEqual([...statList(root, walked.paths)]);
    // Each file's clock reading lies within the walk; a directory has none.
    walked.paths.forEach((path, j) => {
      const taken = walked.stamps!.taken[j]!;
      if (path.endsWith('/')) expect(taken).toBe(-1);
      else expect(taken >= before && taken <= after).toBe(true);
    });
    // A file dated back: its stamp's time is its ctime (the later of the two), which no date set moves back.
    const i = walked.paths.indexOf('tools/a/x.ts');
    const x = statSync(join(root, 'tools/a/x.ts'));
    expect(x.mtimeMs).toBe(1_700_000_000_250);
    expect(walked.stamps!.table[TABLE_SLOTS * i]).toBe(x.ctimeMs);
    expect(walked.stamps!.table[TABLE_SLOTS * i + 2]).toBe(x.ino);
    // Directories carry no stamp.
    const dir = walked.paths.indexOf('tools/a/');
    expect([...walked.stamps!.table.subarray(TABLE_SLOTS * dir, TABLE_SLOTS * (dir + 1))]).toEqual([-1, -1, -1]);
  });

  it('sorts a list it could not list in order (a link to a directory, a plugin outside the root) and gives no stamps', () => {
    const root = tree('walk-link', TRICKY);
    // `tools/b` links to a directory: named like a file among its siblings, listed as `b/`.
    symlinkSync(join(root, 'tools/a'), join(root, 'tools/b'));
    mkdirSync(join(root, 'tools/b.ts'));
    writeTree(root, { 'tools/b.ts/index.ts': 'export {}', 'tools/b-c/index.ts': 'export {}' });
    const linked = walkTree(options(root), [], true);
    expect(linked.paths).toEqual(sortedCopy(linked.paths));
    expect(linked.paths).toContain('tools/b/x/deep.ts');

    const outside = tree('walk-outside', { 'tools/o/index.ts': 'export {}' });
    const withExtra = walkTree({ ...options(root), allowed: [outside] }, [outside], true);
    expect(withExtra.paths).toEqual(sortedCopy(withExtra.paths));
    expect(withExtra.paths.some((p) => p.endsWith('/tools/o/index.ts'))).toBe(true);
    expect(withExtra.stamps).toBeUndefined();
  });

  it('hands its stamps over once, and not after the inventory was patched', () => {
    const root = tree('walk-take', TRICKY);
    const first = TreeInventory.walk(root, options(root), [], []);
    expect(first.takeStamps()?.table.length).toBe(TABLE_SLOTS * first.list.length);
    expect(first.takeStamps()).toBeUndefined();

    const patched = TreeInventory.walk(root, options(root), [], []);
    writeTree(root, { 'tools/new/index.ts': 'export {}' });
    expect(patched.reconcile('tools/new/index.ts', new Set())).toBe('exact');
    expect(patched.list).toContain('tools/new/index.ts');
    expect(patched.takeStamps()).toBeUndefined();
  });
});
