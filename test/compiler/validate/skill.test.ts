/**
 * The SKILL.md rule family: the front matter schema (SKILL_SCHEMA) and the rules beside it, each
 * diagnostic at the key, value or entry it concerns. The reader itself is tested in
 * test/compiler/parse/skill-md.test.ts; real skills of other collections in corpus.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS } from '@zhin-gen/runtime/names';
import { emitValidatorModule } from '../../../compiler/emit/validators.js';
import { SKILL_SCHEMA, SKILL_VALIDATOR_OPTIONS } from '../../../compiler/schema/skill-schema.js';
import { checkSkillMd, SKILL_KEYS, type SkillOptions } from '../../../compiler/validate/skill.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';
import { REPO } from '../../helpers.js';

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

describe('SKILL.md: valid documents', () => {
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
      metadata: { author: 'someone', version: '2' },
      allowedTools: ['Read Bash'],
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

describe('SKILL.md: name (ZG4002)', () => {
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

describe('SKILL.md: description (ZG4003)', () => {
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

describe('SKILL.md: other keys', () => {
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

describe('SKILL.md: body (ZG4005)', () => {
  it('warns about an empty body at the closing delimiter; the skill still loads', () => {
    expect(at(parse('---\nname: short-url\ndescription: d\n---\n').diagnostics)).toEqual([['ZG4005', 4, 1]]);
    expect(at(parse('---\nname: short-url\ndescription: d\n---').diagnostics)).toEqual([['ZG4005', 4, 1]]);
    const blank = parse('---\nname: short-url\ndescription: d\n---\n \n\t\n');
    expect(at(blank.diagnostics)).toEqual([['ZG4005', 4, 1]]);
    // The Agent Skills specification's smallest skill is front matter only.
    expect(blank.diagnostics[0]!.severity).toBe('warning');
    expect(blank.skill).toMatchObject({ name: 'short-url', description: 'd', instructions: '' });
  });

  it('drops leading blank lines from the instructions only', () => {
    const { skill } = parse('---\nname: short-url\ndescription: d\n---\n\n  \n  indented\n\ntext\n\n');
    expect(skill?.instructions).toBe('  indented\n\ntext\n\n');
  });
});

describe('SKILL.md: Agent Skills specification rules', () => {
  it('allows a compatibility note of 500 characters and rejects 501 (ZG2080) at the value', () => {
    const ok = parse(
      skillMd(`name: short-url\ndescription: d\ncompatibility: ${'é'.repeat(MAX_COMPATIBILITY_CHARS)}\n`),
    );
    expect(ok.diagnostics).toEqual([]);
    const long = parse(skillMd(`name: short-url\ndescription: d\ncompatibility: ${'a'.repeat(501)}\n`));
    expect(at(long.diagnostics)).toEqual([['ZG2080', 4, 16]]);
    expect(long.diagnostics[0]!.severity).toBe('error');
    expect(long.diagnostics[0]!.message).toBe('`compatibility` is 501 characters long; the limit is 500');
    expect(long.skill).not.toHaveProperty('compatibility');
  });

  it('counts the compatibility note trimmed, in code points', () => {
    const block = parse(skillMd(`name: short-url\ndescription: d\ncompatibility: |\n  ${'😀'.repeat(500)}\n`));
    expect(block.diagnostics).toEqual([]);
    expect(block.skill?.compatibility).toBe(`${'😀'.repeat(500)}\n`);
  });

  it('warns about metadata values that are not strings (ZG2082) at each value, and keeps them', () => {
    const { skill, diagnostics } = parse(
      skillMd('name: short-url\ndescription: d\nmetadata:\n  author: me\n  version: 2\n  nested: {a: b}\n'),
    );
    expect(at(diagnostics)).toEqual([
      ['ZG2082', 6, 12],
      ['ZG2082', 7, 11],
    ]);
    expect(diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', '`metadata` value "version" is number 2; the Agent Skills specification allows strings only'],
      ['warning', '`metadata` value "nested" is an object; the Agent Skills specification allows strings only'],
    ]);
    expect(skill?.metadata).toEqual({ author: 'me', version: 2, nested: { a: 'b' } });
  });

  it('warns about allowed-tools written as a YAML list (ZG2081); a string is the specification form', () => {
    const list = parse(skillMd('name: short-url\ndescription: d\nallowed-tools: [Read, Bash]\n'));
    expect(at(list.diagnostics)).toEqual([['ZG2081', 4, 16]]);
    expect(list.diagnostics[0]!.severity).toBe('warning');
    expect(list.skill?.allowedTools).toEqual(['Read', 'Bash']);
    expect(parse(skillMd('name: short-url\ndescription: d\nallowed-tools: Read Bash(git:*)\n')).diagnostics).toEqual(
      [],
    );
    // Neither a string nor a list is still the wrong type.
    expect(at(parse(skillMd('name: short-url\ndescription: d\nallowed-tools: {a: 1}\n')).diagnostics)).toEqual([
      ['ZG4006', 4, 16],
    ]);
  });
});

describe('SKILL_SCHEMA', () => {
  it('is a valid draft 2020-12 schema whose limits are the shared constants', () => {
    expect(new Ajv2020({ strict: true, allowUnionTypes: true }).validateSchema(SKILL_SCHEMA)).toBe(true);
    expect(SKILL_SCHEMA.properties.description.maxLength).toBe(MAX_DESCRIPTION_CHARS);
    expect(SKILL_SCHEMA.properties.compatibility.maxLength).toBe(MAX_COMPATIBILITY_CHARS);
  });

  it('is what compiler/schema/skill-validator.gen.ts validates (regenerate: UPDATE_GOLDEN=1)', () => {
    const file = join(REPO, 'compiler', 'schema', 'skill-validator.gen.ts');
    const expected = emitValidatorModule(SKILL_SCHEMA, SKILL_VALIDATOR_OPTIONS);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  it('reads exactly the keys docs/authoring.md documents, in its order', () => {
    const docs = readFileSync(join(REPO, 'docs', 'authoring.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Skills (SKILL.md)'), docs.indexOf('### Permits'));
    const table = section.slice(section.indexOf('### Keys'));
    const documented = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...SKILL_KEYS]);
  });
});
