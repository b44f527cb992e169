import path from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateSchemas, type SchemaOutcome, type SchemaRequest } from '../../../compiler/schema/index.js';
import { cleanup, extract, project, tool } from './helpers.js';
import { REPO } from '../../helpers.js';

afterAll(cleanup);

const Z = "import { z } from 'zod';";
const KIT = "import { paged } from 'schema-kit';";

/** A package helper the extractor cannot copy: forces the fallback. */
const schemaKit = {
  'node_modules/schema-kit/package.json': JSON.stringify({ name: 'schema-kit', type: 'module', main: 'index.js' }),
  'node_modules/schema-kit/index.js': [
    "import { z } from 'zod';",
    'export function paged(shape) {',
    "  return z.object({ ...shape, page: z.number().int().min(1).default(1).describe('Page number') });",
    '}',
    '',
  ].join('\n'),
};

async function runAll(
  files: Record<string, string>,
  rels: string[],
  timeoutMs = 10_000,
): Promise<{ root: string; requests: SchemaRequest[]; outcomes: Map<string, SchemaOutcome> }> {
  const root = project({ ...schemaKit, ...files });
  const requests = rels.map((rel) => extract(root, rel).request);
  return { root, requests, outcomes: await evaluateSchemas(requests, { fallbackTimeoutMs: timeoutMs }) };
}

function diagnostic(outcome: SchemaOutcome | undefined) {
  if (!outcome || outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome.diagnostics[0]!;
}

describe('bundle fallback', () => {
  it('evaluates a schema built by a package helper in the real module', async () => {
    const { root, requests, outcomes } = await runAll(
      {
        'tools/list/helper.ts':
          "export const LIMIT = 20;\nexport function track() { return 'side effect in helper'; }\n",
        'tools/list/index.ts': tool(
          `${Z}\n${KIT}\nimport { LIMIT } from './helper.js';`,
          'paged({ q: z.string().max(LIMIT) })',
        ),
      },
      ['tools/list/index.ts'],
    );
    expect(requests[0]!.snippet).toMatchObject({ kind: 'fallback', reason: expect.stringContaining('schema-kit') });
    const outcome = outcomes.get('tools/list/index.ts');
    expect(outcome).toEqual({
      ok: true,
      origin: 'zod',
      via: 'bundle',
      schema: {
        type: 'object',
        properties: {
          q: { type: 'string', maxLength: 20 },
          page: {
            default: 1,
            description: 'Page number',
            type: 'integer',
            minimum: 1,
            maximum: Number.MAX_SAFE_INTEGER,
          },
        },
        required: ['q'],
      },
      sources: expect.any(Array),
    });
    expect(JSON.stringify(outcome)).not.toMatch(/\$schema|~standard/);
    // What it depends on (compiler/schema/bundle-deps.ts): the project files it read, each
    // package by its package.json, every file esbuild looked for first and did not find, and the
    // nearest tsconfig.json and package.json above them (the tree has none: the checkout's).
    const sources = outcome?.sources ?? [];
    expect(sources).toEqual([...sources].sort());
    expect(sources.filter((file) => existsSync(file))).toEqual(
      [
        path.join(root, 'node_modules/schema-kit/package.json'),
        path.join(root, 'tools/list/helper.ts'),
        path.join(root, 'tools/list/index.ts'),
        path.join(REPO, 'node_modules/zod/package.json'),
        path.join(REPO, 'package.json'),
        path.join(REPO, 'tsconfig.json'),
      ].sort(),
    );
    expect(sources).toEqual(
      expect.arrayContaining([
        // `./helper.js`: esbuild tries the name as written, with each extension, then the .ts.
        path.join(root, 'tools/list/helper.js'),
        path.join(root, 'tools/list/helper.js.ts'),
        // `zod` from the tool's folder up: a nearer install would win.
        path.join(root, 'tools/list/node_modules/zod/package.json'),
        path.join(root, 'node_modules/zod/package.json'),
      ]),
    );
  });

  it('runs code that reads `process` in the child process, never in the compiler', async () => {
    const { requests, outcomes } = await runAll(
      { 'tools/pid/index.ts': tool(Z, 'z.object({ pid: z.number().default(process.pid) })') },
      ['tools/pid/index.ts'],
    );
    expect(requests[0]!.snippet?.kind).toBe('fallback');
    const outcome = outcomes.get('tools/pid/index.ts');
    expect(outcome).toMatchObject({ ok: true, via: 'bundle' });
    const pid = outcome?.ok && (outcome.schema.properties as { pid: { default: number } }).pid.default;
    expect(typeof pid).toBe('number');
    expect(pid).not.toBe(process.pid);
  });

  it('reports a module that throws at top level (ZG2023, message without stack) while the others succeed', async () => {
    const { outcomes } = await runAll(
      {
        'tools/a/index.ts': tool(`${Z}\n${KIT}`, 'paged({ a: z.string() })'),
        'tools/boom/index.ts': tool(`${Z}\n${KIT}`, 'paged({})', "throw new Error('boom at load');"),
        'tools/c/index.ts': tool(`${Z}\n${KIT}`, 'paged({ c: z.boolean() })'),
        'tools/inline/index.ts': tool(Z, 'z.object({ i: z.string() })'),
      },
      ['tools/a/index.ts', 'tools/boom/index.ts', 'tools/c/index.ts', 'tools/inline/index.ts'],
    );
    expect([...outcomes.keys()]).toEqual([
      'tools/a/index.ts',
      'tools/boom/index.ts',
      'tools/c/index.ts',
      'tools/inline/index.ts',
    ]);
    const d = diagnostic(outcomes.get('tools/boom/index.ts'));
    expect(d).toMatchObject({ code: 'ZG2023', file: 'tools/boom/index.ts', line: 7 });
    expect(d.message).toContain('Error: boom at load');
    expect(d.message).not.toMatch(/\n\s+at /);
    expect(outcomes.get('tools/a/index.ts')).toMatchObject({ ok: true, via: 'bundle', schema: { required: ['a'] } });
    expect(outcomes.get('tools/c/index.ts')).toMatchObject({ ok: true, via: 'bundle', schema: { required: ['c'] } });
    expect(outcomes.get('tools/inline/index.ts')).toMatchObject({ ok: true, via: 'inline' });
  });

  it.each([
    ['an endless loop', 'while (true) {}', 'timed out after 4000 ms'],
    [
      'a slow top-level await',
      'await new Promise((resolve) => setTimeout(resolve, 60_000));',
      'timed out after 4000 ms',
    ],
    ['an unresolved top-level await', 'await new Promise(() => {});', 'top-level await never settled'],
  ])('stops a module with %s (ZG2023) and keeps the other results', async (_label, hang, message) => {
    const started = Date.now();
    const { outcomes } = await runAll(
      {
        'tools/a/index.ts': tool(`${Z}\n${KIT}`, 'paged({ a: z.string() })'),
        'tools/hang/index.ts': tool(`${Z}\n${KIT}`, 'paged({})', hang),
        'tools/z/index.ts': tool(`${Z}\n${KIT}`, 'paged({ z: z.string() })'),
      },
      ['tools/a/index.ts', 'tools/hang/index.ts', 'tools/z/index.ts'],
      4000,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(diagnostic(outcomes.get('tools/hang/index.ts'))).toMatchObject({
      code: 'ZG2023',
      message: expect.stringContaining(message),
    });
    expect(outcomes.get('tools/a/index.ts')).toMatchObject({ ok: true, schema: { required: ['a'] } });
    expect(outcomes.get('tools/z/index.ts')).toMatchObject({ ok: true, schema: { required: ['z'] } });
  });

  it('survives a module that exits the process and one that cannot be bundled', async () => {
    const { outcomes } = await runAll(
      {
        'tools/exit/index.ts': tool(`${Z}\n${KIT}`, 'paged({})', 'process.exit(3);'),
        'tools/missing/index.ts': tool(`${Z}\nimport { nope } from 'not-installed-anywhere';`, 'nope()'),
        'tools/ok/index.ts': tool(`${Z}\n${KIT}`, 'paged({ ok: z.string() })'),
      },
      ['tools/exit/index.ts', 'tools/missing/index.ts', 'tools/ok/index.ts'],
    );
    expect(diagnostic(outcomes.get('tools/exit/index.ts'))).toMatchObject({
      code: 'ZG2023',
      message: expect.stringContaining('exit code 3'),
    });
    expect(diagnostic(outcomes.get('tools/missing/index.ts'))).toMatchObject({
      code: 'ZG2023',
      message: expect.stringContaining('Could not resolve "not-installed-anywhere"'),
    });
    expect(outcomes.get('tools/ok/index.ts')).toMatchObject({ ok: true, schema: { required: ['ok'] } });
  });

  it('sends inline snippets that throw to the real module, which decides', async () => {
    const { requests, outcomes } = await runAll(
      { 'tools/re/index.ts': tool(Z, "z.object({ a: z.string().regex(new RegExp('[')) })") },
      ['tools/re/index.ts'],
    );
    expect(requests[0]!.snippet?.kind).toBe('inline');
    expect(diagnostic(outcomes.get('tools/re/index.ts'))).toMatchObject({
      code: 'ZG2023',
      message: expect.stringContaining('Invalid regular expression'),
    });
  });

  it('reports schema errors from bundled modules with the schema codes, not as "module threw"', async () => {
    const { outcomes } = await runAll(
      {
        'tools/json/index.ts': tool(
          `import { defineAgentTool as d } from 'zhin-gen/runtime';\n${KIT}`,
          "{ type: 'string' } as const",
          'void paged;',
        ),
        'tools/date/index.ts': tool(`${Z}\n${KIT}`, 'paged({ when: z.date() })'),
      },
      ['tools/json/index.ts', 'tools/date/index.ts'],
    );
    expect(diagnostic(outcomes.get('tools/json/index.ts')).code).toBe('ZG2020');
    expect(diagnostic(outcomes.get('tools/date/index.ts'))).toMatchObject({
      code: 'ZG2021',
      message: expect.stringContaining('`properties.when`'),
    });
  });
});
