/**
 * The spec of compiler/emit/validators.ts: generated validator modules are self-contained plain
 * code (no require/import, no eval, no `new Function`), deterministic, inert whatever the
 * schema holds, and run where code generation from strings is forbidden (a CSP-like vm context).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { emitValidatorModule, escapeStrings, validatorKey } from '../../../compiler/emit/validators.js';
import type { JsonSchema } from '../../../runtime/contract/manifest.js';
import { checkJson } from '../../../runtime/turn/validation.js';
import type { JsonValidateFunction } from '../../../runtime/validators/types.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { removeDir, tempDir } from '../../helpers.js';

const dir = tempDir('validators-codegen');
afterAll(() => removeDir(dir));

let counter = 0;
async function load(schema: JsonSchema): Promise<JsonValidateFunction> {
  const file = join(dir, `v${counter++}.mjs`);
  writeFileSync(file, emitValidatorModule(schema, { typescript: false }));
  return ((await import(pathToFileURL(file).href)) as { default: JsonValidateFunction }).default;
}

/** The module as a classic script in a context that refuses `eval` and `new Function`. */
function runStrictCsp(code: string, inputs: readonly unknown[]): unknown[] {
  // Inputs are parsed inside the context: objects of another realm have another `Object`.
  const context = vm.createContext(
    { inputs: JSON.stringify(inputs), results: [] as unknown[] },
    { codeGeneration: { strings: false, wasm: false } },
  );
  const script = code.replace(
    /^export default validate(?: as [^\n]*)?;$/m,
    'for (const input of JSON.parse(inputs)) results.push([validate(input), validate.errors?.[0]?.message ?? null]);',
  );
  vm.runInContext(script, context);
  return (context as { results: unknown[] }).results;
}

const HOSTILE = 'a"b\'`${x}*/</script><!-- \u2028\u2029\\';
const hostileSchema: JsonSchema = {
  type: 'object',
  $comment: `*/ ${HOSTILE} /*`,
  description: HOSTILE,
  properties: {
    [HOSTILE]: {
      type: 'string',
      minLength: 2,
      pattern: `${String.raw`^</script>.*\*/`}\`\\$\\{x\\}`,
      description: '*/ eval("x") /*',
    },
    'a/b~c': { enum: [HOSTILE, { '</script>': HOSTILE }, null, JSON.parse('{"__proto__":{"x":1}}')] },
    ref: { $ref: '#/$defs/odd%20name~1x' },
    nested: { const: { [HOSTILE]: [HOSTILE] } },
  },
  required: [HOSTILE, 'a/b~c'],
  $defs: {
    'odd name/x': { type: 'array', items: { type: 'string', default: '`${process.exit()}`' }, uniqueItems: true },
  },
  additionalProperties: false,
};

describe('generated validator modules', () => {
  it('are self-contained: no require, import, eval or new Function', () => {
    for (const schema of [
      hostileSchema,
      { type: 'object', properties: { s: { type: 'string', maxLength: 3 }, e: { enum: [[1], { a: 1 }] } } },
      { $async: true, type: 'object' },
    ]) {
      // What is code, not a string literal (the schema's own text may say `eval(`).
      const code = emitValidatorModule(schema as JsonSchema, { typescript: true }).replace(
        /"(?:[^"\\\n]|\\.)*"/g,
        '""',
      );
      expect(code).not.toMatch(/\brequire\s*\(|\bimport\b|\beval\s*\(|new Function|\bFunction\s*\(/);
      // The inlined helpers instead of Ajv's runtime modules.
      expect(code).not.toContain('ajv/dist');
    }
  });

  it("look only at the input's own properties: one named like an Object.prototype member is not found there", async () => {
    const names = ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__'];
    const typed: JsonSchema = {
      type: 'object',
      properties: { q: { type: 'string' }, ...Object.fromEntries(names.map((name) => [name, { type: 'string' }])) },
      required: ['q'],
    };
    const required: JsonSchema = {
      type: 'object',
      properties: { toString: { type: 'string' } },
      required: ['toString'],
    };
    const fromCompiler = [await load(typed), await load(required)];
    const fromRuntime = [await ajvValidator().compile(typed, typed), await ajvValidator().compile(required, required)];
    for (const [validTyped, validRequired] of [fromCompiler, fromRuntime]) {
      expect(validTyped!({ q: 'hi' }), JSON.stringify(validTyped!.errors)).toBe(true);
      expect(validTyped!(JSON.parse('{"q":"hi","toString":"s"}'))).toBe(true);
      expect(validTyped!(JSON.parse('{"q":"hi","toString":1}'))).toBe(false);
      expect(validRequired!({})).toBe(false);
      expect(validRequired!({ toString: 'yes' })).toBe(true);
    }
  });

  it('refuse NaN and ±Infinity for number and integer, as Zod does (generated and runtime alike)', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { amount: { type: 'number' }, count: { type: 'integer', minimum: 1 } },
    };
    for (const valid of [await load(schema), await ajvValidator().compile(schema, schema)]) {
      expect(valid({ amount: 1.5, count: 2 }), JSON.stringify(valid.errors)).toBe(true);
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        expect(valid({ amount: bad }), `amount ${bad}`).toBe(false);
        expect(valid({ count: bad }), `count ${bad}`).toBe(false);
      }
    }
  });

  it('are deterministic: the same schema gives the same bytes whatever was compiled before', () => {
    const a = {
      type: 'object',
      properties: { n: { type: 'number', minimum: 1 }, p: { type: 'string', pattern: '^x' } },
    } as JsonSchema;
    const first = emitValidatorModule(a, { typescript: true });
    emitValidatorModule(hostileSchema, { typescript: true });
    emitValidatorModule({ type: 'object', properties: { q: { type: 'string', pattern: '^y' } } }, { typescript: true });
    expect(emitValidatorModule(a, { typescript: true })).toBe(first);
    expect(validatorKey(JSON.stringify(a))).toBe(validatorKey(JSON.stringify(a)));
    expect(validatorKey(JSON.stringify(a))).toMatch(/^[0-9a-f]{16}$/);
  });

  it('stay valid and inert whatever the schema holds (quotes, backticks, */, </script>, U+2028, $refs)', async () => {
    const code = emitValidatorModule(hostileSchema, { typescript: false });
    expect(code).not.toContain('</script>');
    expect(code).not.toContain('<!--');
    expect(code).not.toMatch(/[\u2028\u2029]/);
    // The generated text parses as a module, and nothing in it ran on import.
    const validate = await load(hostileSchema);
    expect(validate({ [HOSTILE]: '</script>zz*/`${x}', 'a/b~c': null })).toBe(true);
    expect(
      validate({
        [HOSTILE]: '</script>zz*/`${x}',
        'a/b~c': { '</script>': HOSTILE },
        ref: ['a', 'b'],
        nested: { [HOSTILE]: [HOSTILE] },
      }),
    ).toBe(true);
    expect(validate({ 'a/b~c': null })).toBe(false);
    // An own `__proto__` key in a schema value stays an own key (not the literal's prototype).
    expect(validate({ [HOSTILE]: '</script>zz*/`${x}', 'a/b~c': JSON.parse('{"__proto__":{"x":1}}') })).toBe(true);
    expect(validate({ [HOSTILE]: '</script>zz*/`${x}', 'a/b~c': {} })).toBe(false);
    expect(checkJson(validate, { 'a/b~c': null })).toEqual({
      ok: false,
      path: `/${HOSTILE}`,
      message: `must have required property '${HOSTILE}'`,
    });
    expect(checkJson(validate, { [HOSTILE]: 'nope', 'a/b~c': null })).toMatchObject({
      ok: false,
      message: expect.stringContaining('must match pattern'),
    });
    expect(checkJson(validate, { [HOSTILE]: '</script>zz*/`${x}', 'a/b~c': null, ref: ['a', 'a'] })).toMatchObject({
      ok: false,
      path: '/ref',
    });
    // JSON pointer escaping of the property name is Ajv's: `/` → `~1`, `~` → `~0`.
    expect(checkJson(validate, { [HOSTILE]: '</script>zz*/`${x}', 'a/b~c': 'other' })).toMatchObject({
      ok: false,
      path: '/a~1b~0c',
    });
  });

  it('run where code generation from strings is forbidden (a CSP-like vm context)', () => {
    // The control: this context really refuses string compilation.
    const context = vm.createContext({}, { codeGeneration: { strings: false, wasm: false } });
    expect(() => vm.runInContext('new Function("return 1")', context)).toThrow(
      /Code generation from strings disallowed/,
    );
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, pattern: '^[A-Z]' },
        tags: { type: 'array', uniqueItems: true },
        kind: { enum: [{ a: 1 }, 'b'] },
      },
      required: ['city'],
    } as JsonSchema;
    const code = emitValidatorModule(schema, { typescript: false });
    expect(
      runStrictCsp(code, [
        { city: 'Paris', tags: [1, 2], kind: { a: 1 } },
        { city: 'p' },
        { city: 'Paris', tags: [{ x: 1 }, { x: 1 }] },
        {},
      ]),
    ).toEqual([
      [true, null],
      [false, 'must NOT have fewer than 2 characters'],
      [false, 'must NOT have duplicate items (items ## 0 and 1 are identical)'],
      [false, "must have required property 'city'"],
    ]);
  });

  it('turn a schema Ajv cannot compile into a validator that throws (reported as "schema could not be evaluated")', async () => {
    const validate = await load({ type: 'object', properties: { a: { $ref: 'https://example.com/elsewhere.json' } } });
    expect(() => validate({})).toThrow(/input schema could not be compiled: can't resolve reference/);
  });

  it('refuse Ajv output they do not understand instead of guessing', () => {
    expect(escapeStrings('a("x<y")')).toBe('a("x\\u003cy")');
    expect(() => escapeStrings("a('x')")).toThrow(/unexpected quote/);
    expect(() => escapeStrings('a // c')).toThrow(/unexpected comment/);
    expect(() => escapeStrings('"open')).toThrow(/unterminated/);
  });
});
