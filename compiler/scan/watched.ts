/**
 * Which paths a watcher needs to see: exactly those a fresh walk can list (scan/walk.ts). At a
 * plugin's level (the root, each `plugins/<key>/`) the walk enters only the convention folders
 * and `plugins/`, and lists only root files (AGENTS.md, the entry, config files); everything
 * inside a convention folder is walked. A `src/` or `docs/` beside them, however large, can never
 * change the manifest, so it is not watched (each watched directory and file costs one of the
 * system's inotify watches; a 20,000-tool bot has ~90,000 paths).
 */
import { CONVENTION_FOLDERS } from './walk.js';

const ENTERED: ReadonlySet<string> = new Set<string>(CONVENTION_FOLDERS);

/**
 * Whether a POSIX path relative to the root lies outside what the walk enters. `isDir`:
 * whether the path is a directory, when the caller knows; when it does not, a name without a dot
 * at a plugin's level is taken for a directory (root files all have an extension: AGENTS.md,
 * index.ts, package.json, zhin-gen.config.ts).
 */
export function outsideWalk(rel: string, isDir: boolean | undefined): boolean {
  if (rel === '') return false;
  const segments = rel.split('/');
  let i = 0;
  while (i < segments.length) {
    const name = segments[i]!;
    const last = i === segments.length - 1;
    if (ENTERED.has(name)) return false;
    if (name === 'plugins') {
      // plugins/ itself, and plugins/<key> (a child plugin, or a stray file the layout reports).
      if (i + 1 >= segments.length - 1) return false;
      i += 2;
      continue;
    }
    // Any other entry at a plugin's level: a root file is listed, a directory is not entered.
    return !last || (isDir ?? !name.includes('.'));
  }
  return false;
}
