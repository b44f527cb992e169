/**
 * What a compiler keeps of a sharded table after a run: the shards' texts and the tools' JSON
 * lines are built when the writer needs them and not held afterwards (at 20,000 tools they were
 * ~50 MB of a cold run's peak), and a watch-mode edit still writes exactly what a fresh compiler
 * writes. A child process with --expose-gc looks for them in a heap snapshot taken after the run,
 * with the compiler still alive: a line is recognised by the description's backslash, which only
 * the emitted JSON-in-a-string-literal doubles twice; a shard by its first line and its size.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const PROBE = `
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSnapshot } from 'node:v8';
import { createCompiler } from ${JSON.stringify(join(REPO, 'compiler', 'index.ts'))};
const [root] = process.argv.slice(2);
const TOOLS = 100;
const tool = (i, note = '') =>
  "import { defineAgentTool } from '@zhin-gen/runtime';\\n\\nexport default defineAgentTool({\\n  description: " +
  JSON.stringify('Record ' + i + ' back\\\\slash ' + note) +
  ",\\n  requiresApproval: 'never',\\n  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },\\n  async execute() {\\n    return " + i + ";\\n  },\\n});\\n";
for (let i = 0; i < TOOLS; i++) {
  mkdirSync(join(root, 'tools', 'kind-' + i), { recursive: true });
  writeFileSync(join(root, 'tools', 'kind-' + i, 'index.ts'), tool(i));
}
writeFileSync(join(root, 'AGENTS.md'), '# Bot\\n');
const OUT = 'zhin-capabilities.gen';
const files = () => {
  const out = new Map([['main', readFileSync(join(root, OUT + '.ts'), 'utf8')]]);
  for (const name of readdirSync(join(root, OUT + '.validators')).sort())
    out.set(name, readFileSync(join(root, OUT + '.validators', name), 'utf8'));
  return out;
};
async function retained() {
  for (let i = 0; i < 3; i++) { await new Promise((r) => setTimeout(r, 10)); globalThis.gc(); }
  const chunks = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk);
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const { node_fields: fields, node_types: [types] } = snapshot.snapshot.meta;
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  // The needle is a string of the heap too: a line also names its tool.
  const LINE = 'back' + '\\\\'.repeat(4) + 'slash';
  let lines = 0;
  let shards = 0;
  for (let at = 0; at < snapshot.nodes.length; at += fields.length) {
    if (types[snapshot.nodes[at + type]] !== 'string') continue;
    const text = snapshot.strings[snapshot.nodes[at + name]];
    if (text.includes(LINE) && text.includes('qualifiedName')) lines++;
    else if (text.startsWith('import type { ManifestTool } from') && snapshot.nodes[at + size] > 4096) shards++;
  }
  return { lines, shards };
}
const compiler = createCompiler({ root, cacheFile: false });
const cold = await compiler.run({ write: true });
if (cold.errors > 0) throw new Error('cold run failed');
const shardFiles = [...files().keys()].filter((n) => n.startsWith('tools-')).length;
const afterCold = await retained();
// An edit in the same process (watch mode), then a fresh compiler over the same tree.
const edited = join(root, 'tools', 'kind-7', 'index.ts');
writeFileSync(edited, tool(7, 'edited'));
compiler.notify([{ type: 'change', path: edited }]);
await compiler.run({ write: true });
const watched = files();
rmSync(join(root, OUT + '.ts'));
rmSync(join(root, OUT + '.validators'), { recursive: true });
await createCompiler({ root, cacheFile: false }).run({ write: true });
const fresh = files();
const watch = {
  same: watched.size === fresh.size && [...fresh].every(([k, v]) => watched.get(k) === v),
  edited: [...watched.values()].some((text) => text.includes('edited')),
};
console.log(JSON.stringify({ shardFiles, afterCold, watch }));
`;

interface Measured {
  shardFiles: number;
  afterCold: { lines: number; shards: number };
  watch: { same: boolean; edited: boolean };
}

let measured: Measured | undefined;
/** One child for both tests: a cold run, then an edit in the same process. */
function probe(): Measured {
  if (measured) return measured;
  const dir = tempDir('retained-texts');
  dirs.push(dir);
  const script = join(dir, 'probe.mts');
  writeFileSync(script, PROBE);
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, join(dir, 'tree')], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  measured = JSON.parse(run.stdout.trim().split('\n').pop()!) as Measured;
  return measured;
}

describe('texts of a sharded table', () => {
  it('are not held by the compiler after a cold run (no tool line, no shard text)', () => {
    const measured = probe();
    expect(measured.shardFiles).toBeGreaterThan(1);
    expect(measured.afterCold).toEqual({ lines: 0, shards: 0 });
  }, 120_000);

  it('still give a watch-mode edit exactly the files a fresh compiler writes', () => {
    expect(probe().watch).toEqual({ same: true, edited: true });
  }, 120_000);
});
