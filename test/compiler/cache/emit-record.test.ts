/**
 * The emit record (compiler/cache/emit-record.ts) through the real compiler on a sharded tree: a
 * fresh compiler (nothing in memory, the record and unit cache on disk, as a new process has
 * them) after one change renders only the generated modules that change touches, and writes
 * exactly the bytes a cacheless run over the same sources writes, for a schema edit, a
 * description edit, a tool added, a tool removed and a rename that moves a tool to another
 * shard. A damaged record, a record of another version and a record whose stamps lie are not
 * trusted: the run renders what they would have vouched for, and the output is still exact.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { shardsOf } from '../../../compiler/emit/shard-layout.js';
import { removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';
import { DIR, generatedFiles, OUT, shardedTool, shardedTree } from '../sharded-tree.js';

const N = 150;
const LAYOUT = shardsOf(Array.from({ length: N }, (_, i) => `kind-${i}`));
const SHARDS = LAYOUT.names.length;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A run of a compiler that starts with nothing in memory: what a new process does. */
async function freshRun(root: string, cacheFile: string | false) {
  const compiler = createCompiler({ root, cacheFile });
  const result = await compiler.run();
  await compiler.dispose();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return result;
}

/** The bytes a cacheless run writes for the same sources, in a copy of the tree. */
async function coldOutputs(root: string): Promise<Map<string, string>> {
  const copy = tempDir('emit-record-cold');
  dirs.push(copy);
  cpSync(root, copy, {
    recursive: true,
    filter: (src) => src === root || !['cache', OUT, DIR].includes(basename(src)),
  });
  await freshRun(copy, false);
  return generatedFiles(copy);
}

/** A sharded tree generated once with its cache (files dated back so their stamps are trusted). */
async function generated(prefix: string): Promise<{ root: string; cacheFile: string }> {
  const root = writeTree(tempDir(prefix), shardedTree(N));
  dirs.push(root);
  const cacheFile = join(root, 'cache', 'units.json');
  settleTree(root);
  const cold = await freshRun(root, cacheFile);
  expect(cold.stats.rendered).toBe(SHARDS + 1);
  expect(existsSync(`${cacheFile}.emit`)).toBe(true);
  return { root, cacheFile };
}

/** A name for kind-5 that lands in another shard (the layout of the other names keeps its shards). */
function movedName(): string {
  const others = Array.from({ length: N }, (_, i) => `kind-${i}`).filter((name) => name !== 'kind-5');
  for (let k = 0; ; k++) {
    const { names, of } = shardsOf([...others, `moved-${k}`]);
    if (names.join() === LAYOUT.names.join() && of.get(`moved-${k}`) !== LAYOUT.of.get('kind-5')) return `moved-${k}`;
  }
}

const edits: readonly { what: string; rendered: number; edit: (root: string) => void }[] = [
  {
    what: 'a schema edit (its shard only)',
    rendered: 1,
    edit: (root) => writeFileSync(join(root, 'tools/kind-1/index.ts'), shardedTool(1, undefined, 7)),
  },
  {
    what: 'a description edit (its shard only)',
    rendered: 1,
    edit: (root) => writeFileSync(join(root, 'tools/kind-3/index.ts'), shardedTool(3, 'Fetch the archived record')),
  },
  {
    what: 'a tool added (its shard and types)',
    rendered: 2,
    edit: (root) => writeTree(root, { [`tools/kind-${N}/index.ts`]: shardedTool(N) }),
  },
  {
    what: 'a tool removed (its shard and types)',
    rendered: 2,
    edit: (root) => rmSync(join(root, 'tools/kind-4'), { recursive: true }),
  },
  {
    what: 'a rename that moves a tool to another shard (both shards and types)',
    rendered: 3,
    edit: (root) => renameSync(join(root, 'tools/kind-5'), join(root, `tools/${movedName()}`)),
  },
];

describe('a fresh process after one change', () => {
  for (const { what, rendered, edit } of edits) {
    it(`renders only what changed and writes a cold run's bytes: ${what}`, async () => {
      const { root, cacheFile } = await generated('emit-record');
      const before = generatedFiles(root);
      edit(root);
      const result = await freshRun(root, cacheFile);
      expect(result.stats.parsed).toBeLessThanOrEqual(1);
      expect(result.stats.rendered).toBe(rendered);
      const after = generatedFiles(root);
      expect(after).toEqual(await coldOutputs(root));
      // The change reached the disk: the folder's files that differ are the rendered ones.
      const differing = [...new Set([...before.keys(), ...after.keys()])].filter(
        (path) => before.get(path) !== after.get(path),
      );
      expect(differing.filter((path) => /\/(tools-|types\.)/.test(path)).length).toBe(rendered);
      // And the record now vouches for the new modules: a second fresh run renders nothing.
      expect((await freshRun(root, cacheFile)).stats).toMatchObject({ parsed: 0 });
    });
  }

  it('renders every module when the record is damaged or of another version, and stays exact', async () => {
    const { root, cacheFile } = await generated('emit-record-bad');
    const record = `${cacheFile}.emit`;
    const good = readFileSync(record, 'utf8');
    for (const bad of [
      'not json',
      good.replace(/"version":"[^"]*"/, '"version":"zhin-gen-cache-0@0.0.0"'),
      good.replace(/"modules":\[\[/, '"modules":[[1,'),
      good.replace(/\/\/ tool table shard/, 'tool table shard'),
    ]) {
      writeFileSync(join(root, 'tools/kind-2/index.ts'), shardedTool(2, `Described ${bad.length}`));
      writeFileSync(record, bad);
      const result = await freshRun(root, cacheFile);
      expect(result.stats.rendered).toBe(SHARDS + 1);
      expect(generatedFiles(root)).toEqual(await coldOutputs(root));
      expect(readFileSync(record, 'utf8')).not.toBe(bad);
    }
  });

  it('rewrites a module whose recorded stamp is not the one on disk', async () => {
    const { root, cacheFile } = await generated('emit-record-lie');
    const record = `${cacheFile}.emit`;
    // Every shard's recorded stamp now names other bytes: the writer must not keep the files.
    writeFileSync(record, readFileSync(record, 'utf8').replace(/(of \d+, )[0-9a-f]{32}/g, `$1${'0'.repeat(32)}`));
    const shard = readdirSync(join(root, DIR)).find((name) => name.startsWith('tools-'))!;
    writeFileSync(join(root, DIR, shard), '// Generated by zhin-gen. Do not edit.\n// tampered\n');
    writeFileSync(join(root, 'tools/kind-7/index.ts'), shardedTool(7, undefined, 3));
    await freshRun(root, cacheFile);
    expect(generatedFiles(root)).toEqual(await coldOutputs(root));
  });
});
