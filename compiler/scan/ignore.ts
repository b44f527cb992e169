/**
 * Which directory entries are never part of the tree: one rule for the walk (a fresh
 * `generate`) and for every watch mode, so a watcher can never hold a file in its inventory
 * that a fresh run would not see, nor miss one it would.
 *
 * Editors leave files beside the ones they save: vim's `.name.swp` / `.swx` / `4913` probe and
 * `name~` backups, Emacs' `#name#` and `.#name` lock links, JetBrains' `name___jb_tmp___` /
 * `___jb_old___` safe-write copies, and `*.tmp` files of tools that write a temp file and rename
 * it over the original (zhin-gen's own atomic writes among them). They come and go within a
 * save; treating them as helper files would make a tool's file list, and with it its cache
 * entry and any "stray file" diagnostic, depend on when a run happened to look.
 */

/** Directories never walked or watched, whatever their depth. */
const IGNORED_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', '.git']);

const EDITOR_ARTIFACT = /(?:~|\.sw[a-px]|\.tmp|___jb_(?:tmp|old)___)$|^#.*#$|^4913$/;

/** Whether an entry name (one path segment) is left out of the inventory. */
export function isIgnoredEntry(name: string): boolean {
  return name.startsWith('.') || IGNORED_DIRECTORIES.has(name) || EDITOR_ARTIFACT.test(name);
}

/** Whether any segment of a POSIX relative path is ignored. */
export function isIgnoredPath(rel: string): boolean {
  let start = 0;
  for (;;) {
    const end = rel.indexOf('/', start);
    const segment = end === -1 ? rel.slice(start) : rel.slice(start, end);
    if (segment !== '' && isIgnoredEntry(segment)) return true;
    if (end === -1) return false;
    start = end + 1;
  }
}
