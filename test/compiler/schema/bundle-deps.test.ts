/**
 * The pieces of a bundled schema's dependencies (compiler/schema/bundle-deps.ts): esbuild's
 * candidate order for a relative import (checked against esbuild itself: the first candidate
 * that exists is the file it bundles), package names, Node's node_modules lookup, and the
 * package a file inside node_modules belongs to.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  packageCandidates,
  packageManifestOf,
  packageName,
  relativeCandidates,
} from '../../../compiler/schema/bundle-deps.js';
import { removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('relativeCandidates', () => {
  it.each([
    ['./h.js', ['h.js', 'h.js.ts', 'h.ts']],
    ['./d.js', ['d.js.ts', 'd.ts', 'd.js/index.ts']],
    ['./lib', ['lib.tsx', 'lib.json', 'lib/package.json', 'lib/index.ts', 'lib/index.js']],
    ['./m.mjs', ['m.mjs', 'm.mts']],
  ])('%s: esbuild bundles the first of the candidates that exists', async (specifier, present) => {
    const all = relativeCandidates('/x', specifier).map((file) => path.relative('/x', file));
    // Every file named is a candidate, in esbuild's order.
    const order = present.map((file) => all.indexOf(file));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Take away the winner one by one: esbuild moves on to the next candidate each time.
    const dir = tempDir('bundle-deps');
    dirs.push(dir);
    for (let i = 0; i < present.length; i++) {
      const root = path.join(dir, String(i));
      for (const file of present.slice(i)) {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(
          path.join(root, file),
          file.endsWith('package.json')
            ? JSON.stringify({ main: 'index.js' })
            : file.endsWith('.json')
              ? '{"x":1}'
              : 'export const x = 1;\n',
        );
      }
      writeFileSync(path.join(root, 'entry.ts'), `import * as m from '${specifier}';\nconsole.log(m);\n`);
      const result = await build({
        entryPoints: [path.join(root, 'entry.ts')],
        bundle: true,
        write: false,
        metafile: true,
        logLevel: 'silent',
        absWorkingDir: root,
      });
      const inputs = Object.keys(result.metafile.inputs).filter((input) => input !== 'entry.ts');
      // A directory with a package.json resolves through its main field (index.js here).
      const expected = present[i]!.endsWith('package.json')
        ? present[i]!.replace('package.json', 'index.js')
        : present[i]!;
      expect(inputs, `${specifier} with ${present.slice(i).join(', ')}`).toEqual([expected]);
    }
  });
});

describe('packages', () => {
  it.each([
    ['zod', 'zod'],
    ['zod/v4', 'zod'],
    ['@scope/pkg/sub', '@scope/pkg'],
    ['node:path', undefined],
    ['fs', undefined],
    ['#internal', undefined],
  ])('%s names %s', (specifier, name) => {
    expect(packageName(specifier)).toBe(name);
  });

  it('looks for a package in each directory up to the file system root, skipping node_modules folders', () => {
    expect(packageCandidates('/a/node_modules/b/src', 'zod')).toEqual([
      '/a/node_modules/b/src/node_modules/zod/package.json',
      '/a/node_modules/b/node_modules/zod/package.json',
      '/a/node_modules/zod/package.json',
      '/node_modules/zod/package.json',
    ]);
  });

  it('finds the package a file inside node_modules belongs to (scoped, nested, pnpm)', () => {
    expect(packageManifestOf('/r/node_modules/zod/v4/core/index.js')).toBe('/r/node_modules/zod/package.json');
    expect(packageManifestOf('/r/node_modules/@s/p/dist/x.js')).toBe('/r/node_modules/@s/p/package.json');
    expect(packageManifestOf('/r/node_modules/.pnpm/zod@4.1.0/node_modules/zod/index.js')).toBe(
      '/r/node_modules/.pnpm/zod@4.1.0/node_modules/zod/package.json',
    );
    expect(packageManifestOf('/r/src/x.js')).toBeUndefined();
  });
});
