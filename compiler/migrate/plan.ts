/**
 * Builds the migration plan for a tree: each construct family per plugin (tools, skills, prompt
 * sections, agents, the main agent, then the agents' and skills' own tools), then the passes over
 * the result (relative imports, field edits, `tools:` references), then the list of changes with
 * their diffs. Pure with respect to the disk: nothing is written here.
 */
import { compareDiagnostics, compareStrings } from '../diagnostics.js';
import { migrateAgents } from './agents.js';
import { unifiedDiff } from './diff.js';
import { Draft } from './draft.js';
import { migrateFields } from './fields.js';
import { rewriteImports } from './imports.js';
import { migrateLeftovers } from './leftovers.js';
import { ensureAgentsMd, migrateMainAgent } from './main-agent.js';
import { rewriteReferences } from './references.js';
import { migrateSections } from './sections.js';
import { migrateSkills } from './skills.js';
import { isCodeFile, releaseSources } from './source.js';
import { migratePrivateTools } from './private-tools.js';
import { migrateTools } from './tools.js';
import { pluginDirs, readTree } from './tree.js';
import type { Change, Plan, SourceTree, Write } from './types.js';

export function planMigration(root: string): Plan {
  return planFor(readTree(root));
}

export function planFor(tree: SourceTree): Plan {
  const draft = new Draft(tree);
  try {
    for (const plugin of pluginDirs(tree)) {
      migrateTools(draft, plugin);
      migrateSkills(draft, plugin);
      migrateSections(draft, plugin);
      migrateMainAgent(draft, plugin);
      migrateLeftovers(draft, plugin);
      if (migrateAgents(draft, plugin)) ensureAgentsMd(draft, plugin);
      // Last: the agents and skills moved above carry their tools folders along.
      migratePrivateTools(draft, plugin);
    }
    rewriteImports(draft);
    for (const path of [...draft.final.keys()]) if (isCodeFile(path)) migrateFields(draft, path);
    rewriteReferences(draft);
    return toPlan(draft);
  } finally {
    releaseSources();
  }
}

function toPlan(draft: Draft): Plan {
  const changes: Change[] = [];
  const writes = new Map<string, Write>();
  const original = (path: string): string => draft.tree.read(path);
  for (const [path, entry] of draft.final) {
    const why = (draft.reasons.get(path) ?? []).join('; ');
    if (entry.origin === undefined) {
      const content = entry.content ?? '';
      writes.set(path, { text: content });
      changes.push({
        kind: 'create',
        path,
        why,
        stub: entry.stub === true,
        diff: unifiedDiff(path, undefined, path, content),
      });
    } else if (entry.origin !== path) {
      const diff =
        entry.content === undefined ? '' : unifiedDiff(entry.origin, original(entry.origin), path, entry.content);
      writes.set(path, entry.content === undefined ? { copyOf: entry.origin } : { text: entry.content });
      changes.push({ kind: 'move', from: entry.origin, to: path, why, ...(diff !== '' ? { diff } : {}) });
    } else if (entry.content !== undefined && entry.content !== original(path)) {
      writes.set(path, { text: entry.content });
      changes.push({ kind: 'edit', path, why, diff: unifiedDiff(path, original(path), path, entry.content) });
    }
  }
  const moved = new Set(draft.moved.keys());
  const deletes = [...moved, ...draft.removed.keys()].filter((p) => !draft.final.has(p)).sort(compareStrings);
  for (const [path, why] of draft.removed) if (!draft.final.has(path)) changes.push({ kind: 'delete', path, why });
  changes.sort((a, b) => compareStrings(changeKey(a), changeKey(b)));
  return {
    changes,
    renames: draft.renames,
    notes: [...draft.notes].sort(compareDiagnostics),
    notesNow: draft.notes
      .map((note) => {
        const source = draft.noteSources.get(note);
        return source === undefined ? note : { ...note, file: source };
      })
      .sort(compareDiagnostics),
    writes,
    deletes,
  };
}

function changeKey(change: Change): string {
  return change.kind === 'move' ? change.from : change.path;
}
