/**
 * What `check` says about a generated module of the folder beside the manifest that is not what
 * `generate` would write (write/validators.ts `missingValidators` finds them): missing, edited in
 * place (its seal line no longer matches its bytes), or written for another tree (its stamp).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sealProblem } from './seal.js';

export interface GeneratedProblem {
  /** POSIX path relative to the root. */
  readonly path: string;
  /** 1-based line the problem is reported at (the seal line, or 1). */
  readonly line: number;
  readonly reason: string;
}

export function generatedProblems(
  root: string,
  paths: readonly string[],
): { readonly missing: readonly string[]; readonly changed: readonly GeneratedProblem[] } {
  const missing: string[] = [];
  const changed: GeneratedProblem[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, path));
    } catch {
      missing.push(path);
      continue;
    }
    const problem = sealProblem(bytes);
    let lines = 1;
    for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 0x0a) lines++;
    changed.push({
      path,
      line: problem === undefined ? 2 : lines,
      reason:
        problem === undefined
          ? 'generated module is out of date: its stamp (line 2) is not what this tree generates'
          : `generated module differs from what zhin-gen generate writes: ${problem}`,
    });
  }
  return { missing, changed };
}
