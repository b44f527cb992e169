/**
 * Unit records (compiler/cache/unit-record.ts): a fresh compiler after an edit reads the cache
 * index's records instead of every unit's body, and a body only when something needs what the
 * record leaves out. Each case makes one change to a tree whose cache was written by an earlier
 * process, runs a new compiler on that cache, and requires exactly what a cacheless run over a
 * copy of the sources gives: the same diagnostics in the same order and the same bytes out. The
 * changes are the ones a shortcut could get wrong: an edit that creates a name conflict with an
 * untouched unit, one that puts the tree over a provider's tool limit, an edit of a fragment
 * other tools import, and untouched tools whose provider diagnostics need their schema and the
 * locations only their bodies hold. `stats.bodies` proves the bodies were read one by one.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { bodiesStamp } from '../../../compiler/cache/index-file.js';
import type { CompileResult } from '../../../compiler/context.js';
import { removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';
import { DIR, generatedFiles, OUT, shardedTool, shardedTree } from '../sharded-tree.js';
import { watchEdit } from '../watch-edit.js';
import { replaceBodiesInPlace } from './replaced-bodies.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * A run of a compiler that starts with nothing in memory: what a new process does. `modelJson`:
 * the run's capability model as JSON, taken before the compiler is disposed (what `inspect` and
 * the dev inspector serialise; models built from unit records must not differ).
 */
async function freshRun(root: string, cacheFile: string | false): Promise<CompileResult & { modelJson: string }> {
  const compiler = createCompiler({ root, cacheFile });
  const result = await compiler.run();
  const modelJson = JSON.stringify(result.model);
  await compiler.dispose();
  return Object.assign(result, { modelJson });
}

/** A tree generated once with its cache (files dated back so their stamps are trusted). */
async function generated(prefix: string, files: Record<string, string>): Promise<{ root: string; cacheFile: string }> {
  const root = writeTree(tempDir(prefix), files);
  dirs.push(root);
  const cacheFile = join(root, 'cache', 'units.json');
  settleTree(root);
  await freshRun(root, cacheFile);
  return { root, cacheFile };
}

/** A cacheless run over a copy of the tree's sources. */
async function cacheless(root: string): Promise<{ copy: string; expected: CompileResult & { modelJson: string } }> {
  const copy = tempDir('unit-records-cold');
  dirs.push(copy);
  cpSync(root, copy, {
    recursive: true,
    filter: (src) => src === root || !['cache', OUT, DIR].includes(basename(src)),
  });
  return { copy, expected: await freshRun(copy, false) };
}

/**
 * The run after `change`, by a new compiler on the cache, against a cacheless run of the result:
 * the same diagnostics and counts, and the same generated files (or, when the change is an
 * error, none written by either).
 */
async function afterChange(root: string, cacheFile: string, change: () => void): Promise<CompileResult> {
  change();
  const run = await freshRun(root, cacheFile);
  const { copy, expected } = await cacheless(root);
  expect(run.diagnostics).toEqual(expected.diagnostics);
  expect(run.counts).toEqual(expected.counts);
  expect(run.modelJson).toBe(expected.modelJson);
  expect(run.errors).toBe(expected.errors);
  if (expected.errors > 0) expect([run.written, expected.written]).toEqual([false, false]);
  else expect(generatedFiles(root)).toEqual(generatedFiles(copy));
  return run;
}

const edit = (root: string, path: string, from: string | RegExp, to: string): void => {
  const file = join(root, path);
  const text = readFileSync(file, 'utf8');
  expect(text).toMatch(from);
  writeFileSync(file, text.replace(from, to));
};

const N = 150;

describe('unit records', () => {
  it('a schema edit reads the bodies of its shard’s tools only', async () => {
    const { root, cacheFile } = await generated('records-schema', shardedTree(N));
    const run = await afterChange(root, cacheFile, () =>
      writeFileSync(join(root, 'tools/kind-5/index.ts'), shardedTool(5, undefined, 3)),
    );
    expect(run.stats.parsed).toBe(1);
    expect(run.stats.bodies).toBeGreaterThan(0);
    expect(run.stats.bodies).toBeLessThan(N / 2);
    // The run's own persist kept the index usable one by one: the next edit reads as few.
    const next = await afterChange(root, cacheFile, () =>
      writeFileSync(join(root, 'tools/kind-9/index.ts'), shardedTool(9, 'Nine')),
    );
    expect(next.stats.parsed).toBe(1);
    expect(next.stats.bodies).toBeGreaterThan(0);
    expect(next.stats.bodies).toBeLessThan(N / 2);
  });

  it('after a run that read the bodies whole (no index), the next reads them one by one again', async () => {
    const { root, cacheFile } = await generated('records-reindexed', shardedTree(N));
    rmSync(`${cacheFile}.index`);
    const whole = await afterChange(root, cacheFile, () =>
      writeFileSync(join(root, 'tools/kind-5/index.ts'), shardedTool(5, 'Five')),
    );
    expect(whole.stats.parsed).toBe(1);
    expect(whole.stats.bodies).toBe(0);
    const next = await afterChange(root, cacheFile, () =>
      writeFileSync(join(root, 'tools/kind-9/index.ts'), shardedTool(9, 'Nine')),
    );
    expect(next.stats.parsed).toBe(1);
    expect(next.stats.bodies).toBeGreaterThan(0);
    expect(next.stats.bodies).toBeLessThan(N / 2);
  });

  it('a watch-mode compiler started on the cache edits from the records: every edit is a cacheless run’s output', async () => {
    const { root, cacheFile } = await generated('records-watch', shardedTree(N));
    writeFileSync(join(root, 'tools/kind-5/index.ts'), shardedTool(5, 'Five'));
    const compiler = createCompiler({ root, cacheFile });
    const first = await compiler.run();
    expect(first.stats.parsed).toBe(1);
    expect(first.stats.bodies).toBeLessThan(N / 2);
    const edit = watchEdit(compiler, root);
    // A schema edit, a description edit of another tool, a tool added, a tool removed.
    await edit('change', 'tools/kind-5/index.ts', shardedTool(5, 'Five', 4));
    await edit('change', 'tools/kind-40/index.ts', shardedTool(40, 'Forty'));
    await edit('add', 'tools/kind-200/index.ts', shardedTool(200));
    await edit('unlink', 'tools/kind-41/index.ts');
    const last = await compiler.run();
    await compiler.dispose();
    // What the watch-mode runs wrote, before any other run could rewrite it.
    const written = generatedFiles(root);
    const { copy, expected } = await cacheless(root);
    expect(last.diagnostics).toEqual(expected.diagnostics);
    expect(written).toEqual(generatedFiles(copy));
  });

  it('a plugin entry that adds a tool under an untouched tool’s name: both places are reported', async () => {
    const { root, cacheFile } = await generated('records-conflict', shardedTree(N));
    const plugin = `import { defineAgentTool, definePlugin } from 'zhin-gen/runtime';

export default definePlugin({
  name: 'records',
  async setup(context) {
    context.addTool('kind-7', defineAgentTool({
      description: 'Kind seven, again',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      execute: async () => 7,
    }));
  },
});
`;
    const run = await afterChange(root, cacheFile, () => writeTree(root, { 'plugin.ts': plugin }));
    const duplicate = run.diagnostics.filter((d) => d.code === 'ZG3001').map((d) => d.file);
    expect(duplicate.sort()).toEqual(['plugin.ts', 'tools/kind-7/index.ts']);
    expect(run.stats.bodies).toBeLessThan(N / 2);
  });

  it('a tool added that puts the listed tools over a provider limit: ZG5002 names an untouched tool', async () => {
    // OpenAI takes 128 tools a request.
    const { root, cacheFile } = await generated('records-limit', shardedTree(128));
    const before = await freshRun(root, cacheFile);
    expect(before.diagnostics.some((d) => d.code === 'ZG5002')).toBe(false);
    const run = await afterChange(root, cacheFile, () =>
      writeTree(root, { 'tools/kind-999/index.ts': shardedTool(999) }),
    );
    const limit = run.diagnostics.find((d) => d.code === 'ZG5002');
    expect(limit?.file).toBe('tools/kind-0/index.ts');
    // The new tool splits its shard: the 64 tools of the two shards it makes are rendered again.
    expect(run.stats.bodies).toBeLessThanOrEqual(64);
  });

  it('an edit of a fragment that other tools import re-evaluates them, and nothing else', async () => {
    const files = shardedTree(N);
    files['src/shared.ts'] = "import { z } from 'zod';\n\nexport const Id = z.object({ id: z.string().min(2) });\n";
    for (const i of [1, 2, 4])
      files[`tools/kind-${i}/index.ts`] =
        `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { Id } from '../../src/shared.js';\n\nexport default defineAgentTool({\n  description: 'Shared ${i}',\n  requiresApproval: 'never',\n  inputSchema: Id,\n  async execute({ id }) {\n    return id;\n  },\n});\n`;
    const { root, cacheFile } = await generated('records-fragment', files);
    const run = await afterChange(root, cacheFile, () => edit(root, 'src/shared.ts', 'min(2)', 'min(4)'));
    expect(run.stats.parsed).toBe(3);
    expect(readFileSync(join(root, OUT), 'utf8') + [...generatedFiles(root).values()].join('')).toContain(
      '"minLength":4',
    );
  });

  it('untouched tools keep the provider diagnostics that need their schema and their locations', async () => {
    const files = shardedTree(N);
    // ZG5003 (a keyword OpenAI rejects: the record keeps it, the location is in the body) and
    // ZG5001 (a description over OpenAI's 1,024 characters, located at the description).
    files['tools/kind-3/index.ts'] =
      "import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: 'Either',\n  requiresApproval: 'never',\n  inputSchema: { type: 'object', properties: { id: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },\n  async execute() {\n    return 3;\n  },\n});\n";
    files['tools/kind-4/index.ts'] = shardedTool(4, 'x'.repeat(1100));
    const { root, cacheFile } = await generated('records-providers', files);
    const run = await afterChange(root, cacheFile, () =>
      writeFileSync(join(root, 'tools/kind-100/index.ts'), shardedTool(100, 'Hundred')),
    );
    const codes = run.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}`);
    expect(codes).toContain('ZG5003 tools/kind-3/index.ts:6');
    expect(codes.some((c) => c.startsWith('ZG5001 tools/kind-4/index.ts'))).toBe(true);
    expect(run.stats.bodies).toBeLessThan(N / 2);
  });

  it('a body changed in place under the same stamps costs one more pass of the same run, which is exact', async () => {
    const { root, cacheFile } = await generated('records-damaged', shardedTree(N));
    // The index and the base as written; then every tool body's description made invalid JSON,
    // size and mtime kept: whichever bodies the run reads, they are not entries.
    const base = readFileSync(cacheFile, 'utf8');
    const damaged = base.replaceAll('"description":"Look up', '"description":{Look up');
    expect(damaged).not.toBe(base);
    writeFileSync(cacheFile, damaged);
    // The index names the bodies it describes by their stamp: made to name the damaged file.
    const index = JSON.parse(readFileSync(`${cacheFile}.index`, 'utf8')) as { bodies: string };
    index.bodies = bodiesStamp(cacheFile)!;
    writeFileSync(`${cacheFile}.index`, JSON.stringify(index));
    writeFileSync(join(root, 'tools/kind-7/index.ts'), shardedTool(7, 'Seven'));
    const compiler = createCompiler({ root, cacheFile });
    // The pass that meets the damaged body drops the index; the run's second pass reads the
    // bodies whole (the damaged entries fail their shape check and are parsed again).
    const result = await compiler.run();
    expect(existsSync(`${cacheFile}.index`)).toBe(true);
    const { copy, expected } = await cacheless(root);
    expect(result.diagnostics).toEqual(expected.diagnostics);
    expect(generatedFiles(root)).toEqual(generatedFiles(copy));
    // The same compiler (watch mode) goes on from there.
    const again = await compiler.run();
    await compiler.dispose();
    expect(again.diagnostics).toEqual(expected.diagnostics);
    await afterChange(root, cacheFile, () => {});
  });

  it('a run with nothing to do, asked for its model, meets a body replaced under the same stamps inside the run', async () => {
    const replaced = async (prefix: string): Promise<{ root: string; cacheFile: string }> => {
      const tree = await generated(prefix, shardedTree(N));
      replaceBodiesInPlace(tree.cacheFile);
      return tree;
    };
    // Read after the run returned, the model has no pass left to retry in: an error that says so.
    const lazy = await replaced('records-lazy');
    const unasked = createCompiler(lazy);
    const result = await unasked.run({ write: false });
    expect(result.stats.parsed).toBe(0);
    expect(() => result.model).toThrow(/run the command again/);
    await unasked.dispose();
    // Asked for inside the run, the same damage costs one more pass, and the model is exact.
    const { root, cacheFile } = await replaced('records-model');
    const { expected } = await cacheless(root);
    const compiler = createCompiler({ root, cacheFile });
    const asked = await compiler.run({ write: false, model: true });
    expect(asked.stats.parsed).toBeGreaterThan(0);
    expect(JSON.stringify(asked.model)).toBe(expected.modelJson);
    expect(asked.diagnostics).toEqual(expected.diagnostics);
    await compiler.dispose();
  });
});
