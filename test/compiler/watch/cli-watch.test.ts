/**
 * `zhin-gen watch` as a user runs it (the built CLI in a child process) through every kind of
 * save editors and tools make: see test/watch-scenarios.ts.
 */
import {
  closeSync,
  existsSync,
  openSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  runsIn,
  startWatch,
  stopWatch,
  until,
  waitForText,
  watchedAfterFirstRun,
  watchProcess,
} from './watch-process.js';
import { REPO, removeDir, tempDir, writeTree } from '../../helpers.js';
import {
  freshOutput,
  outputOnDisk,
  runWatchScenario,
  SCENARIO_TOOL,
  SCENARIO_TREE,
  tool,
} from '../../watch-scenarios.js';

const dirs: string[] = [];
afterEach(async () => {
  await stopWatch();
  dirs.splice(0).forEach(removeDir);
});

/** The inotify watches a process holds (Linux: each inotify descriptor's fdinfo lists one line per watch). */
function inotifyWatches(pid: number): number {
  let watches = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== 'anon_inode:inotify') continue;
    watches += readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('inotify wd:')).length;
  }
  return watches;
}

const srcSchema = (field: string): string =>
  `import { z } from 'zod';\nexport const s = z.object({ ${field}: z.string() });\n`;

describe('zhin-gen watch', () => {
  it('keeps the manifest equal to a fresh generate through in-place, rename-over, delete, rename, copy, bulk and editor-file changes', async () => {
    const root = writeTree(tempDir('cli-watch'), { 'AGENTS.md': '# Bot\n\nBe helpful.\n', ...SCENARIO_TREE });
    dirs.push(root);
    const io = startWatch(root);
    await waitForText(io.stdout, 'watching for changes');
    await runWatchScenario(root, {
      runs: () => runsIn(io.stdout()),
      output: () => io.stdout() + io.stderr(),
    });
    expect(io.stderr()).not.toMatch(/at .+\.js:\d+|ZG9001/);
  });

  it('a save by rename and a delete-and-create save are each one run, and the manifest follows', async () => {
    const root = writeTree(tempDir('cli-watch-once'), SCENARIO_TREE);
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    const file = join(root, 'tools/a/index.ts');
    const saves: [string, (text: string) => void][] = [
      [
        'rename over',
        (text) => {
          writeFileSync(`${file}___jb_tmp___`, text);
          renameSync(`${file}___jb_tmp___`, file);
        },
      ],
      [
        'delete and create',
        (text) => {
          unlinkSync(file);
          writeFileSync(file, text);
        },
      ],
    ];
    let version = 0;
    for (const [how, save] of saves)
      for (let i = 0; i < 3; i++) {
        const runs = runsIn(io.stdout());
        const text = SCENARIO_TOOL.replaceAll('Version 0', `Version ${++version}`);
        save(text);
        await until(
          () => outputOnDisk(root).includes(`"Version ${version}"`),
          () => `${how} save ${version} in the manifest:\n${io.stdout()}`,
        );
        // Anything a second run would come from (a late event, a re-check) comes within this.
        await new Promise((r) => setTimeout(r, 300));
        expect(runsIn(io.stdout()) - runs, `${how} save ${version}: runs`).toBe(1);
        expect(outputOnDisk(root)).toBe(await freshOutput(root));
      }
  });

  /**
   * Each change, then what the run after it printed (a diagnostic code) or wrote (text in the
   * manifest, which must equal a fresh generate's); last, an edit of `unread` starts no run.
   */
  async function followSteps(
    io: ReturnType<typeof startWatch>,
    root: string,
    steps: readonly (readonly [string, () => void, string])[],
    unread: string,
  ): Promise<void> {
    for (const [what, change, expected] of steps) {
      // A diagnostic counts only when a run after this change printed it.
      const printed = io.stderr().length;
      change();
      await until(
        () => (expected.startsWith('ZG') ? io.stderr().slice(printed) : outputOnDisk(root)).includes(expected),
        () => `${what}: "${expected}" after it:\n${io.stdout()}${io.stderr()}`,
      );
      if (!expected.startsWith('ZG')) expect(outputOnDisk(root), what).toBe(await freshOutput(root));
    }
    // The last change may still start a second run after its output is on disk (the burst's
    // file, seen by the check after the run that attached its new folder): count once the runs
    // have settled, so only a run the edit of `unread` started can make a difference.
    const runs = await settledRuns(io);
    writeFileSync(unread, 'export const other = 2;\n');
    await new Promise((r) => setTimeout(r, 500));
    expect(runsIn(io.stdout())).toBe(runs);
  }

  /** The runs printed so far, once no new one has come for 300 ms. */
  async function settledRuns(io: ReturnType<typeof startWatch>): Promise<number> {
    for (let i = 0; i < 20; i++) {
      const runs = runsIn(io.stdout());
      await new Promise((r) => setTimeout(r, 300));
      if (runsIn(io.stdout()) === runs) return runs;
    }
    throw new Error(`watch kept running:\n${io.stdout()}`);
  }

  it('follows a src/ module a schema imports (the earlier zhin.js layout): edits, a file that wins the import, removal, re-creation of its folder; and ignores the rest of src/', async () => {
    const schema = srcSchema;
    const root = writeTree(tempDir('cli-watch-src'), {
      'tools/t/index.ts': `import { defineAgentTool } from '@zhin.js/tool';\nimport { s } from '../../src/lib/s.js';\nexport default defineAgentTool({ description: 'Reads src', inputSchema: s, execute: async () => 'ok' });\n`,
      'src/lib/s.js': schema('first'),
      'src/other.ts': 'export const other = 1;\n',
    });
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    const steps: [string, () => void, string][] = [
      ['an edit of the imported module', () => writeFileSync(join(root, 'src/lib/s.js'), schema('edited')), 'edited'],
      [
        'a .ts beside the .js (TypeScript resolves it first)',
        () => writeFileSync(join(root, 'src/lib/s.ts'), schema('typed')),
        'typed',
      ],
      ['the .ts removed', () => unlinkSync(join(root, 'src/lib/s.ts')), 'edited'],
      [
        'the folder removed and made again',
        () => {
          rmSync(join(root, 'src/lib'), { recursive: true });
          mkdirSync(join(root, 'src/lib'));
        },
        'ZG2023',
      ],
      [
        'the module written into the new folder',
        () => writeFileSync(join(root, 'src/lib/s.js'), schema('again')),
        'again',
      ],
      // A watch sees what happens after it is attached: these name no file in an event.
      ['the folder moved away', () => renameSync(join(root, 'src/lib'), join(root, 'src/moved')), 'ZG2023'],
      ['the folder moved back', () => renameSync(join(root, 'src/moved'), join(root, 'src/lib')), 'again'],
      ['the folder removed', () => rmSync(join(root, 'src/lib'), { recursive: true }), 'ZG2023'],
      [
        'the folder and its module made in one burst',
        () => {
          mkdirSync(join(root, 'src/lib'));
          writeFileSync(join(root, 'src/lib/s.js'), schema('burst'));
        },
        'burst',
      ],
    ];
    await followSteps(io, root, steps, join(root, 'src/other.ts'));
  });

  it('follows a workspace package module outside the root that a schema imports: edits, a file that wins the import, its removal, its folder moved, removed and made again; and ignores the rest of the package', async () => {
    const base = writeTree(tempDir('cli-watch-workspace'), {
      'apps/bot/tools/t/index.ts': `import { defineAgentTool } from '@zhin.js/tool';\nimport { s } from '../../../../packages/shared/src/s.js';\nexport default defineAgentTool({ description: 'Reads a package', inputSchema: s, execute: async () => 'ok' });\n`,
      'packages/shared/src/s.js': srcSchema('first'),
      'packages/shared/src/other.ts': 'export const other = 1;\n',
    });
    dirs.push(base);
    const root = join(base, 'apps/bot');
    const shared = join(base, 'packages/shared/src');
    const io = await watchedAfterFirstRun(root);
    await followSteps(
      io,
      root,
      [
        ['an edit of the imported module', () => writeFileSync(join(shared, 's.js'), srcSchema('edited')), 'edited'],
        ['a .ts beside the .js', () => writeFileSync(join(shared, 's.ts'), srcSchema('typed')), 'typed'],
        ['the .ts removed', () => unlinkSync(join(shared, 's.ts')), 'edited'],
        // The package's folder is watched alone (never the root's parents): when it goes, the
        // nearest folder above it that exists is watched instead, until it comes back.
        ['the folder moved away', () => renameSync(shared, join(base, 'packages/shared/moved')), 'ZG2023'],
        ['the folder moved back', () => renameSync(join(base, 'packages/shared/moved'), shared), 'edited'],
        ['the folder removed', () => rmSync(shared, { recursive: true }), 'ZG2023'],
        [
          'the folder and its module made again in one burst',
          () => {
            mkdirSync(shared);
            writeFileSync(join(shared, 's.js'), srcSchema('again'));
            writeFileSync(join(shared, 'other.ts'), 'export const other = 1;\n');
          },
          'again',
        ],
        ['an edit in the folder made again', () => writeFileSync(join(shared, 's.js'), srcSchema('later')), 'later'],
        [
          'the whole package removed and made again',
          () => {
            rmSync(join(base, 'packages/shared'), { recursive: true });
            mkdirSync(shared, { recursive: true });
            writeFileSync(join(shared, 's.js'), srcSchema('rebuilt'));
            writeFileSync(join(shared, 'other.ts'), 'export const other = 1;\n');
          },
          'rebuilt',
        ],
      ],
      join(shared, 'other.ts'),
    );
  });

  it('an edit of a workspace module made while a run that reads it is in flight is not lost', async () => {
    // A schema Zod has to evaluate (it reads a Node built-in), so a run spends hundreds of ms in
    // the schema stage, where the unit cache holds the tool's new entry without the module among
    // its dependencies yet: an event asked about then was dropped as irrelevant, for good.
    const shared = (field: string) =>
      `import { z } from 'zod';\nimport { sep } from 'node:path';\nexport const s = z.object({ ${field}: z.string().describe(sep) });\n`;
    const tool = (description: string) =>
      `import { defineAgentTool } from '@zhin.js/tool';\nimport { s } from '../../../../packages/shared/src/s';\nexport default defineAgentTool({ description: '${description}', inputSchema: s, execute: async () => 'ok' });\n`;
    const base = writeTree(tempDir('cli-watch-mid-run'), {
      'apps/bot/tools/t/index.ts': tool('Version 0'),
      'packages/shared/src/s.ts': shared('field0'),
    });
    dirs.push(base);
    const root = join(base, 'apps/bot');
    const io = startWatch(root, { ZHIN_GEN_STATIC_SCHEMAS: '0', ZHIN_GEN_WATCH_PREWARM: '0' });
    await waitForText(io.stdout, 'watching for changes');
    await until(
      () => runsIn(io.stdout()) === 1,
      () => `the first run:\n${io.stdout()}`,
    );
    for (let i = 1; i <= 3; i++) {
      // The tool's save starts a run; the module's, a moment later, lands while it evaluates the schema.
      writeTree(base, { 'apps/bot/tools/t/index.ts': tool(`Version ${i}`) });
      await new Promise((r) => setTimeout(r, 150));
      writeTree(base, { 'packages/shared/src/s.ts': shared(`field${i}`) });
      await until(
        () => outputOnDisk(root).includes(`field${i}`),
        () => `the module's edit ${i} in the manifest:\n${io.stdout()}${io.stderr()}`,
      );
    }
    expect(outputOnDisk(root)).toBe(await freshOutput(root));
  });

  it('an edit made while the first run is in flight is not lost', async () => {
    // Enough tools, and no cache, that the first run takes a while after "watching" is printed.
    const tools: Record<string, string> = {};
    for (let i = 0; i < 300; i++) tools[`tools/t${i}/index.ts`] = SCENARIO_TOOL.replaceAll('Version 0', `Tool ${i}`);
    const root = writeTree(tempDir('cli-watch-first-run'), tools);
    dirs.push(root);
    const io = startWatch(root);
    await waitForText(io.stdout, 'watching for changes');
    // Saves keep coming until the first run has reported: whichever of them landed after the
    // run had read the file must reach the manifest through the next run.
    let version = 0;
    while (runsIn(io.stdout()) === 0) {
      writeTree(root, {
        'tools/t7/index.ts': SCENARIO_TOOL.replaceAll('Version 0', `Edited during the first run ${++version}`),
        [`tools/new${version}/index.ts`]: SCENARIO_TOOL.replaceAll('Version 0', `Created during it ${version}`),
      });
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(version, 'saves made while the first run was in flight').toBeGreaterThan(1);
    await until(
      () =>
        outputOnDisk(root).includes(`"Edited during the first run ${version}"`) &&
        outputOnDisk(root).includes(`"Created during it ${version}"`),
      () => `the last saves in the manifest:\n${io.stdout()}`,
    );
    // The texts above are in a shard, written before search.ts and the manifest of the same run:
    // wait for that run's last file rather than compare in the middle of its writes.
    const fresh = await freshOutput(root);
    await until(
      () => outputOnDisk(root) === fresh,
      () => `the generated files equal to a fresh run's:\n${io.stdout()}`,
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'holds one system watch per directory the walk enters (none per file, none below src/ or node_modules/)',
    async () => {
      const tree: Record<string, string> = { ...SCENARIO_TREE, 'AGENTS.md': '# Bot\n' };
      for (let i = 0; i < 20; i++) {
        tree[`tools/t${i}/index.ts`] = SCENARIO_TOOL.replaceAll('Version 0', `Tool ${i}`);
        tree[`tools/t${i}/lib/helper.ts`] = 'export const helper = 1;\n';
        tree[`src/s${i}/index.ts`] = 'export {};\n';
        tree[`node_modules/p${i}/index.js`] = 'module.exports = 1;\n';
      }
      tree['plugins/child/tools/far/index.ts'] = SCENARIO_TOOL;
      tree['plugins/child/docs/guide.md'] = '# Guide\n';
      const root = writeTree(tempDir('cli-watch-watches'), tree);
      dirs.push(root);
      const io = startWatch(root);
      await waitForText(io.stdout, 'watching for changes');
      // root, tools, tools/{a,b}, tools/t0..19 and their lib/, plugins, plugins/child, its tools and tools/far.
      const entered = 1 + 1 + 2 + 20 * 2 + 1 + 1 + 1 + 1;
      expect(inotifyWatches(watchProcess()!.pid!)).toBe(entered);
    },
  );

  it('stops cleanly on SIGTERM', async () => {
    const root = writeTree(tempDir('cli-watch-stop'), SCENARIO_TREE);
    dirs.push(root);
    const io = startWatch(root);
    await waitForText(io.stdout, 'watching for changes');
    const exited = new Promise<number | null>((r) => watchProcess()!.once('exit', (code) => r(code)));
    watchProcess()!.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(io.stderr()).toBe('');
  });

  it('its own output redirected into the root (`watch > watch.log`) runs once, not for every line it writes', async () => {
    const root = writeTree(tempDir('cli-watch-log'), SCENARIO_TREE);
    dirs.push(root);
    const log = join(root, 'watch.log');
    const fd = openSync(log, 'w');
    const child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'watch', '--root', root], {
      stdio: ['ignore', fd, fd],
      env: { ...process.env, NO_COLOR: '1' },
    });
    closeSync(fd);
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const runs = () => runsIn(readFileSync(log, 'utf8'));
      await until(
        () => runs() === 1,
        () => `the first run in ${readFileSync(log, 'utf8')}`,
      );
      // A root file no unit reads: no run either.
      writeFileSync(join(root, 'notes.txt'), 'hi\n');
      await new Promise((r) => setTimeout(r, 1500));
      expect(runs()).toBe(1);
      // An edit of the tree still runs.
      writeFileSync(join(root, 'tools', 'a', 'index.ts'), tool('Version 1'));
      await until(
        () => runs() === 2,
        () => `the edit's run in ${readFileSync(log, 'utf8')}`,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(runs()).toBe(2);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('stops cleanly on Ctrl+C before it watches (the configuration still loading): exit 0, nothing written', async () => {
    const root = writeTree(tempDir('cli-watch-early'), {
      ...SCENARIO_TREE,
      // A config that takes its time, and says when it has started loading.
      'zhin-gen.config.mjs':
        "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.ZG_TEST_MARK, '');\nawait new Promise((r) => setTimeout(r, 1500));\nexport default {};\n",
    });
    dirs.push(root);
    const mark = join(root, '..', `${root.split('/').pop()}.loading`);
    const io = startWatch(root, { ZG_TEST_MARK: mark });
    await until(
      () => existsSync(mark),
      () => 'the config to start loading',
    );
    const exited = new Promise<[number | null, string | null]>((r) =>
      watchProcess()!.once('exit', (code, signal) => r([code, signal])),
    );
    watchProcess()!.kill('SIGINT');
    expect(await exited).toEqual([0, null]);
    rmSync(mark, { force: true });
    expect(io.stdout()).not.toContain('watching for changes');
    expect(io.stderr()).toBe('');
    expect(existsSync(join(root, 'zhin-capabilities.gen.ts'))).toBe(false);
  });

  it('pre-warms the edit path after the first run: runs that write, report and hold up nothing', async () => {
    const root = writeTree(tempDir('cli-watch-prewarm'), SCENARIO_TREE);
    dirs.push(root);
    const io = startWatch(root, { ZHIN_GEN_WATCH_TRACE: '1', ZHIN_GEN_WATCH_PREWARM: '3' });
    await waitForText(io.stdout, 'watching for changes');
    await until(
      () => runsIn(io.stdout()) === 1,
      () => `the first run:\n${io.stdout()}`,
    );
    const written = outputOnDisk(root);
    const stamps = (): string[] => {
      const files = [join(root, 'zhin-capabilities.gen.ts')];
      const folder = join(root, 'zhin-capabilities.gen.validators');
      for (const name of readdirSync(folder).sort()) files.push(join(folder, name));
      return files.map((file) => `${file}:${statSync(file).mtimeMs}`);
    };
    const before = stamps();
    const prewarms = (): number =>
      io
        .stderr()
        .split('\n')
        .filter((line) => line.includes('"prewarm":true')).length;
    await until(
      () => prewarms() === 3,
      () => `three pre-warm runs:\n${io.stderr()}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(prewarms(), 'no more than asked for').toBe(3);
    // Nothing reported, nothing rewritten: the files are the first run's, bytes and stamps.
    expect(runsIn(io.stdout())).toBe(1);
    expect(outputOnDisk(root)).toBe(written);
    expect(stamps()).toEqual(before);
    // A save afterwards is one run and reaches the manifest.
    writeFileSync(join(root, 'tools/a/index.ts'), SCENARIO_TOOL.replaceAll('Version 0', 'After the warm-up'));
    await until(
      () => outputOnDisk(root).includes('"After the warm-up"'),
      () => `the save in the manifest:\n${io.stdout()}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(runsIn(io.stdout())).toBe(2);
    expect(outputOnDisk(root)).toBe(await freshOutput(root));
  });

  it.each([
    ['ENOSPC', 'fs.inotify.max_user_watches'],
    ['EMFILE', 'ulimit -n'],
  ])('an exhausted watcher (%s) is an error naming the fix, and watch exits 1', async (code, fix) => {
    const root = writeTree(tempDir('cli-watch-limit'), SCENARIO_TREE);
    dirs.push(root);
    // The real watcher's own error event carries the error the system would raise.
    const io = startWatch(root, { ZHIN_GEN_WATCH_FAULT: code });
    const exited = await new Promise<number | null>((r) => watchProcess()!.once('exit', (status) => r(status)));
    expect(exited).toBe(1);
    expect(io.stderr()).toContain(`zhin-gen: error: file watching stopped`);
    expect(io.stderr()).toContain(`(${code}) while watching ${root}`);
    expect(io.stderr()).toContain(fix);
    expect(io.stderr()).not.toMatch(/\n\s+at |ZG9001/);
    expect(io.stdout()).not.toContain('watching for changes');
  });
});
