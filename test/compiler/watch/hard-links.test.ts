/**
 * `zhin-gen watch` and hard links: two tool modules that are one file (one inode). An edit in
 * place through one path changes both, but the watcher's event names only that path: the unit
 * cache finds the file's other stamped paths by its inode (cache/units.ts `hardLinksOf`). Before,
 * the other tool kept its old text until a fresh run.
 */
import { linkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir, writeTree } from '../../helpers.js';
import { freshOutput, outputOnDisk, tool } from '../../watch-scenarios.js';
import { stopWatch, until, watchedAfterFirstRun } from './watch-process.js';

const dirs: string[] = [];
afterEach(async () => {
  await stopWatch();
  dirs.splice(0).forEach(removeDir);
});

describe('zhin-gen watch and hard links', () => {
  it('an edit through one link of a file reaches every tool that is that file', async () => {
    const root = writeTree(tempDir('watch-hard-links'), {
      'tools/a/index.ts': tool('Shared one'),
      'tools/c/index.ts': tool('Other tool'),
    });
    dirs.push(root);
    writeTree(root, { 'tools/b/.keep': '' });
    linkSync(join(root, 'tools/a/index.ts'), join(root, 'tools/b/index.ts'));
    const io = await watchedAfterFirstRun(root);
    expect(outputOnDisk(root).split('Shared one').length - 1).toBeGreaterThanOrEqual(2);
    // In place, one size: the inode stays, and only tools/a's path is named by the event.
    writeFileSync(join(root, 'tools/a/index.ts'), tool('Shared two'));
    await until(
      () => !outputOnDisk(root).includes('Shared one'),
      () => `both tools edited:\n${io.stdout()}\n${io.stderr()}`,
    );
    expect(outputOnDisk(root)).toBe(await freshOutput(root));
  });
});
