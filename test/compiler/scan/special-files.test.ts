/**
 * Files zhin-gen would read that it cannot — an AGENTS.md that is not UTF-8, a FIFO or socket
 * where a tool's index.ts is, a folder named AGENTS.md — are each a located ZG1006, never a tree
 * that compiles as if the file were not there (the main agent's instructions left out in silence).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { removeDir, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const ECHO = toolSource(
  "{ description: 'Echo the text back', inputSchema: z.object({ text: z.string() }), async execute() { return 1; } }",
);

async function problems(root: string): Promise<string[]> {
  const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
  return result.diagnostics
    .filter((d) => d.code === 'ZG1006')
    .map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`);
}

describe('files that are there but cannot be read', () => {
  it('an AGENTS.md that is not UTF-8 text', async () => {
    const root = writeTree(tempDir('special-utf8'), { 'tools/echo/index.ts': ECHO });
    dirs.push(root);
    writeFileSync(join(root, 'AGENTS.md'), Buffer.from([0x23, 0x20, 0x61, 0xff, 0x0a]));
    expect(await problems(root)).toEqual([
      'AGENTS.md:1:1 Cannot read AGENTS.md: it is not UTF-8 text zhin-gen can read',
    ]);
  });

  it('a FIFO where a tool entry is, a folder named AGENTS.md, a FIFO as a child plugin entry', async () => {
    const root = writeTree(tempDir('special-fifo'), {
      'tools/echo/index.ts': ECHO,
      'plugins/maps/tools/x/index.ts': ECHO,
    });
    dirs.push(root);
    mkdirSync(join(root, 'tools', 'pipe'));
    execFileSync('mkfifo', [join(root, 'tools', 'pipe', 'index.ts')]);
    mkdirSync(join(root, 'AGENTS.md'));
    execFileSync('mkfifo', [join(root, 'plugins', 'maps', 'plugin.ts')]);
    // Of no kind zhin-gen reads (a skill script's pipe): none of its business.
    execFileSync('mkfifo', [join(root, 'tools', 'echo', 'progress.pipe')]);
    expect(await problems(root)).toEqual([
      'AGENTS.md:1:1 Cannot read AGENTS.md: it is a directory, not a regular file',
      'plugins/maps/plugin.ts:1:1 Cannot read plugins/maps/plugin.ts: it is a FIFO, socket or device, not a regular file',
      'tools/pipe/index.ts:1:1 Cannot read tools/pipe/index.ts: it is a FIFO, socket or device, not a regular file',
    ]);
  });

  it('a folder whose name is not UTF-8 says so (not "ENOENT" for a folder that is there)', async () => {
    const root = writeTree(tempDir('special-name'), { 'tools/echo/index.ts': ECHO });
    dirs.push(root);
    const bad = Buffer.concat([Buffer.from(join(root, 'tools', 'bad')), Buffer.from([0xff]), Buffer.from('name')]);
    mkdirSync(bad);
    writeFileSync(Buffer.concat([bad, Buffer.from('/index.ts')]), ECHO);
    expect(await problems(root)).toEqual([
      'tools/bad\uFFFDname:1:1 Cannot read directory: its name is not valid UTF-8, so it cannot be opened by name (rename it)',
    ]);
  });
});
