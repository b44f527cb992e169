/**
 * Input nested 10,000 levels deep (issue 13, item 4): the real CLI exits 1 with a diagnostic at
 * the first too-deep position of the file, never ZG9001 "Maximum call stack size exceeded" and
 * never a stack trace. Input just inside the limits still compiles.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeDir, tempDir, writeTree, type CliResult, type JsonDiagnostic } from '../helpers.js';

const N = 10_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function check(root: string): { run: CliResult; diagnostics: JsonDiagnostic[] } {
  const run = cli(['check', '--root', root, '--format', 'json']);
  expect(run.stdout + run.stderr).not.toContain('ZG9001');
  expect(run.stdout + run.stderr).not.toContain('Maximum call stack');
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return { run, diagnostics: (JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics };
}

/** 1-based line and column of an offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

const TOOL_HEAD =
  "import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n";
const tool = (fields: string): string => `${TOOL_HEAD}${fields}\n  async execute() { return 1; },\n});\n`;

// `defineAgentTool({` opens two brackets; each level of this schema opens two more.
const SCHEMA_LEVEL = "{ type: 'object', properties: { a: ";
const schemaPrefix = "  description: 'Deep schema',\n  inputSchema: ";
const deepSchema = tool(`${schemaPrefix}${SCHEMA_LEVEL.repeat(N)}{ type: 'string' }${' } }'.repeat(N)},`);
// The 257th bracket: 2 + 2 × 127 brackets before it, so the first of level 128.
const deepSchemaAt = position(deepSchema, TOOL_HEAD.length + schemaPrefix.length + 127 * SCHEMA_LEVEL.length);

// A module the schema expression imports: no brackets before it, so the first of level 129.
const siblingPrefix = 'export const schema = ';
const deepSibling = `${siblingPrefix}${SCHEMA_LEVEL.repeat(N)}{ type: 'string' }${' } }'.repeat(N)};\n`;
const siblingTool = `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { schema } from './schema.js';\n\nexport default defineAgentTool({ description: 'Imports a deep schema', inputSchema: schema, async execute() { return 1; } });\n`;

const chainPrefix = '  description: ';
const deepChain = tool(`${chainPrefix}${Array.from({ length: N }, () => "'a'").join(' + ')},`);
const callPrefix = "  description: 'Deep chain',\n  inputSchema: ";
const deepCalls = tool(`${callPrefix}z.object({ a: z.string() })${'.strict()'.repeat(N)},`);
const deepUnary = tool(`  description: 'Deep unary',\n  hidden: ${'!'.repeat(N)}true,`);

const agentPrefix = '{\n  "description": "Deep agent",\n  "tools": ';
const deepAgent = `${agentPrefix}${'['.repeat(N)}${']'.repeat(N)}\n}\n`;
const skillPrefix = '---\nname: deep\ndescription: Deep front matter\nkeywords: ';
const deepSkill = `${skillPrefix}${'['.repeat(N)}${']'.repeat(N)}\n---\n\n# Deep\n\nDo it.\n`;
const blockSkill = `---\nname: block\ndescription: Deep block sequence\nkeywords:\n  ${'- '.repeat(N)}x\n---\n\n# Block\n\nDo it.\n`;
const deepPlugin = `import { defineAgentTool, definePlugin } from 'zhin-gen/runtime';\n\nexport default definePlugin({\n  name: 'deep',\n  async setup(context) {\n    context.addTool('extra', defineAgentTool({ description: ${'('.repeat(N)}'x'${')'.repeat(N)}, async execute() { return 1; } }));\n  },\n});\n`;

const agentFiles = (name: string): Record<string, string> => ({
  [`agents/${name}/system.md`]: '# System\n\nYou help.\n',
  [`agents/${name}/boundaries.md`]: '# Boundaries\n\nNone.\n',
  [`agents/${name}/conventions.md`]: '# Conventions\n\nNone.\n',
});

describe('input nested 10,000 levels deep', () => {
  it('ends in one located diagnostic per too-deep file', () => {
    const root = tempDir('deep');
    dirs.push(root);
    writeTree(root, {
      'AGENTS.md': '# Main\n\n## Rules\n\nBe kind.\n',
      'plugin.ts': deepPlugin,
      'tools/schema/index.ts': deepSchema,
      'tools/chain/index.ts': deepChain,
      'tools/calls/index.ts': deepCalls,
      'tools/unary/index.ts': deepUnary,
      'tools/sib/index.ts': siblingTool,
      'tools/sib/schema.ts': deepSibling,
      'tools/fine/index.ts': tool("  description: 'Fine',\n  inputSchema: z.object({ q: z.string() }),"),
      'agents/deep/agent.json': deepAgent,
      ...agentFiles('deep'),
      'skills/deep/SKILL.md': deepSkill,
      'skills/block/SKILL.md': blockSkill,
    });
    const { run, diagnostics } = check(root);
    expect(run.status).toBe(1);
    const byFile = new Map(diagnostics.map((d) => [d.file, d]));
    expect(diagnostics.map((d) => d.file).sort()).toEqual([
      'agents/deep/agent.json',
      'plugin.ts',
      'skills/block/SKILL.md',
      'skills/deep/SKILL.md',
      'tools/calls/index.ts',
      'tools/chain/index.ts',
      'tools/schema/index.ts',
      'tools/sib/schema.ts',
      'tools/unary/index.ts',
    ]);
    for (const d of diagnostics) expect(d.hint, d.code).toBeTruthy();

    // The schema literal: the TypeScript parser cannot take it; the first bracket past 256.
    expect(byFile.get('tools/schema/index.ts')).toMatchObject({
      code: 'ZG2022',
      ...deepSchemaAt,
      message: expect.stringContaining('inputSchema is nested too deeply'),
    });
    // Chains the parser builds without recursion: the tree is checked (the chain starts at the value).
    expect(byFile.get('tools/chain/index.ts')).toMatchObject({
      code: 'ZG2024',
      ...position(deepChain, TOOL_HEAD.length + chainPrefix.length),
    });
    expect(byFile.get('tools/calls/index.ts')).toMatchObject({
      code: 'ZG2022',
      ...position(deepCalls, TOOL_HEAD.length + callPrefix.length),
    });
    // No brackets: located where the parser runs out, on the `hidden` line.
    expect(byFile.get('tools/unary/index.ts')).toMatchObject({ code: 'ZG2024', line: 6 });
    expect(byFile.get('plugin.ts')).toMatchObject({ code: 'ZG2024', line: 6 });
    expect(byFile.get('agents/deep/agent.json')).toMatchObject({
      code: 'ZG4011',
      ...position(deepAgent, agentPrefix.length + 255),
    });
    expect(byFile.get('skills/deep/SKILL.md')).toMatchObject({
      code: 'ZG4011',
      ...position(deepSkill, skillPrefix.length + 256),
    });
    expect(byFile.get('skills/block/SKILL.md')).toMatchObject({ code: 'ZG4011', line: 5 });
    // The imported module is reported itself (not bundled: esbuild and Node recurse as well).
    expect(byFile.get('tools/sib/schema.ts')).toMatchObject({
      code: 'ZG2024',
      ...position(deepSibling, siblingPrefix.length + 128 * SCHEMA_LEVEL.length),
    });

    // It is a dependency of the tool: fixing it is seen by the next run (the cache holds the rest).
    writeFileSync(
      join(root, 'tools/sib/schema.ts'),
      "export const schema = { type: 'object', properties: { a: { type: 'string' } } };\n",
    );
    expect(check(root).diagnostics.map((d) => d.file)).not.toContain('tools/sib/schema.ts');
  });

  it('a JSON config nested 10,000 levels deep is a located config diagnostic', () => {
    const root = tempDir('deep-config');
    dirs.push(root);
    writeTree(root, { 'tools/fine/index.ts': tool("  description: 'Fine',") });
    const config = `{\n  "adapters": ${'['.repeat(N)}${']'.repeat(N)}\n}\n`;
    writeFileSync(join(root, 'zhin-gen.config.json'), config);
    const { run, diagnostics } = check(root);
    expect(run.status).toBe(1);
    expect(diagnostics).toMatchObject([{ code: 'ZG1100', file: 'zhin-gen.config.json', line: 2, column: 3 }]);
  });

  it('a Zod schema nesting past 256 JSON levels is ZG2022 (its depth), not ZG2021 about .meta()', () => {
    const root = tempDir('deep-zod');
    dirs.push(root);
    // z.object nested 129 times: 258 levels of JSON Schema (type/properties per level).
    const nested = `${'z.object({ a: '.repeat(129)}z.string()${' })'.repeat(129)}`;
    writeTree(root, { 'tools/deep/index.ts': tool(`  description: 'Deep zod',\n  inputSchema: ${nested},`) });
    const { run, diagnostics } = check(root);
    expect(run.status).toBe(1);
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([['ZG2022', 'tools/deep/index.ts']]);
    expect(diagnostics[0]!.message).toContain('nests more than 256 levels');
    expect(diagnostics[0]!.message).not.toContain('.meta()');
  });

  it('input just inside the limits still compiles', () => {
    const root = tempDir('deep-fine');
    dirs.push(root);
    // 100 schema levels (the evaluation path's limit is 256 JSON levels, two per level here)
    // and a 900-term chain.
    writeTree(root, {
      'tools/schema/index.ts': tool(
        `${schemaPrefix}${SCHEMA_LEVEL.repeat(100)}{ type: 'string' }${' } }'.repeat(100)},`,
      ),
      'tools/chain/index.ts': tool(`${chainPrefix}${Array.from({ length: 900 }, () => "'a'").join(' + ')},`),
    });
    const generate = cli(['generate', '--root', root]);
    expect(generate.status, generate.stderr).toBe(0);
    expect(check(root).diagnostics).toEqual([]);
  });

  it('agent.json and front matter values at 200 levels are type errors, not depth errors', () => {
    const root = tempDir('deep-values');
    dirs.push(root);
    writeTree(root, {
      'AGENTS.md': '# Main\n\n## Rules\n\nBe kind.\n',
      'agents/ok/agent.json': `{\n  "description": "Fine agent",\n  "model": ${'['.repeat(200)}${']'.repeat(200)}\n}\n`,
      ...agentFiles('ok'),
      'skills/ok/SKILL.md': `---\nname: ok\ndescription: Fine\nkeywords: ${'['.repeat(200)}${']'.repeat(200)}\n---\n\n# Ok\n\nDo it.\n`,
    });
    const codes = check(root).diagnostics.map((d) => `${d.file} ${d.code}`);
    expect(codes.some((c) => c.endsWith('ZG4011'))).toBe(false);
    expect(codes.filter((c) => c.startsWith('agents/ok/agent.json')).length).toBeGreaterThan(0);
    expect(codes.filter((c) => c.startsWith('skills/ok/SKILL.md')).length).toBeGreaterThan(0);
  });
});
