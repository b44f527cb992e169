/**
 * A fresh process takes the generated folder's modules as its predecessor verified them
 * (write/validators.ts `seedVerified`, kept in cache/emit-record.ts): a module whose file still
 * has the recorded stamp (change time, size, inode) is current without being read. Reads are counted through the
 * real `node:fs` (its ESM exports synced to a counting `readFileSync`). A stamp recorded within a
 * tick of its file's mtime is not handed over, an edit in place is still rewritten, and a
 * damaged record only costs the reads.
 */
import fs, { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { pastATick, removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';
import { DIR, generatedFiles, shardedTool, shardedTree } from '../sharded-tree.js';

const N = 150;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Runs a fresh compiler, counting the reads of files in the generated folder. */
async function freshRun(root: string, cacheFile: string): Promise<{ folderReads: number }> {
  const original = fs.readFileSync;
  let folderReads = 0;
  const folder = join(root, DIR);
  fs.readFileSync = ((path: fs.PathOrFileDescriptor, options?: never) => {
    if (typeof path === 'string' && path.startsWith(folder)) folderReads++;
    return original(path, options);
  }) as typeof fs.readFileSync;
  syncBuiltinESMExports();
  try {
    const compiler = createCompiler({ root, cacheFile });
    const result = await compiler.run();
    await compiler.dispose();
    expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  } finally {
    fs.readFileSync = original;
    syncBuiltinESMExports();
  }
  return { folderReads };
}

async function cacheless(root: string): Promise<Map<string, string>> {
  const copy = writeTree(tempDir('verified-seed-cold'), {});
  dirs.push(copy);
  for (const name of readdirSync(join(root, 'tools')))
    writeTree(copy, { [`tools/${name}/index.ts`]: readFileSync(join(root, 'tools', name, 'index.ts'), 'utf8') });
  writeTree(copy, { 'AGENTS.md': readFileSync(join(root, 'AGENTS.md'), 'utf8') });
  const compiler = createCompiler({ root: copy, cacheFile: false });
  await compiler.run();
  await compiler.dispose();
  return generatedFiles(copy);
}

/** A generated sharded tree, its files then dated back, and one fresh run that verified them all. */
async function verifiedTree(prefix: string): Promise<{ root: string; cacheFile: string; modules: number }> {
  const root = writeTree(tempDir(prefix), shardedTree(N));
  dirs.push(root);
  const cacheFile = join(root, 'cache', 'units.json');
  await freshRun(root, cacheFile);
  const modules = readdirSync(join(root, DIR)).length;
  expect(modules).toBeGreaterThan(3);
  // Just written, every module's stamp is racy: nothing was handed over yet.
  expect(recorded(cacheFile)).toEqual([]);
  settleTree(root);
  writeFileSync(join(root, 'tools/kind-1/index.ts'), shardedTool(1, 'First edit'));
  // This run reads the modules it did not render to check their seals, and records them.
  const first = await freshRun(root, cacheFile);
  expect(first.folderReads).toBeGreaterThanOrEqual(modules - 3);
  expect(recorded(cacheFile).length).toBeGreaterThanOrEqual(modules - 3);
  return { root, cacheFile, modules };
}

/** Dates back the generated modules the record does not hand over; their names. */
function settleUnrecorded(root: string, cacheFile: string): string[] {
  const handed = new Set(recorded(cacheFile));
  const past = Date.now() / 1000 - 60;
  const names = readdirSync(join(root, DIR)).filter((name) => !handed.has(name));
  for (const name of names) utimesSync(join(root, DIR, name), past, past);
  // Settled once the ctime the dating set is a tick old (a stamp's time is the later of the two).
  pastATick();
  return names;
}

/** The names of the modules the emit record hands over. */
function recorded(cacheFile: string): string[] {
  const record = JSON.parse(readFileSync(`${cacheFile}.emit`, 'utf8')) as { folder?: { files: [string][] } };
  return (record.folder?.files ?? []).map(([name]) => name);
}

describe('the generated folder as a predecessor verified it', () => {
  it('is current without a read while each file keeps its recorded mtime and size', async () => {
    const { root, cacheFile } = await verifiedTree('verified-seed');
    // What the last run wrote was not handed over (racy); dated back, the next run verifies it.
    const unrecorded = settleUnrecorded(root, cacheFile);
    expect(unrecorded.length).toBeGreaterThan(0);
    writeFileSync(join(root, 'tools/kind-2/index.ts'), shardedTool(2, 'Second edit'));
    const before = generatedFiles(root);
    const { folderReads } = await freshRun(root, cacheFile);
    const after = generatedFiles(root);
    const kept = unrecorded.filter((name) => before.get(`${DIR}/${name}`) === after.get(`${DIR}/${name}`));
    expect(kept.length).toBeGreaterThan(0);
    expect(folderReads).toBe(kept.length);
    // Now every module it did not rewrite is handed over: the same edit again reads none.
    writeFileSync(join(root, 'tools/kind-2/index.ts'), shardedTool(2, 'Third edit'));
    expect((await freshRun(root, cacheFile)).folderReads).toBe(0);
    expect(generatedFiles(root)).toEqual(await cacheless(root));
  });

  it('hands over only the modules still in the folder', async () => {
    const { root, cacheFile } = await verifiedTree('verified-seed-removed');
    const validators = (): string[] => readdirSync(join(root, DIR)).filter((name) => /^[0-9a-f]{16}\./.test(name));
    const before = validators();
    // A schema of its own gives kind-0 a validator of its own; the edit back removes it.
    writeFileSync(join(root, 'tools/kind-0/index.ts'), shardedTool(0, undefined, 5));
    await freshRun(root, cacheFile);
    const added = validators().filter((name) => !before.includes(name));
    expect(added.length).toBe(1);
    settleUnrecorded(root, cacheFile);
    writeFileSync(join(root, 'tools/kind-3/index.ts'), shardedTool(3, 'Verify the new one'));
    await freshRun(root, cacheFile);
    expect(recorded(cacheFile)).toContain(added[0]);
    writeFileSync(join(root, 'tools/kind-0/index.ts'), shardedTool(0));
    await freshRun(root, cacheFile);
    expect(validators()).toEqual(before);
    expect(recorded(cacheFile)).not.toContain(added[0]);
  });

  it('still rewrites a module edited in place, and reads everything behind a damaged record', async () => {
    const { root, cacheFile, modules } = await verifiedTree('verified-seed-edit');
    const names = readdirSync(join(root, DIR));
    const shard = names.find((name) => name.startsWith('tools-'))!;
    const validator = names.find((name) => /^[0-9a-f]{16}\./.test(name))!;
    for (const [name, from, to] of [
      [shard, 'Look up', 'Look at'],
      [validator, 'validate', 'validatf'],
    ] as const) {
      const file = join(root, DIR, name);
      const before = statSync(file);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(from);
      writeFileSync(file, text.replace(from, to));
      // Its mtime moves as any save's does; the size is the same, so only the mtime tells.
      utimesSync(file, before.atime, new Date(before.mtimeMs + 5000));
    }
    writeFileSync(join(root, 'tools/kind-2/index.ts'), shardedTool(2, 'Second edit'));
    await freshRun(root, cacheFile);
    expect(generatedFiles(root)).toEqual(await cacheless(root));

    settleTree(root);
    await freshRun(root, cacheFile);
    const record = `${cacheFile}.emit`;
    let edits = 0;
    for (const ruin of [
      (text: string) => text.replace(/"files":\[\["/, '"files":[[1,"'),
      (text: string) => text.replace(/"dir":"[^"]*"/, '"dir":"/elsewhere"'),
    ]) {
      const text = readFileSync(record, 'utf8');
      expect(ruin(text)).not.toBe(text);
      writeFileSync(record, ruin(text));
      writeFileSync(join(root, 'tools/kind-4/index.ts'), shardedTool(4, `Edit ${++edits}`));
      const run = await freshRun(root, cacheFile);
      expect(run.folderReads).toBeGreaterThanOrEqual(modules - 3);
      expect(generatedFiles(root)).toEqual(await cacheless(root));
      settleTree(root);
      await freshRun(root, cacheFile);
    }
  });
});
