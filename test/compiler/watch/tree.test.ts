/**
 * The tree watcher on a real directory tree (compiler/watch/tree.ts): one system watch per
 * directory, and events named by where a file is now. A directory moved inside the tree keeps
 * its kernel watch on the same inode, so the watcher must drop the old name's watches and watch
 * the new name, or later edits would be reported under the path the directory left.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileEvent } from '../../../compiler/index.js';
import { createCompiler } from '../../../compiler/index.js';
import { watchTree } from '../../../compiler/watch/tree.js';
import { removeDir, settledDirs, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function until(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function start(root: string): { events: FileEvent[]; watcher: ReturnType<typeof watchTree> } {
  const events: FileEvent[] = [];
  const watcher = watchTree(root, (event) => events.push(event), {
    ignore: (abs) => abs.endsWith('.swp'),
    onError: (problem) => {
      throw problem.error;
    },
  });
  return { events, watcher };
}

describe('watchTree', () => {
  it("starts from the compiler's listings record: lists only directories changed since, and watches what a listing would", async () => {
    const root = writeTree(tempDir('tree-listings'), {
      'index.ts': 'export {};\n',
      'tools/a/index.ts': 'export {};\n',
      'tools/b/index.ts': 'export {};\n',
      'tools/b/lib/x.ts': '1\n',
      'skills/s/SKILL.md': '---\nname: s\ndescription: A skill.\n---\nSteps.\n',
    });
    dirs.push(root);
    await settledDirs(root);
    const compiler = createCompiler({ root });
    await compiler.run();
    const listings = compiler.listingsFile;
    expect(listings).toBeDefined();
    // After the record: a folder added, an entry added to another.
    writeTree(root, { 'tools/c/index.ts': 'export {};\n', 'tools/a/extra.ts': 'export {};\n' });
    await settledDirs(root);

    const plain = start(root);
    const events: FileEvent[] = [];
    const watcher = watchTree(root, (event) => events.push(event), {
      ignore: (abs) => abs.endsWith('.swp'),
      listings,
      onError: (problem) => {
        throw problem.error;
      },
    });
    try {
      await Promise.all([plain.watcher.ready, watcher.ready]);
      expect(watcher.watched()).toBe(plain.watcher.watched());
      // tools/ and tools/a changed, tools/c is new; the rest came from the record.
      expect(watcher.listed()).toBe(3);
      expect(plain.watcher.listed()).toBe(plain.watcher.watched());
      const has = (type: string, rel: string): boolean =>
        events.some((e) => e.type === type && e.path === join(root, rel));
      writeFileSync(join(root, 'tools/c/index.ts'), 'export const c = 1;\n');
      writeFileSync(join(root, 'tools/b/lib/x.ts'), '2\n');
      writeFileSync(join(root, 'tools/a/extra.ts'), 'export const e = 1;\n');
      await until(
        () =>
          has('change', 'tools/c/index.ts') && has('change', 'tools/b/lib/x.ts') && has('change', 'tools/a/extra.ts'),
        'the edits in listed and recorded folders',
      );
    } finally {
      await Promise.all([watcher.close(), plain.watcher.close()]);
    }
  });

  it('reports edits in a moved directory under its new name, and nothing under the old one', async () => {
    const root = writeTree(tempDir('tree-move'), { 'tools/a/index.ts': 'export {};\n', 'tools/a/lib/x.ts': '1\n' });
    dirs.push(root);
    const { events, watcher } = start(root);
    try {
      await watcher.ready;
      // root, tools, tools/a, tools/a/lib: one watch each, none per file.
      expect(watcher.watched()).toBe(4);
      renameSync(join(root, 'tools/a'), join(root, 'tools/moved'));
      const has = (type: string, rel: string): boolean =>
        events.some((e) => e.type === type && e.path === join(root, rel));
      await until(() => has('unlinkDir', 'tools/a') && has('addDir', 'tools/moved'), 'the move');
      expect(watcher.watched()).toBe(4);
      events.length = 0;
      writeFileSync(join(root, 'tools/moved/lib/x.ts'), '2\n');
      writeFileSync(join(root, 'tools/moved/index.ts'), 'export const y = 1;\n');
      await until(
        () => has('change', 'tools/moved/lib/x.ts') && has('change', 'tools/moved/index.ts'),
        'the edits under the new name',
      );
      expect(events.filter((e) => e.path.startsWith(join(root, 'tools/a')))).toEqual([]);
    } finally {
      await watcher.close();
    }
  });

  it('watches a directory created later (and its contents), and drops the watches of a removed one', async () => {
    const root = writeTree(tempDir('tree-create'), { 'tools/a/index.ts': 'export {};\n' });
    dirs.push(root);
    const { events, watcher } = start(root);
    try {
      await watcher.ready;
      mkdirSync(join(root, 'tools/b/deep'), { recursive: true });
      await until(() => events.some((e) => e.type === 'addDir' && e.path === join(root, 'tools/b')), 'the new folder');
      writeFileSync(join(root, 'tools/b/deep/index.ts'), 'export {};\n');
      writeFileSync(join(root, 'tools/b/.index.ts.swp'), 'x');
      await until(() => events.some((e) => e.path === join(root, 'tools/b/deep/index.ts')), 'the file in it');
      expect(events.some((e) => e.path.endsWith('.swp'))).toBe(false);
      expect(watcher.watched()).toBe(5);
      rmSync(join(root, 'tools/b'), { recursive: true });
      await until(
        () => events.some((e) => e.type === 'unlinkDir' && e.path === join(root, 'tools/b')),
        'the folder removed',
      );
      expect(watcher.watched()).toBe(3);
    } finally {
      await watcher.close();
    }
  });

  it('reports a folder added from outside the root that is moved away or removed, and nothing for a child of the same name', async () => {
    const base = writeTree(tempDir('tree-outside'), {
      'bot/tools/a/index.ts': 'export {};\n',
      'pkg/src/s.ts': '1\n',
      'pkg/src/src/inner.ts': '1\n',
    });
    dirs.push(base);
    const root = join(base, 'bot');
    const src = join(base, 'pkg/src');
    const { events, watcher } = start(root);
    try {
      await watcher.ready;
      watcher.add([src]);
      const gone = (): boolean => events.some((e) => e.type === 'unlinkDir' && e.path === src);
      // A child named like its folder (src/src) is an entry, not the folder itself.
      writeFileSync(join(src, 'src/inner.ts'), '2\n');
      rmSync(join(src, 'src'), { recursive: true });
      await until(() => events.some((e) => e.type === 'unlinkDir' && e.path === join(src, 'src')), 'the child removed');
      expect(gone()).toBe(false);
      renameSync(src, join(base, 'pkg/moved'));
      await until(gone, 'the folder moved away');
      expect(watcher.watched()).toBe(3);
      events.length = 0;
      watcher.add([join(base, 'pkg/moved')]);
      rmSync(join(base, 'pkg/moved'), { recursive: true });
      await until(
        () => events.some((e) => e.type === 'unlinkDir' && e.path === join(base, 'pkg/moved')),
        'the folder removed',
      );
      expect(watcher.watched()).toBe(3);
    } finally {
      await watcher.close();
    }
  });

  it('watches a directory removed and made again at once, even when it gets the same inode back', async () => {
    const root = writeTree(tempDir('tree-remake'), { 'tools/a/index.ts': 'export {};\n' });
    dirs.push(root);
    const { events, watcher } = start(root);
    try {
      await watcher.ready;
      for (let round = 1; round <= 5; round++) {
        // The kernel usually hands the freed inode to the next directory made (as a checkout does).
        rmSync(join(root, 'tools/a'), { recursive: true });
        mkdirSync(join(root, 'tools/a'));
        await new Promise((r) => setTimeout(r, 50));
        writeFileSync(join(root, 'tools/a/index.ts'), `export const round = ${round};\n`);
        await until(
          () => events.some((e) => e.path === join(root, 'tools/a/index.ts') && e.type !== 'unlink'),
          `the file written into the remade folder, round ${round}`,
        );
        events.length = 0;
      }
      expect(watcher.watched()).toBe(3);
    } finally {
      await watcher.close();
    }
  });

  it('follows a file replaced by a directory and back, and a folder created with files in it at once', async () => {
    const root = writeTree(tempDir('tree-replace'), { 'tools/a/index.ts': 'export {};\n' });
    dirs.push(root);
    const { events, watcher } = start(root);
    const has = (type: string, rel: string): boolean =>
      events.some((e) => e.type === type && e.path === join(root, rel));
    try {
      await watcher.ready;
      expect(watcher.watched()).toBe(3);
      rmSync(join(root, 'tools/a/index.ts'));
      writeTree(root, { 'tools/a/index.ts/inner.ts': '1\n' });
      await until(() => has('addDir', 'tools/a/index.ts'), 'the file replaced by a directory');
      expect(watcher.watched()).toBe(4);
      writeFileSync(join(root, 'tools/a/index.ts/inner.ts'), '2\n');
      await until(() => has('change', 'tools/a/index.ts/inner.ts'), 'an edit inside it');
      rmSync(join(root, 'tools/a/index.ts'), { recursive: true });
      writeFileSync(join(root, 'tools/a/index.ts'), 'export const back = 1;\n');
      await until(
        () => events.at(-1)?.path === join(root, 'tools/a/index.ts') && events.at(-1)?.type !== 'unlinkDir',
        'the file back',
      );
      expect(watcher.watched()).toBe(3);
      // `mkdir -p b/c && echo > b/c/x`: the inner folder is watched even if its events came first.
      writeTree(root, { 'tools/b/c/x.ts': '1\n' });
      await until(() => has('addDir', 'tools/b'), 'the new folder');
      expect(watcher.watched()).toBe(5);
      events.length = 0;
      writeFileSync(join(root, 'tools/b/c/x.ts'), '2\n');
      await until(() => has('change', 'tools/b/c/x.ts') || has('add', 'tools/b/c/x.ts'), 'an edit in the inner folder');
    } finally {
      await watcher.close();
    }
  });

  it('reports an edit through a linked directory under the link too, and never follows a link to an ancestor', async () => {
    const root = writeTree(tempDir('tree-link'), { 'tools/a/index.ts': 'export {};\n' });
    dirs.push(root);
    symlinkSync(join(root, 'tools/a'), join(root, 'tools/linked'));
    // A link back to the root: followed once would be forever.
    symlinkSync(root, join(root, 'tools/a/up'));
    const { events, watcher } = start(root);
    try {
      await watcher.ready;
      // root, tools, tools/a and tools/linked; never the root again below either.
      expect(watcher.watched()).toBe(4);
      writeFileSync(join(root, 'tools/a/index.ts'), 'export const z = 1;\n');
      await until(
        () =>
          events.some((e) => e.path === join(root, 'tools/a/index.ts')) &&
          events.some((e) => e.path === join(root, 'tools/linked/index.ts')),
        'the edit under both names',
      );
      // A link back to an ancestor made while watching is not followed either (it would watch the
      // tree a second time below it).
      symlinkSync(root, join(root, 'tools/a/later'));
      await until(() => events.some((e) => e.path === join(root, 'tools/a/later')), 'the new link');
      expect(watcher.watched()).toBe(4);
    } finally {
      await watcher.close();
    }
  });

  it('reports the output gone whenever an event finds it missing, and there as changed (the compiler tells its own writes)', async () => {
    const root = writeTree(tempDir('tree-output'), { 'tools/a/index.ts': 'export default 1;\n' });
    dirs.push(root);
    const out = join(root, 'out.gen.ts');
    const events: FileEvent[] = [];
    const watcher = watchTree(root, (event) => events.push(event), {
      ignore: (abs) => abs.startsWith(out),
      isOutput: (abs) => abs === out,
      onError: (problem) => {
        throw problem.error;
      },
    });
    try {
      await watcher.ready;
      // A write by rename: a change, which `Compiler.outputRemoved` answers (its own write is no
      // damage, test/compiler/watch/output-removed.test.ts; an edit by someone else is).
      writeFileSync(`${out}.tmp`, 'one');
      renameSync(`${out}.tmp`, out);
      await until(() => events.length > 0, 'the output written');
      expect(events.every((e) => e.path === out && e.type === 'change')).toBe(true);
      events.length = 0;
      rmSync(out);
      await until(() => events.length > 0, 'the output removed');
      expect(events).toEqual([{ type: 'unlink', path: out }]);
      events.length = 0;
      // Made again and removed before the watcher looked (a run writing it while it is removed
      // again): the event of its making finds it missing, which is its removal.
      writeFileSync(`${out}.tmp`, 'two');
      renameSync(`${out}.tmp`, out);
      rmSync(out);
      await until(() => events.length > 0, 'the output removed again');
      expect(events.every((e) => e.path === out && e.type === 'unlink')).toBe(true);
    } finally {
      await watcher.close();
    }
  });
});
