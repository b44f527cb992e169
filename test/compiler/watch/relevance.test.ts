/**
 * The compiler's event relevance (compiler/watch/relevance.ts) slices a path below the root
 * instead of calling `path.relative`: its answers must be the ones scan/watched.ts gives with
 * `path.relative`, for every shape of path a watcher, a bundler or a caller can pass (normalised
 * or not, inside, beside or outside the root, the output and its folder, config files).
 */
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { configuredDirs } from '../../../compiler/scan/fresh-walk.js';
import { ignoredEvent, outsideWalkOf } from '../../../compiler/scan/watched.js';
import { toPosix } from '../../../compiler/scan/walk.js';
import { validatorsDir } from '../../../compiler/write/folder-stamp.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const RELATIVE = [
  '',
  'tools',
  'tools/echo/index.ts',
  'tools/echo/lib/deep/x.ts',
  'tools/.hidden/index.ts',
  'tools/echo/.index.ts.swp',
  'tools/echo/index.ts~',
  'tools/echo/index.ts___jb_tmp___',
  'tools/echo/node_modules/x/index.ts',
  'skills/a/SKILL.md',
  'AGENTS.md',
  'index.ts',
  'package.json',
  'zhin-gen.config.json',
  'zhin-gen.config.ts',
  'sub/zhin-gen.config.json',
  'src',
  'src/internal.ts',
  'docs/guide.md',
  'ext',
  'ext/child',
  'ext/child/tools/far/index.ts',
  'ext/child/src/x.ts',
  'ext/childish/tools/x/index.ts',
  'plugins/inner/tools/x/index.ts',
  'plugins/inner/src/x.ts',
  'zhin-capabilities.gen.ts',
  'zhin-capabilities.gen.ts.123.abc.tmp',
  'zhin-capabilities.gen.validators',
  'zhin-capabilities.gen.validators/tools-0-of-2.ts',
  'zhin-capabilities.gen.validators-not/x.ts',
  '.git/HEAD',
];

/** Each relative path as callers spell it: joined, with `.`/`..`/doubled/trailing separators, outside. */
function spellings(root: string): string[] {
  const out = new Set<string>([root, `${root}${sep}`, `${root}-sibling${sep}tools${sep}x.ts`, join(root, '..'), '/']);
  for (const rel of RELATIVE) {
    const abs = join(root, rel);
    out.add(abs);
    out.add(`${abs}${sep}`);
    out.add(`${root}${sep}.${sep}${rel}`);
    out.add(`${root}${sep}tools${sep}..${sep}${rel}`);
    out.add(`${root}${sep}${sep}${rel}`);
    out.add(rel.replaceAll('/', `${sep}${sep}`) === '' ? root : `${root}${sep}${rel.replaceAll('/', `${sep}${sep}`)}`);
  }
  return [...out];
}

describe('event relevance', () => {
  it('answers as scan/watched.ts does with path.relative, for every spelling of a path', async () => {
    const root = writeTree(tempDir('relevance'), {
      'tools/echo/index.ts': 'export default 1;\n',
      'ext/child/tools/far/index.ts': 'export default 1;\n',
      'zhin-gen.config.json': JSON.stringify({ plugins: { child: 'ext/child' } }),
    });
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    // Before the configuration is known: no output, nothing is outside the walk.
    for (const abs of spellings(compiler.root)) {
      expect(compiler.ignores(abs), abs).toBe(ignoredEvent(compiler.root, undefined, abs));
      expect(compiler.outsideWalk(abs, undefined), abs).toBe(false);
    }
    const options = await compiler.prepare();
    const output = {
      outFile: options.outFile,
      generatedDir: validatorsDir(compiler.root, toPosix(relative(compiler.root, options.outFile))),
    };
    const configured = configuredDirs(compiler.root, options);
    // The configured folder, and the paths that decide what it resolves to (scan/configured.ts).
    expect(configured).toEqual(['ext/child', 'plugins/child']);
    let sliced = 0;
    for (const abs of spellings(compiler.root)) {
      const rel = toPosix(relative(compiler.root, abs));
      if (abs.startsWith(compiler.root + sep) && !abs.includes(`${sep}.`) && !abs.includes(sep + sep)) sliced++;
      expect(compiler.ignores(abs), abs).toBe(ignoredEvent(compiler.root, output, abs));
      for (const isDir of [true, false, undefined])
        expect(compiler.outsideWalk(abs, isDir), `${abs} ${isDir}`).toBe(
          outsideWalkOf(compiler.root, configured, abs, isDir),
        );
      expect(compiler.isConfigFile(abs), abs).toBe(
        ['zhin-gen.config.ts', 'zhin-gen.config.mjs', 'zhin-gen.config.json', 'package.json'].includes(rel),
      );
    }
    // The corpus exercises the sliced path, not only the fallback.
    expect(sliced).toBeGreaterThan(RELATIVE.length);
    await compiler.dispose();
  });

  it('outside the root, only what a unit depends on counts: a workspace module and the folders above it', async () => {
    const base = writeTree(tempDir('relevance-outside'), {
      'bot/tools/t/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { s } from '../../../shared/src/s.js';\nexport default defineAgentTool({ description: 'Reads a package', inputSchema: s, execute: async () => 'ok' });\n`,
      'shared/src/s.js': "import { z } from 'zod';\nexport const s = z.object({ a: z.string() });\n",
      'shared/src/other.ts': 'export const other = 1;\n',
    });
    dirs.push(base);
    const compiler = createCompiler({ root: join(base, 'bot') });
    expect((await compiler.run({ write: true })).errors).toBe(0);
    const shared = join(base, 'shared');
    expect(compiler.ignores(join(shared, 'src/s.js'))).toBe(false);
    expect(compiler.ignores(join(shared, 'src'))).toBe(false);
    expect(compiler.ignores(join(shared, 'src/other.ts'))).toBe(true);
    expect(compiler.ignores(join(shared, 'src/.s.js.swp'))).toBe(true);
    expect(compiler.ignores(base)).toBe(true);
    expect(compiler.ignores(join(base, 'elsewhere.ts'))).toBe(true);
    // Watch mode is handed the module with its stamp; never the root's parent folders.
    const deps = compiler.outsideDependencies().map((d) => d.path);
    expect(deps).toContain(join(shared, 'src/s.js'));
    expect(deps.some((p) => p.includes('node_modules'))).toBe(false);
    await compiler.dispose();
  });
});
