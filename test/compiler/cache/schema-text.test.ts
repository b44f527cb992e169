/**
 * Cache format 4 (compiler/cache/schema-text.ts): evaluated schemas persist as JSON text and a
 * fresh process parses one only when something needs the object. Through the real compiler: a
 * fresh run after one change writes exactly the bytes and diagnostics of a cacheless run, with
 * schemas whose text needs escaping (`<`, U+2028), an OpenAI-unsupported keyword, and the same
 * words as property names and data (the provider check's text filter must not decide those). A
 * cache in format 3 (schemas as objects) is a miss, under its own version or under this one.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { linkSchema, persistedOutcome, schemaTextOf, storedOutcome } from '../../../compiler/cache/schema-text.js';
import { CACHE_VERSION } from '../../../compiler/cache/units.js';
import { removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';
import { DIR, generatedFiles, OUT } from '../sharded-tree.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const jsonTool = (schema: object, description = 'Look up a record'): string =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  inputSchema: ${JSON.stringify(schema)},\n  async execute() {\n    return 1;\n  },\n});\n`;

const zodTool = (min: number): string =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: 'Fetch one',\n  requiresApproval: 'never',\n  inputSchema: z.object({ id: z.string().min(${min}).describe('<b>id</b>') }),\n  async execute({ id }) {\n    return id;\n  },\n});\n`;

const SCHEMAS: Record<string, object> = {
  escaped: {
    type: 'object',
    properties: { q: { type: 'string', description: 'a <tag> and \u2028 a separator', pattern: '^[<>]+$' } },
  },
  'one-of': { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
  'one-of-named': { type: 'object', properties: { oneOf: { type: 'string' } } },
  'all-of-data': { type: 'object', properties: { v: { type: 'object', default: { allOf: 1 } } } },
  'quoted-value': { type: 'object', properties: { v: { type: 'string', const: '"oneOf":' } } },
};

function tree(): Record<string, string> {
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n' };
  for (const [name, schema] of Object.entries(SCHEMAS)) files[`tools/${name}/index.ts`] = jsonTool(schema);
  for (let i = 0; i < 30; i++)
    files[`tools/plain-${i}/index.ts`] = jsonTool({
      type: 'object',
      properties: { i: { type: 'integer', maximum: i } },
    });
  for (let i = 0; i < 10; i++) files[`tools/zod-${i}/index.ts`] = zodTool(i + 1);
  files['skills/notes/SKILL.md'] = '---\nname: notes\ndescription: Keep notes\n---\nWrite them down.\n';
  return files;
}

async function freshRun(root: string, cacheFile: string | false) {
  const compiler = createCompiler({ root, cacheFile });
  const result = await compiler.run();
  await compiler.dispose();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  return result;
}

const said = (r: Awaited<ReturnType<typeof freshRun>>) => r.diagnostics.map((d) => `${d.code} ${d.file} ${d.message}`);

/** The bytes and diagnostics of a cacheless run over a copy of the tree. */
async function cacheless(root: string) {
  const copy = tempDir('schema-text-cold');
  dirs.push(copy);
  cpSync(root, copy, {
    recursive: true,
    filter: (src) => src === root || !['cache', OUT, DIR].includes(basename(src)),
  });
  const result = await freshRun(copy, false);
  return { files: generatedFiles(copy), diagnostics: said(result) };
}

async function generated(prefix: string) {
  const root = writeTree(tempDir(prefix), tree());
  dirs.push(root);
  const cacheFile = join(root, 'cache', 'units.json');
  settleTree(root);
  await freshRun(root, cacheFile);
  return { root, cacheFile };
}

describe('schemas persisted as text (cache format 4)', () => {
  it('a fresh run after one change writes what a cacheless run writes', async () => {
    const { root, cacheFile } = await generated('schema-text');
    const bodies = JSON.parse(readFileSync(cacheFile, 'utf8')) as { entries: Record<string, { schema?: object }> };
    const persisted = Object.values(bodies.entries).flatMap((e) => (e.schema ? [e.schema] : []));
    expect(persisted.length).toBe(45);
    for (const outcome of persisted) expect(typeof (outcome as { schemaText?: unknown }).schemaText).toBe('string');
    for (const edit of [
      () => writeFileSync(join(root, 'tools/plain-3/index.ts'), jsonTool({ type: 'object', properties: {} })),
      () => writeFileSync(join(root, 'tools/zod-2/index.ts'), zodTool(40)),
      () => writeFileSync(join(root, 'tools/escaped/index.ts'), jsonTool(SCHEMAS.escaped!, 'Changed <here>')),
    ]) {
      edit();
      const run = await freshRun(root, cacheFile);
      expect(run.stats.parsed).toBe(1);
      const expected = await cacheless(root);
      expect(generatedFiles(root)).toEqual(expected.files);
      expect(said(run)).toEqual(expected.diagnostics);
      // The OpenAI keyword check found the one real `oneOf`, and only it.
      expect(run.diagnostics.filter((d) => d.code === 'ZG5003').map((d) => d.file)).toEqual(['tools/one-of/index.ts']);
    }
  });

  for (const label of ['its own version', 'this version']) {
    it(`reads a format-3 cache (schemas as objects) under ${label} as a miss`, async () => {
      const { root, cacheFile } = await generated('schema-text-old');
      const base = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
        version: string;
        entries: Record<string, { schema?: { schemaText?: string; schema?: unknown } }>;
      };
      expect(base.version).toBe(CACHE_VERSION);
      for (const entry of Object.values(base.entries)) {
        const outcome = entry.schema;
        if (outcome?.schemaText === undefined) continue;
        outcome.schema = JSON.parse(outcome.schemaText);
        delete outcome.schemaText;
      }
      if (label === 'its own version') base.version = base.version.replace('zhin-gen-cache-4@', 'zhin-gen-cache-3@');
      writeFileSync(cacheFile, JSON.stringify(base));
      // A change, so the tree record cannot vouch and the bodies are read.
      writeFileSync(join(root, 'tools/plain-3/index.ts'), jsonTool({ type: 'object', properties: {} }));
      const run = await freshRun(root, cacheFile);
      // Every tool parsed again (under this version, the skill's entry still matches its shape).
      expect(run.stats.parsed).toBeGreaterThanOrEqual(45);
      const expected = await cacheless(root);
      expect(generatedFiles(root)).toEqual(expected.files);
      expect(said(run)).toEqual(expected.diagnostics);
    });
  }
});

describe('cache/schema-text.ts', () => {
  const schema = { type: 'object', properties: { a: { type: 'string', description: '<x>' } }, required: ['a'] };
  const text = JSON.stringify(schema);

  it('parses the text only when the schema is read, once', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const outcome = storedOutcome({ ok: true, schemaText: text, origin: 'json', via: 'inline' }, 'tool:tools/a');
      expect(schemaTextOf(outcome)).toBe(text);
      // Persisting it again keeps the text without parsing it.
      expect(persistedOutcome(outcome)).toEqual({ ok: true, schemaText: text, origin: 'json', via: 'inline' });
      const model = linkSchema({ name: 'a', inputSchema: {} as object, kind: 'tool' }, 'inputSchema', outcome);
      expect(schemaTextOf(model)).toBe(text);
      expect(parse).not.toHaveBeenCalled();
      expect(outcome.ok && outcome.schema).toEqual(schema);
      expect(model.inputSchema).toBe(outcome.ok ? outcome.schema : undefined);
      expect(parse).toHaveBeenCalledTimes(1);
      // Equality, spreading and serialising see plain values in the same key order.
      expect(outcome).toEqual({ ok: true, schema, origin: 'json', via: 'inline' });
      expect(JSON.stringify(model)).toBe(JSON.stringify({ name: 'a', inputSchema: schema, kind: 'tool' }));
      expect({ ...model }).toEqual({ name: 'a', inputSchema: schema, kind: 'tool' });
    } finally {
      parse.mockRestore();
    }
  });

  it('a text that is not a JSON object is a damaged cache, not a schema', () => {
    for (const bad of ['[1]', 'nul', '"x"']) {
      const outcome = storedOutcome({ ok: true, schemaText: bad, origin: 'json', via: 'inline' }, 'tool:tools/b');
      expect(() => outcome.ok && outcome.schema).toThrow(/damaged schema for tool:tools\/b/);
    }
  });

  it('an outcome of the schema stage is persisted as its JSON text', () => {
    const persisted = persistedOutcome({ ok: true, schema, origin: 'zod', via: 'static', sources: ['/a.ts'] });
    expect(persisted).toEqual({ ok: true, schemaText: text, origin: 'zod', via: 'static', sources: ['/a.ts'] });
    const failed = { ok: false as const, diagnostics: [] };
    expect(persistedOutcome(failed)).toBe(failed);
  });
});
