/**
 * The shipped discover index's stamp (emit/search-module.ts) is a digest of blocks of 64 searched
 * texts, each block's SHA-256 kept by the compiler's emit memo and rehashed only when one of its
 * texts changes. Over three blocks of tools, every kind of edit (in a middle block, in the last,
 * a tool added or removed so the blocks after it shift) must leave the stamp and bytes a fresh
 * compiler writes; a searched text's edit must change the stamp, a schema edit must not.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';
import { watchEdit } from '../watch-edit.js';

const tool = (description: string, min = 1) =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  inputSchema: z.object({ id: z.string().min(${min}) }),\n  async execute({ id }) {\n    return id;\n  },\n});\n`;

const COUNT = 150;
const name = (i: number) => `tools/t${String(i).padStart(3, '0')}/index.ts`;

function tree(): Record<string, string> {
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n' };
  for (let i = 0; i < COUNT; i++) files[name(i)] = tool(`Handle request ${i} for the weather of a city`);
  return files;
}

const SEARCH = 'zhin-capabilities.gen.validators/search.ts';
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function fresh(root: string): Promise<string> {
  const compiler = createCompiler({ root, cacheFile: false });
  rmSync(join(root, SEARCH));
  const result = await compiler.run({ write: true });
  await compiler.dispose();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return readFileSync(join(root, SEARCH), 'utf8');
}

const stampOf = (text: string) => text.split('\n')[1];

describe('the discover index stamp, by block', () => {
  it('is after every edit in watch mode the stamp a fresh compiler writes', async () => {
    const root = writeTree(tempDir('search-stamp'), tree());
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const edit = watchEdit(compiler, root);
    const run = async (type: 'add' | 'change' | 'unlink', rel: string, text?: string) => {
      await edit(type, rel, text);
      return readFileSync(join(root, SEARCH), 'utf8');
    };
    await compiler.run({ write: true });
    let last = readFileSync(join(root, SEARCH), 'utf8');
    const edits: [string, boolean, () => Promise<string>][] = [
      ['a middle block', true, () => run('change', name(70), tool('Forecast the weather by hour'))],
      ['the last block', true, () => run('change', name(149), tool('Count the hail stones'))],
      ['the first block', true, () => run('change', name(3), tool('Handle request 3 for the snow'))],
      ['a schema only', false, () => run('change', name(71), tool('Handle request 71 for the weather of a city', 3))],
      ['a tool added in the first block', true, () => run('add', 'tools/t000a/index.ts', tool('Find a poll'))],
      ['a tool removed from the middle', true, () => run('unlink', name(90))],
      ['the middle block again', true, () => run('change', name(70), tool('Forecast the rain by hour'))],
    ];
    for (const [edit, changes, apply] of edits) {
      const watched = await apply();
      expect(stampOf(watched) !== stampOf(last), edit).toBe(changes);
      expect(await fresh(root), edit).toBe(watched);
      last = watched;
    }
    await compiler.dispose();
  });
});
