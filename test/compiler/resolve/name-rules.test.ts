/**
 * The tree-wide name and reference rules in watch mode (resolve/name-rules.ts reuses their last
 * outcome while every tool keeps its names, place and location): after each edit, the watching
 * compiler's diagnostics and output equal a fresh compiler's on the same tree, both for an edit
 * the memo may skip (a description) and for edits it must not (a moved definition, a renamed
 * tool, a reference that stops resolving).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import type { CompileResult } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const tool = (description: string, above = ''): string =>
  `${above}import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },\n  requiresApproval: 'never',\n  async execute() {\n    return 1;\n  },\n});\n`;

const skill = (tools: readonly string[]): string =>
  `---\nname: notes\ndescription: Notes.\ntools:\n${tools.map((t) => `  - ${t}`).join('\n')}\n---\nWrite.\n`;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const shape = (r: CompileResult) =>
  r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message} ${JSON.stringify(d.related ?? [])}`);

describe('name and reference rules across watch-mode edits', () => {
  it('equal a fresh compiler after every edit', async () => {
    const root = writeTree(tempDir('name-rules'), {
      'AGENTS.md': '# Bot\n',
      'tools/alpha/index.ts': tool('alpha'),
      'tools/beta/index.ts': tool('beta'),
      'tools/discover/index.ts': tool('reserved'),
      'skills/notes/SKILL.md': skill(['alpha', 'beta']),
    });
    dirs.push(root);
    const watching = createCompiler({ root, cacheFile: false });
    const check = async (paths: readonly string[], expectCodes: readonly string[]): Promise<void> => {
      watching.notify(paths.map((p) => ({ type: 'change' as const, path: join(root, p) })));
      const watched = await watching.run({ write: false });
      const fresh = await createCompiler({ root, cacheFile: false }).run({ write: false });
      expect(shape(watched)).toEqual(shape(fresh));
      expect(watched.code).toBe(fresh.code);
      expect([...new Set(watched.diagnostics.map((d) => d.code))].sort()).toEqual([...expectCodes].sort());
    };
    expect(shape(await watching.run({ write: false }))).toHaveLength(1);
    // A description: names, places and locations as they were.
    writeFileSync(join(root, 'tools/beta/index.ts'), tool('beta, edited'));
    await check(['tools/beta/index.ts'], ['ZG3003']);
    // The reserved-name tool's definition moves down two lines: its ZG3003 follows it.
    writeFileSync(join(root, 'tools/discover/index.ts'), tool('reserved', '// one\n// two\n'));
    await check(['tools/discover/index.ts'], ['ZG3003']);
    // beta renamed to gamma (same number of tools): the skill's reference to beta no longer resolves.
    mkdirSync(join(root, 'tools/gamma'));
    renameSync(join(root, 'tools/beta/index.ts'), join(root, 'tools/gamma/index.ts'));
    rmSync(join(root, 'tools/beta'), { recursive: true });
    await check(['tools/beta', 'tools/beta/index.ts', 'tools/gamma', 'tools/gamma/index.ts'], ['ZG3003', 'ZG3006']);
    // The skill follows the rename: clean again but for the reserved name.
    writeFileSync(join(root, 'skills/notes/SKILL.md'), skill(['alpha', 'gamma']));
    await check(['skills/notes/SKILL.md'], ['ZG3003']);
    await watching.dispose();
  });
});
