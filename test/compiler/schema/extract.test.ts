import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSchemaModuleCache } from '../../../compiler/schema/extract.js';
import { evaluateSchemas } from '../../../compiler/schema/index.js';
import { cleanup, extract, project, tool } from './helpers.js';

afterAll(cleanup);

const Z = "import { z } from 'zod';";

async function schemaOf(root: string, rel: string): Promise<unknown> {
  const { request } = extract(root, rel);
  const outcome = (await evaluateSchemas([request])).get(rel)!;
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.diagnostics));
  expect(outcome.via).toBe('inline');
  return outcome.schema;
}

describe('extractSchemaSnippet', () => {
  it('copies same-file consts and functions transitively, never the rest of the module', () => {
    const root = project({
      'tools/a/index.ts': tool(
        Z,
        'Input',
        [
          "console.log('side effect');",
          'function limit(n: number): number { return n * 10; }',
          'const Name = z.string().min(1).max(limit(4));',
          'const Input = z.object({ name: Name, age: z.number().int().optional() }) satisfies z.ZodType;',
          'export type Input = z.infer<typeof Input>;',
        ].join('\n'),
      ),
    });
    const { snippet } = extract(root, 'tools/a/index.ts');
    expect(snippet?.kind).toBe('inline');
    if (snippet?.kind !== 'inline') return;
    expect(snippet.files).toEqual([]);
    expect(snippet.code).not.toContain('console');
    expect(snippet.code).not.toContain('defineAgentTool');
    expect(snippet.code).not.toContain('satisfies');
  });

  it('follows relative imports, `export { a as b }` re-exports and `export *`, recording the files', async () => {
    const root = project({
      'tools/a/fields.ts': `${Z}\nconst inner = z.string().min(2);\nexport const Name = inner.describe('who');\nexport const Shared = z.object({ id: z.string().uuid() });\n`,
      'tools/a/schema.ts': "export { Name as PersonName } from './fields.js';\nexport * from './fields';\n",
      'tools/a/index.ts': tool(
        `${Z}\nimport { PersonName, Shared } from './schema.js';`,
        'z.object({ name: PersonName, shared: Shared })',
      ),
    });
    const { snippet } = extract(root, 'tools/a/index.ts');
    expect(snippet).toMatchObject({
      kind: 'inline',
      files: [path.join(root, 'tools/a/fields.ts'), path.join(root, 'tools/a/schema.ts')],
    });
    expect(await schemaOf(root, 'tools/a/index.ts')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, description: 'who' },
        shared: {
          type: 'object',
          properties: { id: { type: 'string', format: 'uuid', pattern: expect.any(String) } },
          required: ['id'],
        },
      },
      required: ['name', 'shared'],
    });
  });

  it('erases TypeScript syntax in-process (no transpiler) and keeps the values', async () => {
    const before = [
      'const pick = <T,>(xs: readonly T[], i: number): T => xs[i]!;',
      'function build(min?: number): z.ZodString {',
      '  function inner(a: number): number;',
      '  function inner(a: number): number { return a; }',
      '  interface Unused { a: string }',
      '  type Alias = string;',
      '  return z.string().min(inner(min ?? 1));',
      '}',
      "const Kinds = ['a', 'b'] as const;",
      'const mk = (n: number):',
      '  z.ZodNumber => z.number().max(n);',
      'const Input = z.object({',
      '  k: z.enum(Kinds),',
      '  s: build(2),',
      '  p: z.literal(pick<number>([1, 2], 1)),',
      '  t: (<z.ZodNumber>z.number()).min(0),',
      '  m: mk(3) satisfies z.ZodType,',
      '});',
    ].join('\n');
    const root = project({ 'tools/a/index.ts': tool(Z, 'Input!', before) });
    const { snippet } = extract(root, 'tools/a/index.ts');
    expect(snippet?.kind === 'inline' && snippet.code.startsWith('"use strict";')).toBe(true);
    expect(await schemaOf(root, 'tools/a/index.ts')).toEqual({
      type: 'object',
      properties: {
        k: { type: 'string', enum: ['a', 'b'] },
        s: { type: 'string', minLength: 2 },
        p: { type: 'number', const: 2 },
        t: { type: 'number', minimum: 0 },
        m: { type: 'number', maximum: 3 },
      },
      required: ['k', 's', 'p', 't', 'm'],
    });
  });

  it('keeps equal names of different files apart', async () => {
    const root = project({
      'tools/a/other.ts': `${Z}\nconst field = z.number();\nexport const Other = z.object({ n: field });\n`,
      'tools/a/index.ts': tool(
        `${Z}\nimport { Other } from './other';`,
        'z.object({ s: field, o: Other })',
        'const field = z.string();',
      ),
    });
    expect(await schemaOf(root, 'tools/a/index.ts')).toMatchObject({
      properties: { s: { type: 'string' }, o: { properties: { n: { type: 'number' } } } },
    });
  });

  it.each([
    ["import * as z from 'zod';", 'z'],
    ["import { z } from 'zod/v4';", 'z'],
    ["import z from 'zod';", 'z'],
    ["import { z as zod } from 'zod';", 'zod'],
  ])('accepts %s', async (imports, name) => {
    const root = project({ 'tools/a/index.ts': tool(imports, `${name}.object({ q: ${name}.string() })`) });
    expect(await schemaOf(root, 'tools/a/index.ts')).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
  });

  it('accepts named Zod imports, enums and shorthand `inputSchema`', async () => {
    const root = project({
      'tools/a/index.ts': [
        "import { defineAgentTool } from 'zhin-gen/runtime';",
        "import { object, nativeEnum } from 'zod';",
        "enum Mode { Fast = 'fast', Slow = 'slow' }",
        'const inputSchema = object({ mode: nativeEnum(Mode) });',
        "export default defineAgentTool({ description: 'd', inputSchema, execute: () => 1 });",
      ].join('\n'),
    });
    expect(await schemaOf(root, 'tools/a/index.ts')).toEqual({
      type: 'object',
      properties: { mode: { type: 'string', enum: ['fast', 'slow'] } },
      required: ['mode'],
    });
  });

  it.each([
    [
      'a package import',
      "import { z } from 'zod';\nimport { helper } from 'some-helper';",
      'z.object({ a: helper() })',
      '',
      /imports "some-helper"/,
    ],
    ['process', Z, 'z.object({ a: z.string().default(process.env.HOME ?? "") })', '', /`process`/],
    ['a let binding', Z, 'Input', 'let Input = z.object({});', /let/],
    [
      'a const mutated at top level',
      Z,
      'z.object(shape)',
      'const shape: Record<string, z.ZodType> = {};\nshape.a = z.string();',
      /`shape` may be assigned/,
    ],
    [
      'a const passed to a call',
      Z,
      'z.object(shape)',
      'const shape = {};\nregister(shape);\nfunction register(s: object) { Object.assign(s, { a: z.string() }); }',
      /modified by a call/,
    ],
    [
      'a same-module function called at top level that modifies a copied const',
      Z,
      'z.object(shape)',
      'const shape: Record<string, z.ZodType> = { q: z.string() };\nfunction addLimit() { shape.limit = z.number(); }\naddLimit();',
      /`addLimit`, called by top-level code \(line \d+\), reads values the schema uses/,
    ],
    [
      'such a call through another function or const',
      Z,
      'z.object(shape)',
      'const shape: Record<string, z.ZodType> = {};\nfunction add() { shape.a = z.string(); }\nconst setup = () => add();\nif (true) setup();',
      /`setup`, called by top-level code/,
    ],
    ['a class', Z, 'z.object({ a: z.instanceof(Thing) })', 'class Thing {}', /class/],
    // The modifier lookup (schema/modules.ts hasModifier) decides these two.
    ['a `declare` binding', Z, 'z.object({ a: Shape })', 'declare const Shape: z.ZodString;', /`declare` binding/],
    ['a `declare enum`', Z, 'z.object({ a: z.nativeEnum(Mode) })', "declare enum Mode { A = 'a' }", /`declare enum`/],
    ['a realm escape', Z, 'z.object({ a: z.string().default(z.constructor.name) })', '', /constructor/],
    ['import.meta', Z, 'z.object({ a: z.string().default(import.meta.url) })', '', /import\.meta/],
    ['an unknown global', Z, 'z.object({ a: z.string().default(globalThis.name) })', '', /globalThis/],
  ])('falls back for %s', (_label, imports, schema, before, reason) => {
    const root = project({ 'tools/a/index.ts': tool(imports, schema, before) });
    const { snippet } = extract(root, 'tools/a/index.ts');
    expect(snippet?.kind).toBe('fallback');
    expect(snippet?.kind === 'fallback' && snippet.reason).toMatch(reason);
  });

  it('does not treat reads of a copied const in execute() or other consts as mutations', () => {
    const root = project({
      'tools/a/index.ts': tool(
        Z,
        'Input',
        'const Input = z.object({ a: z.string() });\nconst Other = z.object({ b: z.number() });\nconst parse = (v: unknown) => Input.parse(v);',
      ),
    });
    expect(extract(root, 'tools/a/index.ts').snippet?.kind).toBe('inline');
  });

  it('does not treat top-level calls of functions that never read a copied value as mutations', () => {
    const root = project({
      'tools/a/index.ts': tool(
        Z,
        'Input',
        "const Input = z.object({ a: z.string() });\nconst log: string[] = [];\nfunction note(text: string) { log.push(text); }\nnote('loaded');",
      ),
    });
    expect(extract(root, 'tools/a/index.ts').snippet?.kind).toBe('inline');
  });

  it('does not treat passing a copied value to Zod (in the expression or elsewhere) as a mutation', async () => {
    const root = project({
      'tools/a/index.ts': tool(
        Z,
        'z.object({ mode: z.nativeEnum(Mode), ...z.object(shape).shape })',
        "enum Mode { A = 'a' }\nconst shape = { s: z.string() };\nconst Other = z.object(shape).extend({ n: z.number() });",
      ),
    });
    expect(extract(root, 'tools/a/index.ts').snippet?.kind).toBe('inline');
    expect(await schemaOf(root, 'tools/a/index.ts')).toEqual({
      type: 'object',
      properties: { mode: { type: 'string', enum: ['a'] }, s: { type: 'string' } },
      required: ['mode', 's'],
    });
  });

  it('shares parsed helper modules through the cache', () => {
    const root = project({
      'tools/shared.ts': `${Z}\nexport const Id = z.string();\n`,
      'tools/a/index.ts': tool(`${Z}\nimport { Id } from '../shared.js';`, 'z.object({ id: Id })'),
      'tools/b/index.ts': tool(`${Z}\nimport { Id } from '../shared.js';`, 'z.object({ id: Id, n: z.number() })'),
    });
    const cache = createSchemaModuleCache();
    expect(extract(root, 'tools/a/index.ts', cache).snippet?.kind).toBe('inline');
    expect(extract(root, 'tools/b/index.ts', cache).snippet?.kind).toBe('inline');
    expect([...cache.modules.keys()]).toContain(path.join(root, 'tools/shared.ts'));
  });
});
