/**
 * The dependency folders outside the walk (compiler/watch/dependency-dirs.ts), on a real tree
 * after a real run: which folder is attached, and which files a watch attached only now could not
 * have reported (edited after the run read them, or created inside a folder that appeared).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { DependencyDirs } from '../../../compiler/watch/dependency-dirs.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const schema = (field: string): string =>
  `import { z } from 'zod';\nexport const s = z.object({ ${field}: z.string() });\n`;

async function ranOnce(): Promise<{ root: string; deps: DependencyDirs; compiler: ReturnType<typeof createCompiler> }> {
  const root = writeTree(tempDir('dependency-dirs'), {
    'tools/t/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { s } from '../../src/lib/s.js';\nexport default defineAgentTool({ description: 'Reads src', inputSchema: s, execute: async () => 'ok' });\n`,
    'src/lib/s.js': schema('first'),
    'src/other.ts': 'export const other = 1;\n',
  });
  dirs.push(root);
  const compiler = createCompiler({ root });
  const result = await compiler.run({ write: true });
  expect(result.errors).toBe(0);
  return { root, deps: new DependencyDirs(root, (abs) => compiler.outsideWalk(abs, undefined)), compiler };
}

describe('DependencyDirs', () => {
  it('attaches the highest folder outside the walk, and nothing is reported when the files are as stamped', async () => {
    const { root, deps, compiler } = await ranOnce();
    const attached: string[][] = [];
    expect(deps.follow(compiler.outsideDependencies(), (d) => attached.push(d))).toEqual([]);
    expect(attached).toEqual([[join(root, 'src')]]);
    expect(deps.has(join(root, 'src/lib'))).toBe(true);
    expect(deps.has(join(root, 'src/other.ts'))).toBe(false);
    // Touched, same bytes: the stamp moved, the hash did not.
    utimesSync(join(root, 'src/lib/s.js'), new Date(), new Date(Date.now() + 5000));
    expect(deps.implied({ type: 'addDir', path: join(root, 'src/lib') })).toEqual([]);
    await compiler.dispose();
  });

  it('reports a dependency edited after the run read it, before its folder was watched', async () => {
    const { root, deps, compiler } = await ranOnce();
    writeFileSync(join(root, 'src/lib/s.js'), schema('edited'));
    expect(deps.follow(compiler.outsideDependencies(), () => {})).toEqual([
      { type: 'change', path: join(root, 'src/lib/s.js') },
    ]);
    await compiler.dispose();
  });

  it('a folder on the way that appeared or went implies its dependencies; any other folder implies nothing', async () => {
    const { root, deps, compiler } = await ranOnce();
    deps.follow(compiler.outsideDependencies(), () => {});
    const lib = join(root, 'src/lib');
    const text = readFileSync(join(lib, 's.js'), 'utf8');
    renameSync(lib, join(root, 'src/moved'));
    expect(deps.implied({ type: 'unlinkDir', path: lib })).toEqual([{ type: 'change', path: join(lib, 's.js') }]);
    // A TypeScript candidate the import would now resolve to, made with its folder in one go.
    mkdirSync(lib);
    writeFileSync(join(lib, 's.ts'), text);
    const implied = deps.implied({ type: 'addDir', path: lib }).map((e) => e.path);
    expect(implied).toContain(join(lib, 's.ts'));
    expect(implied).toContain(join(lib, 's.js'));
    expect(deps.implied({ type: 'addDir', path: join(root, 'src/moved') })).toEqual([]);
    expect(deps.implied({ type: 'change', path: join(lib, 's.ts') })).toEqual([]);
    rmSync(join(root, 'src/moved'), { recursive: true });
    await compiler.dispose();
  });

  it('outside the root: attaches the module’s own folder, the nearest existing one above it while it is gone (never the root’s parents), and it again once back', async () => {
    const base = writeTree(tempDir('dependency-dirs-outside'), {
      'apps/bot/tools/t/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { s } from '../../../../packages/pkg/src/s.js';\nexport default defineAgentTool({ description: 'Reads a package', inputSchema: s, execute: async () => 'ok' });\n`,
      'packages/pkg/src/s.js': schema('first'),
    });
    dirs.push(base);
    const root = join(base, 'apps/bot');
    const compiler = createCompiler({ root });
    expect((await compiler.run({ write: true })).errors).toBe(0);
    const deps = new DependencyDirs(root, (abs) => compiler.outsideWalk(abs, undefined));
    const attached: string[][] = [];
    const src = join(base, 'packages/pkg/src');
    expect(deps.follow(compiler.outsideDependencies(), (d) => attached.push(d))).toEqual([]);
    expect(attached).toEqual([[src]]);
    rmSync(join(base, 'packages/pkg'), { recursive: true });
    compiler.notify([{ type: 'change', path: join(src, 's.js') }]);
    await compiler.run({ write: true });
    deps.follow(compiler.outsideDependencies(), (d) => attached.push(d));
    expect(attached.at(-1)).toEqual([join(base, 'packages')]);
    expect(deps.has(join(base, 'packages/pkg'))).toBe(true);
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, 's.js'), schema('again'));
    expect(deps.implied({ type: 'addDir', path: join(base, 'packages/pkg') })).toEqual([
      { type: 'change', path: join(src, 's.js') },
    ]);
    compiler.notify([{ type: 'change', path: join(src, 's.js') }]);
    await compiler.run({ write: true });
    deps.follow(compiler.outsideDependencies(), (d) => attached.push(d));
    expect(attached.at(-1)).toEqual([src]);
    await compiler.dispose();
  });
});
