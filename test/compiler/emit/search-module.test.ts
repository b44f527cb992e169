/**
 * The `discover` index the compiler ships beside the manifest (emit/search-module.ts): written
 * as `search.ts` in the generated modules' folder, imported by the runtime on the first
 * `discover` (the catalog reports it as `shipped`) and ranking exactly as the index the runtime
 * would build; rewritten only when a searched text changes (never for a schema or body edit);
 * the manifest's line naming it never changes; `check` reports a stale one. In watch mode the
 * compiler's encoder re-encodes only what an edit changed, and writes what a fresh run writes.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATED_MARK } from '../../../compiler/emit/manifest.js';
import { createCompiler } from '../../../compiler/index.js';
import { generationCatalog } from '../../../runtime/deferred/catalog.js';
import { searchDocument } from '../../../runtime/deferred/search.js';
import { type CapabilityManifest, createCapabilityHost } from '../../../runtime/index.js';
import { ReferenceIndex } from '../../runtime/deferred/search-reference.js';
import { cli, removeDir, tempDir, writeTree } from '../../helpers.js';
import { watchEdit } from '../watch-edit.js';

const NOUNS = ['weather', 'ticket', 'music', 'lottery', 'order', 'member', 'reminder', 'poll', 'image', 'note'];
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'find'];
const tool = (description: string, keywords: string[], min = 1) =>
  `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  keywords: ${JSON.stringify(keywords)},\n  inputSchema: z.object({ id: z.string().min(${min}) }),\n  async execute({ id }) {\n    return id;\n  },\n});\n`;

function tree(): Record<string, string> {
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n' };
  for (let i = 0; i < 40; i++) {
    const noun = NOUNS[i % NOUNS.length]!;
    const verb = VERBS[i % VERBS.length]!;
    const cjk = i % 4 === 0 ? ' 查询天气和提醒。' : '';
    files[`tools/${verb}-${noun}-${i}/index.ts`] = tool(`${verb} a ${noun} for the current user (${i}).${cjk}`, [noun]);
  }
  files['agents/helper/agent.json'] = JSON.stringify({ description: 'Helps', tools: [] });
  files['agents/helper/system.md'] = 'You help.\n';
  files['agents/helper/boundaries.md'] = 'Be kind.\n';
  files['agents/helper/conventions.md'] = '# Conventions\n';
  files['agents/helper/tools/private-note/index.ts'] = tool('Keep a private note for the helper', ['note']);
  files['skills/trip/SKILL.md'] = '---\nname: trip\ndescription: Plan a trip with weather and tickets.\n---\nPlan.\n';
  files['skills/trip/tools/book-ticket/index.ts'] = tool('Book a ticket for the trip', ['ticket']);
  return files;
}

const OUT = 'zhin-capabilities.gen.ts';
const SEARCH = 'zhin-capabilities.gen.validators/search.ts';
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function generate(root: string) {
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: true });
  await compiler.dispose();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
}

const stampOf = (root: string) => readFileSync(join(root, SEARCH), 'utf8').split('\n')[1];

describe('the shipped discover index', () => {
  it('is written beside the manifest, imported on the first discover and ranks as the runtime index', async () => {
    const root = writeTree(tempDir('search-module'), tree());
    dirs.push(root);
    await generate(root);
    const text = readFileSync(join(root, SEARCH), 'utf8');
    expect(text.startsWith(GENERATED_MARK)).toBe(true);
    expect(readFileSync(join(root, OUT), 'utf8')).toContain(
      'search: () => import("./zhin-capabilities.gen.validators/search.js"),',
    );
    const { manifest } = (await import(`${pathToFileURL(join(root, OUT)).href}?v=1`)) as {
      manifest: CapabilityManifest;
    };
    const host = createCapabilityHost();
    await host.load(manifest);
    const catalog = generationCatalog(host.current!);
    const { index, source } = await catalog.search();
    expect(source).toBe('shipped');
    const entries = [...catalog.tools, ...catalog.skills];
    const reference = new ReferenceIndex(
      entries.map((entry) =>
        entry.kind === 'tool'
          ? searchDocument(entry.name, entry.binding.keywords, entry.binding.tags, entry.binding.description)
          : searchDocument(entry.name, entry.skill.keywords, entry.skill.tags, entry.skill.description),
      ),
    );
    const queries = [
      ...NOUNS,
      ...VERBS,
      'helper note',
      'trip',
      '天气',
      '提醒',
      'tick',
      'wea',
      'get-weather-0',
      'book ticket for trip',
      'ask',
      'discover',
      'nothing-like-this',
    ];
    for (const query of queries) expect([...index.search(query)], query).toEqual(reference.search(query));
    // And through the model's own meta tool.
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('discover', { query: 'lottery' });
    expect(outcome.status).toBe('completed');
    await turn.end();
    await host.close();
  });

  it('is rewritten only when a searched text changes; the manifest line stays; check reports a stale one', async () => {
    const root = writeTree(tempDir('search-module-edits'), tree());
    dirs.push(root);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const stamp = stampOf(root);
    const mtime = statSync(join(root, SEARCH)).mtimeMs;
    const line = (text: string) => text.split('\n').find((l) => l.includes('search: () =>'));
    const before = readFileSync(join(root, OUT), 'utf8');
    // A schema edit: a new manifest, the same index.
    writeFileSync(
      join(root, 'tools/get-weather-0/index.ts'),
      tool('get a weather for the current user (0). 查询天气和提醒。', ['weather'], 3),
    );
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(readFileSync(join(root, OUT), 'utf8')).not.toBe(before);
    expect(statSync(join(root, SEARCH)).mtimeMs).toBe(mtime);
    // A description edit: the index is rewritten, the manifest's line naming it is not.
    writeFileSync(join(root, 'tools/get-weather-0/index.ts'), tool('Forecast the weather for a city', ['weather'], 3));
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(stampOf(root)).not.toBe(stamp);
    expect(line(readFileSync(join(root, OUT), 'utf8'))).toBe(line(before));
    expect(readFileSync(join(root, SEARCH), 'utf8')).toContain('forecast');
    expect(cli(['check', '--root', root]).status).toBe(0);
    // An index left from another catalog (a merge checked out over it) is stale; generate repairs it.
    const current = readFileSync(join(root, SEARCH), 'utf8');
    writeFileSync(join(root, `${SEARCH}.tmp`), current.replace(stampOf(root)!, stamp!));
    renameSync(join(root, `${SEARCH}.tmp`), join(root, SEARCH));
    const check = cli(['check', '--root', root]);
    expect(check.status, check.stdout + check.stderr).toBe(2);
    expect(check.stderr).toContain('search.ts');
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(readFileSync(join(root, SEARCH), 'utf8')).toBe(current);
    expect(cli(['check', '--root', root]).status).toBe(0);
  });

  it('in watch mode, after each edit of a searched text, holds the bytes a fresh generate writes', async () => {
    const root = writeTree(tempDir('search-module-watch'), tree());
    dirs.push(root);
    const compiler = createCompiler({ root, cacheFile: false });
    const run = watchEdit(compiler, root);
    await compiler.run({ write: true });
    const edits: [string, () => Promise<void>][] = [
      ['a description', () => run('change', 'tools/get-weather-0/index.ts', tool('Forecast the weather', ['weather']))],
      ['a word no tool has', () => run('change', 'tools/list-ticket-1/index.ts', tool('Zyzzyva tickets', ['ticket']))],
      ['keywords', () => run('change', 'tools/list-ticket-1/index.ts', tool('List tickets', ['lottery', 'draw']))],
      ['a tool added', () => run('add', 'tools/find-poll-99/index.ts', tool('Find a poll by its question', ['poll']))],
      ['a tool removed', () => run('unlink', 'tools/create-music-2/index.ts')],
      [
        'a skill',
        () =>
          run('change', 'skills/trip/SKILL.md', '---\nname: trip\ndescription: Plan a journey by train.\n---\nPlan.\n'),
      ],
    ];
    for (const [edit, apply] of edits) {
      await apply();
      const watched = readFileSync(join(root, SEARCH), 'utf8');
      rmSync(join(root, SEARCH));
      await generate(root);
      expect(readFileSync(join(root, SEARCH), 'utf8'), edit).toBe(watched);
    }
    await compiler.dispose();
  });
});
