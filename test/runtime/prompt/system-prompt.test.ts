/**
 * `(await turn.systemPrompt())` on hand-built manifests: fixed places, nearest-owner override, profiles,
 * platforms, loaded skills, the budget from the host config, failures, and generation swaps.
 */
import { describe, expect, it } from 'vitest';
import {
  CandidateRejectedError,
  PromptBudgetError,
  createCapabilityHost,
  defineAgentPromptSection,
  definePlugin,
  selectSections,
  type ManifestPromptSection,
  type PromptSectionEntry,
  type HostConfig,
} from '../../../runtime/index.js';
import { agent, im, manifest, plugin, skill } from '../fixture.js';

function section(
  owner: string,
  name: string,
  content: string,
  extra: Partial<ManifestPromptSection> = {},
): ManifestPromptSection {
  return {
    id: `${owner}:${name}`,
    name,
    owner,
    title: name,
    content,
    layer: 'context',
    order: 50,
    retention: 'preferred',
    profiles: ['interactive'],
    platforms: [],
    source: `${owner === '' ? '' : `plugins/${owner}/`}prompt-sections/${name}/index.ts`,
    ...extra,
  };
}

const tree = () =>
  manifest({
    plugins: [
      plugin('', { agentsMd: '# Root\n\nRoot agent rules.\n' }),
      plugin('maps', { agentsMd: 'Maps agent rules.' }),
      plugin('weather'),
    ],
    agents: [
      agent('reviewer'),
      agent('maps__guide', {
        owner: 'maps',
        name: 'guide',
        system: 'Guide system.',
        boundaries: 'Guide boundaries.',
        conventions: '\nGuide conventions.\n',
      }),
    ],
    skills: [
      skill('research', { instructions: 'Research steps.' }),
      skill('digest', { instructions: 'Digest steps.' }),
    ],
    promptSections: [
      section('', 'intro', 'Intro text.', { layer: 'system' }),
      section('', 'rules', 'Root rules text.', { order: 40 }),
      section('', 'terms', 'Terms text.', { order: 60 }),
      section('maps', 'rules', 'Maps rules text.'),
      section('', 'safety', 'Safety text.', { layer: 'safety', retention: 'required' }),
      section('', 'examples', 'Examples text.', { layer: 'examples' }),
      section('', 'sched', 'Schedule text.', { profiles: ['schedule'], layer: 'task' }),
      section('', 'both', 'Both text.', { profiles: ['interactive', 'schedule'], layer: 'role' }),
      section('', 'qq', 'QQ text.', { platforms: ['qq'], layer: 'constraints' }),
    ],
  });

async function hostWith(config?: HostConfig) {
  const host = createCapabilityHost(config ? { config } : {});
  await host.load(tree());
  return host;
}

describe('(await turn.systemPrompt()): fixed places and filtering', () => {
  it('an interactive IM turn from qq, owned by the root', async () => {
    const host = await hostWith();
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'qq' }) });
    const prompt = await turn.systemPrompt();
    expect(prompt.text).toBe(
      [
        '## intro\n\nIntro text.', // 1. layer system
        '# Root\n\nRoot agent rules.', // 2. AGENTS.md (trimmed)
        '## both\n\nBoth text.', // 4. role
        '## terms\n\nTerms text.', //    context, order 60
        '## rules\n\nRoot rules text.', //    context, order 40
        '## safety\n\nSafety text.', // 6. safety
        '## qq\n\nQQ text.', //    constraints
        '## examples\n\nExamples text.', // 7. examples
      ].join('\n\n'),
    );
    expect(prompt).toMatchObject({
      generation: 1,
      owner: '',
      profile: 'interactive',
      platform: 'qq',
      budget: 100_000,
      chars: prompt.text.length,
    });
    expect(prompt.agent).toBeUndefined();
    expect(prompt.hidden).toEqual([
      { id: ':sched', reason: 'profile' },
      { id: 'maps:rules', reason: 'overridden' },
    ]);
    expect(prompt.parts.find((p) => p.kind === 'agents-md')).toMatchObject({
      id: '',
      retention: 'required',
      status: 'full',
    });
  });

  it('platform sections need an IM turn on a listed adapter', async () => {
    const host = await hostWith();
    const discord = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord' }) });
    expect((await discord.systemPrompt()).hidden).toContainEqual({ id: ':qq', reason: 'platform' });
    // A non-IM origin never uses its message for platforms (like tool access).
    const system = await host.beginTurn({ sessionKey: 's', origin: 'webhook', message: im({ adapter: 'qq' }) });
    expect((await system.systemPrompt()).platform).toBeUndefined();
    expect((await system.systemPrompt()).text).not.toContain('QQ text.');
  });

  it('schedule-origin turns use the schedule profile', async () => {
    const host = await hostWith();
    const turn = await host.beginTurn({ sessionKey: 'cron', origin: 'schedule', unattended: true });
    const prompt = await turn.systemPrompt();
    expect(prompt.profile).toBe('schedule');
    expect(prompt.text).toBe(
      ['# Root\n\nRoot agent rules.', '## both\n\nBoth text.', '## sched\n\nSchedule text.'].join('\n\n'),
    );
    expect(prompt.hidden.map((h) => `${h.id}:${h.reason}`)).toEqual([
      ':examples:profile',
      ':intro:profile',
      ':qq:profile',
      ':rules:profile',
      ':safety:profile',
      ':terms:profile',
      'maps:rules:overridden',
    ]);
  });

  it('a selected sub-agent: owner chain AGENTS.md root first, its three parts, and the child override', async () => {
    const host = await hostWith();
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord' }), agent: 'maps__guide' });
    expect(turn.owner).toBe('maps');
    const prompt = await turn.systemPrompt();
    expect(prompt.text).toBe(
      [
        '## intro\n\nIntro text.',
        '# Root\n\nRoot agent rules.',
        'Maps agent rules.',
        'Guide system.',
        'Guide boundaries.',
        'Guide conventions.',
        '## both\n\nBoth text.',
        '## terms\n\nTerms text.',
        '## rules\n\nMaps rules text.', // maps:rules hides :rules in maps' turns
        '## safety\n\nSafety text.',
        '## examples\n\nExamples text.',
      ].join('\n\n'),
    );
    expect(prompt.hidden).toContainEqual({ id: ':rules', reason: 'overridden' });
    expect(prompt.parts.filter((p) => p.retention === 'required').map((p) => `${p.kind}:${p.id}`)).toEqual([
      'agents-md:',
      'agents-md:maps',
      'agent-system:maps__guide',
      'agent-boundaries:maps__guide',
      'agent-conventions:maps__guide',
      'section::safety',
    ]);
  });

  it('beginTurn({ owner }) routes a turn to a plugin without an agent; the agent owner wins; unknown owners are rejected', async () => {
    const host = await hostWith();
    const maps = await host.beginTurn({ sessionKey: 's', owner: 'maps' });
    expect(maps.owner).toBe('maps');
    expect((await maps.systemPrompt()).text).toContain('Maps rules text.');
    expect((await maps.systemPrompt()).text).toContain('Maps agent rules.');
    const weather = await host.beginTurn({ sessionKey: 's', owner: 'weather' });
    // weather has no `rules`: the root's applies; maps' override is only for maps' subtree.
    expect((await weather.systemPrompt()).text).toContain('Root rules text.');
    expect((await weather.systemPrompt()).text).not.toContain('Maps');
    await expect(host.beginTurn({ sessionKey: 's', owner: 'nope' })).rejects.toThrow(/unknown turn owner "nope"/);
    const guided = await host.beginTurn({ sessionKey: 's', owner: 'weather', agent: 'maps__guide' });
    expect(guided.owner).toBe('maps');
    expect((await guided.systemPrompt()).text).toContain('Maps rules text.');
    // A subagent fork to a root-owned agent: the fork's agent decides its owner.
    const root = await host.beginTurn({ sessionKey: 's', owner: 'maps' });
    const fork = await root.fork({ agent: 'reviewer' });
    expect(fork.owner).toBe('');
    expect((await fork.systemPrompt()).text).toContain('Root rules text.');
    await root.end();
  });

  it('loaded skills render between the tools layer and safety, in activation order', async () => {
    const host = await hostWith();
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord' }) });
    expect((await turn.systemPrompt()).text).not.toContain('steps.');
    await turn.activateSkill('digest');
    await turn.activateSkill('research');
    const text = (await turn.systemPrompt()).text;
    expect(text).toContain(
      '## rules\n\nRoot rules text.\n\nDigest steps.\n\nResearch steps.\n\n## safety\n\nSafety text.',
    );
    expect((await turn.systemPrompt()).parts.filter((p) => p.kind === 'skill').map((p) => [p.id, p.retention])).toEqual(
      [
        ['digest', 'preferred'],
        ['research', 'preferred'],
      ],
    );
  });

  it('ended turns do not assemble', async () => {
    const host = await hostWith();
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.end();
    await expect(turn.systemPrompt()).rejects.toThrow(/has ended/);
  });
});

describe('nearest-owner override (selectSections)', () => {
  const entry = (owner: string, name: string, extra: Partial<ManifestPromptSection> = {}): PromptSectionEntry => {
    const s = section(owner, name, `${owner}/${name}`, extra);
    return { id: s.id, owner, name, source: 'feature', section: { ...s, content: s.content ?? '' } };
  };
  const visible = (entries: PromptSectionEntry[], owner: string, profile: 'interactive' | 'schedule' = 'interactive') =>
    selectSections(entries, { owner, profile }).visible.map((e) => e.id);

  it('the nearest owner on the turn chain wins; deeper overrides stay inside their subtree', () => {
    const entries = [entry('', 'rules'), entry('maps', 'rules'), entry('maps/cn', 'rules'), entry('weather', 'rules')];
    expect(visible(entries, '')).toEqual([':rules']);
    expect(visible(entries, 'maps')).toEqual(['maps:rules']);
    expect(visible(entries, 'maps/cn')).toEqual(['maps/cn:rules']);
    expect(visible(entries, 'maps/de')).toEqual(['maps:rules']);
    expect(visible(entries, 'weather')).toEqual(['weather:rules']);
  });

  it('same-named sections of unrelated plugins do not affect each other', () => {
    const entries = [entry('maps', 'terms'), entry('weather', 'terms')];
    expect(visible(entries, '')).toEqual(['maps:terms', 'weather:terms']);
    expect(visible(entries, 'maps')).toEqual(['maps:terms', 'weather:terms']);
  });

  it('the override is decided before profiles: a schedule-only child section still hides the parent in interactive child turns', () => {
    const entries = [entry('', 'rules'), entry('maps', 'rules', { profiles: ['schedule'] })];
    expect(selectSections(entries, { owner: 'maps', profile: 'interactive' }).hidden).toEqual([
      { id: ':rules', reason: 'overridden' },
      { id: 'maps:rules', reason: 'profile' },
    ]);
    expect(visible(entries, 'maps', 'schedule')).toEqual(['maps:rules']);
    expect(visible(entries, '', 'interactive')).toEqual([':rules']);
  });

  it('empty content renders nothing', () => {
    expect(selectSections([entry('', 'x', { content: '' })], { owner: '', profile: 'interactive' }).hidden).toEqual([
      { id: ':x', reason: 'empty' },
    ]);
  });
});

describe('budget from the host config', () => {
  it('ai.agent.systemPromptMaxChars: preferred sections yield; required parts that cannot fit fail the turn explicitly', async () => {
    const host = await hostWith({ ai: { agent: { systemPromptMaxChars: 50 } } });
    const root = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord' }) });
    const prompt = await root.systemPrompt();
    // Required: "# Root\n\nRoot agent rules." (25) + "\n\n" + "## safety\n\nSafety text." (23) = 50.
    expect(prompt.text).toBe('# Root\n\nRoot agent rules.\n\n## safety\n\nSafety text.');
    expect(prompt.chars).toBe(50);
    expect(prompt.parts.filter((p) => p.status === 'dropped').map((p) => p.id)).toEqual([
      ':intro',
      ':both',
      ':terms',
      ':rules',
      ':examples',
    ]);
    const guided = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'discord' }), agent: 'maps__guide' });
    await expect(guided.systemPrompt()).rejects.toThrow(PromptBudgetError);
    await expect(guided.systemPrompt()).rejects.toThrow(
      // 25 + 17 + 13 + 17 + 18 + 23 = 113, plus five separators of 2.
      'system prompt over budget: required content needs 123 characters (separators included) but systemPromptMaxChars is 50; ' +
        'required parts: AGENTS.md of root plugin 25, AGENTS.md of plugin "maps" 17, system.md of agent "maps__guide" 13, ' +
        'boundaries.md of agent "maps__guide" 17, conventions.md of agent "maps__guide" 18, prompt section ":safety" 23',
    );
  });

  it('an invalid budget rejects the candidate; the default is 100,000', async () => {
    const host = createCapabilityHost({ config: { ai: { agent: { systemPromptMaxChars: -1 } } } });
    await expect(host.load(tree())).rejects.toThrow(
      /ai\.agent\.systemPromptMaxChars must be a positive safe integer, got -1/,
    );
    await host.load(tree(), { config: {} });
    expect((await (await host.beginTurn({ sessionKey: 's' })).systemPrompt()).budget).toBe(100_000);
  });
});

describe('required sections and duplicates at load', () => {
  it('a required section longer than its own maxChars rejects the candidate (hand-made manifest)', async () => {
    const host = createCapabilityHost();
    const bad = manifest({
      promptSections: [section('', 'safety', 'x'.repeat(11), { retention: 'required', maxChars: 10 })],
    });
    await expect(host.load(bad)).rejects.toThrow(CandidateRejectedError);
    await expect(host.load(bad)).rejects.toThrow(
      /required prompt section ":safety" has 11 characters of content but maxChars is 10/,
    );
  });

  it('defineAgentPromptSection refuses the same in setup(); a setup section may not duplicate a directory section', async () => {
    expect(() =>
      defineAgentPromptSection({ title: 't', content: 'x'.repeat(11), retention: 'required', maxChars: 10 }),
    ).toThrow(/required content is 11 characters but `maxChars` is 10/);
    expect(defineAgentPromptSection({ title: 't', content: 'x'.repeat(11), maxChars: 10 }).maxChars).toBe(10);
    const host = createCapabilityHost();
    const setup = definePlugin({
      name: 'p',
      setup: (context) => context.addPromptSection('rules', defineAgentPromptSection({ title: 'R', content: 'dup' })),
    });
    await expect(
      host.load(manifest({ promptSections: [section('', 'rules', 'file')] }), { plugins: { '': setup } }),
    ).rejects.toThrow(/duplicate prompt section ":rules"/);
  });
});

describe('generations', () => {
  it('a swap changes a section for new turns while an old turn still assembles the old text', async () => {
    const host = createCapabilityHost();
    const build = (content: string, setupContent: string) =>
      [
        manifest({ promptSections: [section('', 'rules', content)] }),
        {
          plugins: {
            '': definePlugin({
              name: 'p',
              setup: (c) =>
                c.addPromptSection('live', defineAgentPromptSection({ title: 'Live', content: setupContent })),
            }),
          },
        },
      ] as const;
    await host.load(...build('Old rules.', 'Old setup.'));
    const old = await host.beginTurn({ sessionKey: 's' });
    await host.load(...build('New rules.', 'New setup.'));
    const fresh = await host.beginTurn({ sessionKey: 's' });
    // Same layer and order: ties render by id (":live" before ":rules").
    expect(await old.systemPrompt()).toMatchObject({
      generation: 1,
      text: '## Live\n\nOld setup.\n\n## rules\n\nOld rules.',
    });
    expect(await fresh.systemPrompt()).toMatchObject({
      generation: 2,
      text: '## Live\n\nNew setup.\n\n## rules\n\nNew rules.',
    });
    await old.end();
    // A failed load changes nothing: new turns keep the committed text.
    await expect(
      host.load(manifest({ promptSections: [section('', 'rules', 'x', { retention: 'required', maxChars: 0 })] })),
    ).rejects.toThrow();
    expect((await (await host.beginTurn({ sessionKey: 's' })).systemPrompt()).text).toContain('New rules.');
  });
});
