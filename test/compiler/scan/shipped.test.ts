/**
 * An installed plugin package that ships its generated manifest (the `./zhin-capabilities`
 * export) joins a bot by being named in `plugins`: the compiler reads the shipped manifest (never
 * the package's sources), the bot's skills may reference its public tools by their `<key>__`
 * names, the bot's manifest imports the package's, and `host.load` merges it as the child plugin
 * `<key>`: the tool runs, owned by `<key>`.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { createCapabilityHost, type CapabilityManifest } from '../../../runtime/index.js';
import { REPO, removeDir, tempDir, writeTree } from '../../helpers.js';

const bot = tempDir('shipped-bot');
const pkg = join(bot, 'node_modules', 'maps-plugin');
afterAll(() => removeDir(bot));

beforeAll(async () => {
  // The package, built with zhin-gen as a root plugin of its own.
  writeTree(pkg, {
    'package.json': JSON.stringify({
      name: 'maps-plugin',
      type: 'module',
      // No "./package.json" export: the compiler finds the package anyway.
      exports: { '.': './plugin.ts', './zhin-capabilities': { import: './dist/zhin-capabilities.gen.ts' } },
      'zhin-gen': { out: 'dist/zhin-capabilities.gen.ts' },
    }),
    'tools/weather/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';
export default defineAgentTool({
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  requiresApproval: 'never',
  execute: (input, context) => ({ city: (input as { city: string }).city, owner: context.owner }),
});
`,
    'skills/forecast/SKILL.md':
      '---\nname: forecast\ndescription: Forecasts for the week\ntools: [weather]\n---\nCall weather per day.\n',
  });
  // The package's own dependency on zhin-gen, as an install would lay it out.
  mkdirSync(join(pkg, 'node_modules'), { recursive: true });
  symlinkSync(REPO, join(pkg, 'node_modules', 'zhin-gen'), 'dir');
  const compiler = createCompiler({ root: pkg, cacheFile: false });
  const built = await compiler.run({ write: true });
  await compiler.dispose();
  expect(built.diagnostics).toEqual([]);
  // Sources the bot must never read: a broken tool left in the published package.
  writeTree(pkg, { 'tools/broken/index.ts': 'export default defineAgentTool({ description: ' });
  writeTree(bot, {
    'zhin-gen.config.json': JSON.stringify({ plugins: { maps: 'maps-plugin' } }),
    'skills/trip/SKILL.md':
      '---\nname: trip\ndescription: Plan a day trip\ntools: [maps__weather]\n---\nCheck the weather first.\n',
  });
});

describe('installed plugin package with a shipped manifest', () => {
  it('is read, not scanned; its public tools resolve; the bot manifest imports it; host.load merges it', async () => {
    const compiler = createCompiler({ root: bot, cacheFile: false });
    const result = await compiler.run({ write: true });
    await compiler.dispose();
    expect(result.diagnostics).toEqual([]);
    expect(result.code).toContain('import { manifest as package0 } from "maps-plugin/zhin-capabilities";');
    expect(result.code).toContain('{ owner: "maps", name: "maps-plugin", manifest: package0 },');
    const { manifest } = (await import(pathToFileURL(join(bot, 'zhin-capabilities.gen.ts')).href)) as {
      manifest: CapabilityManifest;
    };
    const host = createCapabilityHost();
    await host.load(manifest);
    const generation = host.current!;
    expect([...generation.tools.keys()].sort()).toEqual(['ask_user', 'maps__weather']);
    expect(generation.skills.get('maps__forecast')?.tools).toEqual(['maps__weather']);
    expect(generation.skills.get('trip')?.tools).toEqual(['maps__weather']);
    const turn = await host.beginTurn({ sessionKey: 'shipped' });
    expect(await turn.execute('maps__weather', { city: 'Oslo' })).toMatchObject({
      output: { city: 'Oslo', owner: 'maps' },
    });
    await turn.end();
    await host.close();
  });

  it('an unreadable shipped manifest is ZG1060 at the config entry, and the sources are still not read', async () => {
    writeTree(bot, { 'zhin-gen.config.json': JSON.stringify({ plugins: { maps: 'maps-plugin' } }, null, 2) });
    writeTree(pkg, { 'dist/zhin-capabilities.gen.ts': 'throw new Error("half-built package");\n' });
    const compiler = createCompiler({ root: bot, cacheFile: false });
    const result = await compiler.run({ write: false });
    await compiler.dispose();
    const shipped = result.diagnostics.filter((d) => d.code === 'ZG1060');
    expect(shipped).toHaveLength(1);
    expect(shipped[0]).toMatchObject({ file: 'zhin-gen.config.json', line: 3, severity: 'error' });
    expect(shipped[0]!.message).toContain('importing it threw: half-built package');
    // Nothing of the package's sources was read instead.
    expect(result.diagnostics.some((d) => d.file.includes('node_modules'))).toBe(false);
  });
});

describe('a shipped manifest that is not a list of capabilities', () => {
  it('is ZG1060 at the config entry, never a crash of the bot build nor an entry left out', async () => {
    const bodies = {
      'tools: [null]': 'tools',
      'tools: [], skills: {}': 'skills',
      'tools: [{ qualifiedName: 5 }]': 'tools',
    };
    for (const [fields, key] of Object.entries(bodies)) {
      const root = tempDir('shipped-malformed');
      try {
        writeTree(root, {
          'node_modules/odd-plugin/package.json': JSON.stringify({
            name: 'odd-plugin',
            type: 'module',
            exports: { './zhin-capabilities': './manifest.js' },
          }),
          'node_modules/odd-plugin/manifest.js': `export const manifest = { version: 1, ${fields} };\n`,
          'zhin-gen.config.json': JSON.stringify({ plugins: { odd: 'odd-plugin' } }, null, 2),
        });
        const compiler = createCompiler({ root, cacheFile: false });
        const result = await compiler.run({ write: false });
        await compiler.dispose();
        const shipped = result.diagnostics.filter((d) => d.code === 'ZG1060');
        expect(shipped, fields).toHaveLength(1);
        expect(shipped[0]).toMatchObject({ file: 'zhin-gen.config.json', line: 3, severity: 'error' });
        expect(shipped[0]!.message).toContain(`\`${key}\` is not a list of capabilities`);
      } finally {
        removeDir(root);
      }
    }
  });
});
