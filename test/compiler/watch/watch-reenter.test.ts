/**
 * `zhin-gen watch` attaches what becomes relevant after the start below folders it watches
 * already (watch/tree.ts `add` re-enters a watched folder): a plugin folder a new configuration
 * names, and a schema module's folder beside one it follows already. Before, both stayed
 * unwatched until a restart, and their edits never reached the manifest.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';
import { freshOutput, outputOnDisk } from '../../watch-scenarios.js';
import { runsIn, stopWatch, until, watchedAfterFirstRun } from './watch-process.js';

const dirs: string[] = [];
afterEach(async () => {
  await stopWatch();
  dirs.splice(0).forEach(removeDir);
});

const tool = (description: string, schemaImport = ''): string =>
  `import { defineAgentTool } from '@zhin.js/tool';\n${schemaImport ? `import { s } from '${schemaImport}';\n` : ''}export default defineAgentTool({ description: ${JSON.stringify(description)}, ${schemaImport ? 'inputSchema: s, ' : ''}execute: async () => 'ok' });\n`;

const schema = (field: string): string =>
  `import { z } from 'zod';\nexport const s = z.object({ ${field}: z.string() });\n`;

async function reaches(root: string, io: { stdout: () => string; stderr: () => string }, text: string): Promise<void> {
  await until(
    () => outputOnDisk(root).includes(text),
    () => `"${text}" in the manifest:\n${io.stdout()}\n${io.stderr()}`,
  );
}

describe('zhin-gen watch re-enters folders it watches', () => {
  it('follows a plugin folder the configuration starts to name while it runs', async () => {
    const root = writeTree(tempDir('watch-reenter-config'), {
      'tools/alpha/index.ts': tool('Alpha tool'),
      'ext/extra/tools/xt/index.ts': tool('Extra tool'),
    });
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    writeFileSync(join(root, 'zhin-gen.config.json'), JSON.stringify({ plugins: { extra: 'ext/extra' } }));
    await reaches(root, io, 'extra__xt');
    writeTree(root, { 'ext/extra/tools/xt/index.ts': tool('Extra tool, edited') });
    await reaches(root, io, 'Extra tool, edited');
    writeTree(root, { 'ext/extra/tools/yt/index.ts': tool('Another extra tool') });
    await reaches(root, io, 'extra__yt');
    expect(outputOnDisk(root)).toBe(await freshOutput(root));
  });

  it("follows a schema module's folder beside one it follows already", async () => {
    const root = writeTree(tempDir('watch-reenter-sibling'), {
      'tools/alpha/index.ts': tool('Alpha tool', '../../src/a/frag.js'),
      'src/a/frag.ts': schema('fromA'),
      'src/b/frag.ts': schema('fromB'),
    });
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    writeTree(root, { 'tools/gamma/index.ts': tool('Gamma tool', '../../src/b/frag.js') });
    await reaches(root, io, 'fromB');
    writeTree(root, { 'src/b/frag.ts': schema('fromB2') });
    await reaches(root, io, 'fromB2');
    expect(outputOnDisk(root)).toBe(await freshOutput(root));
  });

  it('walks afresh when a configured plugin folder appears, is duplicated by plugins/<key>, or goes: the diagnostics of a fresh run', async () => {
    const root = writeTree(tempDir('watch-reenter-configured'), {
      'tools/alpha/index.ts': tool('Alpha tool'),
      'zhin-gen.config.json': JSON.stringify({ plugins: { extra: 'ext/extra' } }),
    });
    dirs.push(root);
    const io = await watchedAfterFirstRun(root);
    const fresh = async (): Promise<string[]> => {
      const compiler = createCompiler({ root, cacheFile: false });
      const result = await compiler.run({ write: false });
      await compiler.dispose();
      return result.diagnostics.map((d) => d.code);
    };
    const step = async (what: string, change: () => void, error: boolean): Promise<void> => {
      const runs = runsIn(io.stdout());
      change();
      await until(
        () => runsIn(io.stdout()) > runs,
        () => `a run after ${what}:\n${io.stdout()}\n${io.stderr()}`,
      );
      const last = io.stdout().trim().split('\n').at(-1)!;
      expect(last.endsWith('— last good manifest kept'), `${what}: ${last}`).toBe(error);
      expect((await fresh()).includes('ZG1008'), what).toBe(error);
    };
    expect((await fresh()).includes('ZG1008')).toBe(true);
    await step(
      'the configured folder made',
      () => {
        mkdirSync(join(root, 'ext/extra/tools/xt'), { recursive: true });
        writeFileSync(join(root, 'ext/extra/tools/xt/index.ts'), tool('Extra tool'));
      },
      false,
    );
    await reaches(root, io, 'extra__xt');
    await step(
      'plugins/extra made beside it',
      () => writeTree(root, { 'plugins/extra/tools/dup/index.ts': tool('Dup') }),
      true,
    );
    await step('plugins/extra removed', () => rmSync(join(root, 'plugins'), { recursive: true }), false);
    expect(outputOnDisk(root)).toBe(await freshOutput(root));
    await step(
      'the configured folder moved away',
      () => renameSync(join(root, 'ext/extra'), join(root, 'moved')),
      true,
    );
  });
});

describe('zhin-gen watch and links to files', () => {
  it('an edit of the file a tool module links to reaches the manifest', async () => {
    const root = writeTree(tempDir('watch-file-link'), {
      'tools/alpha/index.ts': tool('Alpha tool'),
      'shared/x/index.ts': tool('Shared tool'),
    });
    dirs.push(root);
    mkdirSync(join(root, 'tools/x'));
    symlinkSync(join('..', '..', 'shared', 'x', 'index.ts'), join(root, 'tools/x/index.ts'));
    const io = await watchedAfterFirstRun(root);
    expect(outputOnDisk(root)).toContain('Shared tool');
    writeTree(root, { 'shared/x/index.ts': tool('Shared tool, edited') });
    await reaches(root, io, 'Shared tool, edited');
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toBe(await freshCode(root));
    // The target removed: the diagnostics of a fresh run (a broken link, a folder without index.ts).
    const runs = runsIn(io.stdout());
    rmSync(join(root, 'shared/x/index.ts'));
    await until(
      () => runsIn(io.stdout()) > runs,
      () => `a run after the target's removal:\n${io.stdout()}`,
    );
    const fresh = createCompiler({ root, cacheFile: false });
    const expected = (await fresh.run({ write: false })).diagnostics.map((d) => d.code);
    await fresh.dispose();
    expect(expected).toContain('ZG1005');
    // stderr and stdout are two pipes: the run's summary line may come before its diagnostics.
    await until(
      () => expected.every((code) => io.stderr().includes(code)),
      () => `${expected.join(', ')} reported:\n${io.stderr()}`,
    );
    expect(io.stderr()).not.toContain('ZG1006');
    // Made again: the link leads to it again.
    writeTree(root, { 'shared/x/index.ts': tool('Shared tool, back') });
    await reaches(root, io, 'Shared tool, back');
  });

  it('a link through another link, and links into a dot folder and node_modules/', async () => {
    const root = writeTree(tempDir('watch-link-chain'), {
      'tools/alpha/index.ts': tool('Alpha tool'),
      'shared/b.ts': tool('B one'),
      'shared/b2.ts': tool('B two'),
      '.shared/a.ts': tool('Dot one'),
      'vendor/node_modules/x/c.ts': tool('Vendored one'),
    });
    dirs.push(root);
    // Of one size and one date: only the inode tells the link's new target from its old one.
    const past = Date.now() / 1000 - 60;
    for (const name of ['shared/b.ts', 'shared/b2.ts']) utimesSync(join(root, name), past, past);
    symlinkSync('b.ts', join(root, 'shared/b-link.ts'));
    for (const [name, target] of [
      ['b', '../../shared/b-link.ts'],
      ['dot', '../../.shared/a.ts'],
      ['vendored', '../../vendor/node_modules/x/c.ts'],
    ]) {
      mkdirSync(join(root, 'tools', name!));
      symlinkSync(target!, join(root, 'tools', name!, 'index.ts'));
    }
    const io = await watchedAfterFirstRun(root);
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('B one');
    // The link on the way retargeted.
    rmSync(join(root, 'shared/b-link.ts'));
    symlinkSync('b2.ts', join(root, 'shared/b-link.ts'));
    await reaches(root, io, 'B two');
    writeTree(root, { '.shared/a.ts': tool('Dot two'), 'vendor/node_modules/x/c.ts': tool('Vendored two') });
    await reaches(root, io, 'Dot two');
    await reaches(root, io, 'Vendored two');
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toBe(await freshCode(root));
  });

  it('a linked tool folder whose target goes and comes back, and a broken link whose target appears', async () => {
    const root = writeTree(tempDir('watch-dir-link'), {
      'tools/alpha/index.ts': tool('Alpha tool'),
      'shared/dt/index.ts': tool('Linked folder tool'),
    });
    dirs.push(root);
    symlinkSync(join('..', 'shared', 'dt'), join(root, 'tools/dt'), 'dir');
    symlinkSync(join('..', 'nowhere'), join(root, 'tools/dangle'), 'dir');
    const io = await watchedAfterFirstRun(root);
    const manifest = (): string => readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
    expect(manifest()).toContain('Linked folder tool');
    const settles = async (what: string, check: (text: string) => boolean): Promise<void> => {
      await until(
        () => check(manifest()),
        () => `${what}:\n${io.stdout()}\n${io.stderr()}`,
      );
      await until(
        () => !io.stdout().trim().endsWith('last good manifest kept'),
        () => `${what}, a clean run:\n${io.stdout()}\n${io.stderr()}`,
      );
      expect(manifest(), what).toBe(await freshCode(root));
    };
    rmSync(join(root, 'shared/dt'), { recursive: true });
    await settles('the linked folder gone', (text) => !text.includes('Linked folder tool'));
    writeTree(root, { 'shared/dt/index.ts': tool('Linked folder tool, back') });
    await settles('the linked folder back', (text) => text.includes('Linked folder tool, back'));
    writeTree(root, { 'nowhere/index.ts': tool('Once dangling') });
    await settles('the broken link target made', (text) => text.includes('Once dangling'));
  });
});

/** What a fresh run on the tree itself writes (a copy would make the links absolute, pointing out of it). */
async function freshCode(root: string): Promise<string | undefined> {
  const fresh = createCompiler({ root, cacheFile: false });
  const result = await fresh.run({ write: false });
  await fresh.dispose();
  return result.code;
}
