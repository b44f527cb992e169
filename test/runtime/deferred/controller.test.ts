/**
 * The per-turn controller's meta tools and the `deferredTools` config: ranking, filters, fixed
 * answers, the replaced always-loaded list, the MCP override, seam tools and skills joining the
 * catalog without special code, and bad config rejecting the candidate.
 */
import { describe, expect, it } from 'vitest';
import { MAX_QUERY } from '../../../runtime/deferred/meta-tools.js';
import {
  CandidateRejectedError,
  createCapabilityHost,
  type DiscoverOutput,
  type HostConfig,
  type LoadSkillOutput,
  type LoadToolOutput,
} from '../../../runtime/index.js';
import { manifest, skill } from '../fixture.js';
import { catalogTool, failure, output, preparer, seamSkill, seamTool } from './fixture.js';

const library = [
  catalogTool('maps__get-weather', {
    owner: 'maps',
    localName: 'get-weather',
    description: 'Current weather for a city',
    keywords: ['maps'],
  }),
  catalogTool('maps__geocode', {
    owner: 'maps',
    localName: 'geocode',
    description: 'Turn an address into coordinates',
    keywords: ['maps'],
  }),
  catalogTool('music_search', { description: 'Search a song by title or artist' }),
  catalogTool('lottery_pick', { description: 'Recommend lottery numbers. Uses past draws.' }),
  catalogTool('translate', { description: '把文本翻译成另一种语言' }),
];
const config = (deferredTools: Record<string, unknown>): HostConfig => ({ deferredTools });
const names = (result: DiscoverOutput) => result.results.map((entry) => entry.name);

async function turnFor(
  options: { config?: HostConfig; tools?: typeof library; seam?: Parameters<typeof preparer> } = {},
) {
  const host = createCapabilityHost({
    ...(options.config ? { config: options.config } : {}),
    ...(options.seam ? { preparers: [preparer(...options.seam)] } : {}),
  });
  const skills = options.tools
    ? []
    : [
        skill('weather-report', {
          description: 'Write a weather report for a trip',
          keywords: ['forecast'],
          tools: ['maps__get-weather'],
        }),
      ];
  await host.load(manifest({ tools: options.tools ?? library, skills }));
  return host.beginTurn({ sessionKey: 's' });
}

describe('discover', () => {
  it('ranks by name, keywords and description; returns name + brief; kind filter; prefix matches', async () => {
    const turn = await turnFor();
    const weather = output<DiscoverOutput>(await turn.execute('discover', { query: 'weather' }));
    expect(weather.results).toContainEqual({
      name: 'maps__get-weather',
      kind: 'tool',
      brief: 'Current weather for a city',
      loaded: false,
    });
    expect(names(weather).sort()).toEqual(['maps__get-weather', 'weather-report']);
    expect(names(output(await turn.execute('discover', { query: 'weather', kind: 'skill' })))).toEqual([
      'weather-report',
    ]);
    expect(names(output(await turn.execute('discover', { query: 'songs', kind: 'tool' })))).toEqual(['music_search']);
    expect(names(output(await turn.execute('discover', { query: 'geo' })))).toEqual(['maps__geocode']); // prefix
    expect(names(output(await turn.execute('discover', { query: 'maps__geocode' })))[0]).toBe('maps__geocode'); // exact name first
    // The brief is the first sentence.
    expect(output<DiscoverOutput>(await turn.execute('discover', { query: 'lottery' })).results[0]!.brief).toBe(
      'Recommend lottery numbers.',
    );
    // CJK text is searchable without spaces.
    expect(names(output(await turn.execute('discover', { query: '翻译' })))).toEqual(['translate']);
    await turn.end();
  });

  it('returns at most discoverTopK results and a fixed sentence when nothing matches', async () => {
    const turn = await turnFor({
      config: config({ discoverTopK: 2 }),
      tools: Array.from({ length: 9 }, (_, i) => catalogTool(`report_${i}`, { description: 'Build a report' })),
    });
    expect(output<DiscoverOutput>(await turn.execute('discover', { query: 'report' })).results).toHaveLength(2);
    expect(output(await turn.execute('discover', { query: 'zebra' }))).toEqual({
      query: 'zebra',
      results: [],
      message: 'No tools or skills match "zebra". Try other words.',
    });
    await turn.end();
  });

  it('meta tools run through the pipeline: journaled, validated, never asking for approval', async () => {
    const turn = await turnFor();
    await turn.execute('discover', { query: 'weather' }, { toolUseId: 'toolu_d' });
    expect(turn.journal.map((entry) => `${entry.type}:${entry.toolName}`)).toEqual([
      'tool_call:discover',
      'tool_result:discover',
    ]);
    expect(turn.journal[0]).toMatchObject({ source: 'runtime', toolUseId: 'toolu_d' });
    expect(await turn.execute('discover', { query: '' })).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/query' },
    });
    // A query is a few words: a huge one is invalid input, not echoed back twice.
    expect(await turn.execute('discover', { query: 'w'.repeat(MAX_QUERY + 1) })).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/query', message: expect.stringContaining(`at most ${MAX_QUERY}`) },
    });
    expect(await turn.execute('discover', { query: 'w'.repeat(MAX_QUERY) })).toMatchObject({ status: 'completed' });
    expect(await turn.execute('discover', { query: 'x', kind: 'agents' } as never)).toMatchObject({
      status: 'failed',
      error: { path: '/kind' },
    });
    expect(await turn.execute('load_tool', { name: 'x', extra: 1 } as never)).toMatchObject({
      status: 'failed',
      error: { path: '/extra' },
    });
    await turn.end();
  });

  it('load_tool returns the manifest schema object itself (never rebuilt) and marks the tool loaded', async () => {
    const turn = await turnFor();
    const loaded = output<LoadToolOutput>(await turn.execute('load_tool', { name: 'maps__geocode' }));
    expect(loaded).toEqual({
      name: 'maps__geocode',
      description: 'Turn an address into coordinates',
      input_schema: { type: 'object', properties: {} },
      loaded: ['maps__geocode'],
    });
    expect(loaded.input_schema).toBe(library[1]!.inputSchema);
    expect(output<DiscoverOutput>(await turn.execute('discover', { query: 'geocode' })).results[0]!.loaded).toBe(true);
    await turn.end();
  });
});

describe('deferredTools config', () => {
  it('a configured alwaysLoadedTools replaces the default list (meta tools included)', async () => {
    const turn = await turnFor({ config: config({ alwaysLoadedTools: ['discover', 'load_tool', 'music_search'] }) });
    expect((await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name)).toEqual([
      'discover',
      'load_tool',
      'music_search',
    ]);
    // load_skill is not in the list: not offered and not executable.
    expect(await turn.execute('load_skill', { name: 'weather-report' })).toMatchObject({
      status: 'denied',
      reason: 'tool "load_skill" is not available',
    });
    await turn.end();
  });

  it('mcpServers[server].alwaysLoaded keeps that server’s tools loaded and overrides the global list for it', async () => {
    const seam = [
      seamTool('gh_issue', 'mcp:github'),
      seamTool('gh_search', 'mcp:github'),
      seamTool('music_play', 'mcp:spotify'),
      seamTool('slack_post', 'mcp:slack'),
      seamTool('acme_search', 'remote:acme'),
    ];
    const turn = await turnFor({
      seam: [seam],
      config: config({
        // The global list names gh_search and slack_post, but their servers have their own lists.
        alwaysLoadedTools: ['discover', 'load_tool', 'load_skill', 'gh_search', 'slack_post', 'acme_search'],
        mcpServers: {
          github: { alwaysLoaded: ['gh_issue'] },
          spotify: { alwaysLoaded: ['*'] },
          slack: { alwaysLoaded: [] },
        },
      }),
    });
    const sent = await turn.modelTools({ provider: 'anthropic' });
    const deferred = Object.fromEntries(sent.map((tool) => [tool.name, tool.defer_loading === true]));
    expect(deferred).toMatchObject({
      gh_issue: false,
      gh_search: true,
      music_play: false,
      slack_post: true,
      acme_search: false,
    });
    // discover filters by MCP server and reports it.
    const github = output<DiscoverOutput>(await turn.execute('discover', { query: 'seam tool', mcp_server: 'github' }));
    expect(github.results.map((entry) => [entry.name, entry.mcp_server])).toEqual([
      ['gh_issue', 'github'],
      ['gh_search', 'github'],
    ]);
    await turn.end();
  });

  it('seam skills join discover and load_skill (instructions from the provider, on demand)', async () => {
    let described = 0;
    const research = seamSkill('acme_research', '', {
      description: 'Research with Acme sources',
      instructions: async () => `# Acme ${++described}`,
    });
    const turn = await turnFor({ seam: [[seamTool('acme_search', 'remote:acme')], [research]] });
    expect(described).toBe(0);
    expect(names(output(await turn.execute('discover', { query: 'research acme', kind: 'skill' })))).toEqual([
      'acme_research',
    ]);
    expect(output<LoadSkillOutput>(await turn.execute('load_skill', { name: 'acme_research' })).instructions).toBe(
      '# Acme 1',
    );
    await turn.end();
  });

  it('an invalid deferredTools section rejects the candidate; the previous generation keeps serving', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools: library }));
    for (const [section, message] of [
      [{ maxLoadedPerSession: -1 }, 'config.deferredTools.maxLoadedPerSession must be an integer ≥ 0'],
      [{ discoverTopK: 0 }, 'config.deferredTools.discoverTopK must be an integer ≥ 1'],
      [
        { alwaysLoadedTools: 'discover' },
        'config.deferredTools.alwaysLoadedTools must be an array of non-empty tool names',
      ],
      [
        { mcpServers: { gh: { alwaysLoaded: [1] } } },
        'config.deferredTools.mcpServers.gh.alwaysLoaded must be an array',
      ],
      [{ maxLoaded: 3 }, 'config.deferredTools.maxLoaded is not a known option'],
    ] as const) {
      const error = await host.load(manifest({ tools: library }), { config: config(section) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CandidateRejectedError);
      expect((error as Error).message).toContain(message);
    }
    expect(host.generation).toBe(1);
  });

  it('unknown meta names in a restricted turn stay "not available"; failed loads do not persist', async () => {
    const turn = await turnFor();
    expect(failure(await turn.execute('load_tool', { name: 'nope' }))).toContain('No tool named "nope"');
    expect(turn.deferred.snapshot().loadedTools).toEqual({});
    await turn.end();
  });
});
