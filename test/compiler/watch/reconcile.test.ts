/**
 * The compiler checks every path a watch event names against the disk, by the walk's own rules:
 * whatever type a watcher reports (or fails to report), the run after the events produces what a
 * fresh compiler produces for the tree as it is.
 */
import { cpSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler, type FileEvent } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';
import { freshManifest } from '../../watch-scenarios.js';

const tool = (description: string): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  async execute() {\n    return 1;\n  },\n});\n`;

const BASE: Record<string, string> = {
  'AGENTS.md': '# Bot\n',
  'tools/a/index.ts': tool('Tool a'),
  'tools/b/index.ts': tool('Tool b'),
  'plugins/maps/tools/where/index.ts': tool('Where'),
  'src/shared.ts': 'export const x = 1;\n',
};

interface Case {
  readonly name: string;
  /** Files the tree has before the first run, beside BASE. */
  readonly setup?: Record<string, string>;
  /** The tree after the change has errors: the runs are compared by their diagnostics alone. */
  readonly errors?: boolean;
  /** Changes the tree and returns the events a (poor) watcher reported, relative to the root. */
  readonly change: (root: string) => readonly FileEvent[];
  /** Text the fresh output must contain (so the case is not vacuous). */
  readonly wants?: string;
  readonly lacks?: string;
}

const write = (root: string, rel: string, text: string): void => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};

const CASES: readonly Case[] = [
  {
    name: 'a new tool reported as "change"',
    change: (r) => (write(r, 'tools/c/index.ts', tool('Tool c')), [{ type: 'change', path: 'tools/c/index.ts' }]),
    wants: '"Tool c"',
  },
  {
    name: 'a deleted tool reported as "add"',
    change: (r) => (rmSync(join(r, 'tools/b'), { recursive: true }), [{ type: 'add', path: 'tools/b' }]),
    lacks: '"Tool b"',
  },
  {
    name: 'a copied folder reported only as its directory',
    change: (r) => (
      cpSync(join(r, 'tools/a'), join(r, 'tools/copy'), { recursive: true }), [{ type: 'addDir', path: 'tools/copy' }]
    ),
    wants: '"copy"',
  },
  {
    name: 'a renamed directory reported only by its new name',
    change: (r) => (
      renameSync(join(r, 'tools/a'), join(r, 'tools/moved')),
      [
        { type: 'addDir', path: 'tools/moved' },
        { type: 'change', path: 'tools/a' },
      ]
    ),
    wants: '"moved"',
    lacks: '"qualifiedName":"a"',
  },
  {
    name: 'a child plugin copied in (its src/ stays out of the inventory)',
    change: (r) => {
      writeTree(join(r, 'plugins/geo'), {
        'tools/find/index.ts': tool('Find'),
        'src/internal.ts': 'export {};\n',
        'README.md': '# geo\n',
      });
      return [{ type: 'addDir', path: 'plugins/geo' }];
    },
    wants: '"geo__find"',
  },
  {
    name: 'a plugin entry made in a folder that groups plugins (ZG1065), reported as its file only',
    change: (r) => (
      write(r, 'plugins/maps/grouped/plugin.ts', 'export default {};\n'),
      write(r, 'plugins/maps/grouped/tools/t/index.ts', tool('Grouped')),
      [{ type: 'add', path: 'plugins/maps/grouped/plugin.ts' }]
    ),
    errors: true,
  },
  {
    name: 'a folder beside a child plugin’s conventions without a plugin entry stays out',
    change: (r) => (
      write(r, 'plugins/maps/assets/notes.md', '# notes\n'), [{ type: 'add', path: 'plugins/maps/assets/notes.md' }]
    ),
    wants: '"maps__where"',
  },
  {
    name: 'the plugin entry of a grouping folder removed (its folder leaves the inventory too)',
    setup: { 'plugins/maps/grouped/plugin.ts': 'export default {};\n', 'plugins/maps/grouped/notes.md': '#\n' },
    change: (r) => (
      rmSync(join(r, 'plugins/maps/grouped/plugin.ts')), [{ type: 'unlink', path: 'plugins/maps/grouped/plugin.ts' }]
    ),
    wants: '"maps__where"',
  },
  {
    name: 'a file replaced by a directory',
    change: (r) => (
      rmSync(join(r, 'tools/b/index.ts')),
      mkdirSync(join(r, 'tools/b/index.ts')),
      writeFileSync(join(r, 'tools/b/index.mts'), tool('Tool b mts')),
      [
        { type: 'change', path: 'tools/b/index.ts' },
        { type: 'add', path: 'tools/b/index.mts' },
      ]
    ),
    wants: '"Tool b mts"',
  },
  {
    name: 'a shared fragment outside the convention folders',
    change: (r) => (
      writeFileSync(join(r, 'src/shared.ts'), 'export const x = 2;\n'), [{ type: 'change', path: 'src/shared.ts' }]
    ),
    wants: '"Tool a"',
  },
  {
    name: 'a symbolic link (left to a full walk)',
    change: (r) => (symlinkSync(join(r, 'tools/a'), join(r, 'tools/linked')), [{ type: 'add', path: 'tools/linked' }]),
    wants: '"linked"',
  },
  {
    name: 'editor leftovers',
    change: (r) => {
      for (const name of ['index.ts~', '.index.ts.swp', 'index.ts.tmp', '4913'])
        writeFileSync(join(r, 'tools/a', name), 'x');
      return ['index.ts~', '.index.ts.swp', 'index.ts.tmp', '4913'].map((name) => ({
        type: 'add',
        path: `tools/a/${name}`,
      }));
    },
    wants: '"Tool a"',
  },
];

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('Compiler.notify reconciles with the disk', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const root = writeTree(tempDir('reconcile'), { ...BASE, ...c.setup });
      dirs.push(root);
      const compiler = createCompiler({ root, cacheFile: false });
      expect((await compiler.run({ write: false })).errors).toBe(c.setup ? 1 : 0);
      // Watch mode: from the first notify on, unchanged files are trusted without a stat.
      compiler.notify([]);
      const events = c.change(root).map((e) => ({ type: e.type, path: join(root, e.path) }));
      compiler.notify(events);
      const result = await compiler.run({ write: false });
      const fresh = await freshManifest(root);
      if (c.errors) expect(result.errors).toBeGreaterThan(0);
      else {
        expect(fresh).toBeDefined();
        if (c.wants) expect(fresh).toContain(c.wants);
        if (c.lacks) expect(fresh).not.toContain(c.lacks);
        expect(result.code).toBe(fresh);
      }
      expect(result.diagnostics).toEqual(
        (await createCompiler({ root, cacheFile: false }).run({ write: false })).diagnostics,
      );
      await compiler.dispose();
    });
  }
});
