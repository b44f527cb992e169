/**
 * The runtime's default validation path has no Ajv and no code evaluation: compiled JSON Schema
 * tools validate with the validators the compiler generated, runtime-owned schemas with built-in
 * ones, and a JSON Schema nobody compiled needs the explicit `jsonSchemaValidator` option —
 * `host.load` refuses seam and `addTool` tools without it, a hand-made manifest's tool fails
 * its call as `unavailable`. Shown on a real compiled tree in a child process where `ajv` cannot
 * be resolved at all, and on the runtime bundled for the browser.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { emitValidatorModule } from '../../../compiler/emit/validators.js';
import {
  CandidateRejectedError,
  createCapabilityHost,
  defineAgentTool,
  definePlugin,
  type PluginDefinition,
} from '../../../runtime/index.js';
import { checkJson } from '../../../runtime/turn/validation.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { BUILTIN_SCHEMAS } from '../../../runtime/validators/builtin-schemas.js';
import { builtinValidatorFor } from '../../../runtime/validators/builtin.js';
import type { CapabilityManifest } from '../../../runtime/contract/manifest.js';
import { REPO, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';
import { Fixture, manifest, resetGlobals } from '../fixture.js';
import { RecordingToolService, seamRoot, tool } from '../seam/helpers.js';

const dirs: string[] = [];
const fx = new Fixture('validators');
afterAll(() => {
  dirs.forEach(removeDir);
  fx.cleanup();
});

const withSetup = (setup: PluginDefinition['setup']): PluginDefinition =>
  definePlugin({ name: 'p', ...(setup ? { setup } : {}) });
const CITY_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', maximum: 14 } },
  required: ['city'],
  additionalProperties: false,
} as const;

describe('the default path: no Ajv, no eval', () => {
  it('the runtime bundled for the browser contains no Ajv, no eval and no new Function', async () => {
    const bundle = await build({
      entryPoints: [join(REPO, 'runtime', 'index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const code = bundle.outputFiles[0]!.text;
    expect(code).toContain('must have required property'); // the built-in validators are in it
    // Nothing of Ajv (or of any package) is in it; the word appears only in the error message naming the option.
    expect(Object.keys(bundle.metafile!.inputs).filter((input) => input.includes('node_modules'))).toEqual([]);
    expect(code).not.toMatch(/(?:from|import\s*\(|require\s*\()\s*["'][^"']*ajv/);
    expect(code).not.toMatch(/new Function|\bFunction\s*\(|\beval\s*\(/);
    expect(code).not.toMatch(/\brequire\s*\(/);
  });

  it("runs a compiled tree's turn in a process where importing ajv throws: same results as Ajv", async () => {
    const root = writeTree(tempDir('validators-no-ajv'), {
      'AGENTS.md': '# Bot\n',
      'tools/trip/index.ts': `import { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: 'trip', requiresApproval: 'never', inputSchema: ${JSON.stringify(CITY_SCHEMA)}, async execute(input) { return input; } });\n`,
      'tools/plain/index.ts':
        "import { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: 'plain', requiresApproval: 'never', execute: () => 'plain' });\n",
      'tools/zod/index.ts':
        "import { z } from 'zod';\nimport { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: 'zod', requiresApproval: 'never', inputSchema: z.object({ n: z.number().default(2) }), execute: ({ n }) => n * 2 });\n",
      'run.ts': `import { createCapabilityHost } from '@zhin-gen/runtime';
import { manifest } from './zhin-capabilities.gen.js';
const host = createCapabilityHost();
await host.load(manifest);
const turn = await host.beginTurn({ sessionKey: 's' });
const calls: [string, unknown][] = [['trip', { city: 'Paris', days: 3 }], ['trip', { city: 'P' }], ['trip', { days: 3 }], ['trip', { city: 'Paris', extra: 1 }], ['trip', 'text'], ['plain', {}], ['plain', 'text'], ['zod', {}], ['ask_user', {}]];
const outcomes = [];
for (const [name, input] of calls) outcomes.push(await turn.execute(name as never, input as never));
await turn.end();
let ajv = 'importable';
try { await import('ajv/dist/2020.js'); } catch (error) { ajv = String((error as Error).message); }
console.log(JSON.stringify({ outcomes: outcomes.map((o) => (o.status === 'completed' ? { status: o.status, output: o.output } : o)), ajv }));
`,
    });
    dirs.push(root);
    const compiled = await createCompiler({ root, cacheFile: false, runtimeModule: '@zhin-gen/runtime' }).run();
    expect(compiled.errors).toBe(0);
    // Any attempt to resolve ajv fails, as on a host where it is not installed.
    const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'ajv' || specifier.startsWith('ajv/')) throw new Error('ajv is not installed here: ' + specifier);
  return next(specifier, context);
}`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        `data:text/javascript,${encodeURIComponent(register)}`,
        '--import',
        'tsx',
        join(root, 'run.ts'),
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    const { outcomes, ajv } = JSON.parse(stdout.trim().split('\n').pop()!) as {
      outcomes: { status: string; output?: unknown; error?: { code: string; path?: string; message: string } }[];
      ajv: string;
    };
    expect(ajv).toContain('ajv is not installed here');
    const reference = await ajvValidator().compile(CITY_SCHEMA, {});
    const expected = (input: unknown) => {
      const result = checkJson(reference, input);
      return result.ok
        ? undefined
        : { code: 'invalid_input', path: result.path, message: `invalid input at ${result.path}: ${result.message}` };
    };
    expect(outcomes[0]).toEqual({ status: 'completed', output: { city: 'Paris', days: 3 } });
    for (const [index, input] of [
      [1, { city: 'P' }],
      [2, { days: 3 }],
      [3, { city: 'Paris', extra: 1 }],
      [4, 'text'],
    ] as const) {
      expect(outcomes[index]).toMatchObject({ status: 'failed', error: expected(input) });
    }
    expect(outcomes[2]!.error).toEqual({
      code: 'invalid_input',
      path: '/city',
      message: "invalid input at /city: must have required property 'city'",
    });
    expect(outcomes[5]).toEqual({ status: 'completed', output: 'plain' });
    expect(outcomes[6]).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '(root)', message: 'invalid input at (root): must be object' },
    });
    expect(outcomes[7]).toEqual({ status: 'completed', output: 4 }); // Zod: its default reached execute
    expect(outcomes[8]).toMatchObject({ status: 'failed', error: { code: 'invalid_input', path: '/question' } });
  }, 90_000);
});

describe('JSON Schemas the compiler never saw', () => {
  it('host.load rejects a seam tool without a runtime validator, naming the tool and the option; with one it loads', async () => {
    const service = new RecordingToolService('acme:search', [
      tool('acme_search', { parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }),
    ]);
    const root = seamRoot((seams) => seams.registerToolService('global', service));
    const host = createCapabilityHost();
    const rejected = host.load(manifest(), { plugins: { '': root.plugin } });
    await expect(rejected).rejects.toBeInstanceOf(CandidateRejectedError);
    await expect(rejected).rejects.toThrow(/tool "acme_search" .*jsonSchemaValidator.*@zhin-gen\/runtime\/ajv/);
    expect(host.generation).toBe(0);

    const withAjv = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    await withAjv.load(manifest(), { plugins: { '': root.plugin } });
    const turn = await withAjv.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('acme_search', {})).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/q' },
    });
    await turn.end();
  });

  it('an `$async` schema (its Ajv validator answers a promise) refuses every input, valid or not; execute never runs', async () => {
    const service = new RecordingToolService('acme:later', [
      tool('acme_later', {
        parameters: { $async: true, type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      }),
    ]);
    const root = seamRoot((seams) => seams.registerToolService('global', service));
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    await host.load(manifest(), { plugins: { '': root.plugin } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    for (const input of [{ q: 'fine' }, {}, { q: 1 }])
      expect(await turn.execute('acme_later', input)).toMatchObject({
        status: 'failed',
        error: { code: 'invalid_input', path: '(root)', message: expect.stringContaining('no true/false answer') },
      });
    expect(service.calls).toEqual([]);
    await turn.end();
  });

  it("the seed's addTool example ({ type: 'object', properties: {} }) loads on a default host and validates as Ajv does", async () => {
    const root = copyFixture('example-bot', 'validators-seed-example');
    dirs.push(root);
    const result = await createCompiler({ root, cacheFile: false }).run();
    expect(result.errors).toBe(0);
    const generated = (await import(`${result.outFile}?t=${Date.now()}`)) as { manifest: CapabilityManifest };
    const host = createCapabilityHost({ approval: { requestApproval: async () => true } });
    await host.load(generated.manifest, { config: { plugins: { '': { agentToolsEnabled: true } } } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('lottery_sync', {})).toMatchObject({ status: 'completed', output: { synced: true } });
    expect(await turn.execute('lottery_sync', [] as never)).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '(root)', message: 'invalid input at (root): must be object' },
    });
    await turn.end();
    // The built-in validator it gets answers as Ajv compiling that very text does.
    const reference = await ajvValidator().compile({ type: 'object', properties: {} }, {});
    const builtin = (await builtinValidatorFor({ type: 'object', properties: {} })!()).default;
    for (const input of [{}, { a: 1 }, [], null, 'x', 1, { properties: {} }])
      expect(checkJson(builtin, input)).toEqual(checkJson(reference, input));
  });

  it('addTool: a JSON Schema needs the option; no schema and a Standard Schema do not', async () => {
    const jsonTool = defineAgentTool({
      description: 'json',
      requiresApproval: 'never',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      execute: () => 1,
    });
    const bare = defineAgentTool({ description: 'bare', requiresApproval: 'never', execute: () => 'bare' });
    const host = createCapabilityHost();
    await expect(
      host.load(manifest(), { plugins: { '': withSetup((context) => context.addTool('json-tool', jsonTool)) } }),
    ).rejects.toThrow(
      /tool "json-tool" \(setup tool "json-tool" of root plugin\) has a JSON Schema .*jsonSchemaValidator/,
    );
    await host.load(manifest(), { plugins: { '': withSetup((context) => context.addTool('bare', bare)) } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('bare', {})).toMatchObject({ status: 'completed', output: 'bare' });
    expect(await turn.execute('bare', [] as never)).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '(root)', message: 'invalid input at (root): must be object' },
    });
    await turn.end();
  });

  it("a hand-made manifest's JSON Schema tool without a runtime validator fails its call as unavailable; execute never runs", async () => {
    resetGlobals();
    const file = fx.toolModule('hand', { schema: JSON.stringify(CITY_SCHEMA) });
    const host = createCapabilityHost();
    await host.load(manifest({ tools: [fx.tool('hand', file, { inputSchema: CITY_SCHEMA })] }));
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('hand', { city: 'Paris' });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: {
        code: 'unavailable',
        message: expect.stringMatching(/tool "hand" .*jsonSchemaValidator: ajvValidator\(\)/),
      },
    });
    expect(globalThis.__events).toEqual([]);
    await turn.end();
  });
});

describe('built-in validators', () => {
  it('are what the emitter makes of their schemas today (regenerate: see runtime/validators/builtin-schemas.ts)', () => {
    const dir = join(REPO, 'runtime', 'validators', 'generated');
    expect(readdirSync(dir).sort()).toEqual(
      Object.keys(BUILTIN_SCHEMAS)
        .map((name) => `${name}.gen.ts`)
        .sort(),
    );
    for (const [name, schema] of Object.entries(BUILTIN_SCHEMAS)) {
      expect(readFileSync(join(dir, `${name}.gen.ts`), 'utf8'), name).toBe(
        emitValidatorModule(schema, { typescript: true }),
      );
    }
  });

  it('runtime/validators imports nothing but relative modules (ajv.ts: only Ajv, and only lazily)', () => {
    const dir = join(REPO, 'runtime', 'validators');
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const source = readFileSync(join(dir, name), 'utf8');
      for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
        const spec = match[1]!;
        if (name === 'ajv.ts' && spec === 'ajv/dist/2020.js') expect(source).toContain(`import('${spec}')`);
        else expect(spec.startsWith('./') || spec.startsWith('../'), `${name} imports ${spec}`).toBe(true);
      }
    }
  });
});
