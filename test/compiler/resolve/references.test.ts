/**
 * Skill and agent.json `tools` as zhin.js trees write them, through the real CLI: a skill or an
 * agent listing its own private tools by local name is a warning (ZG3012) and still gets each of
 * them once, after the listed public ones; a name of its own plugin's tool by local name is an
 * error that names the qualifiedName meant.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeDir, tempDir, writeTree } from '../../helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const TOOL = `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';

export default defineAgentTool({
  description: 'A tool of the 60s plugin',
  inputSchema: z.object({ q: z.string() }),
  async execute() {
    return 'ok';
  },
});
`;

const skill = (name: string, tools: readonly string[]): string =>
  `---\nname: ${name}\ndescription: Daily digest.\ntools:\n${tools.map((t) => `  - ${t}\n`).join('')}---\n# Digest\n\nUse the tools.\n`;

interface Diagnostics {
  readonly diagnostics: { code: string; severity: string; file: string; line: number; message: string }[];
}

function tree(files: Record<string, string>): string {
  const root = tempDir('references');
  roots.push(root);
  writeTree(root, { 'AGENTS.md': '# Bot\n\nA bot.\n', ...files });
  return root;
}

describe('skill tools written the zhin.js way', () => {
  it('own private tools listed by local name: a warning, each associated once after the listed ones', () => {
    const root = tree({
      'tools/news/index.ts': TOOL,
      'skills/60s-life/tools/weather/index.ts': TOOL,
      'skills/60s-life/tools/gold/index.ts': TOOL,
      'skills/60s-life/SKILL.md': skill('60s-life', ['weather', 'news', '60s-life__gold']),
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const check = cli(['check', '--root', root, '--format', 'json']);
    expect(check.status).toBe(0);
    const found = (JSON.parse(check.stdout) as Diagnostics).diagnostics;
    expect(found.map((d) => [d.code, d.severity, d.line])).toEqual([
      ['ZG3012', 'warning', 5],
      ['ZG3012', 'warning', 7],
    ]);
    expect(found[0]!.message).toContain('"60s-life__weather"');
    const code = readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
    expect(code).toContain('tools: ["news", "60s-life__gold", "60s-life__weather"]');
  });

  it("a child plugin's tool named by local name: ZG3006 naming the qualifiedName; with a root tool of that name, ZG3013", () => {
    const files = {
      'plugins/sixty/tools/exchange_rate/index.ts': TOOL,
      'plugins/sixty/skills/market/SKILL.md': skill('market', ['exchange_rate']),
    };
    const alone = (JSON.parse(cli(['generate', '--root', tree(files), '--json']).stdout) as Diagnostics).diagnostics;
    expect(alone.map((d) => [d.code, d.file])).toEqual([['ZG3006', 'plugins/sixty/skills/market/SKILL.md']]);
    expect(alone[0]!.message).toContain('did you mean "sixty__exchange_rate"?');

    const both = tree({ ...files, 'tools/exchange_rate/index.ts': TOOL });
    expect(cli(['generate', '--root', both]).status).toBe(0);
    const beside = cli(['check', '--root', both, '--format', 'json']);
    expect(beside.status).toBe(0);
    const warned = (JSON.parse(beside.stdout) as Diagnostics).diagnostics;
    expect(warned.map((d) => d.code)).toEqual(['ZG3013']);
    expect(warned[0]!.message).toContain('not to "sixty__exchange_rate"');
  });
});
