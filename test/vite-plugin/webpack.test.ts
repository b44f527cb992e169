/**
 * webpack through the same unplugin factory: a real build of the bot (entry imports
 * `virtual:zhin-capabilities`, tools called through the built bundle), a failing build with the
 * diagnostic's location, and watch mode noticing a newly created tool (webpack reports no
 * creations of its own; the plugin's side watcher does).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import webpack, { type Configuration, type Stats } from 'webpack';
import zhinWebpack from '../../vite-plugin/webpack.js';
import type { CompileResult } from '../../compiler/index.js';
import { REPO, removeDir, tempDir, writeTree } from '../helpers.js';
import { recordRuns, runWatchScenario, SCENARIO_TREE } from '../watch-scenarios.js';
import { BOT_TOOLS, ENTRY, makeBot, manifestTools, plainTool, waitFor } from './fixture.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function config(
  root: string,
  onRun?: (result: CompileResult, trigger: 'build' | 'watch') => void,
  outDir = join(root, 'dist'),
): Configuration {
  return {
    mode: 'development',
    devtool: false,
    context: root,
    target: 'node20',
    entry: './src/main.ts',
    output: { path: outDir, filename: 'main.cjs', chunkFilename: '[id].chunk.cjs', library: { type: 'commonjs2' } },
    resolve: {
      extensions: ['.ts', '.js'],
      extensionAlias: { '.js': ['.ts', '.js'] },
      alias: { 'zhin-gen/runtime$': join(REPO, 'runtime', 'index.ts') },
      conditionNames: ['source', 'import', 'default'],
    },
    externals: { zod: 'commonjs zod', ajv: 'commonjs ajv' },
    module: { rules: [{ test: /\.ts$/, use: join(REPO, 'test', 'vite-plugin', 'ts-loader.cjs') }] },
    plugins: [zhinWebpack(onRun ? { onRun } : undefined)],
    infrastructureLogging: { level: 'error' },
    stats: 'errors-warnings',
  };
}

function run(compiler: webpack.Compiler): Promise<Stats> {
  return new Promise((resolve, reject) =>
    compiler.run((error, stats) => (error ? reject(error) : compiler.close(() => resolve(stats!)))),
  );
}

describe('webpack', () => {
  it('bundles the bot; tools run through the manifest', async () => {
    const root = makeBot('webpack');
    dirs.push(root);
    const stats = await run(webpack(config(root)));
    expect(stats.toJson({ all: false, errors: true }).errors ?? []).toEqual([]);
    expect(manifestTools(root)).toEqual([...BOT_TOOLS].sort());
    const built = (await import(`${pathToFileURL(join(root, 'dist', 'main.cjs')).href}?t=${Date.now()}`)) as {
      default: {
        manifest: { tools: { qualifiedName: string }[] };
        call(name: string, input: unknown): Promise<unknown>;
      };
    };
    expect(built.default.manifest.tools.map((t) => t.qualifiedName).sort()).toEqual([...BOT_TOOLS].sort());
    expect(await built.default.call('echo', { message: 'webpack' })).toBe('echo: webpack');
  });

  it('fails the build with the diagnostic file, line and column', async () => {
    const root = makeBot('webpack-bad', {
      'tools/bad/index.ts':
        "import { defineAgentTool } from '@zhin.js/tool';\n\nexport default defineAgentTool({\n  description: '   ',\n  async execute() {\n    return 1;\n  },\n});\n",
    });
    dirs.push(root);
    const stats = await run(webpack(config(root)));
    const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
    expect(errors.length).toBeGreaterThan(0);
    const text = errors.map((e) => `${e.message} ${e.moduleName ?? ''} ${e.loc ?? ''}`).join('\n');
    expect(text).toContain('ZG2004');
    expect(text).toContain('tools/bad/index.ts:4:16');
    // A clean checkout: no manifest was ever written, and only the tree's errors are reported.
    expect(text).not.toMatch(/Can't resolve|Module not found/);
  });

  it('watch mode keeps the manifest equal to a fresh generate through every kind of save (test/watch-scenarios.ts)', async () => {
    const root = writeTree(tempDir('webpack-watch-scenario'), { ...SCENARIO_TREE, 'src/main.ts': ENTRY });
    dirs.push(root);
    const { onRun, observer } = recordRuns();
    // Bundles outside the tree: the scenario's own edits are the only events under the root.
    dirs.push(`${root}-dist`);
    const compiler = webpack(config(root, onRun, `${root}-dist`));
    const builds: Stats[] = [];
    const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
      if (!error && stats) builds.push(stats);
    });
    try {
      await waitFor(() => builds.length >= 1, 'first webpack build', 60_000);
      await runWatchScenario(root, observer);
    } finally {
      await new Promise<void>((resolve) => (watching ? watching.close(() => resolve()) : resolve()));
    }
  });

  it('watch mode notices a newly created tool and rebuilds with it', async () => {
    const root = makeBot('webpack-watch');
    dirs.push(root);
    const compiler = webpack(config(root));
    const builds: Stats[] = [];
    const watching = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
      if (!error && stats) builds.push(stats);
    });
    try {
      await waitFor(() => builds.length >= 1, 'first webpack build', 60_000);
      mkdirSync(join(root, 'tools', 'ping'), { recursive: true });
      writeFileSync(join(root, 'tools', 'ping', 'index.ts'), plainTool('Ping back'));
      const bundle = join(root, 'dist', 'main.cjs');
      // The new tool reaches the manifest (side watcher), then webpack rebuilds the bundle with it.
      await waitFor(() => manifestTools(root).includes('ping'), 'the new tool in the manifest', 60_000);
      await waitFor(
        () => readFileSync(bundle, 'utf8').includes('tools/ping/index'),
        'a rebuild with the new tool',
        60_000,
      );
      // webpack writes the bundle before it calls the watch callback of that build.
      await waitFor(() => builds.length >= 2, 'the rebuild reported to the watch callback', 60_000);
      // The first build too, on a tree without the manifest yet: webpack's `make` is a parallel
      // hook, so the entry's import of the file raced the build's own run (vite-plugin/core.ts
      // awaits the first run in `watchRun`, as in `beforeRun`). Run alone, this failed every time.
      for (const stats of builds) expect(stats.toJson({ all: false, errors: true }).errors ?? []).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => (watching ? watching.close(() => resolve()) : resolve()));
    }
  });
});
