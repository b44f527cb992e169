/**
 * The keywords an emitted schema may carry (compiler/schema/keywords.ts) are exactly those the
 * runtime's validator knows: a keyword Ajv enforces is never refused as a non-keyword, and a key
 * Ajv ignores is never let through.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { keywordLike, SCHEMA_KEYWORDS } from '../../../compiler/schema/keywords.js';
import { convertJsonSchema } from '../../../compiler/schema/convert.js';
import { AJV_OPTIONS } from '../../../runtime/validators/ajv.js';

const require = createRequire(import.meta.url);

describe('schema keywords', () => {
  it("are the installed Ajv 2020's keywords, no more and no fewer", () => {
    const { Ajv2020 } = require('ajv/dist/2020.js') as {
      Ajv2020: new (options: object) => { RULES: { keywords: Record<string, unknown> } };
    };
    // `$anchor` has no rule: Ajv's resolver reads it (compile/resolve.js), so it is enforced too.
    const known = [...Object.keys(new Ajv2020({ ...AJV_OPTIONS }).RULES.keywords), '$anchor'].sort();
    expect([...SCHEMA_KEYWORDS].sort()).toEqual(known);
  });

  it('a JSON Schema keeps every keyword, nested ones and user data included, and names a misspelt one', () => {
    const schema = {
      type: 'object',
      properties: { minlength: { type: 'string', minLength: 1, examples: [{ anything: 1 }] } },
      dependencies: { minlength: { properties: { n: { type: 'number', 'x-ui': 1 } } } },
    };
    const result = convertJsonSchema(schema);
    expect(result).toMatchObject({
      ok: false,
      code: 'ZG2022',
      path: ['dependencies', 'minlength', 'properties', 'n', 'x-ui'],
    });
    expect(convertJsonSchema({ type: 'object', properties: { minlength: { type: 'string' } } })).toMatchObject({
      ok: true,
    });
    // An anchor and the reference that finds it: both keywords.
    expect(
      convertJsonSchema({
        type: 'object',
        properties: { n: { $ref: '#node' } },
        $defs: { node: { $anchor: 'node', type: 'number' } },
      }),
    ).toMatchObject({ ok: true });
    expect(keywordLike('MINLENGTH')).toBe('minLength');
    expect(keywordLike('x-ui')).toBeUndefined();
  });

  it('a pattern that is no regular expression is located at its keyword (Ajv names no place)', () => {
    expect(
      convertJsonSchema({
        type: 'object',
        // Example data holding a `pattern` key is data, never the place named.
        properties: { a: { type: 'object', examples: [{ pattern: '(' }] }, b: { type: 'string', pattern: '[' } },
      }),
    ).toMatchObject({ ok: false, code: 'ZG2022', path: ['properties', 'b', 'pattern'] });
    expect(convertJsonSchema({ type: 'object', patternProperties: { '(': { type: 'string' } } })).toMatchObject({
      ok: false,
      code: 'ZG2022',
      path: ['patternProperties', '('],
    });
  });
});
