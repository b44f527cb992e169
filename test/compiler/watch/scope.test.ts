/**
 * What the watchers watch: exactly what a fresh walk enters (compiler/scan/watched.ts). Folders
 * beside a plugin's convention folders (src/, docs/, a dist/) are never watched, so a large bot
 * spends no inotify watches and no events on them; a configured plugin folder inside the root is
 * watched like a convention folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler, type FileEvent } from '../../../compiler/index.js';
import { outsideWalk } from '../../../compiler/scan/watched.js';
import { watchTree } from '../../../compiler/watch/tree.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const tool = (description: string): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: '${description}', async execute() { return 1; } });\n`;

describe('outsideWalk', () => {
  it.each([
    ['tools', true, false],
    ['tools/echo/index.ts', false, false],
    ['tools/echo/lib/deep/x.ts', false, false],
    ['skills/a/SKILL.md', false, false],
    ['agent/system.md', false, false],
    ['AGENTS.md', false, false],
    ['index.ts', false, false],
    ['zhin-gen.config.ts', undefined, false],
    ['plugins', true, false],
    ['plugins/child', true, false],
    ['plugins/child/tools/x/index.ts', false, false],
    ['plugins/child/plugins/inner/AGENTS.md', false, false],
    ['src', true, true],
    ['src', undefined, true],
    ['src/internal.ts', false, true],
    ['docs/guide.md', false, true],
    ['plugins/child/src', true, true],
    ['plugins/child/dist/index.js', false, true],
    ['README', false, false],
    // Beside a child plugin's conventions: a folder that may group plugins, listed for its entry.
    ['plugins/utils/lottery', true, false],
    ['plugins/utils/lottery/plugin.ts', false, false],
    ['plugins/utils/lottery/plugin.ts', undefined, false],
    ['plugins/utils/lottery/tools', true, true],
    ['plugins/utils/lottery/tools/draw/index.ts', false, true],
    ['lottery', true, true],
  ] as const)('%s (directory: %s) → %s', (rel, isDir, outside) => {
    expect(outsideWalk(rel, isDir)).toBe(outside);
  });
});

describe('the tree watcher', () => {
  it('reports no event below src/ or docs/, and every event in convention and configured plugin folders', async () => {
    const root = writeTree(tempDir('watch-scope'), {
      'tools/echo/index.ts': tool('Echo'),
      'src/internal.ts': 'export const internal = 1;\n',
      'docs/guide.md': '# Guide\n',
      'ext/child/tools/far/index.ts': tool('Far'),
      'zhin-gen.config.json': JSON.stringify({ plugins: { child: 'ext/child' } }),
    });
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    await compiler.prepare();
    const events: FileEvent[] = [];
    const watcher = watchTree(compiler.root, (event) => events.push(event), {
      ignore: (abs) => compiler.ignores(abs) && !compiler.isConfigFile(abs),
      outsideWalk: (abs, isDir) => !compiler.isConfigFile(abs) && compiler.outsideWalk(abs, isDir),
      onError: (problem) => {
        throw problem.error;
      },
    });
    try {
      await watcher.ready;
      writeFileSync(join(root, 'src/internal.ts'), 'export const internal = 2;\n');
      mkdirSync(join(root, 'src/more'));
      writeFileSync(join(root, 'src/more/new.ts'), 'export {};\n');
      writeFileSync(join(root, 'docs/guide.md'), '# Guide, edited\n');
      writeFileSync(join(root, 'tools/echo/index.ts'), tool('Echo, edited'));
      writeFileSync(join(root, 'ext/child/tools/far/index.ts'), tool('Far, edited'));
      const started = Date.now();
      const seen = (suffix: string): boolean => events.some((e) => e.path.endsWith(suffix));
      while (!(seen('tools/echo/index.ts') && seen('tools/far/index.ts')) && Date.now() - started < 20_000)
        await new Promise((r) => setTimeout(r, 20));
      // Events of the other writes, had they been watched, came before or with these.
      await new Promise((r) => setTimeout(r, 300));
      expect(seen('tools/echo/index.ts')).toBe(true);
      expect(seen('ext/child/tools/far/index.ts')).toBe(true);
      expect(events.filter((e) => /\/(src|docs)(\/|$)/.test(e.path))).toEqual([]);
    } finally {
      await watcher.close();
      await compiler.dispose();
    }
  });
});
