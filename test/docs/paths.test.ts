/**
 * Every repository path the documentation names in backticks (`runtime/turn/turn.ts`,
 * `compiler/validate/`) exists: a file moved or renamed without its docs fails here instead of
 * leaving a newcomer to search for it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';

const ROOTS = ['compiler', 'runtime', 'vite-plugin', 'test', 'bench', 'scripts', 'docs', 'bin'];
const PATH = new RegExp(`\`((?:${ROOTS.join('|')})/[\\w./-]*)\``, 'g');

const docs = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('paths named in the documentation', () => {
  it.each(docs)('%s names only paths that exist', (doc) => {
    const missing: string[] = [];
    readFileSync(join(REPO, doc), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const match of line.matchAll(PATH)) {
          const path = match[1]!;
          // Build output and per-run folders are made by commands, not committed.
          if (/(^|\/)(dist|tmp|trees)(\/|$)/.test(path)) continue;
          if (!existsSync(join(REPO, path))) missing.push(`${doc}:${i + 1}: ${path}`);
        }
      });
    expect(missing).toEqual([]);
  });
});
