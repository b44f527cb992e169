/**
 * Vitest global setup: the suite must leave the source tree as it found it (tests are hermetic:
 * they work in test/tmp and never write beside the sources, the fixtures or the docs). Every
 * file outside the git-ignored work areas is listed with its size and mtime before the run; after
 * it, any file added, removed or changed fails the run with the list.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** Work areas: installs, build output, scratch space of the tests and benches, git itself. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'runtime/dist', 'test/tmp', 'bench/trees']);

function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      const rel = relative(REPO, abs).split('\\').join('/');
      if (SKIPPED.has(rel) || entry.name === 'node_modules') continue;
      if (entry.isDirectory()) visit(abs);
      else if (entry.isFile()) {
        const stat = statSync(abs);
        files.set(rel, `${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  visit(REPO);
  return files;
}

export default function setup(): (() => void) | undefined {
  // `npm test` (what CI runs) guards the tree; a single file run with `npx vitest` does not, so
  // editing sources while a test runs is no failure.
  if (process.env.npm_lifecycle_event !== 'test' && !process.env.ZHIN_GEN_SOURCE_GUARD) return undefined;
  const before = snapshot();
  return () => {
    const after = snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((file) => before.get(file) !== after.get(file))
      .sort();
    if (changed.length === 0) return;
    const list = changed
      .map((f) => `  ${before.has(f) ? (after.has(f) ? 'changed' : 'removed') : 'added'}  ${f}`)
      .join('\n');
    // A throw here is only logged by vitest ("error during close"); the exit code is what CI reads.
    console.error(`\nFAIL  the test run changed the source tree (tests must work in temp dirs only):\n${list}\n`);
    process.exitCode = 1;
  };
}
