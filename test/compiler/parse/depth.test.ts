/**
 * The nesting checks of parse/depth.ts: brackets are counted only where they nest (not inside
 * strings, comments or YAML plain text), and the parsed-tree check passes real chains and stops
 * deep ones without recursion.
 */
import { describe, expect, it } from 'vitest';
import { firstTooDeep, MAX_NESTING, MAX_SYNTAX_DEPTH, parseSource } from '../../../compiler/parse/depth.js';
import { ts } from '../../../compiler/util/typescript.js';

const deep = (open: string, close: string, n = MAX_NESTING + 1): string => `${open.repeat(n)}${close.repeat(n)}`;

describe('firstTooDeep', () => {
  it('finds the first bracket past the limit', () => {
    expect(firstTooDeep(deep('[', ']', MAX_NESTING), 'json')).toBeUndefined();
    expect(firstTooDeep(deep('[', ']'), 'json')).toBe(MAX_NESTING);
    // The root and 255 nested objects are within it: the 256th nested `{` is the first past it.
    expect(firstTooDeep(`{"a": ${'{"b": '.repeat(300)}1${'}'.repeat(301)}`, 'json')).toBe(
      '{"a": '.length + 255 * '{"b": '.length,
    );
  });

  it('does not count brackets inside strings', () => {
    expect(firstTooDeep(`{"a": "${'['.repeat(1000)}", "b": "\\"${'{'.repeat(1000)}"}`, 'json')).toBeUndefined();
    expect(firstTooDeep(`const a = '${'('.repeat(1000)}'; const b = "${'['.repeat(1000)}";`, 'code')).toBeUndefined();
  });

  it('code: skips comments and template text, counts `${` and brackets inside it', () => {
    expect(firstTooDeep(`// ${'('.repeat(1000)}\n/* ${'{'.repeat(1000)} */ const a = 1;`, 'code')).toBeUndefined();
    expect(firstTooDeep(`const t = \`${'{'.repeat(1000)}\`;`, 'code')).toBeUndefined();
    expect(firstTooDeep(`const t = ${'`${'.repeat(200)}1${'}`'.repeat(200)};`, 'code')).toBeDefined();
    expect(firstTooDeep(`const t = \`\${${deep('(', ')', 300)}}\`;`, 'code')).toBeDefined();
  });

  it('yaml: a quote opens a scalar only at its start; comments are skipped', () => {
    expect(firstTooDeep(`description: don't ${'['.repeat(300)}\n`, 'yaml')).toBeDefined();
    expect(
      firstTooDeep(
        `description: "${'['.repeat(300)}"\nname: 'it''s ${'{'.repeat(300)}'\n# ${'['.repeat(300)}\n`,
        'yaml',
      ),
    ).toBeUndefined();
    expect(firstTooDeep(`keywords: ${deep('[', ']')}\n`, 'yaml')).toBe('keywords: '.length + MAX_NESTING);
  });
});

describe('parseSource', () => {
  const chain = (n: number): string => `export default ${Array.from({ length: n }, () => "'a'").join(' + ')};\n`;

  it('parses a long chain within the limit and visits every node once', () => {
    let visited = 0;
    const parsed = parseSource(ts, 'a.ts', chain(MAX_SYNTAX_DEPTH - 10), ts.ScriptKind.TS, () => visited++);
    expect(parsed.tooDeep).toBeUndefined();
    expect(visited).toBeGreaterThan(2 * (MAX_SYNTAX_DEPTH - 10));
  });

  it('stops a chain past the limit at its start, with the tree', () => {
    const parsed = parseSource(ts, 'a.ts', chain(10_000), ts.ScriptKind.TS);
    expect(parsed.tooDeep).toMatchObject({
      offset: 'export default '.length,
      why: `more than ${MAX_SYNTAX_DEPTH} syntax levels`,
    });
    expect(parsed.sf).toBeDefined();
  });

  it('turns the parser running out of stack into a position', () => {
    const text = `export default ${deep('[', ']', 10_000)};\n`;
    const parsed = parseSource(ts, 'a.ts', text, ts.ScriptKind.TS);
    expect(parsed).toMatchObject({ sf: undefined, tooDeep: { offset: 'export default '.length + MAX_NESTING } });
  });
});
