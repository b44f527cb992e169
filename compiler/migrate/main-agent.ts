/**
 * The plugin's main agent. The earlier `agent/agent.ts` of a plugin-level `agent/` folder gave
 * the main agent's instructions (`instructions`, or `systemPrompt`); zhin-gen reads them from
 * AGENTS.md at the plugin root. A definition with anything else (a tool list, a model) has no
 * counterpart there and is left as it was, reported. A plugin that gets sub-agents from migrate
 * and has no AGENTS.md gets a marked stub, since sub-agents extend it.
 */
import type { Draft } from './draft.js';
import { STUB_MARK } from './agent-json.js';
import { defaultExportExpression, definitionObject, lineColumn, literalValue, Node, parse } from './source.js';
import { join2 } from './tree.js';

const MODULES = ['agent.ts', 'agent.mts', 'agent.js', 'agent.mjs'];
const INSTRUCTION_KEYS = ['instructions', 'systemPrompt'];

/** Returns whether AGENTS.md is (now) planned for the plugin. */
export function migrateMainAgent(draft: Draft, pluginDir: string): void {
  const agentsMd = join2(pluginDir, 'AGENTS.md');
  for (const name of MODULES) {
    const module = join2(pluginDir, `agent/${name}`);
    if (!draft.tree.has(module)) continue;
    const text = draft.tree.read(module);
    const at = { file: module, line: 1, column: 1 };
    const found = definitionObject(defaultExportExpression(parse(module, text)));
    if (!found) {
      draft.note(
        'ZG6001',
        at,
        `main agent ${module}: not converted, its default export is not an object literal (or a call with one)`,
      );
      continue;
    }
    let instructions: string | undefined;
    const blocked: string[] = [];
    for (const property of found.object.getProperties()) {
      const key = Node.isPropertyAssignment(property) ? property.getName() : property.getText();
      const value = Node.isPropertyAssignment(property) ? literalValue(property.getInitializerOrThrow()) : undefined;
      if (INSTRUCTION_KEYS.includes(key) && value?.ok && typeof value.value === 'string') instructions = value.value;
      else blocked.push(`\`${key}\` (line ${lineColumn(text, property.getStart()).line})`);
    }
    if (blocked.length > 0 || instructions === undefined) {
      draft.note(
        'ZG6001',
        at,
        `main agent ${module}: not converted, ${instructions === undefined ? 'it has no literal `instructions`' : `${blocked.join(', ')} ha${blocked.length === 1 ? 's' : 've'} no counterpart in AGENTS.md`}; write AGENTS.md by hand`,
      );
      continue;
    }
    draft.accept({
      moves: [],
      creates: [{ path: agentsMd, content: instructions.endsWith('\n') ? instructions : `${instructions}\n` }],
      removes: [module],
      why: `main agent ${module} becomes ${agentsMd} (its instructions)`,
      at,
    });
  }
}

/** A marked AGENTS.md when migrate created sub-agents in a plugin that has none. */
export function ensureAgentsMd(draft: Draft, pluginDir: string): void {
  const agentsMd = join2(pluginDir, 'AGENTS.md');
  if (draft.final.has(agentsMd)) return;
  const accepted = draft.accept({
    moves: [],
    creates: [
      {
        path: agentsMd,
        content: `${STUB_MARK}\n# Main agent\n\nTODO: write the instructions every agent of this plugin shares (sub-agents extend them).\n`,
        stub: true,
      },
    ],
    removes: [],
    why: `${agentsMd}: the plugin now has sub-agents, which extend AGENTS.md`,
    at: { file: agentsMd, line: 1, column: 1 },
  });
  if (accepted)
    draft.note(
      'ZG6002',
      { file: agentsMd, line: 1, column: 1 },
      `${agentsMd} is a stub: sub-agents extend it and the earlier layout had no source for it`,
    );
}
