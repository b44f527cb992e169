/**
 * `--write`: every planned file is written with the atomic writer (temp file + rename), so a file
 * is always either as it was or as planned; sources are deleted only after every write
 * succeeded; and if anything fails, every file already written or deleted is put back as it was,
 * so a failed run leaves the tree as it found it.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeAtomically } from '../write/output.js';
import type { Plan } from './types.js';

export interface Applied {
  readonly written: number;
  readonly deleted: number;
}

/** Removes the directories a deletion left empty, up to the root (best effort: they hold nothing). */
function removeEmptyParents(root: string, rel: string): void {
  let dir = dirname(join(root, rel));
  while (dir.length > root.length && dir.startsWith(root)) {
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      // Already gone (a sibling's deletion removed it) or not removable: nothing was in it.
    }
    dir = dirname(dir);
  }
}

export function applyPlan(root: string, plan: Plan): Applied {
  // What every touched path holds now (undefined: nothing), to restore on failure.
  const before = new Map<string, Buffer | undefined>();
  for (const path of [...plan.writes.keys(), ...plan.deletes]) {
    const abs = join(root, path);
    before.set(path, existsSync(abs) ? readFileSync(abs) : undefined);
  }
  const touched: string[] = [];
  try {
    for (const [path, write] of plan.writes) {
      const content = 'text' in write ? write.text : readFileSync(join(root, write.copyOf));
      touched.push(path);
      writeAtomically(join(root, path), content);
    }
    for (const path of plan.deletes) {
      touched.push(path);
      rmSync(join(root, path));
    }
  } catch (error) {
    for (const path of touched.reverse()) {
      const previous = before.get(path);
      if (previous === undefined) {
        rmSync(join(root, path), { force: true });
        removeEmptyParents(root, path);
      } else writeAtomically(join(root, path), previous);
    }
    throw error;
  }
  for (const path of plan.deletes) removeEmptyParents(root, path);
  return { written: plan.writes.size, deleted: plan.deletes.length };
}
