/**
 * The plan under construction: the final tree (every path with the file it came from and, once
 * edited, its new text), the groups accepted so far and the notes. A group that would overwrite a
 * file, or take a file another group already took, is refused whole and reported (ZG6001), so
 * nothing is ever lost and a construct is converted completely or not at all.
 */
import { diag, type Diagnostic, type DiagnosticCode, type SourceLocation } from '../diagnostics.js';
import type { FinalFile, Group, Rename, SourceTree } from './types.js';

export class Draft {
  /** Final path → entry. Starts as the tree itself. */
  readonly final = new Map<string, FinalFile>();
  /** Original path → final path, for every moved file. */
  readonly moved = new Map<string, string>();
  /** Original paths deleted because their content was carried elsewhere, with the reason. */
  readonly removed = new Map<string, string>();
  /** Final path → why it is there (the group's reason), and the edits made to it. */
  readonly reasons = new Map<string, string[]>();
  readonly notes: Diagnostic[] = [];
  readonly renames: Rename[] = [];

  constructor(readonly tree: SourceTree) {
    for (const file of tree.files) this.final.set(file, { origin: file });
  }

  /** The current text of a final path. */
  text(path: string): string {
    const entry = this.final.get(path);
    if (!entry) throw new Error(`no file ${path} in the plan`);
    return entry.content ?? this.tree.read(entry.origin!);
  }

  /** Whether a final path is free for a new file. */
  isFree(path: string): boolean {
    return !this.final.has(path);
  }

  /** Whether an original file is still where it was and untouched by any group. */
  isUntouched(path: string): boolean {
    const entry = this.final.get(path);
    return entry !== undefined && entry.origin === path && entry.content === undefined;
  }

  /** Notes located in a moved module's text as it was: the source they are at before --write. */
  readonly noteSources = new Map<Diagnostic, string>();

  note(code: DiagnosticCode, at: SourceLocation, message: string, hint?: string): Diagnostic {
    const note = diag(code, { ...at, message, ...(hint ? { hint } : {}) });
    this.notes.push(note);
    return note;
  }

  /**
   * The source a moved module's note is at before --write: its original path, when the note's
   * line reads the same there (a move keeps the text; the import rewrite changes only the lines
   * of the imports it rewrote), else undefined (the note stays at the new path).
   */
  sourceOf(path: string, text: string, line: number): string | undefined {
    const origin = this.final.get(path)?.origin;
    if (origin === undefined || origin === path) return undefined;
    const before = this.tree.read(origin).split('\n');
    const now = text.split('\n');
    return before.length === now.length && before[line - 1] === now[line - 1] ? origin : undefined;
  }

  /** Accepts the group, or refuses it (reported) when a target is taken or a source is gone. */
  accept(group: Group): boolean {
    const leaving = new Set([...group.moves.map((m) => m.from), ...group.removes]);
    const targets = new Set<string>();
    const problem = (): string | undefined => {
      for (const source of leaving) if (!this.isUntouched(source)) return `${source} is already part of another change`;
      for (const target of [...group.moves.map((m) => m.to), ...group.creates.map((c) => c.path)]) {
        if (targets.has(target)) return `two files would be written to ${target}`;
        targets.add(target);
        if (this.final.has(target) && !leaving.has(target)) return `${target} exists already`;
        const blocked = this.blocked(target);
        if (blocked !== undefined) return blocked;
      }
      return undefined;
    };
    const why = problem();
    if (why !== undefined) {
      this.note('ZG6001', group.at, `${group.why}: not converted, ${why}`);
      return false;
    }
    for (const { from } of group.moves) this.final.delete(from);
    for (const path of group.removes) {
      this.final.delete(path);
      this.removed.set(path, group.why);
    }
    for (const { from, to } of group.moves) {
      this.final.set(to, { origin: from });
      this.moved.set(from, to);
      this.reasons.set(to, [group.why]);
    }
    for (const creation of group.creates) {
      this.final.set(creation.path, { content: creation.content, ...(creation.stub ? { stub: true } : {}) });
      this.reasons.set(creation.path, [group.why]);
    }
    return true;
  }

  /**
   * Moves one file of the final tree once more, where it came from kept: a file another group
   * moved to a place it cannot stay (a flat tool file a skill's move carried into
   * `skills/<s>/tools/`), or one still where it was. Refused and reported (ZG6001) as a group is,
   * when something is at the target; the file then stays where it is in the plan.
   */
  relocate(from: string, to: string, why: string, at: SourceLocation): boolean {
    const entry = this.final.get(from);
    if (!entry) throw new Error(`no file ${from} in the plan`);
    const problem = this.final.has(to) ? `${to} exists already` : this.blocked(to);
    if (problem !== undefined) {
      const note = this.note('ZG6001', at, `${why}: not converted, ${problem}`);
      // Before --write the file is at its source.
      if (entry.origin !== undefined && entry.origin !== at.file) this.noteSources.set(note, entry.origin);
      return false;
    }
    this.final.delete(from);
    this.final.set(to, entry);
    if (entry.origin !== undefined) this.moved.set(entry.origin, to);
    this.reasons.set(to, [...(this.reasons.get(from) ?? []), why]);
    this.reasons.delete(from);
    return true;
  }

  /**
   * Why a file cannot be written at `target` on disk: a folder, link or special file is there, or
   * one of its parents is a file, a link or a special file (a write would fail half-way, or go
   * through the link out of the tree).
   */
  private blocked(target: string): string | undefined {
    const occupant = this.tree.occupant(target);
    if (occupant !== undefined) return `${target} is ${occupant} in the tree`;
    for (let i = target.indexOf('/'); i !== -1; i = target.indexOf('/', i + 1)) {
      const parent = target.slice(0, i);
      if (this.final.has(parent) || this.tree.has(parent)) return `${parent} is a file, where ${target} needs a folder`;
      const kind = this.tree.occupant(parent);
      if (kind !== undefined && kind !== 'a folder') return `${parent} is ${kind}, where ${target} needs a folder`;
    }
    return undefined;
  }

  /** Replaces the text of a final path (no-op when equal), recording why. */
  edit(path: string, content: string, why: string): void {
    const entry = this.final.get(path);
    if (!entry || content === this.text(path)) return;
    this.final.set(path, { ...entry, content });
    const reasons = this.reasons.get(path) ?? [];
    if (!reasons.includes(why)) reasons.push(why);
    this.reasons.set(path, reasons);
  }

  /** Where an original file ended up (itself when it did not move, undefined when deleted). */
  whereIs(original: string): string | undefined {
    const moved = this.moved.get(original);
    if (moved !== undefined) return moved;
    return this.final.get(original)?.origin === original ? original : undefined;
  }
}
