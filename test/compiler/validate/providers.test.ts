/**
 * Provider profiles: OpenAI rejects some schema keywords (ZG5003). Keywords are found wherever a
 * schema is, but never inside data (`default`, `examples`, `const`, `enum`) or in property names.
 */
import { describe, expect, it } from 'vitest';
import type { ToolModel } from '../../../compiler/model.js';
import { checkProviderProfiles } from '../../../compiler/validate/providers.js';

function tool(inputSchema: Record<string, unknown>): ToolModel {
  return {
    kind: 'tool',
    owner: '',
    placement: 'plugin',
    localName: 't',
    qualifiedName: 't',
    source: 'tools/t/index.ts',
    related: [],
    loc: { file: 'tools/t/index.ts', line: 1, column: 1 },
    description: 'T',
    inputSchema: inputSchema as ToolModel['inputSchema'],
    schemaOrigin: 'json',
    schemaVia: 'inline',
    requiresApproval: 'never',
    platforms: [],
    scopes: [],
    permissions: [],
    hidden: false,
    keywords: [],
    tags: [],
    conditional: false,
    typed: true,
    hash: 'h',
  };
}

describe('provider schema keywords', () => {
  it('reports a keyword used in a nested schema', () => {
    const found = checkProviderProfiles(
      [tool({ type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } } })],
      ['openai'],
    );
    expect(found.map((d) => d.code)).toEqual(['ZG5003']);
    expect(found[0]!.message).toContain('oneOf');
  });

  it('ignores keywords that only appear as data or as property names', () => {
    const schema = {
      type: 'object',
      properties: {
        oneOf: { type: 'string' },
        b: { type: 'object', default: { oneOf: 1, not: true }, examples: [{ allOf: [] }] },
        c: { const: { if: 1 } },
        d: { enum: [{ then: 1 }] },
      },
    };
    expect(checkProviderProfiles([tool(schema)], ['openai'])).toEqual([]);
  });
});
