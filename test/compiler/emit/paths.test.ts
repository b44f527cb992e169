/**
 * Import specifiers (compiler/emit/paths.ts): the segment-wise answer for plain paths must be
 * what resolving both paths against the root and taking `posix.relative` gives, for outputs at
 * the root, in folders, beside and below the sources, and outside the root.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifier } from '../../../compiler/emit/paths.js';

/** The specifier by resolving both paths (what importSpecifier did for every path). */
function resolved(root: string, outRel: string, source: string): string {
  const base = posix.join('/', root);
  const rel = posix.relative(posix.dirname(posix.join(base, outRel)), posix.join(base, source));
  return rel.startsWith('../') ? rel : `./${rel}`;
}

const OUTS = [
  'zhin-capabilities.gen.ts',
  'zhin-capabilities.gen.validators/shard.ts',
  'src/gen/caps.gen.ts',
  'tools/caps.gen.ts',
  'tools/a/caps.gen.ts',
  'tools/ab/caps.gen.ts',
  '../gen/caps.gen.ts',
  './caps.gen.ts',
  'src//caps.gen.ts',
];
const SOURCES = [
  'tools/a/index.ts',
  'tools/ab/index.ts',
  'tools/a/b/c/index.mts',
  'plugins/p/tools/x/index.ts',
  'src/gen/helper.ts',
  'index.ts',
  'tools/./a/index.ts',
  'tools/../other/index.ts',
  'zhin-capabilities.gen.validators/0123456789abcdef.ts',
];

describe('importSpecifier', () => {
  it('gives the resolved relative path for every output and source', () => {
    for (const root of ['/work/bot', '/']) {
      for (const outRel of OUTS) {
        for (const source of SOURCES) {
          expect(importSpecifier(root, outRel, source, '.ts'), `${outRel} → ${source}`).toBe(
            resolved(root, outRel, source),
          );
        }
      }
    }
  });

  it('maps the extension after the path', () => {
    expect(importSpecifier('/r', 'caps.gen.ts', 'tools/a/index.ts', '.js')).toBe('./tools/a/index.js');
    expect(importSpecifier('/r', 'gen/caps.gen.ts', 'tools/a/index.mts', '.js')).toBe('../tools/a/index.mjs');
    expect(importSpecifier('/r', 'gen/caps.gen.ts', 'tools/a/index.ts', 'none')).toBe('../tools/a/index');
  });
});
