/**
 * The build plugin's `verifyLoad` option in real builds: a tool module that throws at import
 * builds fine without it (the compiler never runs module code) and fails the build with it,
 * located at the tool's definition.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { build as esbuild } from 'esbuild';
import { build as viteBuild, type InlineConfig } from 'vite';
import zhinEsbuild from '../../vite-plugin/esbuild.js';
import type { ZhinGenPluginOptions } from '../../vite-plugin/options.js';
import zhinVite from '../../vite-plugin/vite.js';
import { removeDir } from '../helpers.js';
import { makeBot } from './fixture.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Throws at import unless an environment variable nobody sets is set; line 4 holds the definition. */
const BOOM = `import { defineAgentTool } from '@zhin.js/tool';

if (!process.env.ZHIN_GEN_TEST_NEVER_SET) throw new Error('boom at import');
export default defineAgentTool({
  description: 'Explodes when imported',
  async execute() {
    return 1;
  },
});
`;

function bot(prefix: string): string {
  const dir = makeBot(prefix, { 'tools/boom/index.ts': BOOM });
  dirs.push(dir);
  return dir;
}

function viteConfig(root: string, options: ZhinGenPluginOptions): InlineConfig {
  return {
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [zhinVite(options)],
    ssr: { noExternal: true, resolve: { conditions: ['source'], externalConditions: ['source'] } },
    build: {
      ssr: 'src/main.ts',
      outDir: 'dist',
      emptyOutDir: true,
      minify: false,
      rolldownOptions: { output: { format: 'es' } },
    },
  };
}

describe('verifyLoad build option', () => {
  it('vite build: passes without the option, fails with it at the tool that throws at import', async () => {
    const root = bot('verify-vite');
    await viteBuild(viteConfig(root, {}));
    expect(existsSync(join(root, 'dist', 'main.js'))).toBe(true);

    const error = await viteBuild(viteConfig(root, { verifyLoad: { timeoutMs: 5000 } })).then(
      () => undefined,
      (e: unknown) => e as { errors?: unknown[] },
    );
    expect(error).toBeDefined();
    // Vite 8 (Rolldown) wraps plugin errors in an aggregate `errors` list.
    const first = (error!.errors?.[0] ?? error) as {
      message: string;
      id: string;
      loc: { file: string; line: number; column: number };
      plugin: string;
      pluginCode: string;
    };
    const file = join(root, 'tools', 'boom', 'index.ts');
    expect(first.plugin).toBe('zhin-gen');
    expect(first.pluginCode).toBe('ZG2051');
    expect(first.id).toBe(file);
    expect(first.loc).toEqual({ file, line: 4, column: 15 });
    expect(first.message).toContain('verifyLoad');
    expect(first.message).toContain('tools/boom/index.ts:4:16  error  ZG2051');
    expect(first.message).toContain('Error: boom at import');
  });

  it('esbuild: the error comes back in the build result with its location', async () => {
    const root = bot('verify-esbuild');
    const run = (options: ZhinGenPluginOptions) =>
      esbuild({
        absWorkingDir: root,
        entryPoints: ['src/main.ts'],
        bundle: true,
        splitting: true,
        platform: 'node',
        format: 'esm',
        outdir: 'dist',
        conditions: ['source'],
        logLevel: 'silent',
        plugins: [zhinEsbuild(options)],
      }).then(
        (result) => result.errors,
        (e: { errors: unknown[] }) => e.errors,
      );
    expect(await run({})).toEqual([]);
    // esbuild prints nothing an `onEnd` callback returns (its log said "Done"): the plugin does.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const errors = (await run({ verifyLoad: true })) as {
      text: string;
      location: { file: string; line: number; column: number } | null;
    }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]!.text).toMatch(
      /^ZG2051 {2}tool "boom": importing tools\/boom\/index\.ts fails: Error: boom at import/,
    );
    expect(errors[0]!.location).toMatchObject({ file: join(root, 'tools', 'boom', 'index.ts'), line: 4, column: 15 });
    const lines = printed.mock.calls.map((call) => String(call[0]));
    printed.mockRestore();
    expect(lines.join('\n')).toMatch(/tools\/boom\/index\.ts:4:16 +error +ZG2051/);
  });
});
