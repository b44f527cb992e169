/**
 * A cache zhin-gen cannot write (a read-only node_modules in a container build, a full disk, a
 * directory where a cache file belongs) only costs speed: the output is written and compared as
 * ever, the exit code is the run's, and one note says so — no internal error, no stack trace.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeDir, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOL = toolSource(
  "{ description: 'Echo the text', inputSchema: z.object({ text: z.string() }), requiresApproval: 'never', async execute({ text }) { return text; } }",
);

function tree(prefix: string): string {
  const root = writeTree(tempDir(prefix), { 'AGENTS.md': '# Bot\n\nBe helpful.\n', 'tools/echo/index.ts': TOOL });
  dirs.push(root);
  return root;
}

const NOTE = /^note: zhin-gen could not write its cache \(.+\); the output is right, later runs are only slower$/m;

describe('a cache that cannot be written', () => {
  it.each([
    // node_modules/.cache is a file: the cache folder cannot be made (as EACCES for a non-root user).
    ['the cache folder cannot be made', (root: string) => writeFileSync(join(root, 'node_modules', '.cache'), 'x')],
    // The emit record's and the index's places are folders: every write of them fails (EISDIR).
    [
      'its files are folders',
      (root: string) => {
        for (const name of ['units.json', 'units.json.emit', 'units.json.index', 'units.json.tree'])
          mkdirSync(join(root, 'node_modules', '.cache', 'zhin-gen', name), { recursive: true });
      },
    ],
  ])('%s: generate writes the manifest and exits 0 with one note; check passes; --json stays JSON', (_, spoil) => {
    const root = tree('cache-unwritable');
    mkdirSync(join(root, 'node_modules'));
    spoil(root);
    const generate = cli(['generate', '--root', root]);
    expect(generate.stderr).not.toMatch(/internal error|ZG9001|\n\s+at /);
    expect(generate.status).toBe(0);
    expect(generate.stderr.match(new RegExp(NOTE.source, 'gm'))).toHaveLength(1);
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('"echo"');
    for (const args of [['check'], ['generate'], ['inspect']]) {
      const run = cli([...args, '--root', root]);
      expect(run.status, args[0]).toBe(0);
      expect(run.stderr).not.toMatch(/internal error|ZG9001|\n\s+at /);
    }
    const json = cli(['check', '--root', root, '--json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ diagnostics: [], stale: false });
    // The tree changed: still right, still no crash (the persist after a parse writes most).
    writeFileSync(join(root, 'tools/echo/index.ts'), TOOL.replace('Echo the text', 'Echo the text back'));
    const edited = cli(['generate', '--root', root]);
    expect(edited.status).toBe(0);
    expect(edited.stderr).toMatch(NOTE);
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('Echo the text back');
    expect(cli(['check', '--root', root]).status).toBe(0);
  });
});
