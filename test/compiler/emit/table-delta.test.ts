/**
 * Watch-mode emit rebuilds only what an edit touched (compiler/emit/sorted-tools.ts `delta`,
 * manifest.ts `toolEntries`, shards.ts `groupShards`): the sorted table, the tool lines and the
 * shard groups are the last emit's with the replaced objects swapped in. Through one watching
 * compiler on a sharded tree, after each edit (one tool; two tools of one shard at once; two of
 * different shards with a schema change; a tool added, then edited; a tool removed; the edits
 * undone) every generated file must hold the bytes a cacheless compiler writes for the same
 * sources in a copy of the tree, and report what it reports (the provider checks keep each
 * unchanged tool's outcome by position). A shard group, a line or an outcome left stale fails this.
 */
import { cpSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler, type FileEvent } from '../../../compiler/index.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';
import { shardsOf } from '../../../compiler/emit/shard-layout.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';
import { DIR, generatedFiles, OUT, shardedTool, shardedTree } from '../sharded-tree.js';

const N = 150;
const kinds = (n: number): string[] => Array.from({ length: n }, (_, i) => `kind-${i}`);
const LAYOUT = shardsOf(kinds(N));

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A run's diagnostics as comparable lines (their paths are relative to the root). */
const reported = (diagnostics: readonly Diagnostic[]): string[] =>
  diagnostics.map((d) => `${d.code} ${d.severity} ${d.file}:${d.line}:${d.column} ${d.message}`);

/** What a compiler with nothing in memory and no cache writes and reports for these sources. */
async function freshOutputs(root: string): Promise<{ files: Map<string, string>; diagnostics: string[] }> {
  const copy = tempDir('table-delta-fresh');
  dirs.push(copy);
  cpSync(root, copy, { recursive: true, filter: (src) => src === root || ![OUT, DIR].includes(basename(src)) });
  const compiler = createCompiler({ root: copy, cacheFile: false });
  const result = await compiler.run();
  await compiler.dispose();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return { files: generatedFiles(copy), diagnostics: reported(result.diagnostics) };
}

const shardOf = (i: number): string => LAYOUT.of.get(`kind-${i}`)!;

describe('watch-mode emit of a sharded table', () => {
  it('writes what a fresh compiler writes after every kind of edit', async () => {
    const root = writeTree(tempDir('table-delta'), shardedTree(N));
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    expect((await compiler.run()).errors).toBe(0);
    // Two tools of one shard, and one of another.
    const first = 5;
    const sameShard = Array.from({ length: N }, (_, i) => i).find((i) => i !== first && shardOf(i) === shardOf(first))!;
    const otherShard = Array.from({ length: N }, (_, i) => i).find((i) => shardOf(i) !== shardOf(first))!;
    const toolFile = (i: number): string => join(root, 'tools', `kind-${i}`, 'index.ts');
    const edit = async (changes: Record<number, string | undefined>, label: string) => {
      const events: FileEvent[] = [];
      for (const [key, text] of Object.entries(changes)) {
        const file = toolFile(Number(key));
        if (text === undefined) {
          rmSync(join(root, 'tools', `kind-${key}`), { recursive: true });
          events.push({ type: 'unlinkDir', path: join(root, 'tools', `kind-${key}`) });
        } else {
          writeTree(root, { [`tools/kind-${key}/index.ts`]: text });
          events.push({ type: 'change', path: file });
        }
      }
      compiler.notify(events);
      const result = await compiler.run();
      expect(result.errors, `${label}: ${JSON.stringify(result.diagnostics)}`).toBe(0);
      const watched = generatedFiles(root);
      const fresh = await freshOutputs(root);
      expect([...watched.keys()], label).toEqual([...fresh.files.keys()]);
      for (const [path, bytes] of fresh.files) expect(watched.get(path), `${label}: ${path}`).toBe(bytes);
      // The provider checks (validate/providers.ts) reuse each unchanged tool's outcome by position.
      expect(reported(result.diagnostics), label).toEqual(fresh.diagnostics);
      return { watched, diagnostics: reported(result.diagnostics) };
    };
    const before = generatedFiles(root);
    const one = await edit({ [first]: shardedTool(first, 'One tool, new words') }, 'one tool');
    expect([...one.watched].filter(([path, bytes]) => before.get(path) !== bytes).length).toBeGreaterThan(0);
    // Over OpenAI's description limit, then back under it: the warning comes and goes with the edit.
    const long = await edit({ [first]: shardedTool(first, `Long ${'words '.repeat(300)}`) }, 'a long description');
    expect(long.diagnostics.filter((d) => d.startsWith('ZG5001'))).toHaveLength(1);
    const short = await edit({ [first]: shardedTool(first, 'Short again') }, 'the description shortened');
    expect(short.diagnostics.filter((d) => d.startsWith('ZG5001'))).toHaveLength(0);
    await edit(
      {
        [first]: shardedTool(first, 'One tool, again'),
        [sameShard]: shardedTool(sameShard, 'Its shard neighbour, edited with it'),
      },
      'two tools of one shard',
    );
    await edit(
      { [sameShard]: shardedTool(sameShard, 'Neighbour', 4), [otherShard]: shardedTool(otherShard, 'Far', 7) },
      'two shards, schemas changed',
    );
    // Tool 3 has a JSON Schema (every third): a new validator key.
    await edit({ 3: shardedTool(3, 'A JSON Schema tool', 9) }, 'a JSON Schema changed');
    await edit({ [N]: shardedTool(N, 'A tool added') }, 'a tool added');
    await edit({ [N]: shardedTool(N, 'The added tool, edited') }, 'the added tool edited');
    await edit({ [otherShard]: undefined }, 'a tool removed');
    await edit({ [first]: shardedTool(first) }, 'back to the first text');
    await compiler.dispose();
  });

  it('a tool that splits its shard renames that shard alone; its removal merges it back', async () => {
    const n = 128;
    const before = shardsOf(kinds(n)).names;
    const after = shardsOf(kinds(n + 1)).names;
    const split = before.filter((name) => !after.includes(name));
    expect(split).toHaveLength(1);
    expect(after.filter((name) => !before.includes(name))).toEqual([`${split[0]}0`, `${split[0]}1`]);
    const root = writeTree(tempDir('table-delta-count'), shardedTree(n));
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    expect((await compiler.run()).errors).toBe(0);
    const check = async (label: string) => {
      const result = await compiler.run();
      expect(result.errors, label).toBe(0);
      const fresh = await freshOutputs(root);
      const watched = generatedFiles(root);
      expect([...watched.keys()], label).toEqual([...fresh.files.keys()]);
      for (const [path, bytes] of fresh.files) expect(watched.get(path), `${label}: ${path}`).toBe(bytes);
    };
    const start = generatedFiles(root);
    /** The shard files whose bytes differ from the start, or that exist on one side only. */
    const moved = (): string[] => {
      const now = generatedFiles(root);
      return [...new Set([...start.keys(), ...now.keys()])]
        .filter((path) => path.includes('/tools-') && start.get(path) !== now.get(path))
        .sort();
    };
    writeTree(root, { [`tools/kind-${n}/index.ts`]: shardedTool(n) });
    compiler.notify([{ type: 'add', path: join(root, 'tools', `kind-${n}`, 'index.ts') }]);
    await check('one more tool: its shard splits in two');
    expect(moved()).toEqual([split[0]!, `${split[0]}0`, `${split[0]}1`].map((name) => `${DIR}/${name}.ts`));
    rmSync(join(root, 'tools', `kind-${n}`), { recursive: true });
    compiler.notify([{ type: 'unlinkDir', path: join(root, 'tools', `kind-${n}`) }]);
    await check('back to one shard');
    expect(moved()).toEqual([]);
    await compiler.dispose();
  });
});
