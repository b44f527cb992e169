/**
 * ZG2033: the required parts of a turn's system prompt (AGENTS.md of the plugin chain, a
 * sub-agent's three files) alone over the default budget. Held to the runtime's own arithmetic:
 * a tree one character over gets the warning and its turns fail in systemPrompt(); one at the
 * budget gets none and its turns render.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import {
  type CapabilityManifest,
  createCapabilityHost,
  DEFAULT_SYSTEM_PROMPT_MAX_CHARS,
  PromptBudgetError,
} from '../../../runtime/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const BUDGET = DEFAULT_SYSTEM_PROMPT_MAX_CHARS;

async function compile(root: string) {
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: true });
  await compiler.dispose();
  return result;
}

/** The turn's system prompt as the runtime renders it, or the error it throws. */
async function prompt(root: string, tag: string, agent?: string): Promise<unknown> {
  const { manifest } = (await import(`${pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href}?${tag}`)) as {
    manifest: CapabilityManifest;
  };
  const host = createCapabilityHost();
  await host.load(manifest);
  const turn = await host.beginTurn({ sessionKey: tag, ...(agent ? { agent } : {}) });
  const out = await turn.systemPrompt().catch((error: unknown) => error);
  await turn.end();
  await host.close();
  return out;
}

describe('ZG2033: required prompt over the default budget', () => {
  it('AGENTS.md alone: one character over warns and every turn fails; at the budget neither', async () => {
    const root = writeTree(tempDir('prompt-budget'), { 'AGENTS.md': `# Bot\n\n${'x'.repeat(BUDGET - 7)}\n` });
    dirs.push(root);
    const at = await compile(root);
    expect(at.diagnostics).toEqual([]);
    expect(await prompt(root, 'at')).toMatchObject({ text: expect.any(String) });

    writeFileSync(join(root, 'AGENTS.md'), `# Bot\n\n${'x'.repeat(BUDGET - 6)}\n`);
    const over = await compile(root);
    expect(over.errors).toBe(0);
    expect(over.diagnostics.map((d) => [d.code, d.severity, d.file, d.line])).toEqual([
      ['ZG2033', 'warning', 'AGENTS.md', 1],
    ]);
    expect(over.diagnostics[0]!.message).toContain(
      'The required prompt of plugin "(root)" is 100,001 characters (AGENTS.md 100,001)',
    );
    expect(await prompt(root, 'over')).toBeInstanceOf(PromptBudgetError);
  });

  it("a sub-agent's files on top of AGENTS.md: warned at its agent.json, and only its turns fail", async () => {
    const agentsMd = `# Bot\n\n${'a'.repeat(50_000)}\n`;
    const root = writeTree(tempDir('prompt-budget-agent'), {
      'AGENTS.md': agentsMd,
      'agents/big/agent.json': '{ "description": "A big agent" }\n',
      'agents/big/system.md': `# Big\n\n${'s'.repeat(40_000)}\n`,
      'agents/big/boundaries.md': `# Big boundaries\n\n${'b'.repeat(10_000)}\n`,
      'agents/big/conventions.md': '# Big conventions\n\nBe brief.\n',
      'agents/small/agent.json': '{ "description": "A small agent" }\n',
      'agents/small/system.md': '# Small\n\nYou are small.\n',
      'agents/small/boundaries.md': '# Small boundaries\n\nNever guess.\n',
      'agents/small/conventions.md': '# Small conventions\n\nBe brief.\n',
    });
    dirs.push(root);
    const result = await compile(root);
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([['ZG2033', 'agents/big/agent.json']]);
    expect(result.diagnostics[0]!.message).toMatch(
      /The required prompt of agent "big" is 100,0\d\d characters \(AGENTS\.md 50,007, agents\/big\/system\.md 40,007/,
    );
    expect(await prompt(root, 'big', 'big')).toBeInstanceOf(PromptBudgetError);
    expect(await prompt(root, 'small', 'small')).toMatchObject({ text: expect.any(String) });
  });
});
