/**
 * Static translation (translate.ts + zod-json.ts) against real Zod: every schema of the subset
 * must give exactly the bytes the evaluation path gives (real vm, real Zod, real projection), key
 * order included; everything outside the subset must behave exactly as before (same outcome).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateSchemas } from '../../../compiler/schema/index.js';
import type { SchemaOutcome } from '../../../compiler/schema/types.js';
import { rng } from '../../../bench/gen-tree.js';
import { cleanup, extract, project, tool } from './helpers.js';

afterAll(cleanup);

const Z = "import { z } from 'zod';";

/** Both paths for every tool of a project: [static snippet kind, static outcome, evaluated outcome]. */
async function bothWays(
  root: string,
  files: readonly string[],
): Promise<{ kind: string | undefined; translated: SchemaOutcome; evaluated: SchemaOutcome }[]> {
  const statics = files.map((rel) => extract(root, rel, undefined, true));
  const evals = files.map((rel) => extract(root, rel, undefined, false));
  const translated = await evaluateSchemas(statics.map((e) => e.request));
  const evaluated = await evaluateSchemas(evals.map((e) => e.request));
  return files.map((rel, i) => ({
    kind: statics[i]!.snippet?.kind,
    translated: translated.get(rel)!,
    evaluated: evaluated.get(rel)!,
  }));
}

function bytes(outcome: SchemaOutcome): string {
  return outcome.ok ? JSON.stringify(outcome.schema) : JSON.stringify(outcome.diagnostics);
}

/** Field schemas (`z` in scope) the subset covers, one construct or combination each. */
const CORPUS = [
  'z.string()',
  'z.string().min(1).max(200)',
  'z.string().max(40).min(3).min(5).max(30)',
  'z.string().length(4)',
  'z.string().nonempty()',
  'z.string().nonempty("required")',
  'z.string().min(2, "too short")',
  'z.string().email()',
  'z.string().url()',
  'z.string().uuid()',
  'z.string().guid()',
  'z.string().datetime()',
  'z.string().date()',
  'z.string().regex(/^[a-z0-9-]+$/i)',
  'z.string().regex(/a\\/b[/]/)',
  'z.string().email().min(6).max(80)',
  'z.string().max(3).email()',
  'z.email()',
  'z.url()',
  'z.uuid()',
  'z.guid()',
  'z.email("bad")',
  'z.number()',
  'z.number().int()',
  'z.int()',
  'z.number().min(-90).max(90)',
  'z.number().gt(0).lt(1)',
  'z.number().gte(3).gt(3)',
  'z.number().gt(3).gte(5)',
  'z.number().positive()',
  'z.number().nonnegative()',
  'z.number().negative()',
  'z.number().nonpositive()',
  'z.number().int().nonnegative()',
  'z.number().int().min(0).max(1000)',
  'z.number().int().max(1e20)',
  'z.number().min(-0)',
  'z.number().max(1_000)',
  'z.number().max(0x10)',
  'z.number().min(0.5)',
  'z.boolean()',
  'z.any()',
  'z.unknown()',
  'z.null()',
  'z.enum(["low", "normal", "high"])',
  'z.enum(["a"] as const)',
  'z.literal("x")',
  'z.literal(3)',
  'z.literal(true)',
  'z.literal(null)',
  'z.literal(-1.5)',
  'z.array(z.string())',
  'z.array(z.string().max(40)).max(10)',
  'z.array(z.number()).min(1).nonempty()',
  'z.array(z.boolean()).length(3)',
  'z.string().array()',
  'z.array(z.array(z.string().optional()))',
  'z.object({})',
  'z.object({ id: z.string(), count: z.number().int().nonnegative() })',
  'z.strictObject({ a: z.string() })',
  'z.object({ inner: z.object({ deep: z.string().optional() }) }).describe("nested")',
  'z.string().optional()',
  'z.string().nullable()',
  'z.string().max(3).nullable()',
  'z.string().nullable().nullable()',
  'z.string().optional().nullable()',
  'z.string().nullable().optional()',
  'z.number().nullable().default(null)',
  'z.enum(["a", "b"]).default("a")',
  'z.string().default("x").optional()',
  'z.string().optional().default("y")',
  'z.boolean().default(false)',
  'z.array(z.string()).default([])',
  'z.object({ a: z.number() }).default({ a: 1 })',
  'z.string().default("q").describe("d")',
  'z.string().describe("d").default("q")',
  'z.string().describe("a").optional().describe("b")',
  'z.string().optional().describe("b")',
  'z.string().nullable().describe("d")',
  'z.string().describe("d").nullable()',
  'z.string().describe("first").describe("second")',
  'z.string().describe("d").min(3)',
  'z.string().min(3).describe("d").max(9)',
  'z.number().describe("")',
  'z.any().describe("anything")',
  'z.unknown().optional()',
  'z.null().nullable()',
  'z.literal("x").nullable()',
  'z.enum(["a"]).nullable().describe("e")',
  'z.array(z.string()).describe("list").max(2)',
  'z.object({ a: z.string().nullable() }).nullable()',
  'z.object({ o: z.string().optional() }).optional().describe("maybe")',
  'z.string().describe("it\'s \\"quoted\\" </script>\\u2028")',
  'z.object({ "key with space": z.string(), ключ: z.number(), $x: z.boolean() })',
  'z.union([z.string(), z.number()])',
  'z.string().or(z.number().optional())',
  'z.union([z.string().max(3), z.null()]).describe("u")',
  'z.union([z.string()])',
  'z.union([z.object({ a: z.string() }), z.array(z.number())]).optional()',
  'z.union([z.string().nullable(), z.number()])',
  'z.union([z.literal("a"), z.literal("b")]).default("a")',
  'z.string().or(z.string())',
  'z.optional(z.string())',
  'z.nullable(z.string().max(2))',
  'z.string().trim().toLowerCase().min(2)',
  'z.string().toUpperCase().email()',
  'z.coerce.number().min(1)',
  'z.coerce.string().max(3)',
  'z.coerce.boolean()',
  'z.enum(["b", "1", "a"])',
  'z.enum(["10", "2", "x", "01", "-1", "1.5"])',
  'z.enum(["4294967295", "4294967294", "0"]).describe("ids").nullable()',
  'z.record(z.string(), z.number())',
  'z.record(z.string(), z.number().optional()).describe("r")',
  'z.record(z.string(), z.object({ a: z.string() })).optional()',
  'z.record(z.string(), z.string().nullable()).default({})',
  'z.record(z.string(), z.record(z.string(), z.boolean()))',
  'z.coerce.string().array().or(z.record(z.string(), z.any()))',
  'z.string().default("multi\\nline")',
  'z.number().default(-0)',
  'z.array(z.number()).default([1, 2.5, -3])',
  'z.object({}).default({ nested: { k: [true, null] } })',
];

describe('static translation matches Zod', () => {
  it('for every construct of the subset (byte for byte, key order included)', async () => {
    const files: Record<string, string> = {};
    CORPUS.forEach((field, i) => {
      files[`tools/t${i}/index.ts`] = tool(Z, `z.object({ f: ${field}, g: z.string() })`);
    });
    const root = project(files);
    const results = await bothWays(root, Object.keys(files));
    results.forEach((r, i) => {
      expect({ field: CORPUS[i], kind: r.kind }).toEqual({ field: CORPUS[i], kind: 'static' });
      expect(r.evaluated.ok && r.evaluated.via).toBe('inline');
      expect({ field: CORPUS[i], schema: bytes(r.translated) }).toEqual({
        field: CORPUS[i],
        schema: bytes(r.evaluated),
      });
    });
  });

  it('leaves an imported binding whose declaration uses a strict-mode reserved word to evaluation', async () => {
    const root = project({
      'tools/a/limits.ts': 'export const package = 3;\n',
      'tools/a/index.ts': tool(
        `${Z}\nimport { package as P } from './limits.js';`,
        'z.object({ a: z.string().max(P) })',
      ),
    });
    const [r] = await bothWays(root, ['tools/a/index.ts']);
    expect(r!.kind).not.toBe('static');
    expect(bytes(r!.translated)).toBe(bytes(r!.evaluated));
  });

  it('for consts, imported fragments, `as const` lists and constant limits', async () => {
    const root = project({
      'tools/a/limits.ts':
        "export const LIMITS = { name: 32, tags: 5 } as const;\nexport const KINDS = ['x', 'y'] as const;\nexport default { min: 2 };\n",
      'tools/a/fields.ts': `${Z}\nimport { LIMITS } from './limits.js';\nexport const Name = z.string().max(LIMITS.name).describe('who');\n`,
      'tools/a/index.ts': tool(
        `${Z}\nimport { Name } from './fields.js';\nimport limits, { KINDS, LIMITS } from './limits.js';`,
        'Input',
        [
          'const Tag = z.string().min(limits.min);',
          "const Mode = z.enum(KINDS).default('x');",
          'const Input = z.object({ name: Name, tags: z.array(Tag).max(LIMITS.tags), mode: Mode, again: Tag.optional() });',
        ].join('\n'),
      ),
    });
    const [r] = await bothWays(root, ['tools/a/index.ts']);
    expect(r!.kind).toBe('static');
    expect(bytes(r!.translated)).toBe(bytes(r!.evaluated));
    expect(r!.translated).toMatchObject({ ok: true, via: 'static', origin: 'zod' });
  });

  it('for every sequence of up to two wrappers on each kind of base (key order of wrappers and metadata)', async () => {
    const bases = [
      'z.string()',
      'z.string().min(1).email()',
      'z.number().int().gt(0)',
      'z.enum(["a", "b"])',
      'z.literal("x")',
      'z.null()',
      'z.any()',
      'z.array(z.string())',
      'z.object({ a: z.string() })',
      'z.strictObject({ a: z.string().optional() })',
      'z.union([z.string(), z.number()])',
      'z.union([z.string().optional(), z.null()])',
    ];
    const wrappers = [
      '.optional()',
      '.nullable()',
      '.describe("D1")',
      '.describe("D2")',
      '.default(null)',
      '.default({ k: [1] })',
      '.array()',
      '.or(z.null())',
      '.or(z.number().describe("n"))',
    ];
    const fields = bases.flatMap((base) => [
      base,
      ...wrappers.flatMap((w1) => [base + w1, ...wrappers.map((w2) => base + w1 + w2)]),
    ]);
    const files: Record<string, string> = {};
    fields.forEach((field, i) => {
      files[`tools/w${i}/index.ts`] = tool(Z, `z.object({ f: ${field} })`);
    });
    const root = project(files);
    const results = await bothWays(root, Object.keys(files));
    results.forEach((r, i) => {
      expect({ field: fields[i], kind: r.kind, schema: bytes(r.translated) }).toEqual({
        field: fields[i],
        kind: 'static',
        schema: bytes(r.evaluated),
      });
    });
  });

  it('for 400 random schemas of the subset (seeded, nested three levels)', async () => {
    const random = rng(20261130);
    const files: Record<string, string> = {};
    const fields: string[] = [];
    for (let i = 0; i < 400; i++) {
      const field = randomSchema(random, 0);
      fields.push(field);
      files[`tools/r${i}/index.ts`] = tool(Z, `z.object({ a: ${field}, b: ${randomSchema(random, 2)} })`);
    }
    const root = project(files);
    const results = await bothWays(root, Object.keys(files));
    const kinds = new Set(results.map((r) => r.kind));
    expect([...kinds]).toEqual(['static']);
    results.forEach((r, i) => {
      expect({ field: fields[i], schema: bytes(r.translated) }).toEqual({
        field: fields[i],
        schema: bytes(r.evaluated),
      });
    });
  });
});

describe('outside the subset, nothing changes', () => {
  const cases: [string, string, string][] = [
    ['a method the subset does not know', 'z.object({ a: z.string().startsWith("x") })', ''],
    ['.meta()', 'z.object({ a: z.string().meta({ id: "A" }) })', ''],
    ['a transform', 'z.object({ a: z.string().transform((s) => s.length) })', ''],
    ['two formats on one string', 'z.object({ a: z.string().email().regex(/x/) })', ''],
    ['a format with options', 'z.object({ a: z.string().datetime({ offset: true }) })', ''],
    ['a description that is not a string', 'z.object({ a: z.string().describe(NAME) })', 'const NAME = 1;'],
    ['a default computed by a function', 'z.object({ a: z.string().default(() => "x") })', ''],
    ['a spread shape', 'z.object({ ...base.shape, b: z.string() })', 'const base = z.object({ a: z.number() });'],
    ['a computed key', 'z.object({ [KEY]: z.string() })', 'const KEY = "k";'],
    ['an index-like key (engines reorder it)', 'z.object({ b: z.string(), 1: z.number() })', ''],
    ['a __proto__ key', 'z.object({ __proto__: z.string(), a: z.number() })', ''],
    ['a repeated key', 'z.object({ a: z.string(), a: z.number() })', ''],
    [
      'a const read before it is declared (TDZ in the module)',
      'Input',
      'const Input = z.object({ a: Later });\nconst Later = z.string();',
    ],
    ['a const read by itself', 'z.object({ a: Self })', 'const Self: z.ZodType = z.array(Self);'],
    ['a non-object root', 'z.string()', ''],
    ['a root wrapped in .optional()', 'z.object({ a: z.string() }).optional()', ''],
    ['an enum with repeated values', 'z.object({ a: z.enum(["x", "x"]) })', ''],
    ['a non-finite number', 'z.object({ a: z.number().max(Infinity) })', ''],
    ['a record with enum keys', 'z.object({ a: z.record(z.enum(["x", "y"]), z.number()) })', ''],
    ['a record whose keys have checks', 'z.object({ a: z.record(z.string().min(2), z.number()) })', ''],
    ['a partial record', 'z.object({ a: z.partialRecord(z.enum(["x"]), z.number()) })', ''],
    [
      'a discriminated union',
      'z.object({ a: z.discriminatedUnion("k", [z.object({ k: z.literal("x") }), z.object({ k: z.literal("y") })]) })',
      '',
    ],
    ['a call of a helper', 'z.object({ a: make() })', 'function make() { return z.string(); }'],
    ['a missing property of a constant', 'z.object({ a: z.string().max(L.nope) })', 'const L = { max: 3 };'],
    [
      'an inherited property of a constant',
      'z.object({ a: z.string().describe(L.toString) })',
      'const L = { max: 3 };',
    ],
    ['a syntax error elsewhere in the module', 'z.object({ a: z.string() })', 'const broken = ;'],
    [
      'a const named with a strict-mode reserved word',
      'z.object({ a: z.string().max(package) })',
      'const package = 3;',
    ],
    ['a schema const named `static`', 'z.object({ a: static })', 'const static = z.string();'],
    [
      'nesting deeper than the evaluation path accepts',
      `z.object({ a: z.any().default(${'['.repeat(230)}1${']'.repeat(230)}) })`,
      '',
    ],
  ];

  it.each(cases)('%s: not translated; the outcome is what evaluation gives', async (_label, schema, before) => {
    const root = project({ 'tools/a/index.ts': tool(Z, schema, before) });
    const [r] = await bothWays(root, ['tools/a/index.ts']);
    expect(r!.kind).not.toBe('static');
    expect(r!.translated.ok ? r!.translated.via : 'error').not.toBe('static');
    expect(bytes(r!.translated)).toBe(bytes(r!.evaluated));
  });
});

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function int(random: () => number, lo: number, hi: number): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

/** A random schema of the subset: a base with random checks, then random wrappers. */
function randomSchema(random: () => number, depth: number): string {
  const bases: (() => string)[] = [
    () =>
      `z.${pick(random, ['string', 'coerce.string'])}()${repeat(random, 3, () => pick(random, [`.min(${int(random, 0, 9)})`, `.max(${int(random, 5, 99)})`, `.length(${int(random, 1, 9)})`, '.nonempty()', '.trim()']))}${random() < 0.4 ? pick(random, ['.email()', '.url()', '.uuid()', '.datetime()', '.date()', '.regex(/^[a-z]+$/)']) : ''}`,
    () =>
      `z.number()${repeat(random, 3, () => pick(random, [`.min(${int(random, -50, 50)})`, `.max(${int(random, -50, 50)})`, `.gt(${int(random, -9, 9)})`, `.lt(${int(random, -9, 9)})`, '.int()', '.positive()', '.nonnegative()', '.negative()']))}`,
    () => 'z.int()',
    () => 'z.boolean()',
    () => pick(random, ['z.any()', 'z.unknown()', 'z.null()', 'z.email()']),
    () => `z.enum([${['"a"', '"b"', '"c"'].slice(0, int(random, 1, 3)).join(', ')}])`,
    () => `z.literal(${pick(random, ['"x"', '4', 'false', 'null'])})`,
    ...(depth < 3
      ? [
          () =>
            `z.array(${randomSchema(random, depth + 1)})${repeat(random, 2, () => pick(random, [`.min(${int(random, 0, 3)})`, `.max(${int(random, 2, 9)})`, '.nonempty()']))}`,
          () =>
            `z.object({ ${Array.from({ length: int(random, 0, 3) }, (_, i) => `k${i}: ${randomSchema(random, depth + 1)}`).join(', ')} })`,
          () => `z.strictObject({ s: ${randomSchema(random, depth + 1)} })`,
          () => `z.union([${randomSchema(random, depth + 1)}, ${randomSchema(random, depth + 1)}])`,
          () => `z.record(z.string(), ${randomSchema(random, depth + 1)})`,
        ]
      : []),
  ];
  let schema = pick(random, bases)();
  const wrappers = [
    '.optional()',
    '.nullable()',
    `.describe("d${int(random, 0, 9)}")`,
    '.default(null)',
    '.array()',
    '.or(z.boolean())',
  ];
  for (let i = int(random, 0, 3); i > 0; i--) schema += pick(random, wrappers);
  return schema;
}

function repeat(random: () => number, max: number, part: () => string): string {
  let out = '';
  for (let i = int(random, 0, max); i > 0; i--) out += part();
  return out;
}
