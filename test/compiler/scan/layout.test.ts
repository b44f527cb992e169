/**
 * The layout of a walked tree: which capability each file belongs to. The builder places the
 * files of a directory by what it found for the first of them (scan/layout.ts `fileCap`); these
 * cases put, in one directory, files whose place differs by name (a file named like a nested
 * convention folder, entries beside deeper files), so a shortcut that ignored the name would
 * show here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildLayout, collectUnits } from '../../../compiler/scan/layout.js';
import { walkTree } from '../../../compiler/scan/walk.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function unitsOf(files: Record<string, string>): Record<string, { files: string[]; entries: string[] }> {
  const root = writeTree(tempDir('layout'), files);
  roots.push(root);
  const { paths } = walkTree({ root, pluginEntry: ['index.ts'], allowed: [], outFile: `${root}/out.ts` });
  const { units } = collectUnits(buildLayout(paths, ['index.ts']));
  return Object.fromEntries(
    units.map((u) => [
      u.dir,
      { files: [...u.files], entries: u.entries.map((e) => `${e.name}${e.isDirectory ? '/' : ''}`) },
    ]),
  );
}

describe('layout: files of one directory', () => {
  it('a file named like a nested folder is an entry of its skill or agent, not one of its files', () => {
    const units = unitsOf({
      'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\n',
      'skills/s/a.md': 'a',
      'skills/s/tools': 'a file, not the folder',
      'skills/s/zz.md': 'z',
      'agents/a/agent.json': '{}',
      'agents/a/hooks': 'a file',
      'agents/a/skills': 'a file',
      'agents/a/x.md': 'x',
      'tools/t/index.ts': 'export {}',
      'tools/t/tools': 'a tool has no nested folders: one of its files',
    });
    expect(units['skills/s']).toEqual({
      files: ['skills/s/SKILL.md', 'skills/s/a.md', 'skills/s/zz.md'],
      entries: ['SKILL.md', 'a.md', 'tools', 'zz.md'],
    });
    expect(units['agents/a']).toEqual({
      files: ['agents/a/agent.json', 'agents/a/x.md'],
      entries: ['agent.json', 'hooks', 'skills', 'x.md'],
    });
    expect(units['tools/t']).toEqual({ files: ['tools/t/index.ts', 'tools/t/tools'], entries: ['index.ts', 'tools'] });
  });

  it('files below a capability are its files; only its own directory gives entries; nested ones go to the child', () => {
    const units = unitsOf({
      'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\n',
      'skills/s/lib/a.ts': 'a',
      'skills/s/lib/tools': 'deeper: a file of the skill',
      'skills/s/lib/b.ts': 'b',
      'skills/s/tools/t/index.ts': 'export {}',
      'skills/s/tools/t/more.ts': 'm',
      'skills/s/zz.md': 'z',
    });
    expect(units['skills/s']).toEqual({
      files: ['skills/s/SKILL.md', 'skills/s/lib/a.ts', 'skills/s/lib/b.ts', 'skills/s/lib/tools', 'skills/s/zz.md'],
      entries: ['SKILL.md', 'lib/', 'tools/', 'zz.md'],
    });
    expect(units['skills/s/tools/t']).toEqual({
      files: ['skills/s/tools/t/index.ts', 'skills/s/tools/t/more.ts'],
      entries: ['index.ts', 'more.ts'],
    });
  });
});
