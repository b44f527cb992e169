/**
 * The plan for people (one line per change with file:line and why, then the notes — what cannot
 * be converted, stubs, changed names — then every diff) and for machines (`--json`).
 */
import { formatPretty, type Palette, toJsonDiagnostics } from '../report/index.js';
import type { Change, Plan } from './types.js';

/** The first line a diff changes in the old file (1 for a new file or a pure move). */
function firstLine(diff: string | undefined): number {
  const match = diff ? /^@@ -(\d+)/m.exec(diff) : null;
  return match ? Math.max(1, Number(match[1])) : 1;
}

function changeLine(change: Change): string {
  switch (change.kind) {
    case 'move':
      return `  move    ${change.from}:1 -> ${change.to}\n          ${change.why}`;
    case 'create':
      return `  create  ${change.path}${change.stub ? '  [STUB: write it by hand]' : ''}\n          ${change.why}`;
    case 'delete':
      return `  delete  ${change.path}:1\n          content carried over: ${change.why}`;
    case 'edit':
      return `  edit    ${change.path}:${firstLine(change.diff)}\n          ${change.why}`;
  }
}

function diffOf(change: Change): string {
  return change.kind === 'delete' ? '' : (change.diff ?? '');
}

export function formatPlan(plan: Plan, colors: Palette, write: boolean): string {
  const lines: string[] = [];
  const count = plan.changes.length;
  if (count === 0 && plan.notes.length === 0)
    return "zhin-gen migrate: nothing to migrate (the tree is in zhin-gen's layout)";
  lines.push(
    `zhin-gen migrate: ${count} change${count === 1 ? '' : 's'}${write ? '' : ' planned (nothing written; zhin-gen migrate --write applies them)'}`,
  );
  if (count > 0) lines.push('', ...plan.changes.map(changeLine));
  if (plan.notes.length > 0) {
    const cannot = plan.notes.filter((n) => n.code === 'ZG6001').length;
    const stubs = plan.notes.filter((n) => n.code === 'ZG6002').length;
    const renamed = plan.notes.filter((n) => n.code === 'ZG6003').length;
    lines.push('', `Cannot convert: ${cannot}. Stubs to write by hand: ${stubs}. Runtime names changed: ${renamed}.`);
    lines.push(formatPretty(plan.notes, colors));
  }
  const diffs = plan.changes.map(diffOf).filter((d) => d !== '');
  if (diffs.length > 0) lines.push('', 'Diffs:', diffs.join('').replace(/\n$/, ''));
  return lines.join('\n');
}

export function planJson(plan: Plan): object {
  return {
    changes: plan.changes,
    renames: plan.renames,
    notes: toJsonDiagnostics(plan.notes),
  };
}
