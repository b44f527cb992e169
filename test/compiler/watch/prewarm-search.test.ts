/**
 * `zhin-gen watch`'s pre-warm (watch/prewarm.ts) on a warm start: the tree record answers the
 * first run, so nothing has encoded the discover index yet, and the pre-warm's saves keep every
 * searched text. The pre-warm therefore encodes the current catalog once at the end, so the first
 * save that edits a description patches one document instead of encoding every tool's
 * (`RunStats.searchIndexed`); the bytes it writes are a fresh compiler's.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { prewarmEditPath } from '../../../compiler/watch/prewarm.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const tool = (description: string) =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  inputSchema: z.object({ id: z.string() }),\n  async execute({ id }) {\n    return id;\n  },\n});\n`;

const COUNT = 40;
const file = (i: number) => `tools/t${String(i).padStart(2, '0')}/index.ts`;
const SEARCH = 'zhin-capabilities.gen.validators/search.ts';
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** The loop's run slot, free: the pre-warm runs whenever it asks (nothing else is pending here). */
const idleLoop = { whenIdle: async (run: () => Promise<void>) => (await run(), true) };

/** A tree the cache knows, and a compiler whose first run the tree record answered. */
async function warmStart() {
  const root = tempDir('prewarm-search');
  dirs.push(root);
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n' };
  for (let i = 0; i < COUNT; i++) files[file(i)] = tool(`Look up the weather of city ${i}`);
  writeTree(root, files);
  const cacheFile = join(tempDir('prewarm-search-cache'), 'units.json');
  dirs.push(join(cacheFile, '..'));
  const cold = createCompiler({ root, cacheFile });
  expect((await cold.run({ write: true })).errors).toBe(0);
  await cold.dispose();
  // The tree record needs its stamps older than a timestamp tick (cache/racy.ts).
  await new Promise((resolve) => setTimeout(resolve, 150));
  const again = createCompiler({ root, cacheFile });
  await again.run({ write: true });
  await again.dispose();
  const compiler = createCompiler({ root, cacheFile });
  const first = await compiler.run({ write: true });
  expect(first.stats.parsed).toBe(0);
  return { root, compiler, first };
}

async function editDescription(root: string, compiler: ReturnType<typeof createCompiler>) {
  writeTree(root, { [file(7)]: tool('Look up the tides of harbour 7') });
  compiler.notify([{ type: 'change', path: join(root, file(7)) }]);
  const result = await compiler.run({ write: true });
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return result;
}

async function freshSearch(root: string): Promise<string> {
  rmSync(join(root, SEARCH));
  const fresh = createCompiler({ root, cacheFile: false });
  await fresh.run({ write: true });
  await fresh.dispose();
  return readFileSync(join(root, SEARCH), 'utf8');
}

describe('watch pre-warm and the discover index', () => {
  it('leaves the first description save a patch of one document', async () => {
    const { root, compiler, first } = await warmStart();
    expect(await prewarmEditPath(compiler, idleLoop, first, 2)).toBe(2);
    const edited = await editDescription(root, compiler);
    expect(edited.stats.searchIndexed).toBe(1);
    const written = readFileSync(join(root, SEARCH), 'utf8');
    expect(written).toContain('harbour');
    expect(await freshSearch(root)).toBe(written);
    await compiler.dispose();
  });

  it('without it, the first description save encodes every document (the control)', async () => {
    const { root, compiler } = await warmStart();
    const edited = await editDescription(root, compiler);
    expect(edited.stats.searchIndexed).toBe(COUNT);
    await compiler.dispose();
  });
});
