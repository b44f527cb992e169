/**
 * Vitest global setup: the suite's own temporary directory. Trees live in test/tmp (helpers.ts),
 * but what the code under test puts in `os.tmpdir()` — the unit cache of a root without
 * node_modules (`zhin-gen-cache-<uid>/<digest>.json*`, one set per temp tree), the parser's code cache,
 * the schema stage's bundles, npm pack folders — used to stay in /tmp after every run (1.3 GB
 * after a day here). TMPDIR points at a fresh folder for the run; the workers and every process
 * they start inherit it, and it is removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'zhin-gen-suite-'));
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
