/**
 * Directory listings kept between fresh walks (compiler/scan/listings.ts). A walk that takes a
 * recorded listing must find exactly what a walk that lists every directory finds (paths, stamps,
 * diagnostics), on every fixture and on the trees below; a directory whose entries changed in any
 * way (added, removed, renamed, replaced, mtime put back) is listed again; a damaged record costs
 * listings, never a wrong list.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultCacheFile } from '../../../compiler/cache/units.js';
import { DirListings, windows } from '../../../compiler/scan/listings.js';
import { walkTree } from '../../../compiler/scan/walk.js';
import { copyFixture, FIXTURES, REPO, removeDir, settledDirs, tempDir, toolSource, writeTree } from '../../helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function tree(name: string, files: Record<string, string>): string {
  const root = writeTree(tempDir(name), files);
  roots.push(root);
  return root;
}

/** A tree of {@link TOOLS} and the file its listings are recorded in (both removed after the suite). */
function recordedTree(name: string): { root: string; file: string } {
  const root = tree(name, TOOLS);
  const file = `${root}.dirs`;
  roots.push(file);
  return { root, file };
}

const options = (root: string) => ({ root, pluginEntry: ['index.ts'], allowed: [], outFile: `${root}/out.ts` });

/** One walk of `root` with the record in `file`, saved after it as a fresh walk saves it. */
function walk(root: string, file: string | undefined) {
  const listings = DirListings.load(file);
  const walked = walkTree(options(root), [], true, listings);
  listings.save();
  return { walked, listings };
}

/** What a walk found, without the clock readings (which differ from walk to walk). */
function found(walked: ReturnType<typeof walkTree>) {
  return {
    paths: walked.paths,
    table: walked.stamps ? [...walked.stamps.table] : undefined,
    diagnostics: walked.diagnostics,
  };
}

const TOOLS = {
  'tools/a/index.ts': 'export {}',
  'tools/a.ts': 'export {}',
  'tools/a-b/index.ts': 'export {}',
  'tools/b/index.ts': 'export {}',
  'tools/b/x/deep.ts': 'export {}',
  'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\n',
  'plugins/p/tools/t/index.ts': 'export {}',
  'node_modules/dep/index.js': '',
  'index.ts': 'export {}',
  'tools/天气/index.ts': 'export {}',
};

describe('directory listings', () => {
  it('give every fixture the walk a full listing gives, and the second walk lists nothing', async () => {
    const names = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(names.length).toBeGreaterThan(50);
    const copies = names.map((entry) => {
      const root = copyFixture(entry.name, `listings-${entry.name}`);
      roots.push(root);
      return root;
    });
    for (const root of copies) await settledDirs(root);
    for (const root of copies) {
      const file = join(root, '..', `${root.split('/').pop()}.dirs`);
      roots.push(file);
      const plain = found(walkTree(options(root), [], true));
      const first = walk(root, file);
      const second = walk(root, file);
      expect(found(first.walked), root).toEqual(plain);
      expect(found(second.walked), root).toEqual(plain);
      expect(first.listings.replayed).toBe(0);
      expect(second.listings.listed, root).toBe(0);
      expect(second.listings.replayed).toBe(first.listings.listed);
    }
  });

  it('lists again a directory whose entries were added, removed, renamed or replaced', async () => {
    const { root, file } = recordedTree('listings-change');
    await settledDirs(root);
    const plainOf = () => found(walkTree(options(root), [], true));
    const recorded = walk(root, file).listings.listed;

    writeTree(root, { 'tools/c/index.ts': 'export {}' });
    await settledDirs(root);
    let next = walk(root, file);
    expect(found(next.walked)).toEqual(plainOf());
    expect(next.walked.paths).toContain('tools/c/index.ts');
    // `tools/` changed and `tools/c/` is new; everything else is replayed.
    expect(next.listings.listed).toBe(2);
    expect(next.listings.replayed).toBe(recorded - 1);

    rmSync(join(root, 'tools/a.ts'));
    renameSync(join(root, 'tools/b/x'), join(root, 'tools/b/y'));
    await settledDirs(root);
    next = walk(root, file);
    expect(found(next.walked)).toEqual(plainOf());
    expect(next.walked.paths).not.toContain('tools/a.ts');
    expect(next.walked.paths).toContain('tools/b/y/deep.ts');

    // Replaced by a directory of the same name and entries: a new inode and new times.
    rmSync(join(root, 'skills/s'), { recursive: true });
    writeTree(root, { 'skills/s/SKILL.md': '---\nname: s\ndescription: d\n---\n', 'skills/s/extra.md': 'x' });
    await settledDirs(root);
    next = walk(root, file);
    expect(found(next.walked)).toEqual(plainOf());
    expect(next.walked.paths).toContain('skills/s/extra.md');
  });

  it('passes over the line of a directory saved by rename, racy or removed without indexing the record', async () => {
    const { root, file } = recordedTree('listings-cursor');
    await settledDirs(root);
    const recorded = walk(root, file).listings.listed;
    const plainOf = () => found(walkTree(options(root), [], true));

    // An editor's safe write: a temp file renamed over the original moves the directory's times.
    writeFileSync(join(root, 'tools/b/index.ts.tmp'), 'export const saved = 1;');
    renameSync(join(root, 'tools/b/index.ts.tmp'), join(root, 'tools/b/index.ts'));
    // Still racy: listed, its line passed over.
    let next = walk(root, file);
    expect(found(next.walked)).toEqual(plainOf());
    expect([next.listings.listed, next.listings.replayed, next.listings.indexed]).toEqual([1, recorded - 1, false]);
    await settledDirs(root);
    next = walk(root, file);
    expect([next.listings.listed, next.listings.replayed, next.listings.indexed]).toEqual([1, recorded - 1, false]);

    // Removed with a folder below it: `tools/` is listed, the two lines are passed over.
    rmSync(join(root, 'tools/b'), { recursive: true });
    await settledDirs(root);
    next = walk(root, file);
    expect(found(next.walked)).toEqual(plainOf());
    expect([next.listings.listed, next.listings.replayed, next.listings.indexed]).toEqual([1, recorded - 3, false]);

    // Added: found nowhere near, so the record is indexed once.
    writeTree(root, { 'tools/b/index.ts': 'export {}' });
    await settledDirs(root);
    next = walk(root, file);
    expect(found(next.walked)).toEqual(plainOf());
    expect([next.listings.listed, next.listings.indexed]).toEqual([2, true]);
  });

  it('sees an added entry when the directory mtime was put back (its ctime moved)', async () => {
    const { root, file } = recordedTree('listings-mtime');
    const dir = join(root, 'tools/a');
    // A whole second, which utimes sets exactly (a Date would round a sub-millisecond mtime).
    const past = Math.floor(Date.now() / 1000) - 600;
    utimesSync(dir, past, past);
    await settledDirs(root);
    walk(root, file);
    const mtime = statSync(dir).mtimeMs;
    writeFileSync(join(dir, 'later.ts'), 'export {}');
    expect(statSync(dir).mtimeMs).not.toBe(mtime);
    utimesSync(dir, past, past);
    expect(statSync(dir).mtimeMs).toBe(mtime);
    await settledDirs(root);
    const next = walk(root, file);
    expect(next.walked.paths).toContain('tools/a/later.ts');
    expect(next.listings.listed).toBe(1);
  });

  it('follows links as a full listing does, and a link re-pointed is seen', async () => {
    const { root, file } = recordedTree('listings-链接');
    symlinkSync(join(root, 'tools/b'), join(root, 'tools/l'));
    symlinkSync(join(root, 'tools'), join(root, 'tools/loop'));
    await settledDirs(root);
    walk(root, file);
    const replayed = walk(root, file);
    expect(replayed.listings.listed).toBe(0);
    expect(found(replayed.walked)).toEqual(found(walkTree(options(root), [], true)));
    expect(replayed.walked.paths).toContain('tools/l/x/deep.ts');
    expect(replayed.walked.paths).toContain('tools/天气/index.ts');

    rmSync(join(root, 'tools/l'));
    symlinkSync(join(root, 'tools/a'), join(root, 'tools/l'));
    await settledDirs(root);
    const next = walk(root, file);
    expect(found(next.walked)).toEqual(found(walkTree(options(root), [], true)));
    expect(next.walked.paths).toContain('tools/l/index.ts');
    expect(next.walked.paths).not.toContain('tools/l/x/deep.ts');
  });

  it('does not take again a directory changed within a clock tick, nor record one whose names hold a tab or a newline', async () => {
    const { root, file } = recordedTree('listings-racy');
    // Just written: every directory is racy, each line's stamp matches none.
    const first = walk(root, file);
    expect(first.listings.listed).toBeGreaterThan(5);
    expect(readFileSync(file, 'utf8').split('\n')[1]!.split('\t')[1]).toBe('-');
    const again = walk(root, file);
    expect([again.listings.replayed, again.listings.listed]).toEqual([0, first.listings.listed]);

    writeTree(root, { 'tools/odd/a\tb.ts': 'export {}', 'tools/odd/c\nd.ts': 'export {}' });
    await settledDirs(root);
    walk(root, file);
    const next = walk(root, file);
    // Only `tools/odd/` is listed each time; the record stays lines of four fields.
    expect(next.listings.listed).toBe(1);
    expect(found(next.walked)).toEqual(found(walkTree(options(root), [], true)));
    const lines = readFileSync(file, 'utf8').split('\n').slice(1, -1);
    expect(lines.every((line) => line.split('\t').length === 4)).toBe(true);
  });

  it('ignores a record cut short, of another format, edited or converted, and rewrites it', async () => {
    const { root, file } = recordedTree('listings-damaged');
    await settledDirs(root);
    const plain = found(walkTree(options(root), [], true));
    walk(root, file);
    const good = readFileSync(file, 'utf8');
    const [head, ...body] = good.split('\n');
    // A name changed in place, stamps kept: the seal no longer holds.
    const edited = good.replace('\tindex.ts\n', '\tghost.ts\n');
    expect(edited).not.toBe(good);
    const older = [head!.replace(/^zhin-gen-dirs-3@\S+/, 'zhin-gen-dirs-2'), ...body].join('\n');

    for (const damaged of [
      good.slice(0, good.length - 7),
      '{"version":1,"dirs":{}}\n',
      '',
      'zhin-gen-dirs-3 x\n',
      edited,
      good.replaceAll('\n', '\r\n'),
      older,
    ]) {
      writeFileSync(file, damaged);
      const next = walk(root, file);
      expect(found(next.walked)).toEqual(plain);
      expect(next.listings.replayed).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(good);
    }
  });

  it('does not use a sealed line of the wrong shape or with its names out of order: that directory alone is listed', async () => {
    const { root, file } = recordedTree('listings-shape');
    await settledDirs(root);
    const plain = found(walkTree(options(root), [], true));
    const recorded = walk(root, file).listings.listed;
    const good = readFileSync(file, 'utf8');
    /** The record with one line changed and sealed again, as a faulty writer would leave it. */
    const resealed = (change: (fields: string[]) => string[]): string => {
      const [head, ...lines] = good.split('\n');
      const at = lines.findIndex((line) => line.startsWith(`${join(root, 'tools')}\t`));
      lines[at] = change(lines[at]!.split('\t')).join('\t');
      const body = lines.join('\n');
      const [version, count] = head!.split(' ');
      const seal = createHash('sha256').update(body).digest('hex').slice(0, 32);
      return `${version} ${count} ${seal}\n${body}`;
    };
    for (const damaged of [
      resealed(([path, stamp, kinds, names]) => [path!, stamp!, `${kinds}f`, names!]),
      resealed(([path, stamp, kinds, names]) => [path!, stamp!, kinds!, names!.split('/').reverse().join('/')]),
      resealed(([path, stamp, kinds, names]) => [path!, stamp!, `d${kinds!.slice(1)}`, names!.replace(/^[^/]+/, 'b')]),
    ]) {
      writeFileSync(file, damaged);
      const next = walk(root, file);
      expect(found(next.walked)).toEqual(plain);
      expect([next.listings.listed, next.listings.replayed]).toEqual([1, recorded - 1]);
      expect(readFileSync(file, 'utf8')).toBe(good);
    }
  });

  it('records entries that are neither files, folders nor links, which the walk passes over either way', async () => {
    const { root, file } = recordedTree('listings-fifo');
    expect(spawnSync('mkfifo', [join(root, 'tools/a/pipe.ts')]).status).toBe(0);
    await settledDirs(root);
    walk(root, file);
    const next = walk(root, file);
    expect(next.listings.listed).toBe(0);
    expect(found(next.walked)).toEqual(found(walkTree(options(root), [], true)));
    expect(next.walked.paths).not.toContain('tools/a/pipe.ts');
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${join(root, 'tools/a')}\t`))!;
    expect(line.split('\t').slice(2)).toEqual(['fo', 'index.ts/pipe.ts']);
  });

  it('writes the record in windows that never cut a surrogate pair', () => {
    const text = `a😀b/${'😀'.repeat(40)}/tools\t天气\n`;
    for (let size = 1; size <= text.length + 1; size++) {
      const pieces = [...windows(text, size)];
      expect(pieces.join('')).toBe(text);
      for (const piece of pieces) expect(Buffer.from(piece).toString()).toBe(piece);
      expect(
        pieces.every((piece) => piece.length === size || piece.length === size + 1 || piece === pieces.at(-1)),
      ).toBe(true);
    }
    expect([...windows('', 4)]).toEqual([]);
  });

  it('leaves the record untouched when nothing changed', async () => {
    const { root, file } = recordedTree('listings-untouched');
    await settledDirs(root);
    walk(root, file);
    const past = Math.floor(Date.now() / 1000) - 60;
    utimesSync(file, past, past);
    const next = walk(root, file);
    expect(next.listings.listed).toBe(0);
    expect(statSync(file).mtimeMs).toBe(past * 1000);
  });

  it('is kept by the CLI beside the unit cache, sees a tool added between runs, and is off with ZHIN_GEN_DIR_CACHE=0', async () => {
    const root = tree('listings-cli', {
      'index.ts': 'export {}',
      'tools/first/index.ts': toolSource("{ name: 'first', description: 'First tool', execute: async () => 'ok' }"),
    });
    const run = (env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'generate'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', ...env },
      });
    const record = `${defaultCacheFile(root)}.dirs`;
    await settledDirs(root);
    expect(run().status).toBe(0);
    expect(readFileSync(record, 'utf8')).toContain(`${join(root, 'tools')}\t`);

    writeTree(root, {
      'tools/second/index.ts': toolSource("{ name: 'second', description: 'Second tool', execute: async () => 'ok' }"),
    });
    await settledDirs(root);
    expect(run().status).toBe(0);
    const manifest = readdirSync(root).find((name) => name.endsWith('.gen.ts'));
    expect(manifest).toBeDefined();
    expect(readFileSync(join(root, manifest!), 'utf8')).toContain('"second"');

    rmSync(record);
    mkdirSync(join(root, 'tools/third'));
    writeFileSync(
      join(root, 'tools/third/index.ts'),
      toolSource("{ name: 'third', description: 'Third tool', execute: async () => 'ok' }"),
    );
    const off = run({ ZHIN_GEN_DIR_CACHE: '0' });
    expect(off.status).toBe(0);
    expect(existsSync(record)).toBe(false);
    expect(readFileSync(join(root, manifest!), 'utf8')).toContain('"third"');
  });
});
