/**
 * The declarations every `exports` entry of zhin-gen ships reach no parser's types: a bot that
 * type-checks its vite.config.ts (or calls the compiler API) with `skipLibCheck: false` checks
 * zhin-gen's declarations, and TypeScript's and ts-morph's own are about 23,000 lines it would
 * check with them. The walk follows every relative import of the built declarations (dist/,
 * made by `npm test`'s build), so a type reached through any chain of files is found.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir, writeTree } from '../helpers.js';

/** Packages the compiler uses internally; no public type names anything of theirs. */
const INTERNAL = new Set(['typescript', 'ts-morph']);

interface Reached {
  /** Every declaration file reached, relative to the repository. */
  readonly files: readonly string[];
  /** Each internal package reached, with the chain of files that reaches it (entry first). */
  readonly internal: readonly string[];
}

function walk(entry: string): Reached {
  const from = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  const internal: string[] = [];
  const chain = (file: string): string[] => {
    const out: string[] = [];
    for (let f: string | undefined = file; f !== undefined; f = from.get(f)) out.unshift(relative(REPO, f));
    return out;
  };
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) {
        const name = fileName.startsWith('@') ? fileName.split('/').slice(0, 2).join('/') : fileName.split('/')[0]!;
        if (INTERNAL.has(name)) internal.push(`${name} <- ${chain(file).reverse().join(' <- ')}`);
        continue;
      }
      const target = resolve(dirname(file), fileName.replace(/\.js$/, '.d.ts'));
      expect(existsSync(target), `${relative(REPO, file)} imports ${fileName}`).toBe(true);
      if (!from.has(target)) {
        from.set(target, file);
        queue.push(target);
      }
    }
  }
  return { files: [...from.keys()].map((f) => relative(REPO, f)), internal };
}

type Exports = Record<string, string | { readonly types?: string }>;
const exportsOf = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { exports: Exports }).exports;
const typed = Object.entries(exportsOf).flatMap(([entry, target]) =>
  typeof target === 'object' && target.types?.startsWith('./dist/') ? [[entry, target.types] as const] : [],
);

describe('the shipped declarations', () => {
  it('cover the entries this test walks', () => {
    expect(typed.map(([entry]) => entry)).toEqual(expect.arrayContaining(['.', './vite', './webpack', './runtime']));
  });

  it.each(typed)('%s reaches no TypeScript or ts-morph types', (_entry, types) => {
    const reached = walk(join(REPO, types));
    expect(reached.files.length).toBeGreaterThan(0);
    expect(reached.internal).toEqual([]);
  });

  it('the walk sees an internal import two files down', () => {
    const dir = tempDir('declarations');
    writeTree(dir, {
      'entry.d.ts': "export type { Options } from './options.js';\n",
      'options.d.ts': "import type { Lit } from './lit.js';\nexport interface Options { readonly lit?: Lit }\n",
      'lit.d.ts': "import type { ts } from 'ts-morph';\nexport type Lit = ts.Node;\n",
    });
    const reached = walk(join(dir, 'entry.d.ts'));
    removeDir(dir);
    expect(reached.files).toHaveLength(3);
    expect(reached.internal).toHaveLength(1);
    expect(reached.internal[0]).toMatch(/^ts-morph <- .*lit\.d\.ts <- .*options\.d\.ts <- .*entry\.d\.ts$/);
  });
});
