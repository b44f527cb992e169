/**
 * Reads the tree migrate works on: every file below the root (all folders, `src/` included, since
 * imports into it are rewritten), without `node_modules`, dot entries, editor artifacts, symbolic
 * links, build output and zhin-gen's own generated files.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareStrings } from '../diagnostics.js';
import { isIgnoredEntry } from '../scan/ignore.js';
import type { SourceTree } from './types.js';

const SKIPPED_DIRECTORIES = new Set(['dist']);

function isGenerated(name: string): boolean {
  return name.endsWith('.gen.ts') || name.endsWith('.gen.validators');
}

export function readTree(root: string): SourceTree {
  const files: string[] = [];
  /** Entries that are not files of the tree, so that no write goes over, into or through them. */
  const occupants = new Map<string, string>();
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (isIgnoredEntry(entry.name) || isGenerated(entry.name)) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      // Links are never followed: migrate moves files, and a linked file is not the tree's to move.
      if (lstatSync(join(abs, entry.name)).isSymbolicLink()) {
        occupants.set(path, 'a symbolic link');
        continue;
      }
      if (entry.isDirectory()) {
        occupants.set(path, 'a folder');
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(join(abs, entry.name), path);
      } else if (entry.isFile()) files.push(path);
      else occupants.set(path, 'not a regular file');
    }
  };
  walk(root, '');
  files.sort(compareStrings);
  const set = new Set(files);
  const dirs = new Set<string>();
  for (const file of files) {
    for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) dirs.add(file.slice(0, i));
  }
  const cache = new Map<string, string>();
  return {
    root,
    files,
    has: (path) => set.has(path),
    hasDir: (dir) => dirs.has(dir),
    occupant: (path) => occupants.get(path),
    read(path) {
      let text = cache.get(path);
      if (text === undefined) {
        text = readFileSync(join(root, path), 'utf8');
        cache.set(path, text);
      }
      return text;
    },
  };
}

/** The plugin directories of the tree: the root and every `plugins/<key>/`, recursively. */
export function pluginDirs(tree: SourceTree): string[] {
  const found = new Set<string>(['']);
  for (const file of tree.files) {
    const segments = file.split('/');
    for (let i = 0; i + 2 < segments.length; i++) {
      if (segments[i] !== 'plugins') continue;
      const parent = segments.slice(0, i).join('/');
      if (found.has(parent)) found.add(segments.slice(0, i + 2).join('/'));
    }
  }
  return [...found].sort(compareStrings);
}

export function join2(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** Direct children of a directory: files (names) and directories (names). */
export function childrenOf(tree: SourceTree, dir: string): { files: string[]; dirs: string[] } {
  const prefix = dir === '' ? '' : `${dir}/`;
  const files: string[] = [];
  const dirs = new Set<string>();
  for (const file of tree.files) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === -1) files.push(rest);
    else dirs.add(rest.slice(0, slash));
  }
  return { files, dirs: [...dirs].sort(compareStrings) };
}

/** Every file below a directory (relative to the root). */
export function filesBelow(tree: SourceTree, dir: string): string[] {
  const prefix = `${dir}/`;
  return tree.files.filter((f) => f.startsWith(prefix));
}
