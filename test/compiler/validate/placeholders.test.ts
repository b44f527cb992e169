/**
 * ZG2065 where no agent leads to it: a plugin's AGENTS.md still holding `zhin-gen new`'s text is
 * warned about on its own (it is the main agent's instructions, sent with every turn), located.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('ZG2065 in AGENTS.md', () => {
  it('a plugin without agents whose AGENTS.md is the placeholder: warned at its line', async () => {
    const root = writeTree(tempDir('placeholder-agents-md'), {
      'AGENTS.md': '# Bot\n\nBe helpful.\n',
      'plugins/maps/AGENTS.md':
        '# Maps\n\nSay here how the main agent of this plugin works: tone, rules, which tools to prefer.\n',
    });
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const result = await compiler.run({ write: false });
    await compiler.dispose();
    expect(result.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['ZG2065', 'plugins/maps/AGENTS.md', 3, 1],
    ]);
  });
});
