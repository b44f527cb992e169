/**
 * Layout rule family for imports (docs/authoring.md): a capability's entry may import modules in its own
 * directory and in its enclosing skill or agent root (shared handlers), but not climb into plugin
 * internals such as `src/`. Reported as a warning naming the import.
 */
import { posix } from 'node:path';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';

export function checkUpwardImports(
  entry: string,
  capabilityDir: string,
  /** Directories whose files the entry may share (the enclosing skill / agent roots). */
  allowedRoots: readonly string[],
  imports: readonly { specifier: string; loc: SourceLocation }[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const from = posix.dirname(entry);
  for (const imp of imports) {
    const target = posix.normalize(posix.join(from, imp.specifier));
    const inside = (dir: string): boolean => target === dir || target.startsWith(`${dir}/`);
    if (inside(capabilityDir) || allowedRoots.some(inside)) continue;
    out.push(
      diag('ZG1007', {
        ...imp.loc,
        message: `${entry} imports "${imp.specifier}" (${target}), outside its capability directory ${capabilityDir}/`,
      }),
    );
  }
  return out;
}
