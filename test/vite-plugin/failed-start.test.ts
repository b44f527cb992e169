/**
 * vite-plugin/failed-start.ts: after a watch-mode build that failed at its start, the bundler is
 * told to watch the errors' files and the manifest, and the first clean side-watcher run that
 * wrote nothing moves the manifest's mtime (the bundler's only way to hear of the fix). The whole
 * path through Rollup's watcher is in watch.test.ts.
 */
import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompileResult } from '../../compiler/index.js';
import { FailedStart } from '../../vite-plugin/failed-start.js';
import { removeDir, tempDir } from '../helpers.js';

const dir = tempDir('failed-start');
afterAll(() => removeDir(dir));

const run = (errors: number, written: boolean): CompileResult =>
  ({
    errors,
    written,
    diagnostics:
      errors > 0
        ? [{ code: 'ZG2006', severity: 'error', file: 'tools/echo/index.ts', line: 3, column: 1, message: 'x' }]
        : [],
  }) as unknown as CompileResult;

describe('FailedStart', () => {
  const outFile = join(dir, 'zhin-capabilities.gen.ts');
  const past = new Date('2020-01-01T00:00:00Z');
  const reset = () => {
    writeFileSync(outFile, '// manifest\n');
    utimesSync(outFile, past, past);
  };
  const moved = () => statSync(outFile).mtimeMs > past.getTime();

  it('asks the bundler to watch the files of the errors and the manifest', () => {
    const watched: string[] = [];
    new FailedStart().failedWith({ addWatchFile: (id) => watched.push(id) }, dir, outFile, run(1, false));
    expect(watched).toEqual([join(dir, 'tools/echo/index.ts'), outFile]);
  });

  it('moves the manifest mtime once, on the first clean run that wrote nothing after a failed start', () => {
    reset();
    const failed = new FailedStart();
    failed.sideRun(run(0, false), outFile);
    expect(moved(), 'no failed start: nothing touched').toBe(false);
    failed.failedWith({}, dir, outFile, run(1, false));
    failed.sideRun(run(1, false), outFile);
    expect(moved(), 'still failing').toBe(false);
    failed.sideRun(run(0, false), outFile);
    expect(moved()).toBe(true);
    reset();
    failed.sideRun(run(0, false), outFile);
    expect(moved(), 'only once').toBe(false);
  });

  it('leaves a manifest the clean run wrote, and forgets the failure once a build started', () => {
    reset();
    const failed = new FailedStart();
    failed.failedWith({}, dir, outFile, run(1, false));
    failed.sideRun(run(0, true), outFile);
    expect(moved()).toBe(false);
    failed.failedWith({}, dir, outFile, run(1, false));
    failed.started();
    failed.sideRun(run(0, false), outFile);
    expect(moved()).toBe(false);
  });
});
