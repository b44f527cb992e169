/**
 * The items module of a sharded bot (compiler/emit/items-module.ts), through the real compiler:
 * the example bot (skills, agents, hooks, prompt sections, a plugin entry) with enough extra tools
 * for a sharded table. Its manifest has exactly the items of the unsharded example bot, its
 * hooks', plugin entry's and search index's imports resolve from the folder, the host loads it,
 * the main module is a few kilobytes that name no skill, agent or plugin, a tool edit in watch
 * mode leaves the main module and items.ts untouched, `SkillName` / `AgentName` type-check from
 * the main module, and a bot at the threshold writes no items module.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { SHARD_TOOLS } from '../../../compiler/emit/shards.js';
import { type CapabilityManifest, createCapabilityHost } from '../../../runtime/index.js';
import { copyFixture, REPO, removeDir, writeTree } from '../../helpers.js';
import { strictTsconfig, tsc } from '../sharded-tree.js';

const OUT = 'zhin-capabilities.gen.ts';
const DIR = 'zhin-capabilities.gen.validators';
const ITEMS = `${DIR}/items.ts`;

const tool = (i: number, min = 1): string =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: 'Look up record kind ${i}',\n  inputSchema: z.object({ id: z.string().min(${min}) }),\n  async execute({ id }) {\n    return id;\n  },\n});\n`;

function extraTools(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`tools/kind-${i}/index.ts`] = tool(i);
  return files;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function generate(root: string, compiler = createCompiler({ root, cacheFile: false })) {
  const result = await compiler.run({ write: true });
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return result;
}

async function load(root: string, tag: string): Promise<CapabilityManifest> {
  const url = `${pathToFileURL(join(root, OUT)).href}?v=${tag}`;
  return ((await import(url)) as { manifest: CapabilityManifest }).manifest;
}

/** The manifest's data without its tool table (functions dropped by JSON). */
const itemsOf = (manifest: CapabilityManifest): string => JSON.stringify({ ...manifest, tools: undefined });

describe('the items module of a sharded bot', () => {
  it('holds the same items as the unsharded manifest, and its imports resolve from the folder', async () => {
    const small = copyFixture('example-bot', 'items-small');
    const large = writeTree(copyFixture('example-bot', 'items-large'), extraTools(SHARD_TOOLS + 10));
    dirs.push(small, large);
    await generate(small);
    await generate(large);
    expect(existsSync(join(small, ITEMS))).toBe(false);
    expect(existsSync(join(large, ITEMS))).toBe(true);

    const main = readFileSync(join(large, OUT), 'utf8');
    expect(main.length).toBeLessThan(4000);
    for (const name of ['icqq__admin', 'reviewer', 'plugin.ts', 'audit']) expect(main).not.toContain(name);
    expect(main).toContain('...items,');

    const flat = await load(small, 'small');
    const sharded = await load(large, 'large');
    expect(itemsOf(sharded)).toBe(itemsOf(flat));
    expect(Object.keys(sharded).sort()).toEqual(Object.keys(flat).sort());
    expect(sharded.tools.length).toBe(flat.tools.length + SHARD_TOOLS + 10);

    // Specifiers relative to the folder, not to the main module: each import resolves.
    expect(sharded.hooks.length).toBeGreaterThan(0);
    for (const hook of sharded.hooks) {
      const module = (await hook.load()) as { default?: unknown };
      expect(module.default, hook.id).toBeDefined();
    }
    const withEntry = sharded.plugins.filter((p) => p.entry !== undefined);
    expect(withEntry.length).toBeGreaterThan(0);
    for (const plugin of withEntry) expect(((await plugin.entry!()) as { default?: unknown }).default).toBeDefined();
    expect(typeof (await sharded.search!()).default).toBe('string');

    const host = createCapabilityHost();
    const loaded = await host.load(sharded);
    expect(loaded.tools).toBeGreaterThanOrEqual(sharded.tools.length);
  });

  it('a tool edit in watch mode rewrites its shard, never the main module or items.ts', async () => {
    const root = writeTree(copyFixture('example-bot', 'items-edit'), extraTools(SHARD_TOOLS + 10));
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    await generate(root, compiler);
    const stat = (rel: string) => ({
      text: readFileSync(join(root, rel), 'utf8'),
      mtimeMs: statSync(join(root, rel)).mtimeMs,
    });
    const before = [stat(OUT), stat(ITEMS)];
    await new Promise((resolve) => setTimeout(resolve, 25));
    writeFileSync(join(root, 'tools/kind-3/index.ts'), tool(3, 4));
    compiler.notify([{ type: 'change', path: join(root, 'tools/kind-3/index.ts') }]);
    const edit = await generate(root, compiler);
    expect(edit.stats.parsed).toBe(1);
    expect([stat(OUT), stat(ITEMS)]).toEqual(before);
    // A skill's text is an item: it rewrites items.ts, and still not the main module.
    const skill = join(root, 'skills/short-url/SKILL.md');
    writeFileSync(skill, readFileSync(skill, 'utf8').replace(/\n$/, '\nOne more line of instructions.\n'));
    compiler.notify([{ type: 'change', path: skill }]);
    await generate(root, compiler);
    expect(stat(OUT)).toEqual(before[0]);
    expect(stat(ITEMS).text).toContain('One more line of instructions.');
    await compiler.dispose();
    // What the watch-mode runs wrote is what a fresh run writes.
    const written = [stat(OUT), stat(ITEMS)];
    await generate(root);
    expect([stat(OUT), stat(ITEMS)]).toEqual(written);
  });

  it('type-checks: SkillName and AgentName from the main module are the unions of the names', async () => {
    const root = writeTree(copyFixture('example-bot', 'items-tsc'), extraTools(SHARD_TOOLS + 10));
    dirs.push(root);
    await generate(root);
    writeTree(root, {
      'use.ts': `import { manifest, type AgentName, type SkillName } from './zhin-capabilities.gen.js';
export const skill: SkillName = 'icqq__admin';
export const agent: AgentName = 'reviewer';
export const first: string = manifest.skills[0]!.instructions;
// @ts-expect-error not a skill of this bot
export const noSkill: SkillName = 'icqq__nope';
// @ts-expect-error not an agent of this bot
export const noAgent: AgentName = 'nobody';
`,
      'tsconfig.json': strictTsconfig([OUT, ITEMS, 'use.ts'], {
        // The example bot's tools import the runtime under the names zhin.js apps use.
        'zhin-gen/runtime': [join(REPO, 'runtime/index.ts')],
        '@zhin.js/*': [join(REPO, 'runtime/index.ts')],
      }),
    });
    const checked = tsc(root);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
  });
});
