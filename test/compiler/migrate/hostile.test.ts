/**
 * `zhin-gen migrate` on trees whose file names and contents are hostile: whatever they hold, every
 * module migrate writes parses, holds only the statements migrate meant to write, and its strings
 * read back as exactly the values they carry (a file name or a permit is data, never code).
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../../compiler/migrate/apply.js';
import { planMigration } from '../../../compiler/migrate/plan.js';
import type { Plan } from '../../../compiler/migrate/types.js';
import { removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

function tree(files: Record<string, string>): string {
  const root = tempDir('migrate-hostile');
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function written(plan: Plan, path: string): string {
  const write = plan.writes.get(path);
  if (!write || !('text' in write)) throw new Error(`${path} is not written with new text`);
  return write.text;
}

/** The module's syntax tree; fails the test on any syntax error. */
function parsed(path: string, text: string): ts.SourceFile {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems = (file as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
  expect(
    problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    path,
  ).toEqual([]);
  return file;
}

function strings(file: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    if (ts.isTemplateExpression(node)) out.push(`TEMPLATE WITH SUBSTITUTION: ${node.getText()}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

const TOOL = "import { defineAgentTool } from '@zhin.js/agent/tools';\n";

describe('zhin-gen migrate: hostile names and contents stay data', () => {
  it('a .tool.md whose name holds line separators and whose handler name holds a quote', () => {
    const name = 'x\u2028globalThis.pwned = 1;\u2028.tool.md';
    const root = tree({
      [`tools/${name}`]: '---\ndescription: "a \u2028 b */ ${x} `q`"\nhandler: ./it\'s.ts\n---\n',
      "tools/it's.ts": 'export default async function () {\n  return 1;\n}\n',
    });
    const plan = planMigration(root);
    const path = [...plan.writes.keys()].find((p) => p.endsWith('/index.ts'))!;
    const file = parsed(path, written(plan, path));
    // Two imports, `const run`, `export default`: the file name stays inside the comment.
    const kinds = file.statements.map((s) =>
      ts.isImportDeclaration(s)
        ? 'import'
        : ts.isVariableStatement(s)
          ? 'const'
          : ts.isExportAssignment(s)
            ? 'export'
            : s.getText(),
    );
    expect(kinds).toEqual(['import', 'import', 'const', 'export']);
    expect(strings(file)).toContain("./it's.js");
    expect(strings(file)).toContain('a \u2028 b */ ${x} `q`');
  });

  it('a .tool.md whose front matter is an alias cycle or an alias bomb: reported, not converted, no crash', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++)
      bomb.push(
        `b${i}: &b${i} [${Array(9)
          .fill(i === 1 ? '*a' : `*b${i - 1}`)
          .join(', ')}]`,
      );
    const root = tree({
      'tools/loop.tool.md': '---\ndescription: d\nparameters: &p {self: *p}\n---\n',
      'tools/bomb.tool.md': `---\ndescription: d\n${bomb.join('\n')}\n---\n`,
    });
    const plan = planMigration(root);
    expect([...plan.writes.keys()]).toEqual([]);
    const notes = plan.notes.map((d) => [d.code, d.file, d.message]);
    expect(notes).toEqual([
      ['ZG6001', 'tools/bomb.tool.md', expect.stringContaining('too many YAML aliases')],
      ['ZG6001', 'tools/loop.tool.md', expect.stringContaining('a cycle')],
    ]);
  });

  it('a permit whose arguments hold a newline, a line separator and a quote', () => {
    const root = tree({
      'tools/mute.ts': `${TOOL}import { platformPermit } from '@zhin.js/core';\nexport default defineAgentTool({\n  description: 'm',\n  permissions: [platformPermit('ic\\nqq\\u2028', "ad'min")],\n  async execute() {\n    return 1;\n  },\n});\n`,
    });
    const plan = planMigration(root);
    const file = parsed('tools/mute/index.ts', written(plan, 'tools/mute/index.ts'));
    expect(strings(file)).toContain("platform(ic\nqq\u2028,ad'min)");
  });

  it('an import() in backticks of a moved file whose name holds ${', () => {
    const root = tree({
      'agent/tools/${globalThis.y=1}.ts': 'export const a = 1;\n',
      'agent/tools/use.ts': `${TOOL}export default defineAgentTool({\n  description: 'u',\n  async execute() {\n    return (await import(\`./\\\${globalThis.y=1}.js\`)).a;\n  },\n});\n`,
    });
    const plan = planMigration(root);
    const file = parsed('tools/use/index.ts', written(plan, 'tools/use/index.ts'));
    const moved = [...plan.writes.keys()].find((p) => p.endsWith('${globalThis.y=1}.ts'))!;
    expect(moved).toBe('src/agent/tools/${globalThis.y=1}.ts');
    expect(strings(file)).toContain('../../src/agent/tools/${globalThis.y=1}.js');
    expect(strings(file).filter((s) => s.startsWith('TEMPLATE'))).toEqual([]);
  });
});

describe('zhin-gen migrate: a .tool.md handler outside its folder', () => {
  it('moves beside the new index.ts under its own name, and the import names it', () => {
    for (const toolMd of ['tools/greet.tool.md', 'tools/greet/greet.tool.md']) {
      const root = tree({
        [toolMd]: `---\ndescription: hi\nhandler: ${toolMd.split('/').length === 3 ? '../' : ''}../src/greet-handler.ts\n---\n`,
        'src/greet-handler.ts': 'export default async function () {\n  return 1;\n}\n',
      });
      const plan = planMigration(root);
      expect(plan.changes, toolMd).toContainEqual(
        expect.objectContaining({ kind: 'move', from: 'src/greet-handler.ts', to: 'tools/greet/greet-handler.ts' }),
      );
      expect(strings(parsed(toolMd, written(plan, 'tools/greet/index.ts')))).toContain('./greet-handler.js');
    }
  });
});

describe('zhin-gen migrate: something else where a file is to be written', () => {
  const greet = `${TOOL}export default defineAgentTool({\n  description: 'g',\n  async execute() {\n    return 1;\n  },\n});\n`;
  const refusal = (plan: Plan) => plan.notes.filter((n) => n.code === 'ZG6001').map((n) => `${n.file}: ${n.message}`);

  it('a symbolic link where the tool folder goes: refused and reported, nothing written through it', () => {
    const root = tree({ 'agent/tools/greet.ts': greet });
    const outside = tempDir('migrate-outside');
    dirs.push(outside);
    mkdirSync(join(root, 'tools'));
    symlinkSync(outside, join(root, 'tools/greet'));
    const plan = planMigration(root);
    expect(refusal(plan)).toEqual([
      expect.stringMatching(
        /^agent\/tools\/greet\.ts: .*not converted, tools\/greet is a symbolic link, where tools\/greet\/index\.ts needs a folder$/,
      ),
    ]);
    applyPlan(root, plan);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a file where a folder is needed, and a folder where a file goes: refused and reported before --write', () => {
    const root = tree({ 'agent/tools/greet.ts': greet, tools: 'a file named like the folder\n' });
    expect(refusal(planMigration(root))).toEqual([
      expect.stringMatching(/not converted, tools is a file, where tools\/greet\/index\.ts needs a folder$/),
    ]);
    const agents = tree({ 'agents/x.agent.md': '---\ndescription: d\n---\nhi\n', 'AGENTS.md/notes.md': 'x\n' });
    const plan = planMigration(agents);
    expect(refusal(plan)).toEqual([
      expect.stringMatching(/^AGENTS\.md: .*not converted, AGENTS\.md is a folder in the tree$/),
    ]);
    expect(() => applyPlan(agents, plan)).not.toThrow();
  });
});

describe('zhin-gen migrate: a flat private tool whose folder is taken', () => {
  it('is refused and reported where it is before and after --write, and left as the skill moved it', () => {
    const pad = `${TOOL}export default defineAgentTool({\n  description: 'p',\n  async execute() {\n    return 1;\n  },\n});\n`;
    const root = tree({
      'agent/skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nbody\n',
      'agent/skills/s/tools/pad.ts': pad,
      'agent/skills/s/tools/pad/index.ts': pad,
    });
    const plan = planMigration(root);
    const refused = (notes: Plan['notes']) =>
      notes.filter((n) => n.code === 'ZG6001').map((n) => `${n.file}: ${n.message}`);
    const why =
      /tool file agent\/skills\/s\/tools\/pad\.ts .*: not converted, skills\/s\/tools\/pad\/index\.ts exists already$/;
    expect(refused(plan.notes)).toEqual([expect.stringMatching(new RegExp(`^skills/s/tools/pad\\.ts: ${why.source}`))]);
    expect(refused(plan.notesNow)).toEqual([
      expect.stringMatching(new RegExp(`^agent/skills/s/tools/pad\\.ts: ${why.source}`)),
    ]);
    expect([...plan.writes.keys()].sort()).toEqual([
      'skills/s/SKILL.md',
      'skills/s/tools/pad.ts',
      'skills/s/tools/pad/index.ts',
    ]);
  });
});

describe('zhin-gen migrate: a skill or agent directory that moves', () => {
  it('carries its flat tool files along, and they become tool directories there', () => {
    const root = tree({
      'agents/planner/agent.ts': "export default { name: 'scheduler', description: 'Plans' };\n",
      'agents/planner/instructions.md': 'Plan.\n',
      'agents/planner/tools/plan.ts': `${TOOL}export default defineAgentTool({ description: 'p', execute: async () => 1 });\n`,
    });
    const plan = planMigration(root);
    expect(plan.changes).toContainEqual(
      expect.objectContaining({
        kind: 'move',
        from: 'agents/planner/tools/plan.ts',
        to: 'agents/scheduler/tools/plan/index.ts',
      }),
    );
    expect([...plan.writes.keys()].filter((p) => p.includes('/tools/'))).toEqual([
      'agents/scheduler/tools/plan/index.ts',
    ]);
  });

  it('converts the .tool.md tools it carries in the same run, into its new place', () => {
    const greet = '---\ndescription: Greet\n---\n';
    const handler = 'export default async function () {\n  return 1;\n}\n';
    const root = tree({
      'agent/skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nbody\n',
      'agent/skills/s/tools/greet.tool.md': greet,
      'agent/skills/s/tools/handler.ts': handler,
      'agents/planner/agent.ts': "export default { name: 'scheduler', description: 'Plans' };\n",
      'agents/planner/instructions.md': 'Plan.\n',
      'agents/planner/skills/t/SKILL.md': '---\nname: t\ndescription: d\n---\nbody\n',
      'agents/planner/skills/t/tools/echo/echo.tool.md': '---\ndescription: Echo\n---\n',
      'agents/planner/skills/t/tools/echo/handler.ts': handler,
    });
    const plan = planMigration(root);
    expect([...plan.writes.keys()].filter((p) => p.includes('/tools/')).sort()).toEqual([
      'agents/scheduler/skills/t/tools/echo/handler.ts',
      'agents/scheduler/skills/t/tools/echo/index.ts',
      'skills/s/tools/greet/handler.ts',
      'skills/s/tools/greet/index.ts',
    ]);
    applyPlan(root, plan);
    expect(planMigration(root).changes).toEqual([]);
  });

  it('a carried .tool.md it cannot convert follows the directory, beside its handler, reported there', () => {
    const root = tree({
      'agent/skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\nbody\n',
      'agent/skills/s/tools/greet.tool.md': '---\ndescription: Greet\napproval: maybe\n---\n',
      'agent/skills/s/tools/handler.ts': 'export default async function () {\n  return 1;\n}\n',
    });
    const plan = planMigration(root);
    expect([...plan.writes.keys()].sort()).toEqual([
      'skills/s/SKILL.md',
      'skills/s/tools/greet.tool.md',
      'skills/s/tools/handler.ts',
    ]);
    const refused = (notes: Plan['notes']) => notes.filter((n) => n.code === 'ZG6001').map((n) => n.file);
    expect(refused(plan.notes)).toEqual(['skills/s/tools/greet.tool.md']);
    expect(refused(plan.notesNow)).toEqual(['agent/skills/s/tools/greet.tool.md']);
    applyPlan(root, plan);
    // Refused again where it is now, and nothing moves: a second run changes nothing.
    const again = planMigration(root);
    expect([again.changes, refused(again.notes)]).toEqual([[], ['skills/s/tools/greet.tool.md']]);
  });
});

describe('zhin-gen migrate: a key named __proto__', () => {
  it('is never dropped while its source is deleted: the construct is left as it was and reported', () => {
    const root = tree({
      'agents/x.agent.md': '---\ndescription: d\n__proto__:\n  tools: [evil]\n---\nhi\n',
      'agents/y/agent.ts': "export default { description: 'd', meta: { '__proto__': { maxSteps: 3 } } };\n",
      'agents/y/instructions.md': 'be y\n',
      'tools/echo/echo.tool.md': '---\ndescription: e\nparameters:\n  __proto__:\n    type: string\n---\n',
      'tools/echo/handler.ts': 'export default async function () {\n  return 1;\n}\n',
    });
    const plan = planMigration(root);
    expect(plan.deletes).toEqual([]);
    expect(plan.writes.size).toBe(0);
    expect(plan.notes.filter((n) => n.code === 'ZG6001').map((n) => `${n.file}:${n.line}`)).toEqual([
      'agents/x.agent.md:3',
      'agents/y/agent.ts:1',
      'tools/echo/echo.tool.md:1',
    ]);
  });
});
