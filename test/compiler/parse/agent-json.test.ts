import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { AGENT_JSON_IGNORED_KEYS, AGENT_JSON_KEYS, parseAgentJson } from '../../../compiler/parse/agent-json.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';
import { MAX_DESCRIPTION_CHARS } from '@zhin-gen/runtime/names';

const FILE = 'agents/reviewer/agent.json';

function parse(text: string) {
  return parseAgentJson({ file: FILE, text, dirName: 'reviewer' });
}

function at(diagnostics: readonly Diagnostic[]): [string, number, number][] {
  return diagnostics.map((d) => [d.code, d.line, d.column]);
}

const VALID = `{
  "name": "reviewer",
  "description": "Reviews pull requests.",
  "tools": ["short-url", "maps__get-weather"],
  "platforms": ["github"],
  "model": "claude-sonnet",
  "maxSteps": 12
}
`;

describe('parseAgentJson: valid documents', () => {
  it('accepts every documented key with no diagnostics', () => {
    const { agent, diagnostics } = parse(VALID);
    expect(diagnostics).toEqual([]);
    expect(agent).toEqual({
      name: 'reviewer',
      description: 'Reviews pull requests.',
      declaredTools: [
        { name: 'short-url', loc: { file: FILE, line: 4, column: 13 } },
        { name: 'maps__get-weather', loc: { file: FILE, line: 4, column: 26 } },
      ],
      platforms: [{ name: 'github', loc: { file: FILE, line: 5, column: 17 } }],
      model: 'claude-sonnet',
      maxSteps: 12,
      loc: { file: FILE, line: 1, column: 1 },
      keyLocs: {
        name: { file: FILE, line: 2, column: 3 },
        description: { file: FILE, line: 3, column: 3 },
        tools: { file: FILE, line: 4, column: 3 },
        platforms: { file: FILE, line: 5, column: 3 },
        model: { file: FILE, line: 6, column: 3 },
        maxSteps: { file: FILE, line: 7, column: 3 },
      },
    });
  });

  it('accepts a $schema editor hint without reading it', () => {
    const { agent, diagnostics } = parse(
      '{"$schema": "../../node_modules/zhin-gen/compiler/schema/agent.schema.json", "description": "d"}',
    );
    expect(diagnostics).toEqual([]);
    expect(agent?.keyLocs).not.toHaveProperty('$schema');
  });

  it('needs only a description; name is optional', () => {
    const { agent, diagnostics } = parse('{"description": "  d  "}');
    expect(diagnostics).toEqual([]);
    expect(agent).toMatchObject({ name: 'reviewer', description: 'd', declaredTools: [], platforms: [] });
    expect(agent).not.toHaveProperty('model');
    expect(agent).not.toHaveProperty('maxSteps');
  });
});

describe('parseAgentJson: duplicate entries', () => {
  it('a platform or tool listed twice is reported at the second entry and read once', () => {
    const { agent, diagnostics } = parse(
      '{\n  "description": "d",\n  "platforms": ["qq", "qq"],\n  "tools": ["echo", "x", "echo"]\n}\n',
    );
    expect(at(diagnostics)).toEqual([
      ['ZG4006', 3, 23],
      ['ZG4006', 4, 26],
    ]);
    expect(diagnostics[0]!.message).toBe('"platforms" must be free of duplicates ("qq" is listed twice)');
    expect(agent!.platforms.map((p) => p.name)).toEqual(['qq']);
    expect(agent!.declaredTools.map((t) => t.name)).toEqual(['echo', 'x']);
  });
});

describe('parseAgentJson: syntax (ZG4010)', () => {
  it('points at a trailing comma', () => {
    const { agent, diagnostics } = parse('{\n  "description": "d",\n  "tools": ["a",],\n}\n');
    expect(agent).toBeUndefined();
    expect(at(diagnostics)).toEqual([
      ['ZG4010', 3, 16],
      ['ZG4010', 3, 18],
    ]);
    expect(diagnostics[0]!.message).toContain('trailing commas are not allowed');
  });

  it('points at a comment', () => {
    const { diagnostics } = parse('{\n  "description": "d" /* why */\n}');
    expect(at(diagnostics)).toEqual([['ZG4010', 2, 22]]);
    expect(diagnostics[0]!.message).toBe('comments are not allowed in agent.json, found "/* why */"');
    expect(at(parse('{\n  // line\n  "description": "d"\n}').diagnostics)).toEqual([['ZG4010', 2, 3]]);
  });

  it('reports other syntax errors at their offset', () => {
    expect(at(parse('{"description" "d"}').diagnostics)).toEqual([['ZG4010', 1, 16]]);
    const quoted = parse('{"description": \'d\'}');
    expect(at(quoted.diagnostics)[0]).toEqual(['ZG4010', 1, 17]);
    expect(quoted.diagnostics[0]!.message).toBe('unexpected character, found "\'d\'"');
    const unclosed = parse('{\n  "description": "d"\n');
    expect(at(unclosed.diagnostics)).toEqual([['ZG4010', 3, 1]]);
    expect(unclosed.diagnostics[0]!.message).toContain('"}"');
  });

  it('reports an empty file', () => {
    expect(at(parse('').diagnostics)).toEqual([['ZG4010', 1, 1]]);
    expect(at(parse('\uFEFF \r\n').diagnostics)).toEqual([['ZG4010', 1, 1]]);
  });

  it('reports duplicate keys at the second occurrence', () => {
    const { diagnostics } = parse('{\n  "description": "a",\n  "description": "b"\n}');
    expect(at(diagnostics)).toEqual([['ZG4010', 3, 3]]);
    expect(diagnostics[0]!.message).toContain('duplicate key "description"');
  });
});

describe('parseAgentJson: BOM and CRLF', () => {
  it('reports positions in the original file', () => {
    const text = '\uFEFF{\r\n  "description": "d",\r\n  "maxSteps": 1.5,\r\n}\r\n';
    expect(at(parse(text).diagnostics)).toEqual([['ZG4010', 3, 18]]);
    const valid = '\uFEFF{\r\n  "description": "d",\r\n  "maxSteps": 1.5\r\n}\r\n';
    const { diagnostics } = parse(valid);
    expect(at(diagnostics)).toEqual([['ZG4006', 3, 15]]);
    expect(diagnostics[0]!.message).toBe('"maxSteps" must be a positive integer, got number 1.5');
  });

  it('parses a valid CRLF file with a BOM', () => {
    const { agent, diagnostics } = parse(`\uFEFF${VALID.replace(/\n/g, '\r\n')}`);
    expect(diagnostics).toEqual([]);
    expect(agent!.declaredTools[1]!.loc).toEqual({ file: FILE, line: 4, column: 26 });
  });
});

describe('parseAgentJson: rules', () => {
  it('requires an object root (ZG4006)', () => {
    const { agent, diagnostics } = parse('\n  ["reviewer"]');
    expect(agent).toBeUndefined();
    expect(at(diagnostics)).toEqual([['ZG4006', 2, 3]]);
    expect(diagnostics[0]!.message).toBe('agent.json must be a JSON object, got an array');
  });

  it('reports a name that differs from the directory (ZG4002) at the value', () => {
    const { agent, diagnostics } = parse('{\n  "name": "Reviewer",\n  "description": "d"\n}');
    expect(at(diagnostics)).toEqual([['ZG4002', 2, 11]]);
    expect(diagnostics[0]!.message).toContain('"Reviewer" but the agent directory is "reviewer"');
    expect(agent?.name).toBe('reviewer');
  });

  it('reports a missing description (ZG4003) at the root object', () => {
    const { agent, diagnostics } = parse('\n{ "name": "reviewer" }');
    expect(at(diagnostics)).toEqual([['ZG4003', 2, 1]]);
    expect(diagnostics[0]!.message).toContain('"description" is missing');
    expect(agent?.description).toBe('');
  });

  it('rejects a blank, non-string or too long description (ZG4003) at the value', () => {
    expect(at(parse('{"description": ""}').diagnostics)).toEqual([['ZG4003', 1, 17]]);
    expect(at(parse('{"description": " \\n "}').diagnostics)).toEqual([['ZG4003', 1, 17]]);
    const number = parse('{"description": 7}');
    expect(at(number.diagnostics)).toEqual([['ZG4003', 1, 17]]);
    expect(number.diagnostics[0]!.message).toBe('"description" must be a string, got number 7');
    expect(parse(`{"description": "${'a'.repeat(1024)}"}`).diagnostics).toEqual([]);
    const long = parse(`{"description": "${'a'.repeat(1025)}"}`);
    expect(at(long.diagnostics)).toEqual([['ZG4003', 1, 17]]);
    expect(long.diagnostics[0]!.message).toBe('"description" is 1025 characters long; the limit is 1024');
  });

  it('counts Unicode code points like SKILL.md', () => {
    expect(parse(`{"description": "${'😀'.repeat(1024)}"}`).diagnostics).toEqual([]);
    expect(parse(`{"description": "${'审'.repeat(1025)}"}`).diagnostics[0]!.message).toContain('1025 characters');
  });

  it('reports wrong types (ZG4006) at each value and keeps the valid entries', () => {
    const text = [
      '{',
      '  "name": 1,',
      '  "description": "d",',
      '  "tools": ["ok", 2, ""],',
      '  "platforms": "qq",',
      '  "model": "",',
      '  "maxSteps": 0',
      '}',
    ].join('\n');
    const { agent, diagnostics } = parse(text);
    expect(at(diagnostics)).toEqual([
      ['ZG4006', 2, 11],
      ['ZG4006', 4, 19],
      ['ZG4006', 4, 22],
      ['ZG4006', 5, 16],
      ['ZG4006', 6, 12],
      ['ZG4006', 7, 15],
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      '"name" must be a string equal to the agent directory name, got number 1',
      '"tools" entry 2 must be a non-empty string, got number 2',
      '"tools" entry 3 must be a non-empty string, got string ""',
      '"platforms" must be an array of adapter names (strings), got string "qq"',
      '"model" must be a non-empty string, got string ""',
      '"maxSteps" must be a positive integer, got number 0',
    ]);
    expect(agent?.declaredTools.map((t) => t.name)).toEqual(['ok']);
    expect(agent?.platforms).toEqual([]);
    expect(agent).not.toHaveProperty('maxSteps');
  });

  it('warns about unknown keys (ZG4004) at the key, without failing', () => {
    const { agent, diagnostics } = parse('{\n  "description": "d",\n  "temperature": 0.2\n}');
    expect(at(diagnostics)).toEqual([['ZG4004', 3, 3]]);
    expect(diagnostics[0]!.severity).toBe('warning');
    expect(diagnostics[0]!.message).toContain('"temperature"');
    expect(agent?.description).toBe('d');
  });

  it("zhin.js's step limit under its own name is an error naming maxSteps (it would be dropped); constructor is just unknown", () => {
    for (const key of ['max_iterations', 'maxIterations']) {
      const { diagnostics } = parse(`{\n  "description": "d",\n  "${key}": 3\n}`);
      expect(at(diagnostics)).toEqual([['ZG4019', 3, 3]]);
      expect(diagnostics[0]!.severity).toBe('error');
      expect(diagnostics[0]!.message).toContain('"maxSteps"');
    }
    const { diagnostics } = parse('{\n  "description": "d",\n  "constructor": 3\n}');
    expect(at(diagnostics)).toEqual([['ZG4004', 3, 3]]);
  });
});

describe('agent.schema.json agrees with parseAgentJson', () => {
  const schemaPath = fileURLToPath(new URL('../../../compiler/schema/agent.schema.json', import.meta.url));
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: true });

  it('is a valid draft 2020-12 schema describing exactly the documented keys', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(Object.keys(schema.properties as object).sort()).toEqual(
      [...AGENT_JSON_KEYS, ...AGENT_JSON_IGNORED_KEYS].sort(),
    );
  });

  it('states the description limit the compiler and the runtime share (the shipped file restates it for editors)', () => {
    const description = (schema.properties as Record<string, { maxLength?: number }>).description;
    expect(description?.maxLength).toBe(MAX_DESCRIPTION_CHARS);
  });

  const documents: unknown[] = [
    { description: 'd' },
    { name: 'reviewer', description: 'd', tools: ['a'], platforms: ['qq'], model: 'm', maxSteps: 1 },
    { description: 'd', tools: [], platforms: [] },
    { description: '😀'.repeat(1024) },
    {},
    { name: 'reviewer' },
    { description: '' },
    { description: '   ' },
    { description: 'a'.repeat(1025) },
    { description: 3 },
    { description: 'd', name: 5 },
    { description: 'd', tools: 'a' },
    { description: 'd', tools: [1] },
    { description: 'd', tools: [''] },
    { description: 'd', platforms: {} },
    { description: 'd', model: 1 },
    { description: 'd', model: '' },
    { description: 'd', maxSteps: 0 },
    { description: 'd', maxSteps: -3 },
    { description: 'd', maxSteps: 2.5 },
    { description: 'd', maxSteps: '3' },
    { description: 'd', extra: true },
    { $schema: '../../node_modules/zhin-gen/compiler/schema/agent.schema.json', description: 'd' },
    { $schema: 1, description: 'd' },
    [],
    'agent',
    null,
  ];

  it.each(documents.map((doc) => [JSON.stringify(doc).slice(0, 60), doc]))('%s', (_label, doc) => {
    const schemaAccepts = ajv.validate(schema, doc);
    const { diagnostics } = parse(JSON.stringify(doc, null, 2));
    expect(diagnostics.length === 0).toBe(schemaAccepts);
  });
});

describe('parseAgentJson: robustness', () => {
  it('never throws', () => {
    for (const text of [
      '{',
      '}',
      '"',
      '{"a":',
      '\uFEFF',
      '[[[[',
      '{"description": "\\ud800"}',
      'nul',
      '{"tools": [null]}',
      '{"": 1, "description": "d"}',
      '{"~1/": 1, "description": "d"}',
    ]) {
      const result = parse(text);
      expect(result.agent !== undefined || result.diagnostics.length > 0).toBe(true);
      for (const d of result.diagnostics) expect(d.line >= 1 && d.column >= 1).toBe(true);
    }
  });
});
