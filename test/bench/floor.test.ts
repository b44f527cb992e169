/**
 * The bench's floor (bench/children/floor.mjs) measures the tree's own files: the same files and
 * bytes before and after `zhin-gen generate` writes its output into the tree. It used to walk
 * into the generated folder and parse the shards, which at 5,000 tools are more TypeScript than
 * the sources, so every ratio to it was flattered once a tree had its output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTree } from '../../bench/gen-tree.js';
import { cli, REPO, removeDir, tempDir } from '../helpers.js';

interface FloorReport {
  readonly files: number;
  readonly bytes: number;
  readonly faults: number;
  readonly workMs: number;
}

function floor(root: string, mode?: '--read-only' | '--stat-only'): FloorReport {
  const args = [join(REPO, 'bench', 'children', 'floor.mjs'), ...(mode ? [mode] : []), root];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as FloorReport;
}

describe('bench floor', () => {
  const root = tempDir('bench-floor');
  afterAll(() => removeDir(root));

  it('walks the same files with or without the generated output, in every variant', () => {
    // Over 64 tools: the tool table goes to shards in the generated folder.
    generateTree(120, root);
    const before = { parse: floor(root), read: floor(root, '--read-only'), stat: floor(root, '--stat-only') };
    expect(before.parse.files).toBeGreaterThan(120);
    expect(before.read.files).toBe(before.parse.files);
    expect(before.stat.files).toBe(before.parse.files);

    const generated = cli(['generate', '--root', root]);
    expect(generated.status, generated.stderr).toBe(0);
    expect(existsSync(join(root, 'zhin-capabilities.gen.validators'))).toBe(true);

    const after = { parse: floor(root), read: floor(root, '--read-only'), stat: floor(root, '--stat-only') };
    for (const mode of ['parse', 'read', 'stat'] as const) {
      expect(after[mode].files, mode).toBe(before[mode].files);
      expect(after[mode].bytes, mode).toBe(before[mode].bytes);
      // Each child reports the pages it touched (bench/process.ts reads them).
      expect(after[mode].faults, mode).toBeGreaterThan(0);
    }
  });

  it('prices a first-touch page fault', () => {
    const run = spawnSync(process.execPath, [join(REPO, 'bench', 'children', 'faults.mjs')], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const { msPer1kFaults, faults } = JSON.parse(run.stdout) as { msPer1kFaults: number; faults: number };
    // 64 MB of fresh pages, each touched first once: between one fault per 2 MB huge page and
    // one per 4 KB page, with room for what the process touches besides (V8, the timers).
    expect(faults).toBeGreaterThanOrEqual((64 * 2 ** 20) / 2 ** 21);
    expect(faults).toBeLessThanOrEqual((2 * (64 * 2 ** 20)) / 4096);
    expect(Number.isFinite(msPer1kFaults)).toBe(true);
  });
});
