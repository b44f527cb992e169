/**
 * The manifest changes only when something it serves changes: a body-only edit of a tool leaves
 * it byte-identical (and `check` green), and two unrelated edits change disjoint lines, so two
 * pull requests that each regenerate it merge without a conflict.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, copyTree, removeDir, tempDir, writeTree } from '../../helpers.js';

const tool = (description: string, body: string): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  async execute() {\n    ${body}\n  },\n});\n`;

const TREE = {
  'AGENTS.md': '# Bot\n',
  'tools/alpha/index.ts': tool('Alpha', "return 'a';"),
  'tools/alpha/helper.ts': 'export const greeting = "hi";\n',
  'tools/beta/index.ts': tool('Beta', "return 'b';"),
  'skills/notes/SKILL.md': '---\nname: notes\ndescription: Take notes.\n---\nWrite them down.\n',
  'hooks/audit/index.ts':
    "import { defineAgentHook } from 'zhin-gen/runtime';\n\nexport default defineAgentHook({\n  events: ['tool:after'],\n  handle() {\n    return undefined;\n  },\n});\n",
};

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function generate(root: string): string {
  const result = cli(['generate', '--root', root]);
  expect(result.status, result.stderr).toBe(0);
  return readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
}

describe('manifest stability', () => {
  it('a body-only edit (tool body, helper module, hook body) leaves the manifest byte-identical and check green', () => {
    const root = writeTree(tempDir('stable'), TREE);
    dirs.push(root);
    const before = generate(root);
    // Each tool's content hash is of its served metadata (SPEC); no manifest-wide hash line.
    expect(before).toMatch(/"hash":"[0-9a-f]{16}"/);
    expect(before).not.toMatch(/^\s*hash:/m);
    writeFileSync(join(root, 'tools/alpha/index.ts'), tool('Alpha', "return 'a, but computed differently';"));
    writeFileSync(join(root, 'tools/alpha/helper.ts'), 'export const greeting = "hello";\n');
    writeFileSync(
      join(root, 'hooks/audit/index.ts'),
      readFileSync(join(root, 'hooks/audit/index.ts'), 'utf8').replace(
        'return undefined;',
        'console.log("audited");\n    return undefined;',
      ),
    );
    const check = cli(['check', '--root', root]);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const after = cli(['generate', '--root', root]);
    expect(after.stdout).toContain('(unchanged)');
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toBe(before);
  });

  it('two unrelated edits regenerate into manifests that merge without a conflict', () => {
    const base = writeTree(tempDir('merge-base'), TREE);
    dirs.push(base);
    const baseText = generate(base);
    const ours = copyTree(base, 'merge-ours');
    const theirs = copyTree(base, 'merge-theirs');
    dirs.push(ours, theirs);
    writeFileSync(join(ours, 'tools/alpha/index.ts'), tool('Alpha, described anew', "return 'a';"));
    writeFileSync(
      join(theirs, 'skills/notes/SKILL.md'),
      '---\nname: notes\ndescription: Take careful notes.\n---\nWrite them down.\n',
    );
    const oursText = generate(ours);
    const theirsText = generate(theirs);
    expect(oursText).not.toBe(baseText);
    expect(theirsText).not.toBe(baseText);
    const scratch = tempDir('merge-files');
    dirs.push(scratch);
    const files = { base: baseText, ours: oursText, theirs: theirsText };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, name), text);
    const merged = spawnSync(
      'git',
      ['merge-file', '-p', join(scratch, 'ours'), join(scratch, 'base'), join(scratch, 'theirs')],
      { encoding: 'utf8' },
    );
    expect(merged.status, merged.stdout).toBe(0);
    // The merge is what regenerating with both edits writes.
    const both = copyTree(ours, 'merge-both');
    dirs.push(both);
    writeFileSync(
      join(both, 'skills/notes/SKILL.md'),
      '---\nname: notes\ndescription: Take careful notes.\n---\nWrite them down.\n',
    );
    expect(merged.stdout).toBe(generate(both));
  });
});
