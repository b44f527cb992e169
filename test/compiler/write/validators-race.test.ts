/**
 * The generated folder beside the manifest is vouched for by the stamps this process wrote or
 * verified (write/validators.ts: each module's stamp from its writer's descriptor, the folder's
 * recorded stamp only while every module is as written), never by a stat after the writes:
 * another `generate` can rename its older module over one of ours in between, and a record that
 * vouched for that file kept it for good. The other process is played by a preload that renames
 * the older search module over the path right after the CLI's own rename.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, copyFixture, removeDir, settleTree, tempDir } from '../../helpers.js';
import { otherProcessPreload } from './other-process.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const cli = (root: string, command: string, preload?: string): string =>
  execFileSync(
    process.execPath,
    [...(preload ? ['--import', preload] : []), join(REPO, 'bin', 'zhin-gen.mjs'), command, '--root', root],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );

describe('the generated folder under a concurrent write', () => {
  it('never vouches for a module another process renamed over one this run wrote', () => {
    const root = copyFixture('example-bot', 'validators-race');
    const work = tempDir('validators-race-preload');
    dirs.push(root, work);
    const search = join(root, 'zhin-capabilities.gen.validators', 'search.ts');
    const echo = join(root, 'tools/echo/index.ts');
    cli(root, 'generate');
    const older = readFileSync(search, 'utf8');
    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo a message back', 'Echo a message back, twice'));
    settleTree(root);
    const preload = otherProcessPreload(work, 'search.ts', older);
    cli(root, 'generate', preload);
    // The other process won the race: the older index is on disk beside the new manifest.
    expect(readFileSync(search, 'utf8')).toBe(older);
    // The next run must find the module is not the one its inputs give, and write it again.
    const next = cli(root, 'generate');
    expect(next).toContain('(written)');
    const now = readFileSync(search, 'utf8');
    expect(now).not.toBe(older);
    expect(cli(root, 'check')).toContain('up to date');
    expect(cli(root, 'generate')).toContain('(unchanged)');
    expect(readFileSync(search, 'utf8')).toBe(now);
  });
});
