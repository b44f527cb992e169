/**
 * The main agent (docs/authoring.md): AGENTS.md at a plugin root. It is optional, but every sub-agent's
 * conventions.md extends it, so a plugin with any agent under agents/ must have one; when it
 * exists it must say something.
 *
 * Pure: the scanner passes what it found.
 */
import { compareStrings, diag, type Diagnostic, type RelatedLocation } from '../diagnostics.js';
import { checkNewPlaceholder, joinPosix, migratePlaceholderAt, stripBom } from '../parse/manifest-values.js';

export interface MainAgentInput {
  /** POSIX directory of the plugin relative to the project root ('' or '.' for the root). */
  readonly pluginDir: string;
  /** Names of the agent directories found under the plugin's agents/ folder. */
  readonly agents: readonly string[];
  /** The plugin's AGENTS.md, when it exists. */
  readonly agentsMd?: { readonly file: string; readonly text: string };
}

export function validateMainAgent(input: MainAgentInput): Diagnostic[] {
  const { pluginDir, agents, agentsMd } = input;
  const agentsDir = joinPosix(pluginDir, 'agents');
  if (!agentsMd) {
    if (agents.length === 0) return [];
    const names = [...agents].sort(compareStrings);
    // Listing every dependant agent tells the author why the file is needed.
    const related: RelatedLocation[] = names.map((name) => ({
      file: joinPosix(agentsDir, name),
      line: 1,
      column: 1,
      message: `sub-agent "${name}" extends AGENTS.md`,
    }));
    const where = joinPosix(pluginDir, 'AGENTS.md');
    return [
      diag('ZG4016', {
        file: agentsDir,
        message: `${where} is missing, but ${agents.length === 1 ? 'the agent under' : `the ${agents.length} agents under`} ${agentsDir}/ ${agents.length === 1 ? 'extends' : 'extend'} it (${names.join(', ')})`,
        related,
      }),
    ];
  }
  if (stripBom(agentsMd.text).trim() === '') {
    return [
      diag('ZG4015', {
        file: agentsMd.file,
        message: `${agentsMd.file} is empty; it holds the main agent's instructions`,
        hint: 'Write the main agent instructions in AGENTS.md (sub-agents extend them), or delete the file when the plugin has no agents.',
      }),
    ];
  }
  const placeholder = migratePlaceholderAt(stripBom(agentsMd.text));
  if (placeholder)
    return [
      diag('ZG4018', {
        file: agentsMd.file,
        ...placeholder,
        message: `${agentsMd.file} is still the placeholder zhin-gen migrate wrote`,
      }),
    ];
  return checkNewPlaceholder(agentsMd.file, agentsMd.text);
}
