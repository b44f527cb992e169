/**
 * The SKILL.md reader: delimiters, YAML syntax, duplicate and non-plain keys, positions through a
 * BOM and CRLF, and what it hands the validator. The key rules are in test/compiler/validate/skill.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseSkillMd } from '../../../compiler/parse/skill-md.js';
import { checkSkillMd, type SkillOptions } from '../../../compiler/validate/skill.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';

const FILE = 'skills/short-url/SKILL.md';

function parse(text: string, options?: SkillOptions) {
  return checkSkillMd({ file: FILE, text, dirName: 'short-url' }, options);
}

/** [code, line, column] of every diagnostic, in reported (sorted) order. */
function at(diagnostics: readonly Diagnostic[]): [string, number, number][] {
  return diagnostics.map((d) => [d.code, d.line, d.column]);
}

function skillMd(frontMatter: string, body = 'Use the short-url tool.\n'): string {
  return `---\n${frontMatter}---\n\n${body}`;
}

const VALID = skillMd(
  [
    'name: short-url',
    'description: Shorten and expand URLs.',
    'tools: [short-url, maps__get-weather]',
    'platforms: [qq, discord]',
    'scopes: [private, group]',
    'permissions: ["adapter(qq)", "role(master,trusted)", "platform(qq,admin)", my-custom]',
    'keywords: [url, link]',
    'tags: [web]',
    'always: true',
    'license: MIT',
    'compatibility: zhin >= 1',
    'metadata:',
    '  author: someone',
    '  version: "2"',
    'allowed-tools: Read Bash',
    '',
  ].join('\n'),
  '\n\n# Short URL\n\nCall `short-url` with the URL.\n',
);

describe('SKILL.md reader: the document it hands the validator', () => {
  const read = (text: string) => parseSkillMd({ file: FILE, text, dirName: 'short-url' });

  it('keeps every plain key as data, with key, value and entry positions', () => {
    const { document, diagnostics } = read(
      skillMd('name: short-url\ndescription: d\ntools: [a, b]\nmetadata:\n  a/b: x\nextra:\n'),
    );
    expect(diagnostics).toEqual([]);
    expect({ ...document!.data }).toEqual({
      name: 'short-url',
      description: 'd',
      tools: ['a', 'b'],
      metadata: { 'a/b': 'x' },
      extra: null,
    });
    expect(document!.places['/tools']).toEqual({
      key: { file: FILE, line: 4, column: 1 },
      value: { file: FILE, line: 4, column: 8 },
    });
    expect(document!.places['/tools/1']).toEqual({ value: { file: FILE, line: 4, column: 12 } });
    // JSON Pointer escaping, as in ajv's instancePath.
    expect(document!.places['/metadata/a~1b']).toEqual({
      key: { file: FILE, line: 6, column: 3 },
      value: { file: FILE, line: 6, column: 8 },
    });
    expect(document!.end).toEqual({ file: FILE, line: 8, column: 1 });
    expect(document!.bodyBlank).toBe(false);
  });

  it('keeps a `__proto__` key as data (one more unknown key), not as a prototype', () => {
    const { document } = read(skillMd('name: short-url\ndescription: d\n__proto__: {polluted: true}\n'));
    expect(Object.keys(document!.data)).toEqual(['name', 'description', '__proto__']);
    const checked = parse(skillMd('name: short-url\ndescription: d\n__proto__: {polluted: true}\n'));
    expect(at(checked.diagnostics)).toEqual([['ZG4004', 4, 1]]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('marks a value it cannot expand instead of throwing', () => {
    const bomb = ['x: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]'];
    for (let i = 1; i < 8; i++)
      bomb.push(
        `x${i}: &a${i} [${Array(10)
          .fill(i === 1 ? '*a' : `*a${i - 1}`)
          .join(', ')}]`,
      );
    const { document } = read(skillMd(`name: short-url\ndescription: d\nmetadata:\n  ${bomb.join('\n  ')}\n`));
    expect(Object.keys(document!.unreadable)).toEqual(['metadata']);
    expect(document!.data.metadata).toBeNull();
  });
});

describe('SKILL.md: front matter (ZG4001)', () => {
  it('requires front matter', () => {
    const { skill, diagnostics } = parse('# Short URL\n\nNo front matter.\n');
    expect(skill).toBeUndefined();
    expect(at(diagnostics)).toEqual([['ZG4001', 1, 1]]);
    expect(diagnostics[0]!.message).toContain('"# Short URL"');
  });

  it('reports an empty file', () => {
    expect(at(parse('').diagnostics)).toEqual([['ZG4001', 1, 1]]);
    expect(parse('').diagnostics[0]!.message).toContain('empty');
  });

  it('reports an unclosed front matter', () => {
    const { diagnostics } = parse('---\nname: short-url\ndescription: d\n\nbody\n');
    expect(at(diagnostics)).toEqual([['ZG4001', 1, 1]]);
    expect(diagnostics[0]!.message).toContain('never closed');
  });

  it('reports an empty front matter and a non-mapping one', () => {
    expect(at(parse('---\n---\nbody\n').diagnostics)).toEqual([['ZG4001', 1, 1]]);
    const list = parse('---\n- a\n- b\n---\nbody\n');
    expect(at(list.diagnostics)).toEqual([['ZG4001', 2, 1]]);
    expect(list.diagnostics[0]!.message).toContain('got an array');
  });

  it('reports YAML syntax errors at their position in the file', () => {
    const compact = parse(skillMd('name: short-url\ndescription: shorten: urls\n'));
    expect(compact.skill).toBeUndefined();
    expect(at(compact.diagnostics)).toEqual([['ZG4001', 3, 14]]);
    expect(compact.diagnostics[0]!.message).toMatch(/^invalid YAML in the front matter: /);

    const tab = parse(skillMd('name: short-url\ndescription: d\n\tkeywords: [a]\n'));
    expect(at(tab.diagnostics)).toEqual([['ZG4001', 4, 1]]);
  });

  it('reports duplicate keys at the second occurrence and keeps the first', () => {
    const { skill, diagnostics } = parse(skillMd('name: short-url\ndescription: first\ndescription: second\n'));
    expect(at(diagnostics)).toEqual([['ZG4001', 4, 1]]);
    expect(diagnostics[0]!.message).toBe('duplicate key "description" in the front matter; YAML keys must be unique');
    expect(skill?.description).toBe('first');
  });

  it('reports duplicate keys inside metadata', () => {
    const { diagnostics } = parse(skillMd('name: short-url\ndescription: d\nmetadata: {a: x, a: y}\n'));
    expect(at(diagnostics)).toEqual([['ZG4001', 4, 18]]);
  });

  it('reports keys that become one key, or no name, in JSON (they were dropped or turned into text in silence)', () => {
    const messages = (text: string) =>
      parse(text).diagnostics.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`);
    expect(
      messages(skillMd('name: short-url\ndescription: d\nmetadata: {? [x]: y, null: "4", true: "7", "true": "8"}\n')),
    ).toEqual([
      'ZG4001 4:14 a key in `metadata` must be a plain name, not a list',
      'ZG4001 4:22 a key in `metadata` must be a plain name, not null',
      'ZG4001 4:44 duplicate key "true" in `metadata`: written as true and "true", which are one key in JSON',
    ]);
    // An alias key is the key it refers to; a key is shown as written, not as JSON prints its value.
    expect(
      messages(
        skillMd('name: short-url\ndescription: d\nmetadata: { &k a: "1", *k : "2", .inf: "3", Infinity: "4" }\n'),
      ),
    ).toEqual([
      'ZG4001 4:24 duplicate key "a" in `metadata`: written as a and *k, which are one key in JSON',
      'ZG4001 4:45 duplicate key "Infinity" in `metadata`: written as .inf and Infinity, which are one key in JSON',
    ]);
    expect(messages(skillMd('name: short-url\ndescription: d\n1: a\n"1": b\n'))).toContainEqual(
      'ZG4001 5:1 duplicate key "1" in the front matter: written as 1 and "1", which are one key in JSON',
    );
  });

  it('reports a YAML tag it does not know (never kept as plain text in silence)', () => {
    const { diagnostics } = parse(skillMd('name: short-url\ndescription: !!js/function "function () { return 1 }"\n'));
    expect(diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['ZG4001 3:14']);
    expect(diagnostics[0]!.message).toMatch(/^unsupported YAML in the front matter: .*js\/function/);
  });
});

describe('SKILL.md: BOM and CRLF', () => {
  const crlf = (text: string) => `\uFEFF${text.replace(/\n/g, '\r\n')}`;

  it('reports the same positions as for the plain LF file', () => {
    const plain = skillMd('name: other\ndescription: d\nscopes: [dm]\nextra: 1\n');
    const a = parse(plain);
    const b = parse(crlf(plain));
    expect(at(a.diagnostics)).toEqual([
      ['ZG4002', 2, 7],
      ['ZG2007', 4, 10],
      ['ZG4004', 5, 1],
    ]);
    expect(at(b.diagnostics)).toEqual(at(a.diagnostics));
  });

  it('reports YAML errors at the right line and column', () => {
    expect(at(parse(crlf(skillMd('name: short-url\ndescription: a: b\n'))).diagnostics)).toEqual([['ZG4001', 3, 14]]);
  });

  it('normalises the instructions to LF without a BOM', () => {
    const { skill, diagnostics } = parse(crlf(VALID), { customPermits: ['my-custom'] });
    expect(diagnostics).toEqual([]);
    expect(skill?.instructions).toBe('# Short URL\n\nCall `short-url` with the URL.\n');
    expect(skill!.declaredTools[1]!.loc).toEqual({ file: FILE, line: 4, column: 20 });
  });

  it('reads CR-only line ends as line ends (as AGENTS.md is read), with the same positions', () => {
    const plain = skillMd('name: other\ndescription: d\nscopes: [dm]\nextra: 1\n');
    expect(at(parse(plain.replace(/\n/g, '\r')).diagnostics)).toEqual(at(parse(plain).diagnostics));
    expect(parse(VALID.replace(/\n/g, '\r'), { customPermits: ['my-custom'] }).diagnostics).toEqual([]);
  });

  it('accepts a BOM-only prefix before the opening delimiter', () => {
    expect(parse(`\uFEFF${skillMd('name: short-url\ndescription: d\n')}`).diagnostics).toEqual([]);
  });
});

describe('SKILL.md: robustness', () => {
  it('never throws and always answers with diagnostics or a skill', () => {
    const inputs = [
      '---',
      '---\n',
      '---\n---',
      '---\n: \n---\nx',
      '---\n? [a, b]\n: c\n---\nx',
      '---\nnull: 1\n---\nx',
      '---\n"name": short-url\n"description": d\n---\nx',
      '---\nname: short-url\ndescription: d\ntools: [*missing]\n---\nx',
      '---\n!!binary x\n---\nx',
      '\r\n---\r\n',
      '---\nname: short-url\ndescription: d\nmetadata: {a: [1, {b: 2}]}\n---\nx',
      `---\n${'a: b\n'.repeat(200)}---\nx`,
      '\u0000\u0001---',
    ];
    for (const text of inputs) {
      const result = parse(text);
      expect(result.skill !== undefined || result.diagnostics.length > 0).toBe(true);
      for (const d of result.diagnostics) {
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
        expect(d.file).toBe(FILE);
        expect(d.hint).toBeTruthy();
      }
    }
  });

  it('reports metadata that expands an alias bomb instead of throwing', () => {
    const lines = ['  a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++)
      lines.push(
        `  b${i}: &b${i} [${Array(9)
          .fill(i === 1 ? '*a' : `*b${i - 1}`)
          .join(', ')}]`,
      );
    const { diagnostics } = parse(skillMd(`name: short-url\ndescription: d\nmetadata:\n${lines.join('\n')}\n`));
    expect(at(diagnostics)).toEqual([['ZG4006', 5, 3]]);
  });

  it('reports a value whose alias sits inside its own anchor (a cycle) instead of keeping it', () => {
    const read = (text: string) => parseSkillMd({ file: FILE, text, dirName: 'short-url' });
    for (const [value, column] of [
      ['&m {self: *m}', 14],
      ['{x: &m [1, *m]}', 11],
    ] as const) {
      const text = skillMd(`name: short-url\ndescription: d\nmetadata: ${value}\n`);
      const { diagnostics } = parse(text);
      expect(at(diagnostics)).toEqual([['ZG4006', 4, column]]);
      expect(diagnostics[0]!.message).toContain('never ends');
      // Nothing cyclic is kept for the stages after it (the unit's hash, the manifest).
      const { document } = read(text);
      expect(document!.data.metadata).toBeNull();
      expect(Object.keys(document!.unreadable)).toEqual(['metadata']);
    }
    // An unknown key's cycle is only the unknown-key warning, and is not kept either.
    const { document } = read(skillMd('name: short-url\ndescription: d\nx-extra: &n [1, *n]\n'));
    expect(document!.data['x-extra']).toBeNull();
    expect(() => JSON.stringify(document!.data)).not.toThrow();
  });

  it('warns about a non-scalar key', () => {
    const { diagnostics } = parse('---\nname: short-url\ndescription: d\n? [a, b]\n: c\n---\nx');
    expect(at(diagnostics)).toEqual([['ZG4004', 4, 3]]);
  });
});
