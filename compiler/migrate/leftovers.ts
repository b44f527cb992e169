/**
 * What is left in a plugin-level `agent/` folder once its tools, skills, sections and main agent
 * are converted: shared code and notes (`agent/deps.ts`, `agent/PERMITS.md`). zhin-gen never reads
 * that folder, so they move to `src/agent/` (imports follow), and the folder disappears. A file
 * migrate could not convert stays where it is, beside its report.
 */
import { earlierCodeSkillName, earlierHookName } from '../scan/earlier-layout.js';
import type { Draft } from './draft.js';
import { filesBelow, join2 } from './tree.js';

export function migrateLeftovers(draft: Draft, pluginDir: string): void {
  const folder = join2(pluginDir, 'agent');
  // Hooks and skills written in code are capabilities whose API changed: left where they are
  // (the compiler keeps reporting them as errors until rewritten), never moved away as helpers.
  for (const path of filesBelow(draft.tree, folder)) {
    if (!draft.isUntouched(path)) continue;
    const rest = ['agent', ...path.slice(folder.length + 1).split('/')];
    const hook = earlierHookName(rest);
    const skill = hook === undefined ? earlierCodeSkillName(rest) : undefined;
    if (hook !== undefined)
      draft.note(
        'ZG6001',
        { file: path, line: 1, column: 1 },
        `hook "${hook}" of the earlier layout: not converted, rewrite it as ${join2(pluginDir, `hooks/${hook}/index.ts`)} with defineAgentHook (events 'tool:before' / 'tool:after', handle)`,
      );
    else if (skill !== undefined)
      draft.note(
        'ZG6001',
        { file: path, line: 1, column: 1 },
        `skill "${skill}" written in code (defineSkill): not converted, rewrite it as ${join2(pluginDir, `skills/${skill}/SKILL.md`)}`,
      );
  }
  const reported = new Set(draft.notes.filter((n) => n.code === 'ZG6001').map((n) => n.file));
  for (const path of filesBelow(draft.tree, folder)) {
    if (!draft.isUntouched(path) || reported.has(path)) continue;
    // Files of a nested plugin or of a directory another family reported are not this folder's.
    if ([...reported].some((file) => path.startsWith(`${file}/`))) continue;
    const to = join2(pluginDir, `src/agent/${path.slice(folder.length + 1)}`);
    draft.accept({
      moves: [{ from: path, to }],
      creates: [],
      removes: [],
      why: `${path} is not a tool, skill, prompt section or agent: it leaves the earlier agent/ folder for ${to.slice(0, to.lastIndexOf('/'))}/`,
      at: { file: path, line: 1, column: 1 },
    });
  }
}
