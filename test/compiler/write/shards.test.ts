/**
 * A large bot's tool table in shards (compiler/emit/shards.ts), through the real compiler and
 * CLI: the host loads the sharded manifest with its table sorted by name; an edit to one tool
 * rewrites exactly that tool's shard (and search.ts when a searched text changed), adding a
 * tool its shard and types.ts, and the main module keeps its bytes and mtime; a table that
 * shrinks below the threshold goes back into the main module and the shards are removed (a file
 * zhin-gen did not write is kept); `check` reports any module of the folder edited in place,
 * located, and `generate` repairs it.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { isSharded, SHARD_TOOLS, shardsOf } from '../../../compiler/emit/shard-layout.js';
import { type CapabilityManifest, createCapabilityHost } from '../../../runtime/index.js';
import { cli, removeDir, tempDir, writeTree } from '../../helpers.js';
import { shardedTool, shardedTree, strictTsconfig, tsc } from '../sharded-tree.js';

const OUT = 'zhin-capabilities.gen.ts';
const DIR = 'zhin-capabilities.gen.validators';
const N = 150;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

type Snapshot = Map<string, { bytes: string; mtimeMs: number }>;

/** The main module and every file of the folder, with bytes and mtime. */
function snapshot(root: string): Snapshot {
  const out: Snapshot = new Map();
  const add = (rel: string) =>
    out.set(rel, { bytes: readFileSync(join(root, rel), 'utf8'), mtimeMs: statSync(join(root, rel)).mtimeMs });
  add(OUT);
  for (const name of readdirSync(join(root, DIR)).sort()) add(`${DIR}/${name}`);
  return out;
}

/** Paths whose bytes or mtime differ between two snapshots, plus added and removed ones. */
function changed(before: Snapshot, after: Snapshot): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths]
    .filter((p) => before.get(p)?.bytes !== after.get(p)?.bytes || before.get(p)?.mtimeMs !== after.get(p)?.mtimeMs)
    .sort();
}

const shardOf = (root: string, name: string): string =>
  readdirSync(join(root, DIR)).find(
    (file) =>
      file.startsWith('tools-') && readFileSync(join(root, DIR, file), 'utf8').includes(`"qualifiedName":"${name}"`),
  )!;

async function generate(root: string, compiler = createCompiler({ root, cacheFile: false })) {
  const result = await compiler.run();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return result;
}

// mtimes have a resolution; a rewrite within it would look unchanged.
const tick = () => new Promise((resolve) => setTimeout(resolve, 25));

describe('the sharded tool table', () => {
  it('is loaded by the host as one table sorted by name, with loaders and validators', async () => {
    const root = writeTree(tempDir('shards-load'), shardedTree(N));
    dirs.push(root);
    await generate(root);
    const shards = readdirSync(join(root, DIR)).filter((f) => f.startsWith('tools-'));
    expect(shards).toEqual(
      shardsOf(Array.from({ length: N }, (_, i) => `kind-${i}`)).names.map((name) => `${name}.ts`),
    );
    expect([isSharded(SHARD_TOOLS), isSharded(SHARD_TOOLS + 1)]).toEqual([false, true]);
    const main = readFileSync(join(root, OUT), 'utf8');
    expect(main).not.toContain('"qualifiedName":');
    expect(main.length).toBeLessThan(6000);
    const { manifest } = (await import(`${pathToFileURL(join(root, OUT)).href}?v=load`)) as {
      manifest: CapabilityManifest;
    };
    const names = manifest.tools.map((t) => t.qualifiedName);
    expect(names).toEqual(
      Array.from({ length: N }, (_, i) => `kind-${i}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    const host = createCapabilityHost();
    const loaded = await host.load(manifest);
    expect(loaded.tools).toBeGreaterThanOrEqual(N);
    const json = manifest.tools.find((t) => t.qualifiedName === 'kind-3')!;
    const zod = manifest.tools.find((t) => t.qualifiedName === 'kind-4')!;
    expect(typeof json.validator).toBe('function');
    const validate = (await json.validator!()).default as (data: unknown) => boolean;
    expect(validate({ id: 'x' })).toBe(true);
    expect(validate({ id: '' })).toBe(false);
    expect(zod.validator).toBeUndefined();
    const module = (await zod.load()) as { default: { description: string } };
    expect(module.default.description).toBe('Look up record kind 4');
  });

  it('a fresh compiler over the output it wrote (no cache) takes every module as current and writes nothing', async () => {
    // A cold run takes each stamp from the text it writes; a later process compares stamps it
    // takes without building the text (shards.ts, types-module.ts): the two must agree.
    const root = writeTree(tempDir('shards-fresh'), {
      ...shardedTree(N),
      'tools/conditional/index.ts': shardedTool(1),
    });
    dirs.push(root);
    const first = await createCompiler({ root, cacheFile: false }).run();
    expect(first.errors).toBe(0);
    expect(first.written).toBe(true);
    const before = snapshot(root);
    const again = await createCompiler({ root, cacheFile: false }).run();
    expect(again.errors).toBe(0);
    expect(again.written).toBe(false);
    expect(changed(before, snapshot(root))).toEqual([]);
  });

  it('a one-tool edit rewrites that shard only; a new tool its shard and types.ts; the main module never', async () => {
    const root = writeTree(tempDir('shards-edit'), shardedTree(N));
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    await generate(root, compiler);
    // Watch mode: the compiler told which file changed.
    let before = snapshot(root);
    await tick();
    writeFileSync(join(root, 'tools/kind-7/index.ts'), shardedTool(7, 'Look up record kind 7', 3));
    compiler.notify([{ type: 'change', path: join(root, 'tools/kind-7/index.ts') }]);
    await generate(root, compiler);
    expect(changed(before, snapshot(root))).toEqual([`${DIR}/${shardOf(root, 'kind-7')}`]);

    // A searched text (the description): the shard and the search index.
    before = snapshot(root);
    await tick();
    writeFileSync(join(root, 'tools/kind-8/index.ts'), shardedTool(8, 'Find archived weather reports'));
    compiler.notify([{ type: 'change', path: join(root, 'tools/kind-8/index.ts') }]);
    await generate(root, compiler);
    expect(changed(before, snapshot(root))).toEqual([`${DIR}/${shardOf(root, 'kind-8')}`, `${DIR}/search.ts`].sort());
    await compiler.dispose();
    // What the watch-mode runs wrote (from memoised pieces) is what a fresh run writes.
    before = snapshot(root);
    await tick();
    await generate(root);
    expect(changed(before, snapshot(root))).toEqual([]);

    // A fresh process over the same edit kinds: a new tool.
    before = snapshot(root);
    await tick();
    writeTree(root, { 'tools/kind-new/index.ts': shardedTool(1000) });
    await generate(root);
    expect(changed(before, snapshot(root))).toEqual(
      [`${DIR}/${shardOf(root, 'kind-new')}`, `${DIR}/search.ts`, `${DIR}/types.ts`].sort(),
    );
    expect(readFileSync(join(root, DIR, 'types.ts'), 'utf8')).toContain('"kind-new": InputOf<typeof tool');
    // A JSON-Schema tool's schema edit: its shard and its new validator (the old one stays: other tools share it).
    before = snapshot(root);
    await tick();
    writeFileSync(join(root, 'tools/kind-9/index.ts'), shardedTool(9, 'Look up record kind 9', 4));
    await generate(root);
    const diff = changed(before, snapshot(root));
    expect(diff.filter((p) => !/\/[0-9a-f]{16}\.ts$/.test(p))).toEqual([`${DIR}/${shardOf(root, 'kind-9')}`]);
    expect(diff.filter((p) => /\/[0-9a-f]{16}\.ts$/.test(p))).toHaveLength(1);
  });

  it('type-checks: ToolName is the union of the names, ToolInputs maps each to its input type', async () => {
    const root = writeTree(tempDir('shards-tsc'), {
      ...shardedTree(N),
      // A JavaScript tool (no allowJs, no .d.ts): its shard's import() must not make tsc look for types.
      'tools/js-tool/index.js': `import { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: 'A JS tool', execute: () => 1 });\n`,
    });
    dirs.push(root);
    await generate(root);
    writeTree(root, {
      'use.ts': `import { manifest, type ToolInputs, type ToolName } from './zhin-capabilities.gen.js';
export const first: ToolName = manifest.tools[0]!.qualifiedName as ToolName;
export const zodInput: ToolInputs['kind-4'] = { id: 'x' };
// @ts-expect-error a Zod tool's input is typed: id is a string
export const wrong: ToolInputs['kind-4'] = { id: 1 };
// @ts-expect-error not a tool of this bot
export const missing: ToolName = 'kind-9999';
`,
      'tsconfig.json': strictTsconfig(['zhin-capabilities.gen.ts', 'use.ts']),
    });
    const checked = tsc(root);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
  });

  it('back under the threshold: the table returns to the main module and only generated shards are removed', async () => {
    const root = writeTree(tempDir('shards-shrink'), shardedTree(SHARD_TOOLS + 6));
    dirs.push(root);
    await generate(root);
    expect(readdirSync(join(root, DIR)).filter((f) => f.startsWith('tools-'))).toHaveLength(2);
    expect(existsSync(join(root, DIR, 'items.ts'))).toBe(true);
    // A shard of an earlier version's naming (tools-<i>-of-<n>), written by zhin-gen: removed.
    const [first] = readdirSync(join(root, DIR)).filter((f) => f.startsWith('tools-'));
    writeFileSync(join(root, DIR, 'tools-3-of-4.ts'), readFileSync(join(root, DIR, first!), 'utf8'));
    await generate(root);
    expect(existsSync(join(root, DIR, 'tools-3-of-4.ts'))).toBe(false);
    // Named like a shard, but not written by zhin-gen: never removed.
    writeFileSync(join(root, DIR, 'tools-9-of-16.ts'), 'export const mine = 1;\n');
    for (let i = SHARD_TOOLS; i < SHARD_TOOLS + 6; i++) removeDir(join(root, `tools/kind-${i}`));
    await generate(root);
    expect(readdirSync(join(root, DIR)).filter((f) => f.startsWith('tools-'))).toEqual(['tools-9-of-16.ts']);
    // The other side modules of a sharded bot go with the shards.
    expect(existsSync(join(root, DIR, 'types.ts'))).toBe(false);
    expect(existsSync(join(root, DIR, 'items.ts'))).toBe(false);
    expect(readFileSync(join(root, OUT), 'utf8')).toContain('"qualifiedName":"kind-0"');
  });
});

describe('check and the generated folder', () => {
  it('reports each kind of generated module edited in place, located; generate repairs it', () => {
    const root = writeTree(tempDir('shards-check'), shardedTree(N));
    dirs.push(root);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(cli(['check', '--root', root]).status).toBe(0);
    const validator = readdirSync(join(root, DIR)).find((f) => /^[0-9a-f]{16}\.ts$/.test(f))!;
    const shard = shardOf(root, 'kind-5');
    const cases: [string, (text: string) => string][] = [
      [`${DIR}/${shard}`, (t) => t.replace('Look up record kind 5', 'Look up record kind five')],
      [`${DIR}/types.ts`, (t) => t.replace('"kind-5": InputOf', '"kind-55": InputOf')],
      [`${DIR}/items.ts`, (t) => t.replace('dir: "."', 'dir: "elsewhere"')],
      [`${DIR}/search.ts`, (t) => t.replace('record', 'recorb')],
      [`${DIR}/${validator}`, (t) => t.replace('return errors === 0', 'return true')],
      [OUT, (t) => t.replace('version: 1,', 'version: 1, ')],
    ];
    for (const [rel, edit] of cases) {
      const file = join(root, rel);
      const text = readFileSync(file, 'utf8');
      const edited = edit(text);
      expect(edited, rel).not.toBe(text);
      writeFileSync(file, edited);
      const check = cli(['check', '--root', root]);
      expect(check.status, `${rel}: ${check.stdout}${check.stderr}`).toBe(2);
      if (rel === OUT) expect(check.stderr).toContain(`${OUT} is out of date`);
      else
        expect(check.stderr).toMatch(
          new RegExp(
            `${rel.replace(/[.]/g, '\\.')}:\\d+:1 - error: generated module differs from what zhin-gen generate writes: it was edited after zhin-gen wrote it`,
          ),
        );
      expect(check.stderr).toContain('Fix: npx zhin-gen generate');
      const github = cli(['check', '--format', 'github'], root);
      expect(github.status).toBe(2);
      expect(github.stdout).toContain(`::error file=${rel}`);
      const json = cli(['check', '--root', root, '--format', 'json']);
      expect(json.status).toBe(2);
      const report = JSON.parse(json.stdout) as {
        stale: boolean;
        generated?: { missing: string[]; changed: { path: string; line: number; reason: string }[] };
      };
      expect(report.stale).toBe(true);
      // The main module's own staleness is the top-level `stale`; a folder module is named with its line.
      if (rel === OUT) expect(report.generated).toBeUndefined();
      else expect(report.generated?.changed.map((c) => c.path)).toEqual([rel]);
      expect(cli(['generate', '--root', root]).status).toBe(0);
      expect(readFileSync(file, 'utf8'), rel).toBe(text);
      expect(cli(['check', '--root', root]).status, rel).toBe(0);
    }
  });
});
