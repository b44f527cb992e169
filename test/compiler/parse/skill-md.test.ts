import { describe, expect, it } from 'vitest';
import { parseSkillMd, SKILL_KEYS, type SkillMdOptions } from '../../../compiler/parse/skill-md.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';

const FILE = 'skills/short-url/SKILL.md';

function parse(text: string, options?: SkillMdOptions) {
  return parseSkillMd({ file: FILE, text, dirName: 'short-url' }, options);
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
    '  version: 2',
    'allowed-tools: [Read, Bash]',
    '',
  ].join('\n'),
  '\n\n# Short URL\n\nCall `short-url` with the URL.\n',
);

describe('parseSkillMd: valid documents', () => {
  it('accepts every documented key with no diagnostics', () => {
    const { skill, diagnostics } = parse(VALID, { customPermits: ['my-custom'] });
    expect(diagnostics).toEqual([]);
    expect(skill).toMatchObject({
      name: 'short-url',
      description: 'Shorten and expand URLs.',
      declaredTools: [
        { name: 'short-url', loc: { file: FILE, line: 4, column: 9 } },
        { name: 'maps__get-weather', loc: { file: FILE, line: 4, column: 20 } },
      ],
      platforms: ['qq', 'discord'],
      scopes: ['private', 'group'],
      permissions: ['adapter(qq)', 'role(master,trusted)', 'platform(qq,admin)', 'my-custom'],
      keywords: ['url', 'link'],
      tags: ['web'],
      always: true,
      license: 'MIT',
      compatibility: 'zhin >= 1',
      metadata: { author: 'someone', version: 2 },
      allowedTools: ['Read', 'Bash'],
      instructions: '# Short URL\n\nCall `short-url` with the URL.\n',
      loc: { file: FILE, line: 1, column: 1 },
    });
    expect(skill?.platformLocs).toEqual([
      { file: FILE, line: 5, column: 13 },
      { file: FILE, line: 5, column: 17 },
    ]);
    expect(Object.keys(skill!.keyLocs).sort()).toEqual([...SKILL_KEYS].sort());
    expect(skill?.keyLocs.metadata).toEqual({ file: FILE, line: 13, column: 1 });
  });

  it('applies defaults for a minimal skill', () => {
    const { skill, diagnostics } = parse(skillMd('name: short-url\ndescription: d\n'));
    expect(diagnostics).toEqual([]);
    expect(skill).toMatchObject({
      declaredTools: [],
      platforms: [],
      scopes: [],
      permissions: [],
      keywords: [],
      tags: [],
      always: false,
    });
    expect(skill).not.toHaveProperty('license');
    expect(skill).not.toHaveProperty('metadata');
  });

  it('keeps block-sequence tool positions and resolves aliases', () => {
    const text = skillMd('name: short-url\ndescription: d\ntools:\n  - one\n  - "two"\nkeywords: &k [a]\ntags: *k\n');
    const { skill, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    expect(skill?.declaredTools).toEqual([
      { name: 'one', loc: { file: FILE, line: 5, column: 5 } },
      { name: 'two', loc: { file: FILE, line: 6, column: 5 } },
    ]);
    expect(skill?.tags).toEqual(['a']);
  });

  it('treats an optional key with no value as absent', () => {
    const { skill, diagnostics } = parse(skillMd('name: short-url\ndescription: d\ntools:\nplatforms: ~\n'));
    expect(diagnostics).toEqual([]);
    expect(skill?.declaredTools).toEqual([]);
  });

  it('accepts allowed-tools as a single string', () => {
    const { skill, diagnostics } = parse(skillMd('name: short-url\ndescription: d\nallowed-tools: Bash(git:*) Read\n'));
    expect(diagnostics).toEqual([]);
    expect(skill?.allowedTools).toEqual(['Bash(git:*) Read']);
  });
});

describe('parseSkillMd: front matter (ZG4001)', () => {
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
    const { diagnostics } = parse(skillMd('name: short-url\ndescription: d\nmetadata: {a: 1, a: 2}\n'));
    expect(at(diagnostics)).toEqual([['ZG4001', 4, 18]]);
  });
});

describe('parseSkillMd: name (ZG4002)', () => {
  it('reports a name that differs from the directory at the value', () => {
    const { skill, diagnostics } = parse(skillMd('name:   shorturl\ndescription: d\n'));
    expect(at(diagnostics)).toEqual([['ZG4002', 2, 9]]);
    expect(diagnostics[0]!.message).toBe(
      '`name` is "shorturl" but the skill directory is "short-url"; they must be equal',
    );
    expect(skill?.name).toBe('short-url');
  });

  it('reports a missing name at the front matter start, or at an empty key', () => {
    expect(at(parse(skillMd('description: d\n')).diagnostics)).toEqual([['ZG4002', 1, 1]]);
    expect(at(parse(skillMd('description: d\nname:\n')).diagnostics)).toEqual([['ZG4002', 3, 1]]);
  });

  it('reports a non-string name as a wrong type', () => {
    const { diagnostics } = parse(skillMd('name: 42\ndescription: d\n'));
    expect(at(diagnostics)).toEqual([['ZG4006', 2, 7]]);
    expect(diagnostics[0]!.message).toBe('`name` must be a string, got number 42');
  });
});

describe('parseSkillMd: description (ZG4003)', () => {
  it('is required', () => {
    const { diagnostics } = parse(skillMd('name: short-url\n'));
    expect(at(diagnostics)).toEqual([['ZG4003', 1, 1]]);
  });

  it('must be a string', () => {
    const { diagnostics } = parse(skillMd('name: short-url\ndescription: [a]\n'));
    expect(at(diagnostics)).toEqual([['ZG4003', 3, 14]]);
    expect(diagnostics[0]!.message).toBe('`description` must be a string, got an array');
  });

  it('must not be blank', () => {
    expect(at(parse(skillMd('name: short-url\ndescription: "   "\n')).diagnostics)).toEqual([['ZG4003', 3, 14]]);
  });

  it('allows 1024 characters and rejects 1025', () => {
    expect(parse(skillMd(`name: short-url\ndescription: ${'a'.repeat(1024)}\n`)).diagnostics).toEqual([]);
    const { diagnostics } = parse(skillMd(`name: short-url\ndescription: ${'a'.repeat(1025)}\n`));
    expect(at(diagnostics)).toEqual([['ZG4003', 3, 14]]);
    expect(diagnostics[0]!.message).toBe('`description` is 1025 characters long; the limit is 1024');
  });

  it('counts Unicode code points, not UTF-16 units', () => {
    // 1024 emoji are 2048 UTF-16 units but 1024 characters: accepted.
    expect(parse(skillMd(`name: short-url\ndescription: ${'😀'.repeat(1024)}\n`)).diagnostics).toEqual([]);
    const { diagnostics } = parse(skillMd(`name: short-url\ndescription: ${'短'.repeat(1025)}\n`));
    expect(diagnostics[0]!.message).toContain('1025 characters');
  });

  it('trims block scalars before counting', () => {
    const { skill, diagnostics } = parse(skillMd(`name: short-url\ndescription: |\n  ${'a'.repeat(1024)}\n`));
    expect(diagnostics).toEqual([]);
    expect(skill?.description).toBe('a'.repeat(1024));
  });
});

describe('parseSkillMd: other keys', () => {
  it('reports unknown scopes (ZG2007) at the entry', () => {
    const { skill, diagnostics } = parse(skillMd('name: short-url\ndescription: d\nscopes: [group, guild]\n'));
    expect(at(diagnostics)).toEqual([['ZG2007', 4, 17]]);
    expect(diagnostics[0]!.message).toContain('"guild"');
    expect(skill?.scopes).toEqual(['group']);
  });

  it('reports permits that can never pass (ZG2008) at the entry', () => {
    const text = skillMd(
      'name: short-url\ndescription: d\npermissions:\n  - role (master)\n  - undeclared\n  - feature:export\n  - "vip(gold)"\n',
    );
    const { skill, diagnostics } = parse(text, { customPermits: ['/^feature:[a-z]+$/'] });
    expect(at(diagnostics)).toEqual([
      ['ZG2008', 5, 5],
      ['ZG2008', 6, 5],
      ['ZG2008', 8, 5],
    ]);
    expect(diagnostics[0]!.message).toBe('permit "role (master)" can never pass: no space is allowed before "("');
    expect(diagnostics[1]!.message).toContain('"undeclared"');
    expect(skill?.permissions).toEqual(['feature:export']);
  });

  it('accepts custom permits declared as strings, including call-shaped ones', () => {
    const { diagnostics } = parse(skillMd('name: short-url\ndescription: d\npermissions: ["vip(gold)", beta]\n'), {
      customPermits: ['vip(gold)', 'beta'],
    });
    expect(diagnostics).toEqual([]);
  });

  it('reports wrong types (ZG4006) at each value', () => {
    const text = skillMd(
      [
        'name: short-url',
        'description: d',
        'tools: short-url',
        'platforms: {qq: true}',
        'keywords: [ok, 3, ""]',
        'always: "yes"',
        'license: 1',
        'metadata: [a]',
        'allowed-tools: 5',
        'scopes: group',
        '',
      ].join('\n'),
    );
    const { skill, diagnostics } = parse(text);
    expect(at(diagnostics)).toEqual([
      ['ZG4006', 4, 8],
      ['ZG4006', 5, 12],
      ['ZG4006', 6, 16],
      ['ZG4006', 6, 19],
      ['ZG4006', 7, 9],
      ['ZG4006', 8, 10],
      ['ZG4006', 9, 11],
      ['ZG4006', 10, 16],
      ['ZG4006', 11, 9],
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      '`tools` must be an array of strings, got string "short-url"',
      '`platforms` must be an array of strings, got an object',
      '`keywords` entry 2 must be a non-empty string, got number 3',
      '`keywords` entry 3 must be a non-empty string, got string ""',
      '`always` must be true or false, got string "yes"',
      '`license` must be a string, got number 1',
      '`metadata` must be a mapping, got an array',
      '`allowed-tools` must be a string or an array of strings, got number 5',
      '`scopes` must be an array of strings, got string "group"',
    ]);
    expect(skill?.keywords).toEqual(['ok']);
  });

  it('warns about unknown keys (ZG4004) at the key', () => {
    const { skill, diagnostics } = parse(skillMd('name: short-url\ndescription: d\n  \nversion: 2\n'));
    expect(at(diagnostics)).toEqual([['ZG4004', 5, 1]]);
    expect(diagnostics[0]!.severity).toBe('warning');
    expect(diagnostics[0]!.message).toContain('"version"');
    expect(skill).toBeDefined();
  });
});

describe('parseSkillMd: body (ZG4005)', () => {
  it('reports an empty body at the closing delimiter', () => {
    expect(at(parse('---\nname: short-url\ndescription: d\n---\n').diagnostics)).toEqual([['ZG4005', 4, 1]]);
    expect(at(parse('---\nname: short-url\ndescription: d\n---').diagnostics)).toEqual([['ZG4005', 4, 1]]);
    expect(at(parse('---\nname: short-url\ndescription: d\n---\n \n\t\n').diagnostics)).toEqual([['ZG4005', 4, 1]]);
  });

  it('drops leading blank lines from the instructions only', () => {
    const { skill } = parse('---\nname: short-url\ndescription: d\n---\n\n  \n  indented\n\ntext\n\n');
    expect(skill?.instructions).toBe('  indented\n\ntext\n\n');
  });
});

describe('parseSkillMd: BOM and CRLF', () => {
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
    expect(skill?.declaredTools[1]!.loc).toEqual({ file: FILE, line: 4, column: 20 });
  });

  it('accepts a BOM-only prefix before the opening delimiter', () => {
    expect(parse(`\uFEFF${skillMd('name: short-url\ndescription: d\n')}`).diagnostics).toEqual([]);
  });
});

describe('parseSkillMd: robustness', () => {
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
      '---\n' + 'a: b\n'.repeat(200) + '---\nx',
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

  it('warns about a non-scalar key', () => {
    const { diagnostics } = parse('---\nname: short-url\ndescription: d\n? [a, b]\n: c\n---\nx');
    expect(at(diagnostics)).toEqual([['ZG4004', 4, 3]]);
  });
});
