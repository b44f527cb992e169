/**
 * Name rule family for the whole tree: duplicates per kind, case-folded collisions, reserved
 * and provider-unsafe names. Linear: one map per kind; each participant is reported, naming the
 * first few others (LISTED).
 */
import { compareStrings, diag, type Diagnostic, type DiagnosticCode, type SourceLocation } from '../diagnostics.js';
import { RESERVED_TOOL_NAMES, foldName, providerSafeProblem, reservedToolName } from '@zhin-gen/runtime/names';

export interface NamedEntry {
  readonly name: string;
  readonly loc: SourceLocation;
  /** Human description of where it comes from, e.g. "tool tools/echo/index.ts". */
  readonly origin: string;
  /** `foldName(name)`, when the caller keeps it (a tool's entry is memoised per model). */
  readonly folded?: string;
}

/**
 * How many participants of one clash a diagnostic names (in its message and its related
 * locations). Every participant still gets its own diagnostic at its own place; naming all N in
 * each made the output N² (2,000 agents sharing a private skill's tool: 250 MB, then a crash).
 */
export const LISTED = 10;

/** The first {@link LISTED} of a clash's participants. */
export function firstOf<T>(items: readonly T[]): readonly T[] {
  return items.length > LISTED ? items.slice(0, LISTED) : items;
}

/** Names or places joined for a message, the ones past {@link LISTED} counted instead. */
export function listed(items: readonly string[]): string {
  return items.length > LISTED
    ? `${items.slice(0, LISTED).join(', ')} and ${items.length - LISTED} more`
    : items.join(', ');
}

function sortedLocs(entries: readonly NamedEntry[]): NamedEntry[] {
  return [...entries].sort(
    (a, b) => compareStrings(a.loc.file, b.loc.file) || a.loc.line - b.loc.line || a.loc.column - b.loc.column,
  );
}

/**
 * Reports exact duplicates (`dupCode`) and, separately, names that differ only in letter case
 * (ZG3002), so an exact clash is never hidden behind a case variant of it.
 */
export function findConflicts(kind: string, entries: readonly NamedEntry[], dupCode: DiagnosticCode): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byFolded = new Map<string, NamedEntry[]>();
  for (const entry of entries) {
    const key = entry.folded ?? foldName(entry.name);
    const list = byFolded.get(key);
    if (list) list.push(entry);
    else byFolded.set(key, [entry]);
  }
  const where = (s: NamedEntry): string => `${s.origin} (${s.loc.file}:${s.loc.line})`;
  // The first LISTED + 1 of a group, once: each participant's related places are those without
  // itself (a per-participant pass over the whole group was quadratic: 75 s at 20,000).
  const related = (head: readonly NamedEntry[], entry: NamedEntry) =>
    firstOf(head.filter((o) => o !== entry)).map((o) => ({
      file: o.loc.file,
      line: o.loc.line,
      column: o.loc.column,
      message: `also declared here (${o.origin})`,
    }));
  const headOf = (group: readonly NamedEntry[]) => group.slice(0, LISTED + 1);
  for (const group of byFolded.values()) {
    if (group.length < 2) continue;
    const sorted = sortedLocs(group);
    const exactNames = [...new Set(sorted.map((s) => s.name))].sort(compareStrings);
    for (const name of exactNames) {
      const same = sorted.filter((s) => s.name === name);
      if (same.length < 2) continue;
      const message = `${kind} name "${name}" is declared ${same.length} times: ${listed(same.map(where))}`;
      const head = headOf(same);
      for (const entry of same) out.push(diag(dupCode, { ...entry.loc, message, related: related(head, entry) }));
    }
    if (exactNames.length < 2) continue;
    const message = `${kind} names ${listed(exactNames.map((n) => `"${n}"`))} collide after case folding: ${listed(sorted.map(where))}`;
    const head = headOf(sorted);
    for (const entry of sorted) out.push(diag('ZG3002', { ...entry.loc, message, related: related(head, entry) }));
  }
  return out;
}

/** Reserved names (compared case-folded, as the runtime does) and the provider-safe pattern, for tools. */
export function checkToolNames(entries: readonly NamedEntry[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const entry of entries) {
    // Folded once per entry: only a name that folds to a reserved one asks which.
    const folded = entry.folded ?? foldName(entry.name);
    const reserved = RESERVED_TOOL_NAMES.includes(folded) ? reservedToolName(entry.name) : undefined;
    const unsafe = providerSafeProblem(entry.name);
    if (reserved !== undefined) {
      const how = reserved === entry.name ? '' : `: it equals "${reserved}" after case folding`;
      out.push(
        diag('ZG3003', {
          ...entry.loc,
          message: `Tool name "${entry.name}" is reserved by the runtime${how} (${RESERVED_TOOL_NAMES.join(', ')})`,
        }),
      );
    } else if (unsafe) {
      out.push(
        diag('ZG3004', {
          ...entry.loc,
          message: `Tool name "${entry.name}" (${entry.name.length} characters) ${unsafe.message}`,
        }),
      );
    }
  }
  return out;
}
