/**
 * End to end: compile fixtures/example-bot with the real compiler, import the generated manifest
 * module, load it into a host and assemble system prompts for real turns.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { type CapabilityManifest, type CapabilityHost, createCapabilityHost } from '../../../runtime/index.js';
import { FIXTURES, REPO } from '../../helpers.js';
import { im } from '../fixture.js';

const root = join(FIXTURES, 'example-bot');
const dir = join(REPO, 'test', 'tmp', `prompt-example-${process.pid}-${Date.now()}`);
let compiled: CapabilityManifest;
let host: CapabilityHost;

beforeAll(async () => {
  const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
  expect(result.errors).toBe(0);
  // The generated module imports its plugin entry and tools relatively: point them at the fixture.
  const code = result.code.replace(/import\("\.\//g, `import(${JSON.stringify(`${root}/`).slice(0, -1)}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'manifest.gen.ts');
  writeFileSync(file, code);
  compiled = ((await import(/* @vite-ignore */ pathToFileURL(file).href)) as { manifest: CapabilityManifest }).manifest;
  host = createCapabilityHost();
  await host.load(compiled);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AGENTS_MD =
  "# Example bot\n\nYou are the assistant of a small IM community bot. Answer in the user's language.\n\n## Tone\n\nFriendly, short, concrete. Never invent links.\n\n## Tools\n\nPrefer `short-url` for any URL longer than 60 characters. Ask before anything that changes state.";
const PROJECT_RULES = '## Project rules\n\nAnswer with repository-local terminology and cite changed files.';
const ETIQUETTE =
  '## QQ group etiquette\n\nIn QQ groups keep replies under 300 characters, never mention everyone, and address members by their group card name.';
const DIGEST =
  '## Scheduled digest\n\nThis turn was started by a schedule and nobody is watching: summarise new activity since the last run in at most five bullets and never ask questions.';

describe('example bot: compiled manifest → system prompt', () => {
  it('the compiler emits the seed section plus a schedule-only and a platform-only section', () => {
    expect(compiled.promptSections.map((s) => [s.id, s.profiles, s.platforms, s.retention])).toEqual([
      [':icqq-etiquette', ['interactive'], ['icqq'], 'required'],
      [':project-rules', ['interactive'], [], 'preferred'],
      [':schedule-digest', ['schedule'], [], 'preferred'],
    ]);
  });

  it('an interactive QQ-group turn with the icqq platform agent', async () => {
    const turn = await host.beginTurn({
      sessionKey: 'icqq:group:1',
      message: im({ adapter: 'icqq', type: 'group' }),
      agent: 'icqq',
    });
    const prompt = await turn.systemPrompt();
    expect(prompt.text).toBe(
      [
        AGENTS_MD,
        '# QQ assistant\n\nYou help QQ group admins keep the group tidy.',
        '# Boundaries\n\nOnly act for group owners and admins.',
        '# QQ conventions\n\nMention users by their group card name.',
        PROJECT_RULES,
        ETIQUETTE,
      ].join('\n\n'),
    );
    expect(prompt.hidden).toEqual([{ id: ':schedule-digest', reason: 'profile' }]);
    await turn.end();
  });

  it('an interactive turn on another platform, with a loaded skill', async () => {
    const turn = await host.beginTurn({
      sessionKey: 'qq:private:1',
      message: im({ adapter: 'qq' }),
      skills: ['short-url'],
    });
    const prompt = await turn.systemPrompt();
    expect(prompt.text).toBe(
      [
        AGENTS_MD,
        PROJECT_RULES,
        '# Short links\n\n1. Normalise the URL with `short-url__normalize` (strip tracking parameters).\n2. Shorten it with `short-url`.\n3. Reply with the short link only.',
      ].join('\n\n'),
    );
    expect(prompt.hidden).toEqual([
      { id: ':icqq-etiquette', reason: 'platform' },
      { id: ':schedule-digest', reason: 'profile' },
    ]);
    await turn.end();
  });

  it('the auto-selected icqq platform agent (deferred catalog) gets the same prompt; its owner wins over beginTurn({ owner })', async () => {
    const explicit = await host.beginTurn({
      sessionKey: 'icqq:group:2',
      message: im({ adapter: 'icqq', type: 'group' }),
      agent: 'icqq',
    });
    const auto = await host.beginTurn({
      sessionKey: 'icqq:group:2',
      message: im({ adapter: 'icqq', type: 'group' }),
      owner: 'maps',
    });
    expect(auto.agentSelection).toBe('platform');
    expect(auto.agent).toBe('icqq');
    expect(auto.owner).toBe('');
    expect((await auto.systemPrompt()).text).toBe((await explicit.systemPrompt()).text);
    expect((await auto.systemPrompt()).text).toContain('# QQ assistant');
    await Promise.all([explicit.end(), auto.end()]);
  });

  it('load_skill puts the skill instructions into the prompt, and the session restores them next turn', async () => {
    const first = await host.beginTurn({ sessionKey: 'qq:private:load', message: im({ adapter: 'qq' }) });
    expect((await first.systemPrompt()).text).not.toContain('# Short links');
    expect(await first.execute('load_skill', { name: 'short-url' })).toMatchObject({ status: 'completed' });
    expect((await first.systemPrompt()).text).toContain(`${PROJECT_RULES}\n\n# Short links`);
    await first.end();
    const next = await host.beginTurn({ sessionKey: 'qq:private:load', message: im({ adapter: 'qq' }) });
    expect((await next.systemPrompt()).parts.filter((p) => p.kind === 'skill').map((p) => [p.id, p.status])).toEqual([
      ['short-url', 'full'],
    ]);
    await next.end();
  });

  it('a schedule turn sees only the schedule section', async () => {
    const turn = await host.beginTurn({ sessionKey: 'cron:digest', origin: 'schedule', unattended: true });
    expect((await turn.systemPrompt()).text).toBe([AGENTS_MD, DIGEST].join('\n\n'));
    await turn.end();
  });

  it('the catalog lists all three with their files, and none of their content', () => {
    const catalog = host.catalog();
    expect(
      catalog.promptSections.map((s) => [s.id, s.file, s.origin, s.generation, s.retention, s.profiles, s.platforms]),
    ).toEqual([
      [
        ':icqq-etiquette',
        'prompt-sections/icqq-etiquette/index.ts',
        'feature',
        1,
        'required',
        ['interactive'],
        ['icqq'],
      ],
      [':project-rules', 'prompt-sections/project-rules/index.ts', 'feature', 1, 'preferred', ['interactive'], []],
      [':schedule-digest', 'prompt-sections/schedule-digest/index.ts', 'feature', 1, 'preferred', ['schedule'], []],
    ]);
    const serialized = JSON.stringify(catalog);
    for (const section of compiled.promptSections) expect(serialized).not.toContain(section.content);
    for (const skill of compiled.skills) expect(serialized).not.toContain(skill.instructions.trim().split('\n').pop()!);
    expect(serialized).not.toContain('Never invent links');
  });
});
