/**
 * The compiler writes one validator module per distinct JSON Schema beside the manifest, and
 * keeps that folder incremental: a rerun (fresh process or watch mode) writes nothing when no
 * schema changed, a schema edit writes one module and removes the one no tool uses any more, a
 * body-only edit touches nothing, and files the compiler did not write are never removed.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CapabilityManifest } from '../../../runtime/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { GENERATED_MARK } from '../../../compiler/emit/manifest.js';
import { REPO, cli, copyTree, removeDir, tempDir, writeTree } from '../../helpers.js';

const jsonTool = (schema: string, body = "return 'ok';"): string =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: 'json',\n  requiresApproval: 'never',\n  inputSchema: ${schema},\n  async execute() {\n    ${body}\n  },\n});\n`;
const CITY = "{ type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] }";
const TREE = {
  'AGENTS.md': '# Bot\n',
  'tools/json-a/index.ts': jsonTool(CITY),
  'tools/json-b/index.ts': jsonTool(CITY),
  'tools/plain/index.ts':
    "import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({ description: 'no schema', requiresApproval: 'never', execute: () => 1 });\n",
  'tools/zod/index.ts':
    "import { z } from 'zod';\nimport { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({ description: 'zod', requiresApproval: 'never', inputSchema: z.object({ n: z.number() }), execute: ({ n }) => n });\n",
};
const OUT = 'zhin-capabilities.gen.ts';
const DIR = 'zhin-capabilities.gen.validators';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function files(root: string): Record<string, { text: string; mtimeMs: number }> {
  const out: Record<string, { text: string; mtimeMs: number }> = {};
  // The folder's search index (search.ts) has its own test: test/compiler/emit/search-module.test.ts.
  for (const name of readdirSync(join(root, DIR))
    .filter((file) => !file.startsWith('search.'))
    .sort())
    out[name] = { text: readFileSync(join(root, DIR, name), 'utf8'), mtimeMs: statSync(join(root, DIR, name)).mtimeMs };
  return out;
}

function toolLine(manifest: string, name: string): string {
  return manifest.split('\n').find((line) => line.includes(`"qualifiedName":"${name}"`))!;
}

describe('generated validator files', () => {
  it('one module per distinct JSON Schema (none for a Zod tool), imported by key, loaded lazily', async () => {
    const root = writeTree(tempDir('validators-emit'), TREE);
    dirs.push(root);
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.errors).toBe(0);
    const written = files(root);
    // json-a and json-b share one schema; plain has the empty-object schema; zod has none.
    expect(Object.keys(written)).toHaveLength(2);
    for (const { text } of Object.values(written)) {
      expect(text.startsWith(GENERATED_MARK)).toBe(true);
      expect(text).not.toMatch(/\brequire\(|\bimport\b|new Function|\beval\(/);
    }
    const manifest = readFileSync(join(root, OUT), 'utf8');
    const key = /"validator":"([0-9a-f]{16})"/.exec(toolLine(manifest, 'json-a'))![1]!;
    expect(toolLine(manifest, 'json-b')).toContain(`"validator":"${key}"`);
    expect(toolLine(manifest, 'plain')).toMatch(/"validator":"[0-9a-f]{16}"/);
    expect(toolLine(manifest, 'zod')).not.toContain('"validator"');
    expect(manifest).toContain(`case "${key}": return import("./${DIR}/${key}.js");`);
    expect(written[`${key}.ts`]).toBeDefined();
  });

  it('is deterministic and incremental: reruns write nothing, a schema edit writes one module and removes the unused one', async () => {
    const root = writeTree(tempDir('validators-incremental'), TREE);
    const twin = copyTree(root, 'validators-twin');
    dirs.push(root, twin);
    await createCompiler({ root, cacheFile: false }).run();
    await createCompiler({ root: twin, cacheFile: false }).run();
    const first = files(root);
    // Two trees, two processes' worth of compilers: the same bytes.
    expect(Object.fromEntries(Object.entries(files(twin)).map(([n, f]) => [n, f.text]))).toEqual(
      Object.fromEntries(Object.entries(first).map(([n, f]) => [n, f.text])),
    );
    expect(readFileSync(join(twin, OUT), 'utf8')).toBe(readFileSync(join(root, OUT), 'utf8'));

    // A fresh compiler over an unchanged tree: not one validator written again.
    const again = await createCompiler({ root, cacheFile: false }).run();
    expect(again.written).toBe(false);
    expect(files(root)).toEqual(first);

    // Files the compiler did not write stay, even with a key-shaped name.
    writeFileSync(join(root, DIR, 'README.md'), 'mine\n');
    writeFileSync(join(root, DIR, '0123456789abcdef.ts'), 'export const mine = 1;\n');

    // Watch mode: one compiler, file events.
    const watch = createCompiler({ root, cacheFile: false });
    await watch.run();
    writeFileSync(join(root, 'tools/json-a/index.ts'), jsonTool(CITY, "return 'a body-only edit';"));
    watch.notify([{ type: 'change', path: join(root, 'tools/json-a/index.ts') }]);
    const bodyOnly = await watch.run();
    expect(bodyOnly.written).toBe(false);
    expect(Object.fromEntries(Object.entries(files(root)).filter(([n]) => n in first))).toEqual(first);

    const shared = `${/"validator":"([0-9a-f]{16})"/.exec(toolLine(readFileSync(join(root, OUT), 'utf8'), 'json-a'))![1]!}.ts`;
    expect(first[shared]).toBeDefined();
    const EDITED = "{ type: 'object', properties: { city: { type: 'string', minLength: 3 } }, required: ['city'] }";
    writeFileSync(join(root, 'tools/json-a/index.ts'), jsonTool(EDITED));
    watch.notify([{ type: 'change', path: join(root, 'tools/json-a/index.ts') }]);
    await watch.run();
    const afterA = files(root);
    // json-b still uses the shared schema: kept, untouched; json-a's new schema: one new module.
    expect(afterA[shared]).toEqual(first[shared]);
    const added = Object.keys(afterA).filter(
      (name) => !(name in first) && name !== 'README.md' && name !== '0123456789abcdef.ts',
    );
    expect(added).toHaveLength(1);

    writeFileSync(join(root, 'tools/json-b/index.ts'), jsonTool(EDITED));
    watch.notify([{ type: 'change', path: join(root, 'tools/json-b/index.ts') }]);
    await watch.run();
    const afterB = files(root);
    expect(afterB[shared]).toBeUndefined();
    expect(afterB[added[0]!]).toEqual(afterA[added[0]!]);
    expect(afterB['README.md']).toBeDefined();
    expect(afterB['0123456789abcdef.ts']).toBeDefined();
    await watch.dispose();
  });

  it('a validator module removed by hand is written again by the next run', async () => {
    const root = writeTree(tempDir('validators-removed'), TREE);
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    await compiler.run();
    const [name] = Object.keys(files(root));
    const text = readFileSync(join(root, DIR, name!), 'utf8');
    removeDir(join(root, DIR, name!));
    await compiler.run();
    expect(readFileSync(join(root, DIR, name!), 'utf8')).toBe(text);
  });
});

describe('a tree that no longer needs the folder', () => {
  it('removes the folder its last module left, as a fresh run writes none; check agrees', async () => {
    const root = writeTree(tempDir('validators-emptied'), TREE);
    dirs.push(root);
    expect((await createCompiler({ root }).run()).errors).toBe(0);
    expect(readdirSync(join(root, DIR)).length).toBeGreaterThan(0);
    // No tool left: no validator, no search index.
    for (const tool of ['json-a', 'json-b', 'plain', 'zod']) removeDir(join(root, 'tools', tool));
    expect((await createCompiler({ root }).run()).errors).toBe(0);
    expect(() => statSync(join(root, DIR))).toThrow();
    const fresh = writeTree(tempDir('validators-emptied-fresh'), { 'AGENTS.md': '# Bot\n' });
    dirs.push(fresh);
    await createCompiler({ root: fresh, cacheFile: false }).run();
    expect(() => statSync(join(fresh, DIR))).toThrow();
    expect(readFileSync(join(root, OUT), 'utf8')).toBe(readFileSync(join(fresh, OUT), 'utf8'));
    expect(cli(['check', '--root', root]).status).toBe(0);
  });
});

describe('check and the validators folder', () => {
  it('check reports a manifest whose validator module is missing as stale; generate writes it again', () => {
    const root = writeTree(tempDir('validators-check'), TREE);
    dirs.push(root);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(cli(['check', '--root', root]).status).toBe(0);
    const [name] = readdirSync(join(root, DIR));
    removeDir(join(root, DIR, name!));
    const check = cli(['check', '--root', root]);
    expect(check.status, check.stdout + check.stderr).toBe(2);
    expect(check.stderr).toContain(
      `${DIR}/${name}:1:1 - error: missing: zhin-capabilities.gen.ts imports this generated module`,
    );
    // GitHub's format names the missing module too, at its own path (run from the root: as the
    // checkout has it), and so does SARIF, as a result of the `stale` rule.
    const github = cli(['check', '--format', 'github'], root);
    expect(github.status).toBe(2);
    expect(github.stdout).toContain(
      `::error file=${DIR}/${name},line=1,title=stale::missing: zhin-capabilities.gen.ts imports this generated module; run npx zhin-gen generate`,
    );
    const sarif = cli(['check', '--format', 'sarif'], root);
    expect(sarif.status).toBe(2);
    expect(JSON.parse(sarif.stdout).runs[0].results).toEqual([
      {
        ruleId: 'stale',
        level: 'error',
        message: { text: 'missing: zhin-capabilities.gen.ts imports this generated module; run npx zhin-gen generate' },
        locations: [{ physicalLocation: { artifactLocation: { uri: `${DIR}/${name}` }, region: { startLine: 1 } } }],
      },
    ]);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(readdirSync(join(root, DIR))).toContain(name);
    expect(cli(['check', '--root', root]).status).toBe(0);
  });
});

describe('a schema of very many properties', () => {
  it('3,000 properties of one object: a working validator (not a stub that fails every call), first error as ever', async () => {
    const wide = `{ type: 'object', properties: { ${Array.from({ length: 3000 }, (_, i) => `p${i}: { type: 'string' }`).join(', ')} }, required: ['p0', 'p2999'], additionalProperties: false }`;
    const root = writeTree(tempDir('validators-wide'), {
      'AGENTS.md': '# Bot\n',
      'tools/wide/index.ts': jsonTool(wide),
    });
    dirs.push(root);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const [name] = readdirSync(join(root, DIR)).filter((file) => !file.startsWith('search.'));
    expect(readFileSync(join(root, DIR, name!), 'utf8')).not.toContain('could not be compiled');
    const { createCapabilityHost } = await import('../../../runtime/index.js');
    const { manifest } = (await import(pathToFileURL(join(root, OUT)).href)) as { manifest: CapabilityManifest };
    const host = createCapabilityHost();
    await host.load(manifest);
    const turn = await host.beginTurn({ sessionKey: 'wide' });
    expect(await turn.execute('wide', { p0: 'a', p2999: 'z' })).toMatchObject({ status: 'completed', output: 'ok' });
    expect(await turn.execute('wide', { p0: 'a' })).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/p2999' },
    });
    expect(await turn.execute('wide', { p0: 'a', p2999: 'z', p17: 3 })).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/p17', message: 'invalid input at /p17: must be string' },
    });
    await turn.end();
    await host.close();
  });
});

describe('validator bytes do not depend on the machine', () => {
  it('the same schemas give the same module on a stack of 400 KB as on the default one (no caught overflow decides)', async () => {
    const { createHash } = await import('node:crypto');
    const { spawnSync } = await import('node:child_process');
    const { emitValidatorModule } = await import('../../../compiler/emit/validators.js');
    const script = `
import { createHash } from 'node:crypto';
import { emitValidatorModule } from ${JSON.stringify(join(REPO, 'compiler', 'emit', 'validators.ts'))};
const out = [];
for (const n of [200, 300, 700]) {
  const properties = {};
  for (let i = 0; i < n; i++) properties['p' + i] = { type: 'string' };
  out.push(createHash('sha256').update(emitValidatorModule({ type: 'object', properties }, { typescript: false })).digest('hex'));
}
console.log(JSON.stringify(out));
`;
    const here = [200, 300, 700].map((n) => {
      const properties: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) properties[`p${i}`] = { type: 'string' };
      return createHash('sha256')
        .update(emitValidatorModule({ type: 'object', properties } as never, { typescript: false }))
        .digest('hex');
    });
    const small = spawnSync(
      process.execPath,
      ['--stack-size=400', '--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: REPO,
        encoding: 'utf8',
      },
    );
    expect(small.status, small.stderr).toBe(0);
    expect(JSON.parse(small.stdout.trim())).toEqual(here);
  });
});
