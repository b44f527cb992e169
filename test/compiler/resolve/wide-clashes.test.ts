/**
 * A clash of many participants (N agents with the same private skill tool, N platform agents of
 * one adapter): each participant is reported at its own place, naming the first few others and
 * counting the rest, so the output grows with N, not N² (2,000 of them printed 250 MB, then the
 * run crashed with "Invalid string length").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { LISTED } from '../../../compiler/resolve/conflicts.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOL =
  "import { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Runs it', requiresApproval: 'never', execute: () => 1 });\n";

function agents(n: number, platforms: boolean): Record<string, string> {
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n\nBe helpful.\n' };
  for (let i = 0; i < n; i++) {
    const dir = `agents/a${i}`;
    files[`${dir}/agent.json`] = JSON.stringify({
      description: `Agent ${i}`,
      ...(platforms ? { platforms: ['qq'] } : {}),
    });
    files[`${dir}/system.md`] = `# A${i}\n\nYou are agent ${i}.\n`;
    files[`${dir}/boundaries.md`] = `# A${i} boundaries\n\nNever guess.\n`;
    files[`${dir}/conventions.md`] = `# A${i} conventions\n\nBe brief.\n`;
    if (!platforms) {
      files[`${dir}/skills/common/SKILL.md`] = '---\nname: common\ndescription: The shared steps.\n---\nRun it.\n';
      files[`${dir}/skills/common/tools/run/index.ts`] = TOOL;
    }
  }
  return files;
}

describe('clashes of many participants', () => {
  it.each([
    ['one tool name from 300 agents (ZG3001)', false, 'ZG3001', 'is declared 300 times'],
    ['300 platform agents of one adapter (ZG3007)', true, 'ZG3007', 'has 300 auto-selected agents'],
  ])('%s: one diagnostic each, naming the first few and counting the rest', async (_, platforms, code, says) => {
    const root = writeTree(tempDir('wide-clash'), agents(300, platforms));
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const result = await compiler.run({ write: false });
    await compiler.dispose();
    const clashes = result.diagnostics.filter((d) => d.code === code);
    expect(clashes).toHaveLength(300);
    expect(new Set(clashes.map((d) => d.file)).size).toBe(300);
    for (const d of clashes) {
      expect(d.message).toContain(says);
      expect(d.message).toContain(`and ${300 - LISTED} more`);
      expect(d.related).toHaveLength(LISTED);
    }
    // Linear: the whole report stays small (it was ~300 × 300 places).
    expect(JSON.stringify(result.diagnostics).length).toBeLessThan(300 * 4000);
  });
});
