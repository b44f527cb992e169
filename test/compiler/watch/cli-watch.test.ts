/**
 * `zhin-gen watch` as a user runs it (the built CLI in a child process) through every kind of
 * save editors and tools make: see test/watch-scenarios.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir, writeTree } from '../../helpers.js';
import { runWatchScenario, SCENARIO_TREE } from '../../watch-scenarios.js';

let child: ChildProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
  dirs.splice(0).forEach(removeDir);
});

function startWatch(root: string, env: NodeJS.ProcessEnv = {}): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'watch', '--root', root], {
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { stdout: () => stdout, stderr: () => stderr };
}

async function waitForText(read: () => string, text: string): Promise<void> {
  const started = Date.now();
  while (!read().includes(text)) {
    if (Date.now() - started > 30_000) throw new Error(`timed out waiting for "${text}" in:\n${read()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('zhin-gen watch', () => {
  it('keeps the manifest equal to a fresh generate through in-place, rename-over, delete, rename, copy, bulk and editor-file changes', async () => {
    const root = writeTree(tempDir('cli-watch'), { 'AGENTS.md': '# Bot\n\nBe helpful.\n', ...SCENARIO_TREE });
    dirs.push(root);
    const io = startWatch(root);
    await waitForText(io.stdout, 'watching for changes');
    await runWatchScenario(root, {
      runs: () =>
        io
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('zhin-gen: ') && line.includes(' in ') && line.endsWith(' ms')).length,
      output: () => io.stdout() + io.stderr(),
    });
    expect(io.stderr()).not.toMatch(/at .+\.js:\d+|ZG9001/);
  });

  it('stops cleanly on SIGTERM', async () => {
    const root = writeTree(tempDir('cli-watch-stop'), SCENARIO_TREE);
    dirs.push(root);
    const io = startWatch(root);
    await waitForText(io.stdout, 'watching for changes');
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(io.stderr()).toBe('');
  });

  it.each([
    ['ENOSPC', 'fs.inotify.max_user_watches'],
    ['EMFILE', 'ulimit -n'],
  ])('an exhausted watcher (%s) is an error naming the fix, and watch exits 1', async (code, fix) => {
    const root = writeTree(tempDir('cli-watch-limit'), SCENARIO_TREE);
    dirs.push(root);
    // The real watcher's own error event carries the error the system would raise.
    const io = startWatch(root, { ZHIN_GEN_WATCH_FAULT: code });
    const exited = await new Promise<number | null>((r) => child!.once('exit', (status) => r(status)));
    expect(exited).toBe(1);
    expect(io.stderr()).toContain(`zhin-gen: error: file watching stopped`);
    expect(io.stderr()).toContain(`(${code}) while watching ${root}`);
    expect(io.stderr()).toContain(fix);
    expect(io.stderr()).not.toMatch(/\n\s+at |ZG9001/);
    expect(io.stdout()).not.toContain('watching for changes');
  });
});
