/**
 * Watch mode outside the Vite dev server: Rollup reports changes only for files in its module
 * graph (webpack/rspack report no creations at all). The plugin's tree watcher notices a newly
 * created tool and a SKILL.md edit; the rewritten manifest makes the bundler rebuild by itself.
 */
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { watch, type RollupWatcher } from 'rollup';
import { type CompileResult, createCompiler } from '../../compiler/index.js';
import { context as esbuildContext } from 'esbuild';
import zhinEsbuild from '../../vite-plugin/esbuild.js';
import zhinRollup from '../../vite-plugin/rollup.js';
import { removeDir, tempDir, writeTree } from '../helpers.js';
import { recordRuns, runWatchScenario, SCENARIO_TREE } from '../watch-scenarios.js';
import type { RunTrigger } from '../../vite-plugin/options.js';
import {
  ENTRY,
  esbuildBotOptions,
  makeBot,
  manifestTools,
  plainTool,
  readManifest,
  sleep,
  waitFor,
  rollupTs,
} from './fixture.js';

/**
 * Rollup's watch mode on a bot; `bundles()` counts finished bundles. The watch scenarios write
 * bundles outside the tree (`outDir`), so the only file events under the root are the
 * scenario's own: "editor files trigger no run" must not depend on when a rebuild lands.
 */
function rollupWatch(
  root: string,
  onRun: (result: CompileResult, trigger: RunTrigger) => void,
  outDir = join(root, 'dist'),
): { readonly watcher: RollupWatcher; readonly bundles: () => number } {
  let bundles = 0;
  const watcher = watch({
    input: join(root, 'src', 'main.ts'),
    plugins: [zhinRollup({ root, onRun }), rollupTs],
    external: ['zod', /^ajv/],
    onwarn: () => undefined,
    output: { dir: outDir, format: 'es' },
    watch: { buildDelay: 20 },
  });
  watcher.on('event', (event) => {
    if (event.code === 'BUNDLE_END') {
      bundles++;
      void event.result.close();
    }
    if (event.code === 'ERROR') void event.result?.close();
  });
  return { watcher, bundles: () => bundles };
}

async function generateOnce(root: string): Promise<void> {
  const compiler = createCompiler({ root });
  expect((await compiler.run()).errors).toBe(0);
  await compiler.dispose();
}

describe('rollup watch mode', () => {
  let watcher: RollupWatcher | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await watcher?.close();
    dirs.forEach(removeDir);
  });

  it('keeps the manifest equal to a fresh generate through every kind of save (test/watch-scenarios.ts)', async () => {
    const root = writeTree(tempDir('rollup-watch-scenario'), { ...SCENARIO_TREE, 'src/main.ts': ENTRY });
    dirs.push(root);
    const { onRun, observer } = recordRuns();
    dirs.push(`${root}-dist`);
    const scenario = rollupWatch(root, onRun, `${root}-dist`);
    try {
      await waitFor(() => scenario.bundles() >= 1, 'the first bundle');
      await runWatchScenario(root, observer);
    } finally {
      await scenario.watcher.close();
    }
  });

  it("the bundler's own output inside the root starts no run (rebuilds write dist/ with the watcher on)", async () => {
    const root = makeBot('rollup-watch-outdir');
    dirs.push(root);
    const { onRun, observer } = recordRuns();
    const started = rollupWatch(root, onRun);
    try {
      await waitFor(() => started.bundles() >= 1, 'the first bundle');
      await sleep(600);
      expect(observer.runs(), 'writing dist/main.js started no watch run').toBe(0);
      writeTree(root, { 'tools/echo/index.ts': plainTool('Echo, edited') });
      await waitFor(
        () => started.bundles() >= 2 && readFileSync(join(root, 'dist', 'main.js'), 'utf8').includes('Echo, edited'),
        'a rebuild with the edit',
      );
      const afterRebuild = observer.runs();
      await sleep(600);
      expect(observer.runs(), 'the rebuilt bundle started no run of its own').toBe(afterRebuild);
    } finally {
      await started.watcher.close();
    }
  });

  // As `zhin-gen watch` (test/compiler/watch/output-removed.test.ts): an `rm` or a `git clean`
  // of the output while the bundler watches. The virtual module is what the bundle imports, so
  // no bundler reports the file; before, it stayed missing until the next edit.
  it('writes the manifest and its generated folder again when they are removed', async () => {
    const root = makeBot('rollup-watch-output-removed');
    dirs.push(root);
    const { onRun, observer } = recordRuns();
    dirs.push(`${root}-dist`);
    const started = rollupWatch(root, onRun, `${root}-dist`);
    try {
      await waitFor(() => started.bundles() >= 1 && readManifest(root) !== '', 'the first bundle');
      // The side watcher attaches after the first build, and its catch-up run writes nothing.
      await sleep(600);
      const written = readManifest(root);
      for (const path of ['zhin-capabilities.gen.ts', 'zhin-capabilities.gen.validators']) {
        expect(existsSync(join(root, path)), path).toBe(true);
        const runs = observer.runs();
        rmSync(join(root, path), { recursive: true, force: true });
        await waitFor(
          () => observer.runs() > runs && readManifest(root) === written && existsSync(join(root, path)),
          `${path} written again`,
        );
      }
    } finally {
      await started.watcher.close();
    }
  });

  it('watches what zhin-gen watch watches: src/, docs/, vendor/ and node_modules/ start no run, a SKILL.md does', async () => {
    const root = makeBot('rollup-watch-scope', {
      'docs/guide.md': '# Guide\n',
      'src/notes.ts': 'export const notes = 1;\n',
      'vendor/lib/index.ts': 'export const lib = 1;\n',
      'node_modules/pkg/index.js': 'module.exports = 1;\n',
    });
    dirs.push(root);
    const { onRun, observer } = recordRuns();
    dirs.push(`${root}-dist`);
    const started = rollupWatch(root, onRun, `${root}-dist`);
    try {
      await waitFor(() => started.bundles() >= 1, 'the first bundle');
      await sleep(300);
      const before = observer.runs();
      // Created and edited beside the convention folders: a fresh walk never lists them.
      writeTree(root, {
        'docs/guide.md': '# Guide, edited\n',
        'docs/new/page.md': '# New\n',
        'src/notes.ts': 'export const notes = 2;\n',
        'src/more/extra.ts': 'export {};\n',
        'vendor/lib/index.ts': 'export const lib = 2;\n',
        'node_modules/pkg/index.js': 'module.exports = 2;\n',
        'node_modules/other/tools/x/index.ts': plainTool('Inside node_modules'),
      });
      await sleep(600);
      expect(observer.runs(), 'no watch run for files outside what the walk enters').toBe(before);
      // A SKILL.md is in no module graph: only the side watcher sees it.
      writeTree(root, {
        'skills/scoped/SKILL.md': '---\nname: scoped\ndescription: Seen by the side watcher.\n---\nBody.\n',
      });
      await waitFor(() => readManifest(root).includes('Seen by the side watcher.'), 'the skill in the manifest');
      expect(observer.runs()).toBeGreaterThan(before);
    } finally {
      await started.watcher.close();
    }
  });

  it('watches the folder of a src/ module a schema imports: a file that wins the import is seen although no graph has it', async () => {
    const shape = (field: string): string =>
      `import { z } from 'zod';\nexport const shape = z.object({ ${field}: z.string() });\n`;
    const root = makeBot('rollup-watch-deps', {
      'tools/shaped/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { shape } from '../../src/lib/shape.js';\nexport default defineAgentTool({ description: 'Shaped by src', inputSchema: shape, async execute() { return 1; } });\n`,
      'src/lib/shape.js': shape('fromJs'),
    });
    dirs.push(root);
    const { onRun } = recordRuns();
    dirs.push(`${root}-dist`);
    const started = rollupWatch(root, onRun, `${root}-dist`);
    try {
      await waitFor(() => readManifest(root).includes('fromJs'), 'the first manifest');
      // TypeScript resolves `./shape.js` to a shape.ts beside it first; no module graph holds it yet.
      writeTree(root, { 'src/lib/shape.ts': shape('fromTs') });
      await waitFor(() => readManifest(root).includes('fromTs'), 'the .ts in the manifest');
    } finally {
      await started.watcher.close();
    }
  });

  it.each([
    ['ENOSPC', 'fs.inotify.max_user_watches'],
    ['EMFILE', 'ulimit -n'],
  ])('an exhausted side watcher (%s) is an error naming the fix', async (code, fix) => {
    const root = makeBot('rollup-watch-exhausted');
    dirs.push(root);
    const printed: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
    // The real watcher's own error event carries the error the system would raise.
    process.env.ZHIN_GEN_WATCH_FAULT = code;
    dirs.push(`${root}-dist`);
    const started = rollupWatch(root, () => undefined, `${root}-dist`);
    try {
      await waitFor(() => printed.some((line) => line.includes('file watching stopped')), 'the error');
      const line = printed.find((l) => l.includes('file watching stopped'))!;
      expect(line).toContain('[zhin-gen] error: file watching stopped');
      expect(line).toContain(`(${code}) while watching ${realpathSync(root)}`);
      expect(line).toContain(fix);
      expect(line).not.toMatch(/\n\s+at /);
    } finally {
      delete process.env.ZHIN_GEN_WATCH_FAULT;
      error.mockRestore();
      await started.watcher.close();
    }
  });

  it('an error the side watcher printed (a SKILL.md, outside the bundle) is followed by a line when it is fixed', async () => {
    const root = makeBot('rollup-watch-fixed-out-of-band');
    dirs.push(root, `${root}-dist`);
    const skill = join(root, 'skills/summarize/SKILL.md');
    writeTree(root, {
      'skills/summarize/SKILL.md': '---\nname: summarize\ndescription: Sum up.\n---\n# S\n\nDo it.\n',
    });
    const good = readFileSync(skill, 'utf8');
    const printed: string[] = [];
    const keep =
      (level: string) =>
      (...args: unknown[]) =>
        void printed.push(`${level} ${args.map(String).join(' ')}`);
    const error = vi.spyOn(console, 'error').mockImplementation(keep('error'));
    const info = vi.spyOn(console, 'info').mockImplementation(keep('info'));
    const started = rollupWatch(root, () => undefined, `${root}-dist`);
    try {
      await waitFor(() => started.bundles() >= 1, 'the first bundle');
      writeFileSync(skill, good.replace('description: Sum up.\n', ''));
      await waitFor(() => printed.some((l) => l.startsWith('error [zhin-gen]')), 'the printed error');
      const at = printed.length;
      writeFileSync(skill, good); // the manifest's bytes are the ones on disk: no build follows
      await waitFor(() => printed.length > at, 'the line after the fix');
      expect(printed.slice(at)).toEqual([expect.stringMatching(/^info \[zhin-gen\] zhin-gen: .*\(unchanged\)/)]);
    } finally {
      error.mockRestore();
      info.mockRestore();
      await started.watcher.close();
    }
  });

  // A build that fails in buildStart loaded no module, so Rollup watched nothing: the fix (or any
  // edit) never started another build. Both ways back: the manifest rewritten by the fix, and a
  // fix that gives back the manifest already on disk (nothing written: its mtime is moved).
  it.each([
    ['no manifest yet', false],
    ['the manifest of the fixed tree on disk', true],
  ])('a watch that starts on a tree with an error builds once it is fixed (%s)', async (_, generated) => {
    const root = makeBot(`rollup-watch-start-error-${generated ? 'kept' : 'none'}`);
    dirs.push(root, `${root}-dist`);
    const good = plainTool('Echo before the error');
    writeTree(root, { 'tools/echo/index.ts': good });
    if (generated) await generateOnce(root);
    writeTree(root, {
      'tools/echo/index.ts': good.replace('description:', "requiresApproval: 'sometimes',\n  description:"),
    });
    const errors: string[] = [];
    const started = rollupWatch(root, () => undefined, `${root}-dist`);
    started.watcher.on('event', (event) => {
      if (event.code === 'ERROR') errors.push(String((event.error as { pluginCode?: string }).pluginCode));
    });
    try {
      await waitFor(() => errors.length >= 1, 'the failed first build');
      expect(errors[0]).toMatch(/^ZG\d{4}$/);
      await sleep(300);
      writeTree(root, { 'tools/echo/index.ts': good });
      await waitFor(
        () =>
          started.bundles() >= 1 &&
          existsSync(join(`${root}-dist`, 'main.js')) &&
          readFileSync(join(`${root}-dist`, 'main.js'), 'utf8').includes('Echo before the error'),
        'a bundle after the fix',
      );
    } finally {
      await started.watcher.close();
    }
  });

  it('notices a newly created tool and a SKILL.md edit; the bundle is rebuilt with them', async () => {
    const root = makeBot('rollup-watch');
    dirs.push(root);
    const runs: { result: CompileResult; trigger: string }[] = [];
    const started = rollupWatch(root, (result, trigger) => runs.push({ result, trigger }));
    watcher = started.watcher;
    const bundles = started.bundles;
    await waitFor(() => bundles() >= 1, 'the first bundle');
    await sleep(200);

    writeTree(root, { 'tools/created/index.ts': plainTool('Created while watching') });
    await waitFor(() => manifestTools(root).includes('created'), 'the new tool in the manifest');
    expect(runs.some((r) => r.trigger === 'watch' && r.result.written)).toBe(true);
    await waitFor(
      () => bundles() >= 2 && readFileSync(join(root, 'dist', 'main.js'), 'utf8').includes('Created while watching'),
      'a rebuilt bundle with the new tool',
    );

    const bundlesBefore = bundles();
    writeTree(root, {
      'skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets people warmly.\n---\nSay hello, then wave.\n',
    });
    await waitFor(
      () => readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8').includes('Greets people warmly.'),
      'the skill edit in the manifest',
    );
    await waitFor(
      () =>
        bundles() > bundlesBefore &&
        readFileSync(join(root, 'dist', 'main.js'), 'utf8').includes('Greets people warmly.'),
      'a rebuilt bundle with the skill edit',
    );
  });
});

describe('esbuild watch mode', () => {
  it('keeps the manifest equal to a fresh generate through every kind of save, and rebuilds with it', async () => {
    const root = writeTree(tempDir('esbuild-watch-scenario'), { ...SCENARIO_TREE, 'src/main.ts': ENTRY });
    const { onRun, observer } = recordRuns();
    let builds = 0;
    const ctx = await esbuildContext({
      ...esbuildBotOptions(root),
      outdir: `${root}-dist`,
      plugins: [zhinEsbuild({ onRun }), { name: 'count', setup: (build) => build.onEnd(() => void builds++) }],
    });
    try {
      await ctx.watch();
      await waitFor(() => builds >= 1, 'the first esbuild build');
      await runWatchScenario(root, observer);
      // The rewritten manifest is in esbuild's graph: its own watcher rebuilt the bundle.
      await waitFor(
        () => readFileSync(join(`${root}-dist`, 'main.js'), 'utf8').includes('tools/bulk-199/index'),
        'a rebuild with the bulk tools',
      );
    } finally {
      await ctx.dispose();
      removeDir(root);
      removeDir(`${root}-dist`);
    }
  });
});
