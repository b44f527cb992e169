/**
 * A fresh walk that reuses the last walk's directory listings (scan/listings.ts) lists exactly what
 * a walk without them lists, after every kind of change a directory can see; it reads only the
 * directories that changed; a damaged record costs a full read, never a wrong list; and through a
 * fresh compiler a tool added to a tree with a record reaches the manifest.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { DirListings } from '../../../compiler/scan/listings.js';
import { walkTree } from '../../../compiler/scan/walk.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const TOOL = (name: string): string =>
  `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\nexport default defineAgentTool({\n  description: 'Tool ${name} does things',\n  inputSchema: z.object({ q: z.string() }),\n  async execute() {\n    return 'ok';\n  },\n});\n`;

function tree(): string {
  const root = writeTree(tempDir('listings'), {
    'tools/alpha/index.ts': TOOL('alpha'),
    'tools/alpha/lib/helper.ts': 'export const x = 1;\n',
    'tools/beta/index.ts': TOOL('beta'),
    'skills/s/SKILL.md': '---\nname: s\ndescription: A skill\n---\nBody\n',
    'skills/s/tools/gamma/index.ts': TOOL('gamma'),
    'plugins/p/tools/delta/index.ts': TOOL('delta'),
    'src/other.ts': 'export {}\n',
  });
  roots.push(root);
  settleDirs(root);
  return root;
}

/** Dates every directory a minute back: a directory read within a tick of its mtime is not recorded. */
function settleDirs(root: string): void {
  const past = Date.now() / 1000 - 60;
  utimesSync(root, past, past);
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true }))
    if (entry.isDirectory()) utimesSync(join(entry.parentPath, entry.name), past, past);
}

/** Counts the directories a walk reads (the record answers the others). */
class CountingListings extends DirListings {
  reads = 0;
  override listed(...args: Parameters<DirListings['listed']>): void {
    this.reads++;
    super.listed(...args);
  }
}

function walk(root: string, file?: string): { paths: string[]; reads: number } {
  const listings = file === undefined ? undefined : new CountingListings(file);
  const walked = walkTree(
    { root, pluginEntry: ['index.ts'], allowed: [], outFile: join(root, 'out.ts') },
    [],
    listings,
  );
  expect(walked.diagnostics).toEqual([]);
  return { paths: walked.paths, reads: listings?.reads ?? 0 };
}

describe('directory listings of the last walk', () => {
  it('an unchanged tree is walked without reading a directory, and lists the same paths', () => {
    const root = tree();
    const file = join(tempDir('listings-cache'), 'units.json.dirs');
    const first = walk(root, file);
    expect(first.reads).toBeGreaterThan(5);
    expect(first.paths).toEqual(walk(root).paths);
    const second = walk(root, file);
    expect(second.reads).toBe(0);
    expect(second.paths).toEqual(first.paths);
  });

  it.each([
    ['a file added', (root: string) => writeFileSync(join(root, 'tools/alpha/lib/more.ts'), 'x')],
    ['a file removed', (root: string) => rmSync(join(root, 'tools/alpha/lib/helper.ts'))],
    ['a tool added', (root: string) => writeTree(root, { 'tools/epsilon/index.ts': TOOL('epsilon') })],
    ['a tool removed', (root: string) => rmSync(join(root, 'tools/beta'), { recursive: true })],
    ['a directory renamed', (root: string) => renameSync(join(root, 'tools/beta'), join(root, 'tools/zeta'))],
    [
      'a file replaced by a directory of the same name',
      (root: string) => {
        rmSync(join(root, 'tools/alpha/lib/helper.ts'));
        mkdirSync(join(root, 'tools/alpha/lib/helper.ts'));
        writeFileSync(join(root, 'tools/alpha/lib/helper.ts/inner.ts'), 'x');
      },
    ],
    ['a child plugin added', (root: string) => writeTree(root, { 'plugins/q/tools/eta/index.ts': TOOL('eta') })],
    ['a symbolic link added', (root: string) => symlinkSync(join(root, 'tools/beta'), join(root, 'tools/theta'))],
  ])('%s: the walk lists what a walk without the record lists', (_name, change) => {
    const root = tree();
    const file = join(tempDir('listings-cache'), 'units.json.dirs');
    walk(root, file);
    change(root);
    const after = walk(root, file);
    expect(after.reads).toBeGreaterThan(0);
    expect(after.reads).toBeLessThan(5);
    expect(after.paths).toEqual(walk(root).paths);
  });

  it.each([
    ['truncated', (text: string) => text.slice(0, 40)],
    ['of another version', (text: string) => text.replace('zhin-gen-dirs-1@', 'zhin-gen-dirs-0@')],
    [
      'with an entry of an unknown type',
      (text: string) => text.replace('"dindex.ts', '"xindex.ts').replace('"findex.ts', '"xindex.ts'),
    ],
    ['not an object', () => '[]'],
  ])('a record %s is ignored whole: every directory is read', (_name, damage) => {
    const root = tree();
    const file = join(tempDir('listings-cache'), 'units.json.dirs');
    const first = walk(root, file);
    writeFileSync(file, damage(readFileSync(file, 'utf8')));
    const again = walk(root, file);
    expect(again.reads).toBe(first.reads);
    expect(again.paths).toEqual(first.paths);
  });

  it('a directory changed within a timestamp tick of its read is read again by the next walk', () => {
    const root = tree();
    const file = join(tempDir('listings-cache'), 'units.json.dirs');
    walk(root, file);
    writeFileSync(join(root, 'tools/beta/extra.ts'), 'x');
    // tools/beta's mtime is now: racy, so not recorded, and read again until it settles.
    expect(walk(root, file).reads).toBe(1);
    expect(walk(root, file).reads).toBe(1);
    settleDirs(root);
    walk(root, file);
    expect(walk(root, file).reads).toBe(0);
  });

  it('through a fresh compiler: a tool added to a tree with a record reaches the manifest', async () => {
    const root = tree();
    const cacheFile = join(tempDir('listings-cache'), 'units.json');
    const first = await createCompiler({ root, cacheFile }).run();
    expect(first.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(readFileSync(`${cacheFile}.dirs`, 'utf8')).toContain('zhin-gen-dirs-1@');
    settleDirs(root);
    await createCompiler({ root, cacheFile }).run();
    writeTree(root, { 'tools/epsilon/index.ts': TOOL('epsilon') });
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.errors).toBe(0);
    expect(next.counts.tools).toBe(first.counts.tools + 1);
    expect(next.code).toContain('Tool epsilon does things');
    rmSync(join(root, 'tools/epsilon'), { recursive: true });
    const removed = await createCompiler({ root, cacheFile }).run();
    expect(removed.counts.tools).toBe(first.counts.tools);
    expect(removed.code).not.toContain('Tool epsilon does things');
  });
});
