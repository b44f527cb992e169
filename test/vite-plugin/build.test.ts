/**
 * Real builds through the one unplugin factory: `vite build` (SSR bundle of a bot whose entry
 * imports `virtual:zhin-capabilities`), esbuild, Rollup and Rolldown. Each bundle is imported in
 * Node and a tool is called through the manifest. Invalid trees fail the build with the
 * diagnostic's file, line and column.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { build as esbuild } from 'esbuild';
import { type Plugin as RollupPlugin, rollup } from 'rollup';
import { rolldown } from 'rolldown';
import { build as viteBuild, createLogger, type InlineConfig } from 'vite';
import type { CompileResult } from '../../compiler/index.js';
import zhinEsbuild from '../../vite-plugin/esbuild.js';
import zhinRolldown from '../../vite-plugin/rolldown.js';
import zhinRollup from '../../vite-plugin/rollup.js';
import zhinVite from '../../vite-plugin/vite.js';
import { REPO, removeDir } from '../helpers.js';
import { BOT_TOOLS, esbuildBotOptions, makeBot, manifestTools, plainTool, rollupTs } from './fixture.js';

interface BuiltBot {
  manifest: { tools: { qualifiedName: string }[] };
  call(name: string, input: unknown): Promise<unknown>;
}

const dirs: string[] = [];
const bot = (prefix: string, extra: Record<string, string> = {}): string => {
  const dir = makeBot(prefix, extra);
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach(removeDir));

const importBuilt = async (file: string): Promise<BuiltBot> =>
  (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)) as BuiltBot;

/** An invalid tool: empty description at line 4, column 16 (1-based) of tools/bad/index.ts. */
const BAD_TOOL = `import { defineAgentTool } from '@zhin.js/tool';

export default defineAgentTool({
  description: '   ',
  async execute() {
    return 1;
  },
});
`;

function viteConfig(root: string, extra: InlineConfig = {}, runs?: CompileResult[]): InlineConfig {
  return {
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [zhinVite({ onRun: (result) => runs?.push(result) })],
    // Bundle everything (runtime from its TypeScript source, like the rest of the test suite).
    ssr: { noExternal: true, resolve: { conditions: ['source'], externalConditions: ['source'] } },
    build: {
      ssr: 'src/main.ts',
      outDir: 'dist',
      emptyOutDir: true,
      minify: false,
      rolldownOptions: { output: { format: 'es' } },
    },
    ...extra,
  };
}

describe('vite build', () => {
  it('bundles a bot whose entry imports virtual:zhin-capabilities; tools run through the manifest', async () => {
    const root = bot('vite-build');
    const runs: CompileResult[] = [];
    await viteBuild(viteConfig(root, {}, runs));
    expect(runs).toHaveLength(1);
    expect(runs[0]!.errors).toBe(0);
    expect(manifestTools(root)).toEqual([...BOT_TOOLS].sort());

    const built = await importBuilt(join(root, 'dist', 'main.js'));
    expect(built.manifest.tools.map((t) => t.qualifiedName).sort()).toEqual([...BOT_TOOLS].sort());
    expect(await built.call('echo', { message: 'hi' })).toBe('echo: hi');
    expect(await built.call('maps__get-weather', { city: 'Hangzhou' })).toBe('sunny in Hangzhou');
    expect(await built.call('helper__sweep', {})).toBe('Sweep the floor');
    // `@zhin.js/tool` is not installed: it was resolved to zhin-gen/runtime and bundled.
    const chunks = readFileSync(join(root, 'dist', 'main.js'), 'utf8');
    expect(chunks).not.toContain('@zhin.js/tool');
  });

  it('fails on an invalid tool with the diagnostic file, line and column (this.error with loc)', async () => {
    const root = bot('vite-build-bad', { 'tools/bad/index.ts': BAD_TOOL });
    const error = await viteBuild(viteConfig(root)).then(
      () => undefined,
      (e: unknown) => e as { errors?: unknown[] },
    );
    expect(error).toBeDefined();
    // Vite 8 (Rolldown) wraps plugin errors in an aggregate `errors` list.
    const first = (error!.errors?.[0] ?? error) as {
      message: string;
      id: string;
      loc: { file: string; line: number; column: number };
      frame: string;
      plugin: string;
      pluginCode: string;
    };
    const file = join(root, 'tools', 'bad', 'index.ts');
    expect(first.plugin).toBe('zhin-gen');
    expect(first.pluginCode).toBe('ZG2004');
    expect(first.id).toBe(file);
    // Bundler convention: line 1-based, column 0-based (the message text is 1-based like the CLI).
    expect(first.loc).toEqual({ file, line: 4, column: 15 });
    expect(first.message).toContain('tools/bad/index.ts:4:16  error  ZG2004');
    expect(first.message).toContain('hint:');
    expect(first.frame).toContain("> 4 |   description: '   ',");
    // The last good manifest (none here) is not replaced by a broken one.
    expect(existsSync(join(root, 'zhin-capabilities.gen.ts'))).toBe(false);
  });

  it('prints a warning once and still builds', async () => {
    const root = bot('vite-build-warn', {
      'skills/greet/SKILL.md':
        '---\nname: greet\ndescription: Greets people politely.\ncolour: blue\n---\nSay hello.\n',
    });
    const warnings: string[] = [];
    const logger = createLogger('warn', { allowClearScreen: false });
    logger.warn = (msg) => void warnings.push(msg);
    logger.warnOnce = (msg) => void warnings.push(msg);
    await viteBuild({ ...viteConfig(root), logLevel: 'warn', customLogger: logger });
    const ours = warnings.filter((w) => w.includes('skills/greet/SKILL.md:4'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/warning {2}ZG4\d{3}/);
    expect(existsSync(join(root, 'dist', 'main.js'))).toBe(true);
  });
});

describe('esbuild', () => {
  it('bundles the same bot (onStart generation, virtual module, seed-module fallback)', async () => {
    const root = bot('esbuild');
    const result = await esbuild({ ...esbuildBotOptions(root), plugins: [zhinEsbuild()] });
    expect(result.errors).toEqual([]);
    const built = await importBuilt(join(root, 'dist', 'main.js'));
    expect(built.manifest.tools.map((t) => t.qualifiedName).sort()).toEqual([...BOT_TOOLS].sort());
    expect(await built.call('greet__wave', { to: 'Ann' })).toBe('*waves at Ann*');
  });

  it('fails with esbuild locations (file, line, 0-based column, line text, hint note)', async () => {
    const root = bot('esbuild-bad', { 'tools/bad/index.ts': BAD_TOOL });
    const failure = await esbuild({
      absWorkingDir: root,
      entryPoints: ['src/main.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outdir: 'dist',
      logLevel: 'silent',
      plugins: [zhinEsbuild()],
    }).then(
      () => undefined,
      (e: {
        errors: {
          text: string;
          pluginName: string;
          location: { file: string; line: number; column: number; lineText: string } | null;
          notes: { text: string }[];
        }[];
      }) => e,
    );
    expect(failure?.errors).toHaveLength(1);
    const [error] = failure!.errors;
    expect(error!.pluginName).toBe('zhin-gen');
    expect(error!.text).toContain('ZG2004');
    // esbuild prints location files relative to absWorkingDir.
    expect(error!.location).toMatchObject({
      file: 'tools/bad/index.ts',
      line: 4,
      column: 15,
      lineText: "  description: '   ',",
    });
    expect(error!.notes.some((n) => n.text.startsWith('hint:'))).toBe(true);
  });
});

describe('rollup and rolldown', () => {
  /**
   * Bundles the bot at `root` to dist/main.js from its own folder (Rollup has no root option: the
   * plugin defaults to process.cwd()), then imports the bundle. `plugins` run after zhin-gen's.
   */
  async function rollupBot(root: string, plugins: () => RollupPlugin[]): Promise<BuiltBot> {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const bundle = await rollup({
        input: join(root, 'src', 'main.ts'),
        plugins: [zhinRollup(), ...plugins()],
        external: ['zod', /^ajv/],
        onwarn: () => undefined,
      });
      await bundle.write({ dir: join(root, 'dist'), format: 'es' });
      await bundle.close();
    } finally {
      process.chdir(cwd);
    }
    const built = await importBuilt(join(root, 'dist', 'main.js'));
    expect(built.manifest.tools.map((t) => t.qualifiedName).sort()).toEqual([...BOT_TOOLS].sort());
    return built;
  }

  it('rollup bundles the same bot', async () => {
    const built = await rollupBot(bot('rollup'), () => [rollupTs]);
    expect(await built.call('echo', { message: 'rollup' })).toBe('echo: rollup');
  });

  it('rollup with the official @rollup/plugin-typescript bundles a clean checkout (no manifest yet), as docs/build-plugin.md sets it up', async () => {
    const root = bot('rollup-official-ts', {
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: false,
          skipLibCheck: true,
        },
        include: ['**/*.ts'],
        exclude: ['dist', 'node_modules'],
      }),
    });
    expect(existsSync(join(root, 'zhin-capabilities.gen.ts'))).toBe(false);
    // A CommonJS package whose default export is the factory (types describe the ESM build).
    const typescript = (await import('@rollup/plugin-typescript')).default as unknown as (
      options: object,
    ) => RollupPlugin;
    const built = await rollupBot(root, () => [
      // The fixture's resolution of `zhin-gen/runtime` and `./x.js` specifiers, without its transform.
      { name: 'test-resolve', resolveId: rollupTs.resolveId },
      // Made before the build, as a config file makes it: it fixes its file list now, before the
      // first build writes the manifest.
      typescript({ tsconfig: join(root, 'tsconfig.json'), noEmitOnError: false }),
    ]);
    expect(await built.call('echo', { message: 'official' })).toBe('echo: official');
  });

  it('rollup: a root option and an invalid tool fail with this.error and loc', async () => {
    const root = bot('rollup-bad', { 'tools/bad/index.ts': BAD_TOOL });
    const error = await rollup({
      input: join(root, 'src', 'main.ts'),
      plugins: [zhinRollup({ root }), rollupTs],
      external: ['zod'],
      onwarn: () => undefined,
    }).then(
      () => undefined,
      (e: { plugin: string; hook: string; loc: unknown; id: string; stack?: string }) => e,
    );
    expect(error).toMatchObject({
      plugin: 'zhin-gen',
      hook: 'buildStart',
      id: join(root, 'tools', 'bad', 'index.ts'),
      loc: { file: join(root, 'tools', 'bad', 'index.ts'), line: 4, column: 15 },
    });
    // Rollup prints `stack` under the message: the diagnostic is the whole report, no trace of the plugin.
    expect(error?.stack ?? '').not.toMatch(/\bat \S/);
  });

  it('rolldown bundles the same bot (root from its cwd option)', async () => {
    const root = bot('rolldown');
    const bundle = await rolldown({
      input: join(root, 'src', 'main.ts'),
      cwd: root,
      plugins: [zhinRolldown()],
      external: ['zod', /^ajv/],
      resolve: { conditionNames: ['source', 'import', 'default'], extensionAlias: { '.js': ['.ts', '.js'] } },
      logLevel: 'silent',
    });
    await bundle.write({ dir: join(root, 'dist'), format: 'es' });
    await bundle.close();
    const built = await importBuilt(join(root, 'dist', 'main.js'));
    expect(await built.call('maps__get-weather', { city: 'Lhasa' })).toBe('sunny in Lhasa');
  });
});

describe('virtual module types', () => {
  it('`/// <reference types="zhin-gen/virtual" />` types the import; tool names are a literal union', async () => {
    const root = bot('virtual-types', { 'tools/ping/index.ts': plainTool('Ping') });
    await viteBuild(viteConfig(root));
    // As in a user project: the package is installed (here: linked) in node_modules.
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    symlinkSync(REPO, join(root, 'node_modules', 'zhin-gen'), 'dir');
    writeFileSync(
      join(root, 'src', 'check.ts'),
      `/// <reference types="zhin-gen/virtual" />
import { manifest, type ToolName } from 'virtual:zhin-capabilities';
import type { CapabilityManifest } from 'zhin-gen/runtime';
export const m: CapabilityManifest = manifest;
export const ok: ToolName = 'maps__get-weather';
// @ts-expect-error not a tool of this project
export const bad: ToolName = 'no-such-tool';
export const count: number = manifest.tools.length;
`,
    );
    const program = ts.createProgram([join(root, 'src', 'check.ts'), join(root, 'zhin-capabilities.gen.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      skipLibCheck: true,
      // Seed packages are not installed: type them as zhin-gen/runtime (docs/build-plugin.md).
      paths: { '@zhin.js/tool': ['./node_modules/zhin-gen/runtime/index.ts'] },
      baseUrl: root,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
    rmSync(join(root, 'src', 'check.ts'));
  });
});
