/**
 * The data of a migration: what the tree holds (read once, in memory), and the plan built from it.
 * Every construct family (tools, skills, sections, agents, the main agent) proposes its changes as
 * one group, which is accepted whole or refused whole, so a construct is either converted or left
 * exactly as it was (and reported).
 */
import type { Diagnostic, SourceLocation } from '../diagnostics.js';

/** The tree as migrate reads it: POSIX paths relative to the root, sorted; text read on demand. */
export interface SourceTree {
  readonly root: string;
  readonly files: readonly string[];
  has(path: string): boolean;
  /** Whether a directory holds at least one file of the tree. */
  hasDir(dir: string): boolean;
  /**
   * What is at `path` on disk when it is not a file of the tree (`a folder`, `a symbolic link`,
   * `not a regular file`), or undefined: nothing, or a file. Migrate never writes over, into or
   * through such an entry.
   */
  occupant(path: string): string | undefined;
  read(path: string): string;
}

/** What one construct family proposes: accepted together or not at all. */
export interface Group {
  /** Files moved, keeping their content (edits are applied later to the moved text). */
  readonly moves: readonly { readonly from: string; readonly to: string }[];
  /** Files written from scratch, or replaced when `path` is also a source of this group. */
  readonly creates: readonly Creation[];
  /** Source files whose content this group carried into `creates`: they are deleted. */
  readonly removes: readonly string[];
  /** Why, for the plan: one line naming the construct and what it becomes. */
  readonly why: string;
  /** Where the construct is (file:line for the plan). */
  readonly at: SourceLocation;
}

export interface Creation {
  readonly path: string;
  readonly content: string;
  /** A placeholder for a required file the earlier layout had no source for. */
  readonly stub?: boolean;
}

/** A runtime name migrate had to change (the earlier one is invalid in zhin-gen). */
export interface Rename {
  readonly kind: 'tool' | 'skill' | 'agent' | 'prompt-section';
  /** qualifiedNames before and after. */
  readonly from: string;
  readonly to: string;
  readonly at: SourceLocation;
}

/** One entry of the final tree: the original file it came from (none when created) and, once edited, its text. */
export interface FinalFile {
  readonly content?: string;
  readonly origin?: string;
  readonly stub?: boolean;
}

/** One line of the plan: a move, a creation, a deletion or an in-place edit, with its diff. */
export type Change =
  | { readonly kind: 'move'; readonly from: string; readonly to: string; readonly why: string; readonly diff?: string }
  | {
      readonly kind: 'create';
      readonly path: string;
      readonly why: string;
      readonly stub: boolean;
      readonly diff: string;
    }
  | { readonly kind: 'delete'; readonly path: string; readonly why: string }
  | { readonly kind: 'edit'; readonly path: string; readonly why: string; readonly diff: string };

export type Write = { readonly text: string } | { readonly copyOf: string };

export interface Plan {
  readonly changes: readonly Change[];
  readonly renames: readonly Rename[];
  /** ZG6001 (cannot convert), ZG6002 (stub written), ZG6003 (name changed), sorted: located in the tree as --write leaves it. */
  readonly notes: readonly Diagnostic[];
  /** The same notes located in the tree as it is now (the plan, nothing written): a note in a moved module at its source. */
  readonly notesNow: readonly Diagnostic[];
  /** Every path written (new text, or the bytes of an unedited moved file), and the paths deleted: what --write applies. */
  readonly writes: ReadonlyMap<string, Write>;
  readonly deletes: readonly string[];
}
