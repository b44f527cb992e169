/**
 * `zhin-gen watch` in a child process, as a user runs it (the built CLI), for the tests of
 * test/compiler/watch/: start it, read what it printed, wait for runs, stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../../helpers.js';

let child: ChildProcess | undefined;

/** The watch process last started (undefined once stopped). */
export function watchProcess(): ChildProcess | undefined {
  return child;
}

/** Stops the watch process last started, if it still runs (call in `afterEach`). */
export async function stopWatch(): Promise<void> {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  child = undefined;
}

export function startWatch(root: string, env: NodeJS.ProcessEnv = {}): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'watch', '--root', root], {
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { stdout: () => stdout, stderr: () => stderr };
}

/**
 * Summary lines of runs: the duration is in ms, or in s once a run takes a second (a loaded
 * machine); a run with errors says it kept the last good manifest.
 */
export const runsIn = (stdout: string): number =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('zhin-gen: ') && / in [\d.]+ m?s(?: — last good manifest kept)?$/.test(line))
    .length;

export async function until(check: () => boolean, what: () => string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 30_000) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function waitForText(read: () => string, text: string): Promise<void> {
  await until(
    () => read().includes(text),
    () => `"${text}" in:\n${read()}`,
  );
}

/** `zhin-gen watch` on a tree, once it watches and its first run has reported. */
export async function watchedAfterFirstRun(root: string): Promise<ReturnType<typeof startWatch>> {
  const io = startWatch(root);
  await waitForText(io.stdout, 'watching for changes');
  await until(
    () => runsIn(io.stdout()) === 1,
    () => `the first run:\n${io.stdout()}`,
  );
  return io;
}
