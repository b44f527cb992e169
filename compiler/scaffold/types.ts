/**
 * What a scaffold is: files to create, relative to a root. `zhin-gen init` and `zhin-gen new`
 * both produce a plan of these and hand it to `writeScaffold`, which never replaces a file.
 */

/** One file a scaffold creates. `path` is POSIX and relative to the root. */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
}

export type ScaffoldPlan = readonly ScaffoldFile[];

/** What `writeScaffold` did with each file of a plan. */
export interface ScaffoldReport {
  /** Created by this run. */
  readonly written: readonly string[];
  /** Already there (a file, a directory, anything): left exactly as it was. */
  readonly skipped: readonly string[];
  /** Could not be created (a parent is a file, no permission): path and reason. */
  readonly failed: readonly { readonly path: string; readonly reason: string }[];
}
