/**
 * A run killed between writing a temp file and renaming it into place (SIGKILL: no `catch`
 * runs) leaves the temp file behind; the next run that writes into that folder removes it
 * (write/temp-files.ts), and never a file it does not own or a write still in flight. The kill is
 * real: a preload makes the CLI SIGKILL itself right before the rename onto a chosen target.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStaleTemp } from '../../../compiler/write/temp-files.js';
import { REPO, copyFixture, removeDir, settleTree, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A preload that SIGKILLs the process right before its first rename onto a path matching `target`. */
function killBeforeRename(work: string, target: RegExp): string {
  const preload = join(work, 'kill-before-rename.mjs');
  writeFileSync(
    preload,
    `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const rename = fs.renameSync;
fs.renameSync = (from, to) => {
  if (${target}.test(String(to))) process.kill(process.pid, 'SIGKILL');
  rename(from, to);
};
syncBuiltinESMExports();
`,
  );
  return preload;
}

function generate(root: string, preload?: string): { status: number | null; signal: string | null; stdout: string } {
  const run = spawnSync(
    process.execPath,
    [...(preload ? ['--import', preload] : []), join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  return { status: run.status, signal: run.signal, stdout: run.stdout };
}

const temps = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

/** Dates a temp file back past the settling time (a kill a few seconds ago, without waiting for it). */
function age(dir: string, name: string, seconds: number): string {
  const [target, pid, time] = /^(.+)\.(\d+)\.([0-9a-z]+)\.tmp$/.exec(name)!.slice(1);
  const older = `${target}.${pid}.${(Number.parseInt(time!, 36) - seconds * 1000).toString(36)}.tmp`;
  const file = join(dir, older);
  writeFileSync(file, readFileSync(join(dir, name)));
  const when = new Date(Date.now() - seconds * 1000);
  utimesSync(file, when, when);
  removeDir(join(dir, name));
  return older;
}

describe("a killed run's temp files", () => {
  it('are removed by the next run that writes beside them: the manifest, a generated module, the unit cache', () => {
    const root = copyFixture('example-bot', 'temp-files');
    const work = tempDir('temp-files-preload');
    dirs.push(root, work);
    const folder = join(root, 'zhin-capabilities.gen.validators');
    const cache = join(root, 'node_modules', '.cache', 'zhin-gen');
    writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
    // An empty node_modules: the unit cache goes to node_modules/.cache/zhin-gen, inside the tree.
    mkdirSync(join(root, 'node_modules'));
    expect(generate(root).status).toBe(0);
    const echo = join(root, 'tools/echo/index.ts');
    const edit = (text: string): void => {
      writeFileSync(echo, readFileSync(echo, 'utf8').replace(/Echo a message back[^']*/, text));
      settleTree(root);
    };
    // Killed before the manifest's rename, then before a generated module's, then before the cache's.
    edit('Echo a message back, one');
    expect(generate(root, killBeforeRename(work, /zhin-capabilities\.gen\.ts$/)).signal).toBe('SIGKILL');
    const manifestTemp = age(root, temps(root)[0]!, 5);
    writeFileSync(join(root, 'notes.txt.123.abc.tmp'), 'the user’s own file');
    // A write in flight: a live process's (this one's), just begun.
    const inFlight = `zhin-capabilities.gen.ts.${process.pid}.${Date.now().toString(36)}.tmp`;
    writeFileSync(join(root, inFlight), 'in flight');
    edit('Echo a message back, two');
    expect(generate(root).status).toBe(0);
    expect(temps(root).sort()).toEqual([inFlight, 'notes.txt.123.abc.tmp'].sort());
    expect(existsSync(join(root, manifestTemp))).toBe(false);

    const seam = join(root, 'agents/reviewer/skills/review/tools/check-result/index.ts');
    writeFileSync(seam, readFileSync(seam, 'utf8').replace("'links'", "'links', 'tone'"));
    settleTree(root);
    expect(generate(root, killBeforeRename(work, /validators\/[0-9a-f]{16}\.ts$/)).signal).toBe('SIGKILL');
    expect(temps(folder)).toHaveLength(1);
    age(folder, temps(folder)[0]!, 5);
    expect(generate(root).status).toBe(0);
    expect(temps(folder)).toEqual([]);

    edit('Echo a message back, three');
    const killed = generate(root, killBeforeRename(work, /zhin-gen\/units\.json[.a-z]*$/));
    expect(killed.signal).toBe('SIGKILL');
    expect(temps(cache)).toHaveLength(1);
    age(cache, temps(cache)[0]!, 5);
    edit('Echo a message back, four');
    expect(generate(root).status).toBe(0);
    expect(temps(cache)).toEqual([]);
  });

  it('is told from a write in flight and from files of other names', () => {
    const now = Date.now();
    const name = (pid: number, ms: number) => `out.ts.${pid}.${ms.toString(36)}.tmp`;
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const ours = (target: string) => target === 'out.ts';
    expect(isStaleTemp(name(dead, now - 5_000), ours, now)).toBe(true);
    expect(isStaleTemp(name(dead, now - 500), ours, now)).toBe(false);
    expect(isStaleTemp(name(process.ppid, now - 60_000), ours, now)).toBe(false);
    expect(isStaleTemp(name(process.ppid, now - 11 * 60_000), ours, now)).toBe(true);
    expect(isStaleTemp(name(dead, now - 5_000).replace('out.ts', 'other.ts'), ours, now)).toBe(false);
    expect(isStaleTemp('out.ts.tmp', ours, now)).toBe(false);
  });
});
