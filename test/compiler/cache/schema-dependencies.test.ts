/**
 * What a tool's schema depends on beyond its own files, through the persisted cache: a fresh
 * compiler after each edit (the tree record's check, then the index's) must write and report
 * what a cacheless compiler writes and reports for the same sources in a copy of the tree. Each
 * case is a tree and the edits made to it, one run after each: a bundled schema whose import
 * did not resolve or whose module threw, then fixed; an installed package upgraded, relinked or
 * installed where it was missing; a workspace file outside the root edited; and a file that wins
 * an import's resolution over the one it resolved to (TypeScript's order for a schema the
 * extractor reads, esbuild's for a bundled one) added, then removed.
 */
import { cpSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import type { CompileResult } from '../../../compiler/run-types.js';
import { removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A file's text, a symlink (`{ link }`, relative to the link's directory), or null to delete it. */
type Change = string | { readonly link: string } | null;

interface Case {
  readonly name: string;
  /** The root inside the case's directory ('.' unless the case has files outside the root). */
  readonly root: string;
  /** Paths relative to the case's directory. */
  readonly files: Readonly<Record<string, Change>>;
  /** One run after each; the last run's manifest must hold every name in `expect`. */
  readonly edits: readonly Readonly<Record<string, Change>>[];
  /** Property names the final manifest holds (so the case proves the edit reached it). */
  readonly expect: readonly string[];
}

const tool = (schema: string, imports: string): string =>
  `import { defineAgentTool } from '@zhin.js/tool';\n${imports}\nexport default defineAgentTool({\n  description: 'Reads a shared schema',\n  inputSchema: ${schema},\n  execute: async () => 'ok',\n});\n`;
const zodModule = (field: string): string =>
  `import { z } from 'zod';\nexport const s = z.object({ ${field}: z.string() });\n`;
/** A schema module the extractor leaves to the bundle (it reads \`process\`). */
const bundled = (field: string): string =>
  `import { z } from 'zod';\nconst key = process.env.ZG_NEVER_SET ?? '${field}';\nexport const s = z.object({ [key]: z.string() });\n`;
/** A package the extractor cannot read (a bare import), so the tool module is bundled. */
const pkg = (name: string, version: string, field: string): Record<string, string> => ({
  [`${name}/package.json`]: JSON.stringify({ name: basename(name), version, type: 'module', main: 'index.js' }),
  [`${name}/index.js`]: zodModule(field),
});

const CASES: readonly Case[] = [
  {
    name: 'a bundled import that did not resolve, then created',
    root: '.',
    files: { 'tools/t/index.ts': tool('s', "import { s } from '../../src/lib/s.js';") },
    edits: [{ 'src/lib/s.ts': bundled('created') }],
    expect: ['created'],
  },
  {
    name: 'a bundled module that threw, then fixed',
    root: '.',
    files: {
      'tools/t/index.ts': tool('s', "import { s } from '../../src/lib/s.js';"),
      'src/lib/s.js': "if (!process.env.ZG_NEVER_SET) throw new Error('not configured');\n",
    },
    edits: [{ 'src/lib/s.js': bundled('fixed') }],
    expect: ['fixed'],
  },
  {
    name: 'an installed package upgraded',
    root: '.',
    files: {
      'tools/t/index.ts': tool('s', "import { s } from 'shared-schema';"),
      ...pkg('node_modules/shared-schema', '1.0.0', 'one'),
    },
    edits: [pkg('node_modules/shared-schema', '2.0.0', 'two')],
    expect: ['two'],
  },
  {
    name: 'a package relinked to another version (pnpm)',
    root: '.',
    files: {
      'tools/t/index.ts': tool('s', "import { s } from 'shared-schema';"),
      ...pkg('node_modules/.pnpm/shared-schema@1.0.0/node_modules/shared-schema', '1.0.0', 'one'),
      'node_modules/shared-schema': { link: '.pnpm/shared-schema@1.0.0/node_modules/shared-schema' },
    },
    edits: [
      {
        ...pkg('node_modules/.pnpm/shared-schema@2.0.0/node_modules/shared-schema', '2.0.0', 'two'),
        'node_modules/shared-schema': null,
      },
      { 'node_modules/shared-schema': { link: '.pnpm/shared-schema@2.0.0/node_modules/shared-schema' } },
    ],
    expect: ['two'],
  },
  {
    name: 'a package not installed, then installed, then installed nearer',
    root: 'bot',
    files: { 'bot/tools/t/index.ts': tool('s', "import { s } from 'shared-schema';") },
    edits: [
      pkg('node_modules/shared-schema', '1.0.0', 'hoisted'),
      pkg('bot/node_modules/shared-schema', '1.0.0', 'nearer'),
    ],
    expect: ['nearer'],
  },
  {
    name: 'a workspace file outside the root that a bundled schema reads',
    root: 'bot',
    files: {
      'bot/tools/t/index.ts': tool('s', "import { s } from '../../../shared/s.js';"),
      'shared/s.js': bundled('before'),
    },
    edits: [{ 'shared/s.js': bundled('after') }],
    expect: ['after'],
  },
  {
    name: 'a TypeScript file added beside the .js a read schema imports, then removed',
    root: '.',
    files: { 'tools/t/index.ts': tool('s', "import { s } from '../../src/s.js';"), 'src/s.js': zodModule('js') },
    edits: [{ 'src/s.ts': zodModule('ts') }, { 'src/s.ts': null }],
    expect: ['js'],
  },
  {
    name: 'a file added that wins a bundled import over the one it resolved to',
    root: '.',
    files: { 'tools/t/index.ts': tool('s', "import { s } from '../../src/lib/s';"), 'src/lib/s.js': bundled('js') },
    edits: [{ 'src/lib/s.ts': bundled('ts') }],
    expect: ['ts'],
  },
];

/**
 * Makes the changes, each written file dated a minute back: a stamp taken within a tick of a
 * write is not trusted (compiler/cache/racy.ts), and the tree record must get its chance to vouch.
 */
function apply(dir: string, changes: Readonly<Record<string, Change>>): void {
  const past = Date.now() / 1000 - 60;
  for (const [rel, change] of Object.entries(changes)) {
    const file = join(dir, rel);
    rmSync(file, { recursive: true, force: true });
    if (change === null) continue;
    mkdirSync(dirname(file), { recursive: true });
    if (typeof change === 'string') {
      writeFileSync(file, change);
      utimesSync(file, past, past);
    } else symlinkSync(change.link, file);
  }
}

/** What a run wrote and reported, with the case's directory taken out of messages. */
function outcome(result: CompileResult, dir: string): { code: string; diagnostics: string[] } {
  return {
    code: result.code,
    diagnostics: result.diagnostics.map((d) =>
      // esbuild names files relative to the working directory.
      `${d.code} ${d.severity} ${d.file}:${d.line}:${d.column} ${d.message}`
        .replaceAll(dir, '<dir>')
        .replaceAll(relative(process.cwd(), dir), '<dir>'),
    ),
  };
}

/** A compiler with nothing in memory and no cache, on a copy of the case's directory. */
async function cacheless(dir: string, root: string): Promise<{ code: string; diagnostics: string[] }> {
  const copy = tempDir('schema-deps-fresh');
  dirs.push(copy);
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => !basename(src).includes('.gen.') });
  const compiler = createCompiler({ root: join(copy, root), cacheFile: false });
  const result = await compiler.run();
  await compiler.dispose();
  return outcome(result, copy);
}

describe('schema dependencies beyond the tool files', () => {
  it.each(CASES)('$name: every cached run matches a cacheless one', async (c) => {
    const dir = tempDir('schema-deps');
    dirs.push(dir);
    apply(dir, c.files);
    const root = join(dir, c.root);
    const cacheFile = join(tempDir('schema-deps-cache'), 'units.json');
    dirs.push(dirname(cacheFile));
    const fresh = async (): Promise<{ code: string; diagnostics: string[] }> => {
      const compiler = createCompiler({ root, cacheFile });
      const result = await compiler.run();
      await compiler.dispose();
      return outcome(result, dir);
    };
    await fresh();
    // The second run is the one the tree record vouches for: the edits must get past it.
    expect(await fresh()).toEqual(await cacheless(dir, c.root));
    for (const edit of c.edits) {
      apply(dir, edit);
      expect(await fresh()).toEqual(await cacheless(dir, c.root));
    }
    const final = await fresh();
    for (const name of c.expect) expect(final.code).toContain(name);
    expect(final.diagnostics.filter((d) => / error /.test(d))).toEqual([]);
  });
});
