import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { evaluateSchemas, EMPTY_INPUT_SCHEMA, type SchemaOutcome } from '../../../compiler/schema/index.js';
import { cleanup, extract, project, tool } from './helpers.js';

afterAll(cleanup);

const Z = "import { z } from 'zod';";

async function run(files: Record<string, string>, rel = 'tools/a/index.ts'): Promise<SchemaOutcome> {
  const root = project(files);
  const { request } = extract(root, rel);
  return (await evaluateSchemas([request], { fallbackTimeoutMs: 5000 })).get(rel)!;
}

function single(files: Record<string, string>) {
  return run(files).then((outcome) => {
    if (!outcome.ok) return { ok: false as const, diagnostic: outcome.diagnostics[0]! };
    return outcome;
  });
}

describe('inline Zod schemas', () => {
  it('projects formats, limits, enums, arrays, nested objects, optional, default and describe exactly', async () => {
    const schema = [
      'z.object({',
      "  url: z.string().url().describe('Long URL'),",
      '  email: z.email(),',
      '  count: z.number().int().min(1).max(50).default(10),',
      "  mode: z.enum(['short', 'qr']),",
      '  tags: z.array(z.string().min(1)).max(5).optional(),',
      '  owner: z.object({ id: z.uuid(), admin: z.boolean() }),',
      '})',
    ].join('\n');
    const outcome = await single({ 'tools/a/index.ts': tool(Z, schema) });
    expect(outcome).toMatchObject({ ok: true, origin: 'zod', via: 'inline' });
    if (!outcome.ok) return;
    expect(outcome.schema).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', description: 'Long URL' },
        email: { type: 'string', format: 'email', pattern: expect.any(String) },
        count: { default: 10, type: 'integer', minimum: 1, maximum: 50 },
        mode: { type: 'string', enum: ['short', 'qr'] },
        tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 5 },
        owner: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid', pattern: expect.any(String) },
            admin: { type: 'boolean' },
          },
          required: ['id', 'admin'],
        },
      },
      required: ['url', 'email', 'mode', 'owner'],
    });
    // Zod's own projection, minus `$schema`, is what we emit.
    const { $schema, ...expected } = z.toJSONSchema(
      z.object({
        url: z.string().url().describe('Long URL'),
        email: z.email(),
        count: z.number().int().min(1).max(50).default(10),
        mode: z.enum(['short', 'qr']),
        tags: z.array(z.string().min(1)).max(5).optional(),
        owner: z.object({ id: z.uuid(), admin: z.boolean() }),
      }),
      { target: 'draft-2020-12', io: 'input' },
    );
    expect($schema).toBeDefined();
    expect(JSON.stringify(outcome.schema)).toBe(JSON.stringify(expected));
  });

  it('reports a non-object root (ZG2020) at the inputSchema position', async () => {
    const outcome = await single({ 'tools/a/index.ts': tool(Z, 'z.string()') });
    expect(outcome).toMatchObject({
      ok: false,
      diagnostic: { code: 'ZG2020', file: 'tools/a/index.ts', line: 6, column: 16 },
    });
    expect(!outcome.ok && outcome.diagnostic.message).toMatch(/Zod string schema/);
  });

  it('reports an unrepresentable property (ZG2021) with its path', async () => {
    const outcome = await single({ 'tools/a/index.ts': tool(Z, 'z.object({ title: z.string(), when: z.date() })') });
    expect(outcome).toMatchObject({ ok: false, diagnostic: { code: 'ZG2021', severity: 'error' } });
    expect(!outcome.ok && outcome.diagnostic.message).toContain('`properties.when`: Date cannot be represented');
    const nested = await single({
      'tools/a/index.ts': tool(Z, 'z.object({ meta: z.object({ big: z.bigint() }).optional() })'),
    });
    expect(!nested.ok && nested.diagnostic.message).toContain('`properties.meta.properties.big`');
  });

  it('refuses an infinite bound (Zod writes it as null) with its path (ZG2022); a null default stays', async () => {
    for (const [schema, path] of [
      ['z.object({ max: z.number().max(Infinity) })', '`properties.max`'],
      ['z.object({ n: z.object({ min: z.number().min(-1e309) }) })', '`properties.n.properties.min`'],
      ['z.object({ l: z.array(z.string()).max(Infinity) })', '`properties.l`'],
      // Properties named like the data keywords are schemas all the same.
      ['z.object({ default: z.number().max(Infinity) })', '`properties.default`'],
      ['z.object({ enum: z.string().max(Infinity) })', '`properties.enum`'],
    ]) {
      const outcome = await single({ 'tools/a/index.ts': tool(Z, schema!) });
      expect(outcome, schema).toMatchObject({ ok: false, diagnostic: { code: 'ZG2022', line: 6 } });
      expect(!outcome.ok && outcome.diagnostic.message).toContain(`${path}: a bound of Infinity or NaN`);
    }
    const kept = await single({
      'tools/a/index.ts': tool(
        Z,
        'z.object({ o: z.object({ maximum: z.number().nullable() }).default({ maximum: null }) })',
      ),
    });
    expect(kept).toMatchObject({ ok: true });
  });

  it('names every unrepresentable property in one run (ZG2021), located at the first', async () => {
    const outcome = await single({
      'tools/a/index.ts': tool(
        Z,
        'z.object({ title: z.string(), when: z.date(), big: z.bigint(), tags: z.set(z.string()) })',
      ),
    });
    expect(outcome).toMatchObject({ ok: false, diagnostic: { code: 'ZG2021', line: 6 } });
    expect(!outcome.ok && outcome.diagnostic.message).toMatch(
      /^`properties\.when`: Date cannot be represented[^;]*; `properties\.big`: BigInt cannot be represented[^;]*; `properties\.tags`: Set cannot be represented/,
    );
  });

  it('emits .meta() values as plain JSON of the compiler realm', async () => {
    const good = await single({
      'tools/a/index.ts': tool(Z, "z.object({ a: z.string().meta({ examples: [{ x: 'y' }] }) })"),
    });
    const example = good.ok && (good.schema.properties as { a: { examples: object[] } }).a.examples[0];
    expect(Object.getPrototypeOf(example)).toBe(Object.prototype);
  });

  it('refuses a .meta() key that is no JSON Schema keyword (the model would be sent it), naming each', async () => {
    const outcome = await single({
      'tools/a/index.ts': tool(
        Z,
        "z.object({ a: z.string().meta({ 'x-hint': 1, Title: 't' }) }).meta({ custom: true })",
      ),
    });
    expect(outcome.ok).toBe(false);
    const diagnostic = !outcome.ok ? outcome.diagnostic : undefined;
    expect(diagnostic).toMatchObject({ code: 'ZG2022', severity: 'error', file: 'tools/a/index.ts' });
    expect(diagnostic?.message).toBe(
      'Invalid JSON Schema: `x-hint` at /properties/a, `Title` at /properties/a (did you mean `title`?), `custom` at (root) are not JSON Schema keywords (from .meta())',
    );
    // The way out for metadata of the app's own: a registry of its own, which no JSON Schema reads.
    expect(diagnostic?.hint).toContain('z.registry');
  });

  it('accepts transforms and refinements on the input side', async () => {
    const outcome = await single({
      'tools/a/index.ts': tool(Z, 'z.object({ n: z.string().transform((s) => s.length) }).refine((v) => v.n > 0)'),
    });
    expect(outcome).toMatchObject({
      ok: true,
      schema: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
    });
  });

  it('emits no $schema or ~standard and is byte-identical across runs', async () => {
    const files = {
      'tools/a/index.ts': tool(
        Z,
        "z.object({ b: z.string(), a: z.number().describe('x'), c: z.object({ z: z.null(), y: z.literal(1) }) })",
      ),
    };
    const first = await single(files);
    const second = await single(files);
    const text = JSON.stringify(first.ok && first.schema);
    expect(text).not.toMatch(/\$schema|~standard/);
    expect(JSON.stringify(second.ok && second.schema)).toBe(text);
    // User property order is kept, not sorted.
    expect(Object.keys((first.ok && (first.schema.properties as object)) || {})).toEqual(['b', 'a', 'c']);
  });
});

describe('JSON Schema literals', () => {
  it('accepts a valid JSON Schema and strips $schema and ~ keys in schema positions only', async () => {
    const schema = `{
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      '~standard': { vendor: 'x' },
      type: 'object',
      properties: { '~tilde': { type: 'string', '~internal': 1 }, limit: { type: 'integer', minimum: 1, default: { '~keep': true } } },
      required: ['limit'],
      additionalProperties: false,
    } as const`;
    const outcome = await single({ 'tools/a/index.ts': tool('', schema) });
    expect(outcome).toMatchObject({ ok: true, origin: 'json', via: 'inline' });
    expect(outcome.ok && outcome.schema).toEqual({
      type: 'object',
      properties: { '~tilde': { type: 'string' }, limit: { type: 'integer', minimum: 1, default: { '~keep': true } } },
      required: ['limit'],
      additionalProperties: false,
    });
  });

  it('reports an invalid keyword value (ZG2022) naming the keyword and path', async () => {
    const outcome = await single({
      'tools/a/index.ts': tool('', "{ type: 'object', properties: { name: { type: 'strnig' } } }"),
    });
    expect(outcome).toMatchObject({ ok: false, diagnostic: { code: 'ZG2022' } });
    expect(!outcome.ok && outcome.diagnostic.message).toMatch(/keyword `type` at \/properties\/name\/type/);
  });

  it('reports an unresolvable $ref (ZG2022)', async () => {
    const outcome = await single({
      'tools/a/index.ts': tool('', "{ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }"),
    });
    expect(outcome).toMatchObject({ ok: false, diagnostic: { code: 'ZG2022' } });
  });

  it('reports a non-object root (ZG2020)', async () => {
    const outcome = await single({ 'tools/a/index.ts': tool('', "{ type: 'string', minLength: 1 }") });
    expect(outcome).toMatchObject({ ok: false, diagnostic: { code: 'ZG2020' } });
    expect(!outcome.ok && outcome.diagnostic.message).toContain('"string"');
  });

  it('reports values that are not JSON (ZG2022)', async () => {
    const outcome = await single({ 'tools/a/index.ts': tool(Z, "{ type: 'object', properties: { a: z.string() } }") });
    expect(outcome).toMatchObject({ ok: false, diagnostic: { code: 'ZG2022' } });
    expect(!outcome.ok && outcome.diagnostic.message).toMatch(/inputSchema\.properties\.a is a Zod schema/);
  });
});

describe('tools without inputSchema', () => {
  it('get the projection of z.object({})', async () => {
    const root = project({
      'tools/a/index.ts':
        "import { defineAgentTool } from '@zhin.js/tool';\nexport default defineAgentTool({ description: 'd', execute: () => 1 });\n",
    });
    const { request } = extract(root, 'tools/a/index.ts');
    expect(request.snippet).toBeUndefined();
    const outcome = (await evaluateSchemas([request])).get('tools/a/index.ts');
    expect(outcome).toEqual({ ok: true, schema: EMPTY_INPUT_SCHEMA, origin: 'none', via: 'none' });
    const { $schema, ...empty } = z.toJSONSchema(z.object({}), { target: 'draft-2020-12', io: 'input' });
    expect(EMPTY_INPUT_SCHEMA).toEqual(empty);
    expect($schema).toBeDefined();
  });
});

describe('sandbox', () => {
  it('exposes nothing but Zod and the standard built-ins', async () => {
    const { evaluateInlineSnippets } = await import('../../../compiler/schema/evaluate.js');
    const [result] = evaluateInlineSnippets([
      'return [typeof process, typeof require, typeof console, typeof globalThis.process, typeof __zhinGenZod.object].join(",");',
    ]);
    expect(result).toEqual({ ok: true, value: 'undefined,undefined,undefined,undefined,function' });
    const [evalResult] = evaluateInlineSnippets(['return eval("1 + 1");']);
    expect(evalResult).toMatchObject({ ok: false, message: expect.stringMatching(/EvalError|Code generation/) });
  });

  it('times out a hanging inline snippet without blaming the others', async () => {
    const { evaluateInlineSnippets } = await import('../../../compiler/schema/evaluate.js');
    const results = evaluateInlineSnippets(['return 1;', 'while (true) {}', 'return 3;'], 100);
    expect(results).toEqual([
      { ok: true, value: 1 },
      { ok: false, message: 'timed out after 100 ms', timedOut: true },
      { ok: true, value: 3 },
    ]);
  });
});
