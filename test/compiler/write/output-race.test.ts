/**
 * The output record holds the stamp of the bytes this process wrote (write/output.ts, from its
 * own descriptor), not a stat of the path afterwards: another `generate` can rename its older
 * output over the path in between, and a record that vouched for that file would keep it for good
 * ("unchanged" with the wrong manifest on disk). The other process is played by a preload that
 * renames the older output over the path right after the CLI's own rename.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, copyFixture, removeDir, settleTree, tempDir } from '../../helpers.js';
import { otherProcessPreload } from './other-process.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const cli = (root: string, preload?: string): string =>
  execFileSync(
    process.execPath,
    [...(preload ? ['--import', preload] : []), join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );

describe('the output record under a concurrent write', () => {
  it('never vouches for a file another process renamed over the output after this run wrote it', () => {
    const root = copyFixture('example-bot', 'output-race');
    const work = tempDir('output-race-preload');
    dirs.push(root, work);
    const out = join(root, 'zhin-capabilities.gen.ts');
    const echo = join(root, 'tools/echo/index.ts');
    cli(root);
    const older = readFileSync(out, 'utf8');
    writeFileSync(echo, readFileSync(echo, 'utf8').replace('Echo a message back', 'Echo a message back, twice'));
    settleTree(root);
    const preload = otherProcessPreload(work, 'zhin-capabilities.gen.ts', older);
    cli(root, preload);
    expect(readFileSync(out, 'utf8')).toBe(older);
    // The next run must find the file on disk is not the one its inputs give, and write it.
    const next = cli(root);
    expect(next).toContain('(written)');
    expect(readFileSync(out, 'utf8')).toContain('Echo a message back, twice');
  });
});
