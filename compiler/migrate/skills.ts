/**
 * Skills of the earlier layout: `agent/skills/<x>.md` (or `agent/skills/<x>/SKILL.md`) in a
 * plugin-level `agent/` folder, and flat `skills/<x>.md`. Each becomes `skills/<name>/SKILL.md`,
 * where `<name>` is the skill's `name` (its runtime name), else the file name; a front matter
 * without `name` gets one, since zhin-gen requires it to equal the directory.
 */
import type { Draft } from './draft.js';
import { readFrontMatter, yamlName } from './markdown.js';
import { directoryName, ownerOf } from './names.js';
import { carriedToolMarkdown, convertCarried, skillFolders } from './private-tools.js';
import { childrenOf, filesBelow, join2 } from './tree.js';

/** The front matter with `name` set: an added first key, or the value replaced in place. */
function withName(text: string, name: string, yamlStart: number, current: string | undefined): string {
  if (current === name) return text;
  if (current === undefined) return `${text.slice(0, yamlStart)}name: ${yamlName(name)}\n${text.slice(yamlStart)}`;
  const line = /^name:[ \t]*.*$/m;
  const head = text.slice(0, text.indexOf('\n---', yamlStart) + 1);
  return head.replace(line, `name: ${yamlName(name)}`) + text.slice(head.length);
}

function migrateSkill(
  draft: Draft,
  pluginDir: string,
  source: string,
  files: readonly string[],
  baseDir: string | undefined,
): void {
  const text = draft.tree.read(source);
  const at = { file: source, line: 1, column: 1 };
  const parsed = readFrontMatter(text);
  if (!parsed.ok) {
    draft.note('ZG6001', { ...at, line: parsed.line }, `skill ${source}: not converted, ${parsed.reason}`);
    return;
  }
  const { data, keyLines, yamlStart } = parsed.value;
  const fileName =
    baseDir !== undefined ? baseDir.slice(baseDir.lastIndexOf('/') + 1) : source.slice(source.lastIndexOf('/') + 1, -3);
  const earlier = typeof data.name === 'string' && data.name.trim() !== '' ? data.name : fileName;
  const name = directoryName(draft, 'skill', ownerOf(pluginDir), earlier, { ...at, line: keyLines.name ?? 1 });
  const target = join2(pluginDir, `skills/${name}`);
  const skillMd = `${target}/SKILL.md`;
  const content = withName(text, name, yamlStart, typeof data.name === 'string' ? data.name : undefined);
  // Its `.tool.md` tools become tools of the moved skill (private-tools.ts), not files it carries.
  const carried = baseDir !== undefined ? carriedToolMarkdown(draft.tree, baseDir, skillFolders(name)) : undefined;
  const moves = files
    .filter((f) => f !== source && !carried?.files.has(f))
    .map((from) => ({ from, to: `${target}/${from.slice(baseDir!.length + 1)}` }));
  const why = `skill ${source} becomes ${skillMd} (skill "${name}")`;
  const accepted = draft.accept({
    moves: [...moves, { from: source, to: skillMd }],
    creates: [],
    removes: [],
    why,
    at,
  });
  if (accepted && content !== text) draft.edit(skillMd, content, '`name` equals the skill directory');
  if (accepted && carried) convertCarried(draft, pluginDir, carried, baseDir!, target, why);
}

export function migrateSkills(draft: Draft, pluginDir: string): void {
  const tree = draft.tree;
  for (const folder of ['agent/skills', 'skills']) {
    const dir = join2(pluginDir, folder);
    const { files, dirs } = childrenOf(tree, dir);
    for (const file of files) {
      if (!file.endsWith('.md') || file === 'README.md') continue;
      const path = `${dir}/${file}`;
      if (!tree.read(path).startsWith('---') && folder === 'skills') continue;
      migrateSkill(draft, pluginDir, path, [path], undefined);
    }
    if (folder !== 'agent/skills') continue;
    for (const sub of dirs) {
      const subDir = `${dir}/${sub}`;
      const skillMd = `${subDir}/SKILL.md`;
      if (!tree.has(skillMd)) {
        draft.note(
          'ZG6001',
          { file: subDir, line: 1, column: 1 },
          `${subDir}/ holds no SKILL.md: not a skill migrate knows, left as it was`,
        );
        continue;
      }
      migrateSkill(draft, pluginDir, skillMd, filesBelow(tree, subDir), subDir);
    }
  }
}
