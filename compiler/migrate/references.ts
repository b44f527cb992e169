/**
 * When a tool's runtime name had to change, every `tools:` reference to it — in SKILL.md front
 * matter and in agent.json — is rewritten, and each rename is reported with the places it changed.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { diag, type RelatedLocation } from '../diagnostics.js';
import type { Draft } from './draft.js';
import { sequenceEntries, yamlName } from './markdown.js';
import { applyEdits, lineColumn, type TextEdit } from './source.js';

function agentJsonEntries(text: string): { value: string; start: number; end: number }[] {
  const root = parseTree(text);
  const tools = root ? findNodeAtLocation(root, ['tools']) : undefined;
  if (tools?.type !== 'array') return [];
  return (tools.children ?? [])
    .filter((n) => n.type === 'string')
    .map((n) => ({ value: n.value as string, start: n.offset, end: n.offset + n.length }));
}

export function rewriteReferences(draft: Draft): void {
  const toolRenames = new Map(draft.renames.filter((r) => r.kind === 'tool').map((r) => [r.from, r.to]));
  const places = new Map<string, RelatedLocation[]>();
  if (toolRenames.size > 0) {
    for (const path of draft.final.keys()) {
      const isSkill = path.endsWith('/SKILL.md') || path === 'SKILL.md';
      const isAgent = path.endsWith('/agent.json');
      if (!isSkill && !isAgent) continue;
      const text = draft.text(path);
      const entries = isSkill ? sequenceEntries(text, 'tools') : agentJsonEntries(text);
      const edits: TextEdit[] = [];
      for (const entry of entries) {
        const to = toolRenames.get(entry.value);
        if (to === undefined) continue;
        edits.push({ start: entry.start, end: entry.end, text: isSkill ? yamlName(to) : JSON.stringify(to) });
        const list = places.get(entry.value) ?? [];
        list.push({
          file: path,
          ...lineColumn(text, entry.start),
          message: `\`tools\` entry "${entry.value}" → "${to}"`,
        });
        places.set(entry.value, list);
      }
      if (edits.length > 0) draft.edit(path, applyEdits(text, edits), 'tool references follow the renamed tools');
    }
  }
  for (const rename of draft.renames) {
    const related = rename.kind === 'tool' ? (places.get(rename.from) ?? []) : [];
    draft.notes.push(
      diag('ZG6003', {
        ...rename.at,
        message: `${rename.kind} "${rename.from}" is not a valid zhin-gen name: it becomes "${rename.to}"${related.length > 0 ? ` (${related.length} reference${related.length === 1 ? '' : 's'} rewritten)` : ''}`,
        related,
      }),
    );
  }
}
