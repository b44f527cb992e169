/**
 * Differential: the validator the compiler generates for a schema answers exactly what the
 * runtime's Ajv path answers (the path every JSON Schema tool took before build-time validators,
 * and the one `@zhin-gen/runtime/ajv` still takes): same verdict, same first error (instance
 * path, keyword, params, message), same pipeline result. Over the schemas the compiler really
 * emits (the Zod field corpus of test/compiler/schema/static.test.ts, JSON Schema literals of
 * every keyword family, the example bot) × seeded random inputs built from each schema's names.
 * The `.ts` flavour of every module (typed, emit/validator-typing.ts) passes tsc with the flags of
 * `@tsconfig/strictest` and, with its types stripped, answers the same.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { emitValidatorModule } from '../../../compiler/emit/validators.js';
import type { JsonSchema } from '../../../runtime/contract/manifest.js';
import { checkJson } from '../../../runtime/turn/validation.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import type { JsonValidateFunction } from '../../../runtime/validators/types.js';
import { copyFixture, removeDir, REPO, tempDir, writeTree } from '../../helpers.js';
import { rng } from '../../../bench/gen-tree.js';

/** The Zod field corpus of the static translation test, read from that file (one source of truth). */
function zodCorpus(): string[] {
  const text = readFileSync(join(REPO, 'test', 'compiler', 'schema', 'static.test.ts'), 'utf8');
  const start = text.indexOf('const CORPUS = [');
  const end = text.indexOf('\n];', start);
  return vm.runInNewContext(text.slice(start + 'const CORPUS = '.length, end + 2)) as string[];
}

/** JSON Schema literals: every keyword family Ajv compiles, and names that are hard to print. */
const JSON_SCHEMAS: readonly JsonSchema[] = [
  {
    type: 'object',
    properties: {
      s: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
      n: { type: 'number', exclusiveMinimum: 0, maximum: 10, multipleOf: 0.5 },
    },
    required: ['s'],
  },
  {
    type: 'object',
    properties: {
      i: { type: 'integer', minimum: -3 },
      b: { type: 'boolean' },
      z: { type: 'null' },
      m: { type: ['string', 'number'] },
    },
    additionalProperties: false,
  },
  {
    type: 'object',
    properties: {
      a: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
      t: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    },
  },
  {
    type: 'object',
    properties: {
      c: { contains: { type: 'number' }, minContains: 2 },
      e: { enum: ['x', 1, null, { k: [1] }] },
      k: { const: { deep: [true, null] } },
    },
  },
  {
    type: 'object',
    properties: {
      u: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      o: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
      all: { allOf: [{ minLength: 1 }, { maxLength: 3 }] },
      no: { not: { type: 'string' } },
    },
  },
  {
    type: 'object',
    properties: { kind: { enum: ['a', 'b'] } },
    if: { properties: { kind: { const: 'a' } } },
    then: { required: ['x'] },
    else: { required: ['y'] },
  },
  {
    type: 'object',
    patternProperties: { '^x-': { type: 'string' } },
    propertyNames: { maxLength: 4 },
    minProperties: 1,
    maxProperties: 3,
  },
  {
    type: 'object',
    dependentRequired: { a: ['b'] },
    dependentSchemas: { c: { required: ['d'] } },
    properties: { a: {}, c: {} },
  },
  {
    type: 'object',
    properties: { a: { type: 'string' } },
    unevaluatedProperties: false,
    allOf: [{ properties: { b: { type: 'number' } } }],
  },
  {
    type: 'object',
    properties: { tree: { $ref: '#/$defs/node' } },
    $defs: {
      node: {
        type: 'object',
        properties: { v: { type: 'number' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
        required: ['v'],
      },
    },
  },
  // Parsed, so `__proto__` is an own key as in a schema read from JSON.
  JSON.parse(
    String.raw`{ "type": "object", "properties": { "__proto__": { "type": "integer" }, "constructor": { "type": "string" }, "a/b~c": { "type": "string" }, "q\"'${'`'}*/</script>": { "type": "number" }, "ключ": { "type": "boolean" } }, "required": ["a/b~c"] }`,
  ) as JsonSchema,
  {
    type: 'object',
    properties: {
      f: { type: 'string', format: 'email' },
      emoji: { type: 'string', minLength: 2, maxLength: 2 },
      r: { type: 'object', additionalProperties: { type: 'number' } },
    },
  },
  { type: 'object', properties: { e: { enum: [JSON.parse('{"__proto__":{"x":1}}'), [1, 2]] } } },
  // Shapes whose Ajv code strict tsc rejected before validator-typing.ts handled them (found by
  // review): a variable only written (`missing0` under `if` / `not`, a loop's `key0`), a label
  // nothing uses (`uniqueItems` of objects), code after a `return` (`not: true`), and checks that
  // narrow the data to `never` or compare a number with a string (keywords that do not fit the type).
  {
    type: 'object',
    properties: { country: { type: 'string' }, postcode: { type: 'string' } },
    if: { required: ['country'] },
    then: { required: ['postcode'] },
  },
  { type: 'object', not: { required: ['a', 'b'] } },
  { type: 'object', additionalProperties: { format: 'email' } },
  {
    type: 'object',
    properties: {
      u: { type: 'array', uniqueItems: true },
      o: { type: 'array', items: { type: 'object' }, uniqueItems: true },
    },
  },
  { type: 'object', properties: { n: { not: true } } },
  { type: 'object', properties: { s: { type: 'string', properties: { a: { type: 'number' } }, required: ['a'] } } },
  { type: 'object', properties: { m: { type: 'number', enum: [1, 'one'] } }, propertyNames: { const: 1 } },
  { type: 'object', propertyNames: { type: 'object', properties: { a: { const: 1 } } } },
  // An `$id` makes Ajv print a `sourceURL` comment, which once made the module a validator that throws.
  { $id: 'https://example.com/tools/city', type: 'object', properties: { city: { type: 'string', minLength: 1 } } },
  {
    $id: 'https://example.com/tools/tree',
    $dynamicAnchor: 'node',
    type: 'object',
    properties: { v: { type: 'number' }, kids: { type: 'array', items: { $dynamicRef: '#node' } } },
  },
];

/**
 * Seeded random schemas of every keyword family, nested and combined the way no hand-written
 * corpus is (a review's fuzzing this way found Ajv code that strict tsc rejected in a fifth of
 * them): each one Ajv compiles is emitted, type-checked and probed like the others.
 */
function randomSchemas(seed: number, count: number): JsonSchema[] {
  const random = rng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const names = ['a', 'b', 'c'];
  const leaf = (): unknown =>
    pick([true, false, {}, { type: 'string' }, { type: 'number' }, { const: 1 }, { enum: [1, 'a', { x: 1 }] }]);
  const sub = (depth: number): unknown => {
    if (depth > 3 || random() < 0.15) return leaf();
    const schema: Record<string, unknown> = {};
    for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
      const key = pick([
        'type',
        'properties',
        'required',
        'additionalProperties',
        'items',
        'prefixItems',
        'anyOf',
        'oneOf',
        'allOf',
        'not',
        'if',
        'then',
        'else',
        'contains',
        'minContains',
        'uniqueItems',
        'unevaluatedProperties',
        'unevaluatedItems',
        'dependentRequired',
        'dependentSchemas',
        'propertyNames',
        'patternProperties',
        'minProperties',
        'maxLength',
        'pattern',
        'minimum',
        'exclusiveMaximum',
        'multipleOf',
        'const',
        'enum',
        'format',
        'maxItems',
      ] as const);
      switch (key) {
        case 'type':
          schema.type = pick([
            'object',
            'array',
            'string',
            'number',
            'integer',
            ['object', 'null'],
            ['array', 'string'],
          ]);
          break;
        case 'properties':
          schema.properties = Object.fromEntries(
            names.filter(() => random() < 0.6).map((name) => [name, sub(depth + 1)]),
          );
          break;
        case 'patternProperties':
          schema.patternProperties = { '^a': sub(depth + 1) };
          break;
        case 'required':
          schema.required = names.filter(() => random() < 0.5);
          break;
        case 'dependentRequired':
          schema.dependentRequired = { a: ['b'] };
          break;
        case 'dependentSchemas':
          schema.dependentSchemas = { a: sub(depth + 1) };
          break;
        case 'anyOf':
        case 'oneOf':
        case 'allOf':
        case 'prefixItems':
          schema[key] = [sub(depth + 1), sub(depth + 1)];
          break;
        case 'uniqueItems':
          schema.uniqueItems = random() < 0.8;
          break;
        case 'minContains':
        case 'minProperties':
        case 'maxLength':
        case 'maxItems':
          schema[key] = Math.floor(random() * 3);
          break;
        case 'pattern':
          schema.pattern = pick(['^a', '\\p{L}', '[/"]']);
          break;
        case 'minimum':
        case 'exclusiveMaximum':
          schema[key] = pick([0, -1, 2.5]);
          break;
        case 'multipleOf':
          schema.multipleOf = pick([0.5, 2, 0.1]);
          break;
        case 'const':
          schema.const = pick([1, 'a', null, { x: [1] }, [1]]);
          break;
        case 'enum':
          schema.enum = pick([
            [1, 2],
            ['a', { x: 1 }],
            [[1], null],
          ]);
          break;
        case 'format':
          schema.format = pick(['email', 'date', 'uri']);
          break;
        default:
          schema[key] = sub(depth + 1);
      }
    }
    return schema;
  };
  return Array.from({ length: count }, () => ({ type: 'object', properties: { a: sub(0), b: sub(1) } }) as JsonSchema);
}

interface Probe {
  readonly valid: boolean;
  readonly first?: unknown;
  readonly result: unknown;
}

function probe(validate: JsonValidateFunction, input: unknown): Probe {
  const valid = validate(input);
  const error = validate.errors?.[0];
  const first =
    valid || !error
      ? undefined
      : {
          instancePath: error.instancePath,
          keyword: error.keyword,
          params: JSON.stringify(error.params),
          message: error.message,
        };
  return { valid, first, result: checkJson(validate, input) };
}

/** Every property name anywhere in the schema, plus names no schema declares. */
function namesOf(schema: unknown, into = new Set<string>(['extra', 'x-a', 'x', 'y'])): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) namesOf(item, into);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (
        (key === 'properties' || key === 'dependentRequired' || key === 'dependentSchemas') &&
        value &&
        typeof value === 'object'
      )
        for (const name of Object.keys(value)) into.add(name);
      namesOf(value, into);
    }
  }
  return into;
}

const SCALARS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  2.5,
  7,
  -0.5,
  1e21,
  '',
  'a',
  'ab',
  'abc',
  'Hello',
  'x-y',
  'a@b.co',
  '😀😀',
  'é',
  '2024-01-31',
  '00000000-0000-0000-0000-000000000000',
  'https://x.io/p',
];

function value(random: () => number, names: readonly string[], depth: number): unknown {
  const roll = random();
  if (depth > 2 || roll < 0.55) return SCALARS[Math.floor(random() * SCALARS.length)];
  if (roll < 0.75) return Array.from({ length: Math.floor(random() * 4) }, () => value(random, names, depth + 1));
  return object(random, names, depth + 1);
}

function object(random: () => number, names: readonly string[], depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names)
    if (random() < 0.45)
      Object.defineProperty(out, name, {
        value: value(random, names, depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return out;
}

function inputsFor(schema: JsonSchema, seed: number): unknown[] {
  const random = rng(seed);
  const names = [...namesOf(schema)];
  const fixed: unknown[] = [undefined, null, 'text', 42, [], {}, { [names[0]!]: 'a' }];
  return [
    ...fixed,
    ...Array.from({ length: 60 }, () => object(random, names, 0)),
    ...Array.from({ length: 10 }, () => value(random, names, 0)),
  ];
}

const dir = tempDir('validators-differential');
const schemas: { label: string; schema: JsonSchema }[] = [];

beforeAll(async () => {
  // The Zod corpus as the compiler emits it: one tool per field.
  const files: Record<string, string> = {};
  zodCorpus().forEach((field, i) => {
    files[`tools/z${i}/index.ts`] =
      `import { z } from 'zod';\nimport { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: 'z${i}', inputSchema: z.object({ f: ${field}, g: z.string().optional() }), execute: () => 1 });\n`;
  });
  const zodTree = writeTree(join(dir, 'zod'), files);
  const example = copyFixture('example-bot', 'validators-differential-example');
  try {
    for (const root of [zodTree, example]) {
      const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
      expect(result.errors).toBe(0);
      for (const tool of result.model.tools)
        if (!tool.conditional)
          schemas.push({
            label: `${root === example ? 'example-bot' : 'zod'}:${tool.qualifiedName}`,
            schema: tool.inputSchema,
          });
    }
  } finally {
    removeDir(example);
  }
  for (const [i, schema] of JSON_SCHEMAS.entries()) schemas.push({ label: `json:${i}`, schema });
  for (const [i, schema] of randomSchemas(2026, 120).entries()) schemas.push({ label: `random:${i}`, schema });
}, 180_000);

afterAll(() => removeDir(dir));
mkdirSync(join(dir, 'typed'), { recursive: true });

describe('generated validators vs the runtime Ajv path', () => {
  it('agree on verdict, first error and pipeline result for every schema × input', async () => {
    expect(schemas.length).toBeGreaterThan(100);
    const runtime = ajvValidator();
    const scope = {};
    let compared = 0;
    let invalid = 0;
    for (const [index, { label, schema }] of schemas.entries()) {
      const file = join(dir, `v${index}.mjs`);
      writeFileSync(file, emitValidatorModule(schema, { typescript: false }));
      const generated = ((await import(pathToFileURL(file).href)) as { default: JsonValidateFunction }).default;
      // The `.ts` flavour as a bundler or tsx runs it: its types stripped.
      const typed = emitValidatorModule(schema, { typescript: true });
      writeFileSync(join(dir, 'typed', `v${index}.ts`), typed);
      const stripped = join(dir, `t${index}.mjs`);
      writeFileSync(stripped, transformSync(typed, { loader: 'ts', format: 'esm' }).code);
      const typedValidate = ((await import(pathToFileURL(stripped).href)) as { default: JsonValidateFunction }).default;
      const reference = await runtime.compile(schema, scope);
      for (const input of inputsFor(schema, index + 1)) {
        const ours = probe(generated, input);
        const theirs = probe(reference, input);
        expect({ label, input, ...ours }).toEqual({ label, input, ...theirs });
        expect({ label, input, ...probe(typedValidate, input) }).toEqual({ label, input, ...theirs });
        compared++;
        if (!ours.valid) invalid++;
      }
    }
    // No module is the fallback that throws (a schema Ajv compiles always gets its real code).
    for (const { label, schema } of schemas)
      expect(emitValidatorModule(schema, { typescript: false }), label).not.toContain('could not be compiled');
    // The corpus exercises both answers, not just one.
    expect(compared).toBeGreaterThan(5_000);
    expect(invalid).toBeGreaterThan(compared / 4);
    expect(compared - invalid).toBeGreaterThan(compared / 20);
  }, 180_000);

  it('typed for TypeScript, pass tsc with the flags of @tsconfig/strictest (no @ts-nocheck)', () => {
    const typedDir = join(dir, 'typed');
    const modules = readdirSync(typedDir).filter((name) => name.endsWith('.ts'));
    expect(modules.length).toBe(schemas.length);
    for (const name of modules) expect(readFileSync(join(typedDir, name), 'utf8')).not.toContain('@ts-nocheck');
    writeFileSync(
      join(typedDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          allowUnusedLabels: false,
          allowUnreachableCode: false,
          exactOptionalPropertyTypes: true,
          noFallthroughCasesInSwitch: true,
          noImplicitOverride: true,
          noImplicitReturns: true,
          noPropertyAccessFromIndexSignature: true,
          noUncheckedIndexedAccess: true,
          noUnusedLocals: true,
          noUnusedParameters: true,
          isolatedModules: true,
          verbatimModuleSyntax: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          types: [],
        },
        include: ['*.ts'],
      }),
    );
    const run = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', typedDir], {
      encoding: 'utf8',
    });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);
});
