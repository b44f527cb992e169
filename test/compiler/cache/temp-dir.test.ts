/**
 * The shared cache folder in the OS temp dir is pruned (compiler/cache/temp-dir.ts): the sets of
 * roots that are gone, sets and code caches unused for two weeks and stale temp files go; the
 * run's own set, live sets and files of other names stay; a pass runs at most once an hour. Real
 * files with real mtimes, and the real CLI in a private TMPDIR.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha } from '../../../compiler/cache/unit-entry.js';
import { tempCacheName } from '../../../compiler/util/temp-cache-dir.js';
import {
  PRUNE_INTERVAL_MS,
  pruneTempCache,
  STALE_TEMP_MS,
  tempSetOf,
  UNUSED_MS,
} from '../../../compiler/cache/temp-dir.js';
import { REPO, removeDir, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const DAY = 24 * 60 * 60 * 1000;
const SIDECARS = ['', '.index', '.index.journal', '.journal', '.layout', '.tree', '.emit', '.dirs'];

function fresh(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** A root's cache set as the compiler leaves it, dated `age` ms back (mtime and atime). */
function plantSet(dir: string, root: string | undefined, age: number, now = Date.now()): string {
  const key = sha(root ?? `no root ${Math.random()}`);
  const files = SIDECARS.map((suffix) => `${key}.json${suffix}`);
  if (root !== undefined) files.push(`${key}.json.root`);
  for (const name of files) {
    writeFileSync(join(dir, name), name.endsWith('.root') ? `${root}\n` : '{}');
    utimesSync(join(dir, name), (now - age) / 1000, (now - age) / 1000);
  }
  return key;
}

function plantFile(dir: string, name: string, age: number, now = Date.now()): void {
  writeFileSync(join(dir, name), 'x');
  utimesSync(join(dir, name), (now - age) / 1000, (now - age) / 1000);
}

const members = (dir: string, key: string): string[] => readdirSync(dir).filter((name) => name.startsWith(key));

describe('pruning the temp cache folder', () => {
  it('removes gone roots, unused sets and code caches, stale temp files; keeps the rest', () => {
    const base = fresh('temp-prune');
    const dir = join(base, tempCacheName());
    mkdirSync(dir);
    const liveRoot = join(base, 'live');
    mkdirSync(liveRoot);
    const live = plantSet(dir, liveRoot, DAY);
    const gone = plantSet(dir, join(base, 'removed-root'), DAY);
    const underFile = plantSet(dir, join(base, 'live', 'file.txt', 'root'), DAY);
    writeFileSync(join(liveRoot, 'file.txt'), 'a file, not a folder');
    const idle = plantSet(dir, undefined, UNUSED_MS + DAY);
    const recent = plantSet(dir, undefined, UNUSED_MS - DAY);
    const own = plantSet(dir, join(base, 'own-gone'), UNUSED_MS + DAY);
    plantFile(dir, 'code-0123456789abcdef.v8', UNUSED_MS + DAY);
    plantFile(dir, 'code-fedcba9876543210.v8', DAY);
    plantFile(dir, `${live}.json.123.abc.tmp`, STALE_TEMP_MS + 60_000);
    plantFile(dir, `${live}.json.456.def.tmp`, 1000);
    plantFile(dir, 'notes.txt', UNUSED_MS * 3);

    const result = pruneTempCache({ dir, keep: own });
    expect(result.ran).toBe(true);
    expect(result.removed).toEqual(['code-0123456789abcdef', gone, idle, underFile].sort());
    expect(members(dir, gone)).toEqual([]);
    expect(members(dir, idle)).toEqual([]);
    expect(members(dir, live)).toHaveLength(SIDECARS.length + 2);
    expect(existsSync(join(dir, `${live}.json.123.abc.tmp`))).toBe(false);
    expect(existsSync(join(dir, `${live}.json.456.def.tmp`))).toBe(true);
    expect(members(dir, recent)).toHaveLength(SIDECARS.length);
    expect(members(dir, own)).toHaveLength(SIDECARS.length + 1);
    expect(existsSync(join(dir, 'code-fedcba9876543210.v8'))).toBe(true);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  });

  it('runs at most once per interval, claimed by the marker', () => {
    const base = fresh('temp-prune-interval');
    const dir = join(base, tempCacheName());
    mkdirSync(dir);
    const now = Date.now();
    expect(pruneTempCache({ dir, now }).ran).toBe(true);
    const gone = plantSet(dir, join(base, 'gone'), DAY, now);
    expect(pruneTempCache({ dir, now: now + PRUNE_INTERVAL_MS - 1000 })).toEqual({ removed: [], ran: false });
    expect(members(dir, gone)).toHaveLength(SIDECARS.length + 1);
    expect(pruneTempCache({ dir, now: now + PRUNE_INTERVAL_MS + 1000 })).toEqual({ removed: [gone], ran: true });
  });

  it('knows only its own folder and names', () => {
    const dir = '/tmp/x/zhin-gen-cache';
    expect(tempSetOf(`${dir}/0123456789abcdef.json`, dir)).toBe('0123456789abcdef');
    expect(tempSetOf('/work/bot/node_modules/.cache/zhin-gen/units.json', dir)).toBeUndefined();
    expect(tempSetOf(`${dir}/units.json`, dir)).toBeUndefined();
    expect(tempSetOf(`${dir}-other/0123456789abcdef.json`, dir)).toBeUndefined();
  });

  it('a CLI run in a root without node_modules names its root and prunes a gone root’s set', () => {
    const tmp = fresh('temp-prune-cli');
    const root = writeTree(fresh('temp-prune-root'), {
      'tools/ping/index.ts': toolSource(
        `{ description: 'Ping the bot', inputSchema: z.object({}), async execute() { return 'pong'; } }`,
      ),
    });
    const dir = join(tmp, tempCacheName());
    // The user's own folder, private as zhin-gen makes it (util/temp-cache-dir.ts).
    mkdirSync(dir, { mode: 0o700 });
    const gone = plantSet(dir, join(tmp, 'deleted-bot'), DAY);
    const run = (): void => {
      const result = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root], {
        encoding: 'utf8',
        env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1' },
      });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    };
    run();
    expect(members(dir, gone)).toEqual([]);
    const own = sha(root);
    expect(readFileSync(join(dir, `${own}.json.root`), 'utf8')).toBe(`${root}\n`);
    expect(existsSync(join(dir, `${own}.json`))).toBe(true);
    // Within the hour no second pass: a set planted now stays until the next one.
    const later = plantSet(dir, join(tmp, 'deleted-later'), DAY);
    run();
    expect(members(dir, later)).toHaveLength(SIDECARS.length + 1);
  });
});
