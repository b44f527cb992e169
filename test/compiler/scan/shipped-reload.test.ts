/**
 * A shipped package manifest (compiler/scan/shipped.ts) read again by the same process: a
 * compiler made after the package changed (a dev server restarted in place, a watch session
 * after a config change) evaluates the module's new bytes, not the module the process imported
 * before under the same path; and the output's digest is made of what was evaluated, so a fresh
 * process never finds an output from stale names current.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { REPO, removeDir, tempDir, writeTree } from '../../helpers.js';

const bot = tempDir('shipped-reload');
const pkg = join(bot, 'node_modules', 'maps-plugin');
afterAll(() => removeDir(bot));

describe('a shipped manifest changed while the process runs', () => {
  it('is read as it now is by the next compiler, and a fresh process agrees', async () => {
    // A built package: its manifest is plain JavaScript, imported as any module is.
    const manifest = (placement: string): string =>
      `export const manifest = { version: 1, tools: [{ qualifiedName: 'weather', placement: '${placement}' }], skills: [] };\n`;
    writeTree(pkg, {
      'package.json': JSON.stringify({
        name: 'maps-plugin',
        type: 'module',
        exports: { './zhin-capabilities': { import: './dist/zhin-capabilities.gen.js' } },
      }),
      'dist/zhin-capabilities.gen.js': manifest('plugin'),
    });
    writeTree(bot, {
      'zhin-gen.config.json': JSON.stringify({ plugins: { maps: 'maps-plugin' } }),
      'skills/trip/SKILL.md':
        '---\nname: trip\ndescription: Plan a day trip\ntools: [maps__weather]\n---\nCheck the weather first.\n',
    });
    // The default cache (node_modules/.cache/zhin-gen): the CLI below uses it too.
    const cacheFile = undefined;
    const first = await createCompiler({ root: bot, cacheFile }).run({ write: true });
    expect(first.errors).toBe(0);
    // The package's tool is no longer public (placed under an agent): the bot's skill may not name it.
    writeTree(pkg, { 'dist/zhin-capabilities.gen.js': manifest('agent') });
    const again = await createCompiler({ root: bot, cacheFile }).run({ write: true });
    expect(again.diagnostics.map((d) => d.code)).toContain('ZG3006');
    // A fresh process on the same cache: the same verdict, never "unchanged".
    let status = 0;
    let output = '';
    try {
      output = execFileSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', bot], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
        stdio: 'pipe',
      });
    } catch (error) {
      const e = error as { status: number; stdout: string; stderr: string };
      status = e.status;
      output = e.stdout + e.stderr;
    }
    expect(status).toBe(1);
    expect(output).toContain('ZG3006');
  });
});
