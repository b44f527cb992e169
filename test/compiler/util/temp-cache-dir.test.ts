/**
 * The user's cache folder in the OS temp directory (compiler/util/temp-cache-dir.ts): made
 * private, and used only while nobody else can have put anything in it. Each case runs the real
 * CLI in a root without node_modules (whose unit cache lives there) with its own TMPDIR.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha } from '../../../compiler/cache/unit-entry.js';
import { tempCacheName } from '../../../compiler/util/temp-cache-dir.js';
import { REPO, removeDir, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const MANIFEST = 'zhin-capabilities.gen.ts';
const WARNING = 'ZHIN_GEN_CACHE_FOLDER';

function fresh(name: string): string {
  const dir = tempDir(name);
  dirs.push(dir);
  return dir;
}

function bot(): string {
  return writeTree(fresh('temp-cache-bot'), {
    'tools/ping/index.ts': toolSource(
      `{ description: 'Ping the bot', inputSchema: z.object({}), async execute() { return 'pong'; } }`,
    ),
  });
}

/** `zhin-gen generate` with this temp directory; its stderr. */
function generate(root: string, tmp: string): string {
  const result = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr;
}

/** A folder's names, sorted (none for a file). */
const listing = (dir: string): string[] =>
  statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(dir).sort() : [];
/** The folder a link at `dir` leads to (relative to the temp directory), or `dir`'s own name. */
const readlinkOr = (dir: string): string =>
  lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() ? 'elsewhere' : basename(dir);

describe('the temp cache folder', () => {
  it('is made for this user alone (0700), in a temp directory that did not exist yet, and holds the cache', () => {
    const root = bot();
    const tmp = join(fresh('temp-cache-made'), 'not', 'there');
    expect(generate(root, tmp)).toBe('');
    const dir = join(tmp, tempCacheName());
    const stat = statSync(dir);
    expect(stat.mode & 0o777).toBe(0o700);
    expect(stat.uid).toBe(process.geteuid!());
    expect(listing(dir)).toContain(`${sha(root)}.json`);
  });

  /** A folder at the user's name that someone else could have filled. */
  const untrusted: readonly (readonly [string, RegExp, (dir: string, tmp: string) => void])[] = [
    [
      'writable by others (mode 0777)',
      /can be written by others \(mode 777\)/,
      (dir) => {
        mkdirSync(dir);
        chmodSync(dir, 0o777);
      },
    ],
    [
      'a link to a folder elsewhere',
      /is a link/,
      (dir, tmp) => {
        mkdirSync(join(tmp, 'elsewhere'), { mode: 0o700 });
        symlinkSync(join(tmp, 'elsewhere'), dir);
      },
    ],
    ['a file', /is not a folder/, (dir) => writeFileSync(dir, 'not a folder')],
    [
      'in a temp directory others can write to that is not sticky (anyone could swap the folder)',
      /which others can write to and is not sticky \(mode 777\)/,
      (_, tmp) => chmodSync(tmp, 0o777),
    ],
  ];
  const asRoot = process.geteuid?.() === 0;

  it.each(untrusted)(
    'is not used when it is %s: one warning, nothing written there, the same manifest',
    (_, why, make) => {
      const root = bot();
      const tmp = fresh('temp-cache-untrusted');
      const dir = join(tmp, tempCacheName());
      make(dir, tmp);
      const before = listing(tmp);
      const inside = listing(join(tmp, readlinkOr(dir)));
      const stderr = generate(root, tmp);
      expect(stderr.match(new RegExp(WARNING, 'g'))).toHaveLength(1);
      expect(stderr).toMatch(why);
      expect(stderr).toContain(dir);
      // A run that used the folder writes its unit cache set there (the first case above).
      expect(listing(tmp)).toEqual(before);
      expect(listing(join(tmp, readlinkOr(dir)))).toEqual(inside);
      const written = readFileSync(join(root, MANIFEST), 'utf8');
      rmSync(join(root, MANIFEST));
      expect(generate(root, fresh('temp-cache-control'))).toBe('');
      expect(written).toBe(readFileSync(join(root, MANIFEST), 'utf8'));
    },
  );

  it('is used in a sticky temp directory anyone can write to (as /tmp is), and made private when others could read it', () => {
    const root = bot();
    const tmp = fresh('temp-cache-sticky');
    chmodSync(tmp, 0o1777);
    const dir = join(tmp, tempCacheName());
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(generate(root, tmp)).toBe('');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(listing(dir)).toContain(`${sha(root)}.json`);
  });

  it.runIf(asRoot)('is not used in a temp directory of another user (who could swap the folder)', () => {
    const root = bot();
    const tmp = fresh('temp-cache-their-tmp');
    chownSync(tmp, 4242, 4242);
    const stderr = generate(root, tmp);
    expect(stderr).toMatch(/which belongs to another user \(uid 4242\)/);
    expect(stderr).toContain('Point TMPDIR at a folder of your own');
    expect(listing(join(tmp, tempCacheName()))).toEqual([]);
  });

  it.runIf(asRoot)('is not used when another user owns it', () => {
    const root = bot();
    const tmp = fresh('temp-cache-owner');
    const dir = join(tmp, tempCacheName());
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 4242, 4242);
    const stderr = generate(root, tmp);
    expect(stderr).toContain(WARNING);
    expect(stderr).toMatch(/belongs to another user \(uid 4242\)/);
    expect(listing(dir)).toEqual([]);
  });
});
