/**
 * `zhin-gen watch` follows the modules the compiler imports whole (scan/module-graph.ts), whose
 * imports no unit stamps: the config module's, and the manifest a workspace plugin package ships.
 *
 * The package (scan/shipped.ts): the
 * bot names the package in `plugins`, `node_modules/` links to the package's own folder, and
 * the package's build rewrites its manifest there while the bot's watch runs. The manifest and
 * the modules it imports for their value (a large package's shards) are followed; each rebuild
 * is read again, evaluated afresh, and checked against the bot as a fresh run would.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { cli, removeDir, tempDir, writeTree } from '../../helpers.js';
import { outputOnDisk } from '../../watch-scenarios.js';
import { runsIn, stopWatch, until, watchedAfterFirstRun } from './watch-process.js';

const dirs: string[] = [];
afterEach(async () => {
  await stopWatch();
  dirs.splice(0).forEach(removeDir);
});

/** A shard of the package's built manifest: its one tool, placed where the package put it. */
const shard = (placement: string): string =>
  `export default [{ qualifiedName: 'weather', placement: '${placement}' }];\n`;

/** The package's built manifest, its tools from the shard module named. */
const main = (shardFile: string): string =>
  `import tools from './${shardFile}';\nexport const manifest = { version: 1, tools, skills: [] };\n`;

/** A rebuild writes each file whole and renames it into place, as build tools do. */
function rebuild(file: string, text: string): void {
  writeFileSync(`${file}.tmp-build`, text);
  renameSync(`${file}.tmp-build`, file);
}

function workspace(): { bot: string; dist: string } {
  const ws = tempDir('shipped-watch');
  dirs.push(ws);
  const pkg = join(ws, 'packages', 'maps-plugin');
  writeTree(pkg, {
    'package.json': JSON.stringify({
      name: 'maps-plugin',
      type: 'module',
      exports: { './zhin-capabilities': { import: './dist/zhin-capabilities.gen.js' } },
    }),
    'dist/zhin-capabilities.gen.js': main('parts/tools-0.js'),
    'dist/parts/tools-0.js': shard('plugin'),
    'dist/parts/tools-1.js': shard('plugin'),
  });
  const bot = join(ws, 'bot');
  writeTree(bot, {
    'zhin-gen.config.json': JSON.stringify({ plugins: { maps: 'maps-plugin' } }),
    'skills/trip/SKILL.md':
      '---\nname: trip\ndescription: Plan a day trip\ntools: [maps__weather]\n---\nCheck the weather first.\n',
    'node_modules/.keep': '',
  });
  symlinkSync(join('..', '..', 'packages', 'maps-plugin'), join(bot, 'node_modules', 'maps-plugin'), 'dir');
  return { bot, dist: join(pkg, 'dist') };
}

/** Waits for `text` on stderr: a run's summary line (stdout) may come before its diagnostics. */
async function stderrHas(io: { stderr: () => string }, text: string): Promise<void> {
  await until(
    () => io.stderr().includes(text),
    () => `${text} on stderr:\n${io.stderr()}`,
  );
}

/** What a fresh compiler (no cache, a process that never imported the package) reports for the tree now. */
async function freshCodes(root: string): Promise<string[]> {
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: false });
  await compiler.dispose();
  return result.diagnostics.map((d) => d.code);
}

describe('zhin-gen watch and a workspace package that ships its manifest', () => {
  it('reads the package again when its build rewrites the manifest or a module it imports', async () => {
    const { bot, dist } = workspace();
    const io = await watchedAfterFirstRun(bot);
    expect(io.stdout()).not.toContain('last good manifest kept');
    const written = outputOnDisk(bot);
    const step = async (what: string, change: () => void, error: boolean): Promise<void> => {
      const runs = runsIn(io.stdout());
      const errorsBefore = io.stderr().split('ZG3006').length;
      change();
      await until(
        () => runsIn(io.stdout()) > runs,
        () => `a run after ${what}:\n${io.stdout()}\n${io.stderr()}`,
      );
      const lines = io.stdout().trim().split('\n');
      expect(lines.at(-1)!.endsWith('— last good manifest kept'), what).toBe(error);
      // stderr and stdout are two pipes: the run's summary line may come before its diagnostics.
      if (error)
        await until(
          () => io.stderr().split('ZG3006').length > errorsBefore,
          () => `ZG3006 after ${what}:\n${io.stderr()}`,
        );
      else expect(io.stderr().split('ZG3006').length, what).toBe(errorsBefore);
      expect((await freshCodes(bot)).includes('ZG3006'), what).toBe(error);
    };
    // A module the manifest imports: the package's tool is no longer public, the bot's skill may not name it.
    await step('a shard rebuilt', () => rebuild(join(dist, 'parts/tools-0.js'), shard('agent')), true);
    await step('the shard rebuilt back', () => rebuild(join(dist, 'parts/tools-0.js'), shard('plugin')), false);
    expect(outputOnDisk(bot)).toBe(written);
    // The manifest itself now imports another module, which is followed from then on.
    await step(
      'the manifest rebuilt',
      () => rebuild(join(dist, 'zhin-capabilities.gen.js'), main('parts/tools-1.js')),
      false,
    );
    await step('the new shard rebuilt', () => rebuild(join(dist, 'parts/tools-1.js'), shard('agent')), true);
    expect(io.stderr()).not.toMatch(/\n\s+at |ZG9001/);
  });
});

describe('zhin-gen watch and a workspace package not built yet', () => {
  it('reads the package once its build writes the manifest', async () => {
    const { bot, dist } = workspace();
    rmSync(dist, { recursive: true });
    const io = await watchedAfterFirstRun(bot);
    await stderrHas(io, 'ZG1060');
    const runs = runsIn(io.stdout());
    mkdirSync(join(dist, 'parts'), { recursive: true });
    writeFileSync(join(dist, 'parts/tools-0.js'), shard('plugin'));
    rebuild(join(dist, 'zhin-capabilities.gen.js'), main('parts/tools-0.js'));
    await until(
      () => runsIn(io.stdout()) > runs && !io.stdout().trim().endsWith('last good manifest kept'),
      () => `a clean run after the build:\n${io.stdout()}\n${io.stderr()}`,
    );
    expect(await freshCodes(bot)).toEqual([]);
  });
});

describe('zhin-gen watch and the modules a config module imports', () => {
  const SKILL = '---\nname: trip\ndescription: Plan a day trip\ntools: [ghost]\n---\nAsk the ghost first.\n';

  /** Waits for the run after `change`; whether it kept the last good manifest, and fresh agrees. */
  async function runAfter(
    root: string,
    io: { stdout: () => string; stderr: () => string },
    change: () => void,
  ): Promise<{ kept: boolean; fresh: string[] }> {
    const runs = runsIn(io.stdout());
    change();
    await until(
      () => runsIn(io.stdout()) > runs,
      () => `a run after the change:\n${io.stdout()}\n${io.stderr()}`,
    );
    return {
      kept: /last good manifest kept$/.test(io.stdout().trim().split('\n').at(-1)!),
      fresh: await freshCodes(root),
    };
  }

  it.each([
    ['an ES module package', { type: 'module' }],
    ['a CommonJS package', {}],
  ])('reloads the configuration when one of them changes (%s, an import over several lines)', async (_, type) => {
    const root = writeTree(tempDir('watch-config-module'), {
      'package.json': JSON.stringify({ name: 'bot', ...type }),
      'cfg/shared.ts': "export const hosted = ['ghost'];\nexport const other = 1;\n",
      'zhin-gen.config.ts':
        "import {\n  hosted,\n  other,\n} from './cfg/shared';\nexport default { hostProvided: { tools: other ? hosted : [] } };\n",
      'skills/trip/SKILL.md': SKILL,
    });
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    expect(io.stdout()).not.toContain('last good manifest kept');
    const after = await runAfter(root, io, () =>
      rebuild(join(root, 'cfg/shared.ts'), "export const hosted = ['ghost2'];\nexport const other = 1;\n"),
    );
    expect(after).toEqual({ kept: true, fresh: expect.arrayContaining(['ZG3006']) });
    await stderrHas(io, 'ZG3006');
    const back = await runAfter(root, io, () =>
      rebuild(join(root, 'cfg/shared.ts'), "export const hosted = ['ghost'];\nexport const other = 1;\n"),
    );
    expect(back).toEqual({ kept: false, fresh: [] });
  });

  it('follows one that does not exist yet (ZG1101), made later', async () => {
    const root = writeTree(tempDir('watch-config-missing'), {
      'cfg/plugins.ts': "import { more } from './more';\nexport const hosted = [...more];\n",
      'zhin-gen.config.ts':
        "import { hosted } from './cfg/plugins';\nexport default { hostProvided: { tools: hosted } };\n",
      'skills/trip/SKILL.md': SKILL,
    });
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    await stderrHas(io, 'ZG1101');
    const after = await runAfter(root, io, () =>
      writeFileSync(join(root, 'cfg/more.ts'), "export const more = ['ghost'];\n"),
    );
    expect(after).toEqual({ kept: false, fresh: [] });
  });

  it('follows one outside the root', async () => {
    const base = tempDir('watch-config-outside');
    dirs.push(base);
    writeTree(base, { 'shared/base.mjs': "export const hosted = ['ghost'];\n" });
    const root = writeTree(join(base, 'bot'), {
      'zhin-gen.config.mjs':
        "import { hosted } from '../shared/base.mjs';\nexport default { hostProvided: { tools: hosted } };\n",
      'skills/trip/SKILL.md': SKILL,
    });
    const io = await watchedAfterFirstRun(root);
    const after = await runAfter(root, io, () =>
      rebuild(join(base, 'shared/base.mjs'), "export const hosted = ['ghost2'];\n"),
    );
    expect(after).toEqual({ kept: true, fresh: expect.arrayContaining(['ZG3006']) });
  });

  it("one that is a tool schema's module too: the configuration reloads and the tool is parsed again", async () => {
    const root = writeTree(tempDir('watch-config-shared'), {
      'src/frag.ts':
        "import { z } from 'zod';\nexport const s = z.object({ fromA: z.string() });\nexport const HOSTED = ['ghost'];\n",
      'tools/echo/index.ts':
        "import { defineAgentTool } from '@zhin.js/tool';\nimport { s } from '../../src/frag.js';\nexport default defineAgentTool({ description: 'Echo', inputSchema: s, execute: async () => 'ok' });\n",
      'zhin-gen.config.ts':
        "import { HOSTED } from './src/frag.ts';\nexport default { hostProvided: { tools: HOSTED } };\n",
      'skills/trip/SKILL.md': SKILL,
    });
    dirs.push(root);
    // As a user would: generated once, then watched (the first watch run is the cache's).
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const io = await watchedAfterFirstRun(root);
    expect(outputOnDisk(root)).toContain('fromA');
    await runAfter(root, io, () =>
      rebuild(
        join(root, 'src/frag.ts'),
        "import { z } from 'zod';\nexport const s = z.object({ fromB: z.string() });\nexport const HOSTED = ['ghost'];\n",
      ),
    );
    await until(
      () => outputOnDisk(root).includes('fromB'),
      () => `the schema's edit in the manifest:\n${io.stdout()}`,
    );
    expect(outputOnDisk(root)).not.toContain('fromA');
  });
});
