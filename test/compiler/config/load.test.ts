/** Config discovery (ts / mjs / json / package.json), Zod validation and path resolution. */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler, loadConfig } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const vipTool = {
  'tools/vip/index.ts':
    "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'VIP only', permissions: ['vip', 'tier:gold'], execute: () => 1 });\n",
};

describe('config', () => {
  it('reads zhin-gen.config.ts with defineConfig and resolves paths against the root', async () => {
    const root = writeTree(tempDir('cfg-ts'), {
      ...vipTool,
      'zhin-gen.config.ts':
        "import { defineConfig } from 'zhin-gen';\nexport default defineConfig({ out: 'generated/caps.gen.ts', permits: ['vip', '/^tier:/'] });\n",
    });
    dirs.push(root);
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.diagnostics).toEqual([]);
    expect(result.outRel).toBe('generated/caps.gen.ts');
    expect(existsSync(join(root, 'generated/caps.gen.ts'))).toBe(true);
    expect(result.code).toContain('from "../tools/vip/index.js"');
  });

  it('reads zhin-gen.config.ts in a CommonJS package (no "type": "module"), and what it imports', async () => {
    const root = writeTree(tempDir('cfg-ts-cjs'), {
      ...vipTool,
      'package.json': JSON.stringify({ name: 'bot' }),
      'cfg/permits.ts': "export const permits = ['vip', '/^tier:/'];\n",
      'zhin-gen.config.ts': "import { permits } from './cfg/permits';\nexport default { permits };\n",
    });
    dirs.push(root);
    const loaded = await loadConfig(root);
    // Compiled to CommonJS, its default export sits under module.exports.default: never ZG1100 `default`.
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.options.permits).toEqual(['vip', '/^tier:/']);
    // The module it imports (extensionless, as tsx resolves it) is what watch mode follows.
    expect(loaded.modules.map((m) => m.path)).toEqual([join(root, 'cfg/permits.ts')]);
    const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
    expect(result.diagnostics).toEqual([]);
  });

  it('reads zhin-gen.config.mjs and the package.json key', async () => {
    const mjs = writeTree(tempDir('cfg-mjs'), {
      ...vipTool,
      'zhin-gen.config.mjs': "export default { permits: ['vip', 'tier:gold'], importExtension: '.ts' };\n",
    });
    const pkg = writeTree(tempDir('cfg-pkg'), {
      ...vipTool,
      'package.json': JSON.stringify({
        name: 'bot',
        'zhin-gen': { permits: ['vip', 'tier:gold'], out: 'caps.gen.ts' },
      }),
    });
    dirs.push(mjs, pkg);
    const a = await createCompiler({ root: mjs, cacheFile: false }).run({ write: false });
    expect(a.diagnostics).toEqual([]);
    expect(a.code).toContain('import("./tools/vip/index.ts")');
    const b = await createCompiler({ root: pkg, cacheFile: false }).run({ write: false });
    expect(b.diagnostics).toEqual([]);
    expect(b.outRel).toBe('caps.gen.ts');
  });

  it('reports invalid options and a throwing config as diagnostics, never a crash', async () => {
    const bad = writeTree(tempDir('cfg-bad'), {
      ...vipTool,
      'zhin-gen.config.json': '{ "outt": "x.ts", "providers": ["gemini"] }',
    });
    const throwing = writeTree(tempDir('cfg-throw'), {
      ...vipTool,
      'zhin-gen.config.mjs': "throw new Error('boom');\n",
    });
    dirs.push(bad, throwing);
    const loaded = await loadConfig(bad);
    expect(loaded.diagnostics.map((d) => [d.code, `${d.file}:${d.line}:${d.column}`, d.message])).toEqual([
      [
        'ZG1100',
        'zhin-gen.config.json:1:33',
        'Config option `providers.0`: Invalid option: expected one of "anthropic"|"openai"',
      ],
      ['ZG1100', 'zhin-gen.config.json:1:3', 'Unknown config option `outt`'],
    ]);
    expect(loaded.diagnostics[1]!.hint).toContain('Known options: out, modules, plugins');
    const result = await createCompiler({ root: throwing, cacheFile: false }).run({ write: false });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['ZG2008', 'ZG2008', 'ZG1101']);
    expect(result.diagnostics[2]!.message).toBe('Could not load zhin-gen.config.mjs: boom');
    // Options given in code (a build plugin's) that are wrong themselves: diagnostics, the defaults.
    const given = await loadConfig(bad, { out: '' });
    expect(given.diagnostics.map((d) => d.message)).toContain(
      'Config option `out`: Too small: expected string to have >=1 characters',
    );
    expect(given.options.out).toBe('zhin-capabilities.gen.ts');
  });

  it('a syntax error in a .ts config, or in a module it imports, says what and where (not "Transform failed")', async () => {
    const own = writeTree(tempDir('cfg-ts-syntax'), {
      'zhin-gen.config.ts': "export default {\n  permits: ['vip'],\n  importExtension: ;\n};\n",
    });
    const imported = writeTree(tempDir('cfg-ts-import'), {
      'zhin-gen.config.ts': "import { extra } from './extra.js';\nexport default { permits: extra };\n",
      'extra.ts': 'export const extra = [;\n',
    });
    dirs.push(own, imported);
    const [syntax] = (await loadConfig(own)).diagnostics;
    expect(syntax).toMatchObject({
      code: 'ZG1101',
      line: 3,
      column: 20,
      message: 'Could not load zhin-gen.config.ts: Unexpected ";"',
    });
    // 1-based, as every diagnostic's column (SARIF refuses a 0): the column is the ";".
    expect('  importExtension: ;'[syntax!.column - 1]).toBe(';');
    const [inImport] = (await loadConfig(imported)).diagnostics;
    expect(inImport).toMatchObject({ code: 'ZG1101', line: 1, column: 1 });
    expect(inImport!.message).toMatch(/^Could not load zhin-gen\.config\.ts: extra\.ts:1:\d+: Unexpected/);
  });

  it('says what is wrong with a config that is no object, JSON that does not parse, and a bad child-plugin key', async () => {
    const fn = writeTree(tempDir('cfg-fn'), { 'zhin-gen.config.mjs': 'export default () => ({ out: "x.gen.ts" });\n' });
    const json = writeTree(tempDir('cfg-json'), { 'zhin-gen.config.json': '{\n  "out": "x.gen.ts",\n}\n' });
    const key = writeTree(tempDir('cfg-key'), { 'zhin-gen.config.json': '{ "plugins": { "Extra": "vendor" } }\n' });
    dirs.push(fn, json, key);
    const at = (d: { file: string; line: number; column: number }) => `${d.file}:${d.line}:${d.column}`;
    const [notObject] = (await loadConfig(fn)).diagnostics;
    expect(notObject).toMatchObject({
      code: 'ZG1100',
      message: 'The config must be a plain object of options; it exports a function',
      hint: expect.stringContaining('not a function that returns it'),
    });
    const [syntax] = (await loadConfig(json)).diagnostics;
    expect(syntax).toMatchObject({ code: 'ZG1101', hint: expect.stringContaining('no trailing commas') });
    expect(at(syntax!)).toBe('zhin-gen.config.json:3:1');
    const [badKey] = (await loadConfig(key)).diagnostics;
    expect(badKey!.code).toBe('ZG1100');
    expect(badKey!.message).toMatch(/^Config option `plugins\.Extra`: the key: child plugin keys match /);
  });

  it('a config whose getters or Proxy traps throw is its own ZG1101; one exporting null or nothing is ZG1100', async () => {
    const getter = writeTree(tempDir('cfg-getter'), {
      'zhin-gen.config.mjs': 'export default { get out() { throw new Error("getter boom"); } };\n',
    });
    const nested = writeTree(tempDir('cfg-nested'), {
      'zhin-gen.config.mjs': 'export default { plugins: { get extra() { throw new Error("nested boom"); } } };\n',
    });
    const proxy = writeTree(tempDir('cfg-proxy'), {
      'zhin-gen.config.mjs': 'export default new Proxy({}, { ownKeys() { throw new Error("trap boom"); } });\n',
    });
    const nothing = writeTree(tempDir('cfg-null'), { 'zhin-gen.config.mjs': 'export default null;\n' });
    const noDefault = writeTree(tempDir('cfg-none'), {
      'zhin-gen.config.mjs': 'export const config = { out: "x.gen.ts" };\n',
    });
    dirs.push(getter, nested, proxy, nothing, noDefault);
    const first = async (root: string) => (await loadConfig(root)).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(await first(getter)).toEqual(['ZG1101 Could not read the options zhin-gen.config.mjs exports: getter boom']);
    expect(await first(nested)).toEqual(['ZG1101 Could not read the options zhin-gen.config.mjs exports: nested boom']);
    expect(await first(proxy)).toEqual(['ZG1101 Could not read the options zhin-gen.config.mjs exports: trap boom']);
    expect(await first(nothing)).toEqual(['ZG1100 The config must be a plain object of options; it exports null']);
    const latin1 = tempDir('cfg-latin1');
    dirs.push(latin1);
    writeFileSync(join(latin1, 'zhin-gen.config.json'), Buffer.from('{ "out": "caf\xe9.gen.ts" }\n', 'latin1'));
    expect(await first(latin1)).toEqual([
      'ZG1101 Could not load zhin-gen.config.json: it is not valid UTF-8 (save it as UTF-8)',
    ]);
    expect(await first(noDefault)).toEqual([
      'ZG1100 The config must be a plain object of options; it exports no default',
    ]);
  });

  it('a custom permit that is not a valid regular expression is a located ZG1100, not a permit that matches nothing', async () => {
    const root = writeTree(tempDir('cfg-permit'), {
      ...vipTool,
      'zhin-gen.config.json': '{\n  "permits": ["vip", "/[/"]\n}\n',
    });
    dirs.push(root);
    const loaded = await loadConfig(root);
    expect(loaded.diagnostics.map((d) => [d.code, `${d.file}:${d.line}:${d.column}`])).toEqual([
      ['ZG1100', 'zhin-gen.config.json:2:22'],
    ]);
    expect(loaded.diagnostics[0]!.message).toMatch(/^Config option `permits\.1`: not a valid regular expression \(/);
  });
});

describe('defaults', () => {
  it('DEFAULT_OPTIONS (used without any config, so Zod is never loaded) equals the schema defaults', async () => {
    const { DEFAULT_OPTIONS, configSchema } = await import('../../../compiler/index.js');
    expect(configSchema.parse({})).toEqual(DEFAULT_OPTIONS);
  });
});
