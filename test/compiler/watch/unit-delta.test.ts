/**
 * Watch-mode runs that look up only the units their dirty files name (parse/unit-delta.ts) and
 * make only those units' models again (resolve/unit-loop.ts): after every kind of edit, the
 * watching compiler's output and diagnostics equal a fresh compiler's on the same tree. The
 * edits cover each way a file reaches a unit: its own file, a module its schema's translation
 * read (a dependency), a module the schema's bundle read (the schema's sources), a plugin entry;
 * and each way a unit's share of the lists can change: the same shape, a diagnostic more or
 * less, no model at all (a broken file), and back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompileResult } from '../../../compiler/index.js';
import { createCompiler } from '../../../compiler/index.js';
import { UnitDelta } from '../../../compiler/parse/unit-delta.js';
import type { CapabilityUnit } from '../../../compiler/scan/layout.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const tool = (description: string, extra = ''): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},${extra}\n  inputSchema: z.object({ q: z.string() }),\n  async execute() {\n    return 1;\n  },\n});\n`;

/** A tool whose schema comes from src/shared.ts (translated statically: a dependency of the unit). */
const sharedTool = (description: string): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\nimport { city } from '../../src/shared.js';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  inputSchema: z.object({ city }),\n  async execute() {\n    return 1;\n  },\n});\n`;

/**
 * src/dyn.ts builds its schema with code the translation cannot follow (a Node built-in's value):
 * the schema is bundled, and the module is among the schema's sources. `max` is the maxLength.
 */
const dyn = (max: number): string =>
  `import { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nconst names = ['city', 'country'];\nexport const dyn = z.object(Object.fromEntries(names.map((n) => [n, z.string().max(readFileSync.length + ${max - 2})])));\n`;

const plugin = (tool: string): string =>
  `import { defineAgentTool, definePlugin } from 'zhin-gen/runtime';\n\nexport default definePlugin({\n  name: 'bot',\n  async setup(context) {\n    context.addTool(${JSON.stringify(tool)}, defineAgentTool({ description: 'Added in setup', execute: async () => 1 }));\n  },\n});\n`;

const shape = (r: CompileResult) =>
  r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`);

describe('watch-mode runs over the units their files name', () => {
  it('equal a fresh compiler after every kind of edit', async () => {
    const root = writeTree(tempDir('unit-delta'), {
      'AGENTS.md': '# Bot\n',
      'plugin.ts': plugin('sync'),
      'src/shared.ts': `import { z } from 'zod';\nexport const city = z.string().max(5);\n`,
      'src/dyn.ts': dyn(5),
      'tools/alpha/index.ts': tool('alpha'),
      'tools/beta/index.ts': tool('beta'),
      'tools/one/index.ts': sharedTool('one'),
      'tools/two/index.ts': sharedTool('two'),
      'tools/bundled/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { dyn } from '../../src/dyn.js';\n\nexport default defineAgentTool({ description: 'bundled', inputSchema: dyn, async execute() { return 1; } });\n`,
      'skills/notes/SKILL.md': '---\nname: notes\ndescription: Notes.\ntools:\n  - alpha\n---\nWrite.\n',
    });
    dirs.push(root);
    const watching = createCompiler({ root, cacheFile: false });
    const first = await watching.run({ write: false });
    // The bundled schema really is bundled (its module is the schema's source, not a dependency).
    expect(first.model.tools.find((t) => t.source === 'tools/bundled/index.ts')?.schemaVia).toBe('bundle');
    const step = async (what: string, files: Record<string, string>, expectText: readonly string[]): Promise<void> => {
      for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
      watching.notify(Object.keys(files).map((p) => ({ type: 'change' as const, path: join(root, p) })));
      const watched = await watching.run({ write: false });
      const fresh = await createCompiler({ root, cacheFile: false }).run({ write: false });
      expect(shape(watched), what).toEqual(shape(fresh));
      expect(watched.code, what).toBe(fresh.code);
      for (const text of expectText) expect(watched.code, `${what}: ${text}`).toContain(text);
    };
    await step('a description', { 'tools/alpha/index.ts': tool('alpha, edited') }, ['alpha, edited']);
    await step('a diagnostic more', { 'tools/alpha/index.ts': tool('alpha, warned', '\n  timeoutMs: 5000,') }, []);
    await step('a diagnostic less', { 'tools/alpha/index.ts': tool('alpha, clean') }, ['alpha, clean']);
    await step('a broken file', { 'tools/beta/index.ts': 'export default defineAgentTool({ description: ' }, []);
    await step('fixed', { 'tools/beta/index.ts': tool('beta, back') }, ['beta, back']);
    await step(
      'a module two schemas translate',
      { 'src/shared.ts': `import { z } from 'zod';\nexport const city = z.string().max(7);\n` },
      ['"maxLength":7'],
    );
    await step('a module a bundled schema read', { 'src/dyn.ts': dyn(9) }, ['"maxLength":9']);
    await step('the plugin entry', { 'plugin.ts': plugin('sync_all') }, ['sync_all']);
    await step(
      'two tools at once',
      { 'tools/one/index.ts': sharedTool('one, again'), 'tools/two/index.ts': sharedTool('two, again') },
      ['one, again', 'two, again'],
    );
    await step(
      'the skill',
      { 'skills/notes/SKILL.md': '---\nname: notes\ndescription: Notes, edited.\ntools:\n  - beta\n---\nWrite.\n' },
      ['Notes, edited.'],
    );
    await watching.dispose();
  });

  it('names the units whose files, dependencies or schema sources changed, and starts over on another unit list', () => {
    const unit = (dir: string): CapabilityUnit =>
      ({ dir, entry: `${dir}/index.ts`, files: [`${dir}/index.ts`] }) as unknown as CapabilityUnit;
    const a = unit('tools/a');
    const b = unit('tools/b');
    const c = unit('tools/c');
    const units = [a, b, c];
    const plugins = [{ dir: '.', entry: 'plugin.ts' }] as unknown as Parameters<UnitDelta['plan']>[1];
    const results = new Map([
      [a, { diagnostics: [], dependencies: ['src/shared.ts'] }],
      [b, { diagnostics: [], dependencies: ['src/shared.ts'] }],
      [c, { diagnostics: [], dependencies: [] }],
    ]);
    const entries = new Map([['.', { diagnostics: [], dependencies: ['src/setup.ts'] }]]);
    const files = (u: CapabilityUnit) => u.files;
    const delta = new UnitDelta();
    // The first run has nothing to go by: the full loops.
    expect(delta.plan(units, plugins, new Set())).toBeUndefined();
    delta.parsed(units, plugins, results, entries, units, [['.', 'plugin.ts']], files);
    expect(delta.schemaPlan(results)).toBeUndefined();
    delta.evaluated(results, new Map(), [[c, ['src/dyn.ts']]]);
    // After a full loop the index waits for the first plan (or idle time), schema sources included.
    expect(delta.indexed).toBe(false);
    delta.cancel();
    const named = (dirty: readonly string[]) => {
      const plan = delta.plan(units, plugins, new Set(dirty));
      expect(plan?.results).toBe(results);
      delta.parsed(units, plugins, results, entries, [], [], files);
      delta.evaluated(results, delta.schemaPlan(results)!.outcomes, []);
      return [[...plan!.units].map((u) => u.dir).sort(), [...plan!.plugins]];
    };
    expect(named(['tools/a/index.ts'])).toEqual([['tools/a'], []]);
    expect(delta.indexed).toBe(true);
    expect(named(['src/shared.ts'])).toEqual([['tools/a', 'tools/b'], []]);
    expect(named(['src/dyn.ts'])).toEqual([['tools/c'], []]);
    expect(named(['plugin.ts', 'src/setup.ts'])).toEqual([[], ['.']]);
    expect(named(['README.md'])).toEqual([[], []]);
    // Another list of units (the tree's shape changed): the full loops again.
    expect(delta.plan([a, b], plugins, new Set(['tools/a/index.ts']))).toBeUndefined();
  });

  it('builds the index of a full loop in idle time, unless the compiler is disposed first', async () => {
    const unit = {
      dir: 'tools/a',
      entry: 'tools/a/index.ts',
      files: ['tools/a/index.ts'],
    } as unknown as CapabilityUnit;
    const results = new Map([[unit, { diagnostics: [], dependencies: [] }]]);
    const plugins = [] as unknown as Parameters<UnitDelta['plan']>[1];
    const idle = new UnitDelta();
    const disposed = new UnitDelta();
    for (const delta of [idle, disposed]) {
      delta.plan([unit], plugins, undefined);
      delta.parsed([unit], plugins, results, new Map(), [unit], [], (u) => u.files);
    }
    disposed.cancel();
    await new Promise((done) => setTimeout(done, 400));
    expect(idle.indexed).toBe(true);
    expect(disposed.indexed).toBe(false);
  });

  it('leaves the index unbuilt for a one-shot run, and a watching compiler still sees its first save', async () => {
    const root = writeTree(tempDir('unit-delta-once'), { 'tools/a/index.ts': tool('First') });
    dirs.push(root);
    const once = createCompiler({ root, cacheFile: false });
    await once.run({ write: false });
    await once.dispose();
    const delta = (once as unknown as { schemas: { delta: UnitDelta } }).schemas.delta;
    await new Promise((done) => setTimeout(done, 400));
    expect(delta.indexed).toBe(false);
    // A save right after the first run, before idle time: the plan builds the index itself.
    const watching = createCompiler({ root, cacheFile: false });
    await watching.run({ write: false });
    writeFileSync(join(root, 'tools/a/index.ts'), tool('Second'));
    watching.notify([{ type: 'change', path: join(root, 'tools/a/index.ts') }]);
    const second = await watching.run({ write: false });
    expect(second.model.tools.map((t) => t.description)).toEqual(['Second']);
    expect(second.stats.parsed).toBe(1);
    await watching.dispose();
  });
});
