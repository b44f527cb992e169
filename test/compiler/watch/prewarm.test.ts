/**
 * `zhin-gen watch`'s pre-warm runs (watch/prewarm.ts) read the tree as it is: an edit made right
 * after the last run, whose event has not reached the loop yet, is in them. They write nothing,
 * so that edit is written by the run its event starts, which reports it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { prewarmEditPath } from '../../../compiler/watch/prewarm.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const MANIFEST = 'zhin-capabilities.gen.ts';
const tool = (schema: string) =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: 'Look up the weather',\n  requiresApproval: 'never',\n  inputSchema: ${schema},\n  async execute() {\n    return 'ok';\n  },\n});\n`;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** The loop's run slot, free: the pre-warm runs whenever it asks (nothing else is pending here). */
const idleLoop = { whenIdle: async (run: () => Promise<void>) => (await run(), true) };

async function started() {
  const root = writeTree(tempDir('prewarm'), {
    'AGENTS.md': '# Bot\n',
    'tools/weather/index.ts': tool('z.object({ city: z.string() })'),
    'tools/other/index.ts': tool('z.object({ id: z.string() })'),
  });
  dirs.push(root);
  const compiler = createCompiler({ root, cacheFile: false });
  const first = await compiler.run({ write: true });
  expect(first.errors).toBe(0);
  return { root, compiler, first, manifest: () => readFileSync(join(root, MANIFEST), 'utf8') };
}

async function freshManifest(root: string): Promise<string> {
  const fresh = createCompiler({ root, cacheFile: false });
  const result = await fresh.run({ write: false });
  await fresh.dispose();
  return result.code;
}

describe('watch pre-warm', () => {
  it('runs the edit path as often as asked on an unchanged tree, writing nothing', async () => {
    const { compiler, first, manifest } = await started();
    const before = manifest();
    expect(await prewarmEditPath(compiler, idleLoop, first, 3)).toBe(3);
    expect(manifest()).toBe(before);
    await compiler.dispose();
  });

  it('leaves an edit it saw to the run its event starts, which writes it', async () => {
    const { root, compiler, first, manifest } = await started();
    const before = manifest();
    const entry = join(root, first.model.tools[0]!.source);
    // Saved just after the first run; its event is still on its way when the pre-warm starts.
    writeTree(root, { [first.model.tools[0]!.source]: tool('z.object({ city: z.string(), days: z.number() })') });
    expect(await prewarmEditPath(compiler, idleLoop, first, 3)).toBe(3);
    expect(manifest()).toBe(before);
    compiler.notify([{ type: 'change', path: entry }]);
    const run = await compiler.run({ write: true });
    expect(run.written).toBe(true);
    expect(manifest()).toContain('days');
    expect(manifest()).toBe(await freshManifest(root));
    await compiler.dispose();
  });

  it('an edit that broke the schema: the run of its event reports the error', async () => {
    const { root, compiler, first } = await started();
    const source = first.model.tools[0]!.source;
    writeTree(root, { [source]: tool('notDefinedAnywhere') });
    expect(await prewarmEditPath(compiler, idleLoop, first, 3)).toBe(3);
    compiler.notify([{ type: 'change', path: join(root, source) }]);
    const run = await compiler.run({ write: true });
    expect(run.errors).toBeGreaterThan(0);
    expect(run.diagnostics.some((d) => d.file === source && d.severity === 'error')).toBe(true);
    await compiler.dispose();
  });
});
