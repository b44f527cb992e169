/**
 * Every fenced code block of README.md and docs/*.md is checked by its info string, so a snippet
 * that stops working fails CI:
 *
 * - `ts` / `typescript`: type-checked, strict, each block its own module (typecheck.ts), with a
 *   context from contexts.ts when its directive names one, compared with the real exports when
 *   it names them (compare.ts);
 * - `json` / `jsonc`: parsed; an agent.json block is validated against the shipped schema;
 * - `sh` / `bash` / `shell`: run through the real built CLI, or checked when it is an npm
 *   command (the rule: shell.ts);
 * - `markdown`: only as a file of a bot (`file=skills/x/SKILL.md`);
 * - any block naming `file=…` is also compiled by zhin-gen inside the example bot (files.ts);
 * - `text`: trees, grammars, sample output — not code, allowed;
 * - a block without an info string, or with any other, fails.
 *
 * Directives: `<!-- snippet: key=value … -->` on the line before the fence (extract.ts).
 * Needs the build (`node scripts/build.mjs`): the built CLI and its declaration files.
 */
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { cli, copyFixture, FIXTURES, isGeneratedArtifact, REPO, removeDir, tempDir } from '../helpers.js';
import { readSnippets, where, type Snippet } from './extract.js';
import { checkJsonSnippet, compileFileSnippets } from './files.js';
import { runShellSnippet } from './shell.js';
import { typeCheckSnippets } from './typecheck.js';

type Kind = 'ts' | 'json' | 'sh' | 'markdown' | 'text';
const KINDS: Readonly<Record<string, Kind>> = {
  ts: 'ts',
  typescript: 'ts',
  json: 'json',
  jsonc: 'json',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  markdown: 'markdown',
  text: 'text',
};
/** Directive keys and the kinds of block they apply to. */
const DIRECTIVES: Readonly<Record<string, readonly Kind[]>> = {
  file: ['ts', 'json', 'markdown'],
  context: ['ts'],
  exact: ['ts'],
  partial: ['ts'],
  from: ['ts'],
  dir: ['sh'],
};

const snippets = readSnippets(REPO);
const ofKind = (kind: Kind): Snippet[] => snippets.filter((s) => KINDS[s.lang] === kind);
const temps: string[] = [];
afterAll(() => temps.forEach(removeDir));

/** The example bot after `zhin-gen generate` (the real compiler). */
async function generatedBot(prefix: string): Promise<string> {
  const bot = copyFixture('example-bot', prefix);
  temps.push(bot);
  const result = await createCompiler({ root: bot, cacheFile: false }).run({ write: true });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return bot;
}

/**
 * A bot as the README makes one: `zhin-gen init` (the real CLI), then what `npm install` would
 * give it — zhin-gen itself linked to this repository (the runtime, zod, vite and TypeScript
 * resolve from the repository's node_modules above it).
 */
function scaffoldedBot(): string {
  const bot = join(tempDir('docs-sh-bot'), 'bot');
  temps.push(dirname(bot));
  const init = cli(['init', bot]);
  if (init.status !== 0) throw new Error(`zhin-gen init failed (${init.status}): ${init.stdout}${init.stderr}`);
  mkdirSync(join(bot, 'node_modules'));
  symlinkSync(REPO, join(bot, 'node_modules', 'zhin-gen'), 'dir');
  return bot;
}

describe('documentation code blocks', () => {
  it('are found in README.md and every doc that has code', () => {
    const docs = new Set(snippets.map((s) => s.doc));
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/runtime.md');
    expect(snippets.length).toBeGreaterThan(40);
  });

  it('each state what they are (a known info string) and use only known directives', () => {
    const problems: string[] = [];
    for (const s of snippets) {
      const kind = KINDS[s.lang];
      if (s.lang === '')
        problems.push(
          `${where(s)}: code block without an info string (write \`\`\`text for trees, grammars and sample output)`,
        );
      else if (!kind)
        problems.push(`${where(s)}: unknown info string "${s.lang}" (known: ${Object.keys(KINDS).join(', ')})`);
      if (kind === 'markdown' && !s.directives['file'])
        problems.push(`${where(s)}: a markdown block must name the bot file it is (file=…), else tag it text`);
      for (const key of Object.keys(s.directives)) {
        const allowed = DIRECTIVES[key];
        if (!allowed) problems.push(`${where(s)}: unknown snippet directive "${key}"`);
        else if (kind && !allowed.includes(kind))
          problems.push(`${where(s)}: directive "${key}" does not apply to a ${s.lang} block`);
      }
      const dir = s.directives['dir'];
      if (dir !== undefined && !['bot', 'example-bot', 'repo'].includes(dir))
        problems.push(`${where(s)}: dir=${dir}: use dir=bot, dir=example-bot or dir=repo`);
    }
    expect(problems).toEqual([]);
  });

  it('ts blocks take the runtime from @zhin-gen/runtime (the package a bot deploys)', () => {
    // `zhin-gen` is a dev dependency: a bot that imports `zhin-gen/runtime` at run time breaks
    // after `npm prune --omit=dev`, and `@zhin.js/*` names are not packages on the registry
    // (docs/authoring.md). Both still resolve in the repository, so only this rule catches them.
    const problems: string[] = [];
    for (const s of ofKind('ts')) {
      s.code.split('\n').forEach((text, i) => {
        const spec =
          /(?:\bfrom\s*|\bimport\s*\(\s*|\bdeclare module\s*)['"]((?:zhin-gen\/runtime|@zhin\.js\/[^'"]*))['"]/.exec(
            text,
          )?.[1];
        if (spec)
          problems.push(`${where(s, i + 1)}: imports '${spec}': import the runtime API from '@zhin-gen/runtime'`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('ts blocks type-check (strict), and documented declarations match the real ones', async () => {
    const bot = await generatedBot('docs-ts');
    expect(typeCheckSnippets(ofKind('ts'), bot)).toEqual([]);
  }, 180_000);

  it('json blocks parse, and agent.json blocks satisfy the shipped schema', () => {
    expect(ofKind('json').flatMap((s) => checkJsonSnippet(s, REPO))).toEqual([]);
  });

  it('blocks that name a bot file draw no diagnostic from zhin-gen in the example bot', async () => {
    expect(await compileFileSnippets(snippets.filter((s) => s.directives['file'] && KINDS[s.lang] !== 'text'))).toEqual(
      [],
    );
  }, 180_000);

  describe('sh blocks run through the built CLI', () => {
    /** Where each `dir=` kind starts (shell.ts): copied fresh for every block. */
    const templates = new Map<string, string>();
    beforeAll(async () => {
      if (!existsSync(join(REPO, 'dist', 'compiler', 'cli', 'main.js')))
        throw new Error('run `node scripts/build.mjs` first: the shell blocks use the built CLI');
      const kinds = new Set(ofKind('sh').map((s) => s.directives['dir'] ?? 'bot'));
      if (kinds.has('bot')) templates.set('bot', scaffoldedBot());
      if (kinds.has('example-bot')) templates.set('example-bot', await generatedBot('docs-sh-example'));
    }, 120_000);

    for (const snippet of ofKind('sh')) {
      it(where(snippet), () => {
        const dir = tempDir('docs-sh');
        temps.push(dir);
        const kind = snippet.directives['dir'] ?? 'bot';
        const template = templates.get(kind);
        if (template) cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
        else {
          mkdirSync(join(dir, 'fixtures'));
          cpSync(FIXTURES, join(dir, 'fixtures'), {
            recursive: true,
            filter: (src) => src === FIXTURES || !isGeneratedArtifact(basename(src)),
          });
        }
        expect(runShellSnippet(snippet, { repo: REPO, dir, scriptsDir: kind === 'repo' ? REPO : dir })).toEqual([]);
      }, 240_000);
    }
  });
});
