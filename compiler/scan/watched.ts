/**
 * Which paths a watcher needs to see: exactly those a fresh walk can list (scan/walk.ts). At a
 * plugin's level (the root, each `plugins/<key>/`) the walk enters only the convention folders
 * and `plugins/`, and lists only root files (AGENTS.md, the entry, config files); everything
 * inside a convention folder is walked. A `src/` or `docs/` beside them, however large, can never
 * change the manifest, so it is not watched (each watched directory and file costs one of the
 * system's inotify watches; a 20,000-tool bot has ~90,000 paths).
 */
import { isAbsolute, relative, sep } from 'node:path';
import { isIgnoredPath } from './ignore.js';
import { CONVENTION_FOLDERS, isGroupingCandidate, toPosix } from './walk.js';

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
    // Beside a child plugin's conventions, a folder is listed for its plugin entry (scan/walk.ts
    // `probe`): it and the files directly in it are seen (the compiler keeps the entries only).
    if (i > 0 && isGroupingCandidate(name))
      return i + 2 < segments.length || (i + 1 < segments.length && isDir === true);
    // Any other entry at a plugin's level: a root file is listed, a directory is not entered.
    return !last || (isDir ?? !name.includes('.'));
  }
  return false;
}

/**
 * Whether an absolute path lies where a fresh walk never looks, given the root and the configured
 * plugin directories inside it (POSIX, relative): beside the convention folders of a plugin, and
 * not a configured plugin directory or on the way to one. Outside the root: false (the caller
 * decides about those).
 */
export function outsideWalkOf(
  root: string,
  configured: readonly string[],
  abs: string,
  isDir: boolean | undefined,
): boolean {
  const rel = relativePosix(root, abs);
  if (rel === '' || rel.startsWith('../') || isAbsolute(rel)) return false;
  for (const dir of configured) if (rel === dir || rel.startsWith(`${dir}/`) || dir.startsWith(`${rel}/`)) return false;
  return outsideWalk(rel, isDir);
}

/**
 * Whether a watch event for an absolute path can never matter: outside the root, ignored entries
 * (scan/ignore.ts: dot files, node_modules, editor swap/backup files), and the output with its
 * temp files and its generated folder (`outFile` and `generatedDir` once the configuration is known).
 */
export function ignoredEvent(
  root: string,
  output: { readonly outFile: string; readonly generatedDir: string } | undefined,
  abs: string,
): boolean {
  const rel = relativePosix(root, abs);
  if (rel === '' || rel.startsWith('../') || rel === '..' || isAbsolute(rel)) return true;
  if (output && (abs === output.outFile || abs.startsWith(`${output.outFile}.`))) return true;
  if (output && (abs + sep).startsWith(output.generatedDir + sep)) return true;
  return isIgnoredPath(rel);
}

function relativePosix(root: string, abs: string): string {
  return toPosix(relative(root, abs));
}
