/**
 * Memos belong to the compiler instance: two compilers on two roots in one process, with their
 * watch-mode runs interleaved, each produce exactly what a fresh compiler produces for its tree
 * (module-level memos used to be shared, so one compiler's run evicted the other's pieces).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { REPO, removeDir, tempDir, writeTree } from '../helpers.js';

const tool = (description: string, schema = "{ type: 'object', properties: { q: { type: 'string' } } }"): string =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  inputSchema: ${schema},\n  requiresApproval: 'never',\n  async execute() {\n    return 1;\n  },\n});\n`;

const tree = (name: string): Record<string, string> => ({
  'AGENTS.md': `# ${name}\n`,
  'tools/shared-name/index.ts': tool(`${name} shared`),
  [`tools/${name}-only/index.ts`]: tool(`${name} only`, "{ type: 'object', properties: { n: { type: 'number' } } }"),
  'skills/notes/SKILL.md': `---\nname: notes\ndescription: ${name} notes.\n---\nWrite.\n`,
  'agents/helper/agent.json': JSON.stringify({ description: `${name} helper` }),
  'agents/helper/system.md': '# S\n\ns\n',
  'agents/helper/boundaries.md': '# B\n\nb\n',
  'agents/helper/conventions.md': '# C\n\nc\n',
  'agents/helper/tools/sweep/index.ts': tool(`${name} sweep`),
});

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function fresh(root: string): Promise<string> {
  return (await createCompiler({ root, cacheFile: false }).run({ write: false })).code;
}

describe('compiler-owned memos', () => {
  it('two compilers in one process, runs interleaved, each equal to a fresh compiler', async () => {
    const a = writeTree(tempDir('memo-a'), tree('alpha'));
    const b = writeTree(tempDir('memo-b'), tree('beta'));
    dirs.push(a, b);
    const ca = createCompiler({ root: a, cacheFile: false });
    const cb = createCompiler({ root: b, cacheFile: false });
    for (let round = 0; round < 4; round++) {
      const [ra, rb] = [await ca.run({ write: true }), await cb.run({ write: true })];
      expect(ra.errors + rb.errors).toBe(0);
      expect(ra.code).toBe(await fresh(a));
      expect(rb.code).toBe(await fresh(b));
      // Watch-mode edits on both sides before the next interleaved pair of runs.
      const edit = (root: string, name: string): void => {
        const file = join(root, 'tools/shared-name/index.ts');
        writeFileSync(file, tool(`${name} shared, round ${round}`));
      };
      edit(a, 'alpha');
      edit(b, 'beta');
      ca.notify([{ type: 'change', path: join(a, 'tools/shared-name/index.ts') }]);
      cb.notify([{ type: 'change', path: join(b, 'tools/shared-name/index.ts') }]);
    }
    const [ra, rb] = [await ca.run({ write: true }), await cb.run({ write: true })];
    expect(ra.code).toContain('alpha shared, round 3');
    expect(rb.code).toContain('beta shared, round 3');
    expect(ra.code).toBe(await fresh(a));
    expect(rb.code).toBe(await fresh(b));
    await ca.dispose();
    await cb.dispose();
  });
});

describe('dispose()', () => {
  it('returns the memory: nothing a disposed compiler computed stays reachable', () => {
    // A child process with --expose-gc: the schemas of a 150-tool tree are held only through
    // WeakRefs once the compiler is disposed and dropped; after collection none is alive, and
    // four more compile/dispose cycles leave the heap where the first left it.
    const dir = tempDir('memo-gc');
    dirs.push(dir);
    const script = join(dir, 'probe.mts');
    writeFileSync(
      script,
      `import { generateTree } from ${JSON.stringify(join(REPO, 'bench', 'gen-tree.ts'))};
import { createCompiler } from ${JSON.stringify(join(REPO, 'compiler', 'index.ts'))};
const root = ${JSON.stringify(join(dir, 'tree'))};
generateTree(150, root);
const gc = globalThis.gc;
const settle = async () => { for (let i = 0; i < 4; i++) { await new Promise((r) => setTimeout(r, 20)); gc(); } };
async function cycle() {
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: false });
  const refs = result.model.tools.map((tool) => new WeakRef(tool.inputSchema));
  await compiler.dispose();
  return refs;
}
await cycle();
await settle();
const before = process.memoryUsage().heapUsed;
let refs = [];
for (let k = 0; k < 4; k++) refs = await cycle();
await settle();
console.log(JSON.stringify({ tools: refs.length, alive: refs.filter((r) => r.deref() !== undefined).length, growth: process.memoryUsage().heapUsed - before }));
`,
    );
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const measured = JSON.parse(run.stdout.trim().split('\n').pop()!) as {
      tools: number;
      alive: number;
      growth: number;
    };
    expect(measured.tools).toBeGreaterThanOrEqual(150);
    expect(measured.alive).toBe(0);
    // Four cycles of a 150-tool tree allocate far more than this; what stays is JIT noise.
    expect(measured.growth).toBeLessThan(4 * 1024 * 1024);
  }, 120_000);
});
