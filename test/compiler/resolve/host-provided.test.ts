/**
 * Host-provided capabilities at compile time, through the real CLI: references to declared names
 * (exact or `*` pattern) and to `ask_user` / `spawn_task` pass `check`; the manifest records the
 * referenced ones; without the declaration the same references are ZG3006 errors with a location;
 * a tree tool with a declared exact name is a conflict.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeDir, tempDir, writeTree } from '../../helpers.js';
import { HOST_CONFIG, HOST_TREE, REFERENCED } from './host-provided-tree.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function tree(config: object | undefined, extra: Record<string, string> = {}): string {
  const root = tempDir('host-provided');
  roots.push(root);
  writeTree(root, { ...HOST_TREE, ...extra });
  if (config) writeFileSync(join(root, 'zhin-gen.config.json'), JSON.stringify(config, null, 2));
  return root;
}

describe('host-provided tools in the config', () => {
  it('declared names (exact and patterns) and ask_user pass check; the manifest records the referenced ones', () => {
    const root = tree(HOST_CONFIG);
    const generated = cli(['generate', '--root', root]);
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    const check = cli(['check', '--root', root]);
    expect(check.status).toBe(0);
    const code = readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
    expect(code).toContain(`hostProvided: { tools: [${REFERENCED.map((n) => JSON.stringify(n)).join(', ')}] },`);
    // The skill keeps its associated tools in the order written; load_skill unlocks them.
    expect(code).toMatch(/tools: \["memory_search", "memory_upsert", "bash", "ask_user", "echo"\]/);
  });

  it('without the declaration every host name is a located ZG3006; ask_user is still known', () => {
    const root = tree(undefined);
    const check = cli(['check', '--root', root, '--format', 'json']);
    expect(check.status).toBe(1);
    const diagnostics = (
      JSON.parse(check.stdout) as {
        diagnostics: { code: string; file: string; line: number; column: number; message: string }[];
      }
    ).diagnostics;
    const unknown = diagnostics.filter((d) => d.code === 'ZG3006');
    expect(unknown.map((d) => [d.file, d.line, /"([^"]+)", which/.exec(d.message)![1]])).toEqual([
      ['agents/moderator/agent.json', 3, 'icqq_kick_member'],
      ['skills/memory/SKILL.md', 4, 'memory_search'],
      ['skills/memory/SKILL.md', 4, 'memory_upsert'],
      ['skills/memory/SKILL.md', 4, 'bash'],
    ]);
    expect(unknown[0]!.message).toContain('nor declared host-provided (config hostProvided.tools)');
    expect(diagnostics.some((d) => d.message.includes('"ask_user"'))).toBe(false);
  });

  it('spawn_task is always known; a tree tool with a declared exact name is a conflict', () => {
    const root = tree(HOST_CONFIG, {
      'skills/memory/SKILL.md': HOST_TREE['skills/memory/SKILL.md']!.replace('ask_user', 'spawn_task'),
      'tools/bash/index.ts': HOST_TREE['tools/echo/index.ts']!,
    });
    const check = cli(['check', '--root', root]);
    expect(check.status).toBe(1);
    expect(check.stdout + check.stderr).toMatch(
      /tools\/bash\/index\.ts:3:16 +error +ZG3001 +Tool "bash" \(tools\/bash\/index\.ts\) has the name of a tool the config declares host-provided/,
    );
    expect(check.stdout + check.stderr).not.toContain('spawn_task');
  });

  it('a declared name equal to a tree tool after case folding is a conflict too (the runtime folds)', () => {
    const root = tree({
      ...HOST_CONFIG,
      hostProvided: { ...HOST_CONFIG.hostProvided, tools: [...HOST_CONFIG.hostProvided.tools, 'ECHO'] },
    });
    const check = cli(['check', '--root', root]);
    expect(check.status).toBe(1);
    expect(check.stdout + check.stderr).toMatch(
      /tools\/echo\/index\.ts:\d+:\d+ +error +ZG3001 +Tool "echo" .*hostProvided\.tools: "ECHO" \(equal after case folding\)/,
    );
  });

  it('a malformed declaration is a located config error', () => {
    const root = tree({ hostProvided: { tools: ['memory search'] } });
    const check = cli(['check', '--root', root]);
    expect(check.status).toBe(1);
    expect(check.stdout + check.stderr).toMatch(
      /zhin-gen\.config\.json:\d+:\d+ +error +ZG1100 +Config option `hostProvided\.tools\.0`/,
    );
  });
});
