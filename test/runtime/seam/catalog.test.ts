/**
 * Seam capabilities in the deferred catalog, end to end through a real SeamIntegration:
 * `discover`, `load_tool`, `load_skill` and `modelTools` read the same tables.
 */
import { describe, expect, it } from 'vitest';
import { createCapabilityHost, type ToolOutcome } from '../../../runtime/index.js';
import { agent, manifest } from '../fixture.js';
import { RecordingSkillService, RecordingToolService, searchParameters, seamRoot, tool } from './helpers.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const output = <T>(outcome: ToolOutcome): T => {
  if (outcome.status !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  return outcome.output as T;
};
type Discovered = { results: { name: string; kind: string; mcp_server?: string }[] };

async function seamHost() {
  const root = seamRoot((seams) => {
    seams.registerToolService(
      'global',
      new RecordingToolService('acme:search', [
        tool('acme_search', { parameters: searchParameters, approval: 'never', source: 'remote:acme' }),
      ]),
    );
    seams.registerToolService(
      'global',
      new RecordingToolService('github', [
        tool('gh_issue', { source: 'mcp:github', keywords: ['issue'] }),
        tool('gh_pull', { source: 'mcp:github' }),
      ]),
    );
    seams.registerToolService(
      'reviewer',
      new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })]),
    );
    seams.registerSkillService(
      'global',
      new RecordingSkillService('acme:skills', [{ name: 'acme_research', description: 'Research with Acme sources' }]),
    );
  });
  const host = createCapabilityHost({
    jsonSchemaValidator: ajvValidator(),
    config: { deferredTools: { mcpServers: { github: { alwaysLoaded: ['gh_issue'] } } } },
  });
  await host.load(manifest({ agents: [agent('reviewer')] }), { plugins: { '': root.plugin } });
  return host;
}

describe('seam capabilities in the deferred catalog', () => {
  it('discover finds seam tools and skills; mcp_server filters by an mcp:<server> source', async () => {
    const host = await seamHost();
    const turn = await host.beginTurn({ sessionKey: 's' });
    const found = output<Discovered>(await turn.execute('discover', { query: 'seam tool' }));
    expect(found.results.map((r) => r.name)).toEqual(expect.arrayContaining(['acme_search', 'gh_issue', 'gh_pull']));
    expect(found.results.map((r) => r.name)).not.toContain('reviewer__acme_search');
    const github = output<Discovered>(await turn.execute('discover', { query: 'seam tool', mcp_server: 'github' }));
    expect(github.results.map((r) => [r.name, r.mcp_server]).sort()).toEqual([
      ['gh_issue', 'github'],
      ['gh_pull', 'github'],
    ]);
    const skills = output<Discovered>(await turn.execute('discover', { query: 'acme research', kind: 'skill' }));
    expect(skills.results.map((r) => r.name)).toEqual(['acme_research']);
    await turn.end();
  });

  it('modelTools sends seam tools (mcpServers alwaysLoaded applies), load_tool and load_skill work on them', async () => {
    const host = await seamHost();
    const turn = await host.beginTurn({ sessionKey: 's' });
    const anthropic = await turn.modelTools({ provider: 'anthropic' });
    const deferred = Object.fromEntries(anthropic.map((t) => [t.name, t.defer_loading === true]));
    expect(deferred).toMatchObject({ acme_search: true, gh_issue: false, gh_pull: true });
    expect(anthropic.find((t) => t.name === 'acme_search')!.input_schema).toEqual(searchParameters);

    const before = (await turn.modelTools({ provider: 'openai' })).map((t) => t.function.name);
    expect(before).toContain('gh_issue');
    expect(before).not.toContain('acme_search');
    expect(output<{ name: string }>(await turn.execute('load_tool', { name: 'acme_search' })).name).toBe('acme_search');
    expect((await turn.modelTools({ provider: 'openai' })).map((t) => t.function.name)).toContain('acme_search');

    const skill = output<{ instructions: string }>(await turn.execute('load_skill', { name: 'acme_research' }));
    expect(skill.instructions).toBe('# acme_research\nInstructions from acme:skills for scope global.');
    expect(await turn.execute('acme_search', { query: 'x' })).toMatchObject({ status: 'completed' });
    await turn.end();
  });

  it('a scoped replacement shows only the owner its own provider in discover', async () => {
    const host = await seamHost();
    const turn = await host.beginTurn({ sessionKey: 's', agent: 'reviewer' });
    const found = output<Discovered>(await turn.execute('discover', { query: 'acme search' }));
    expect(found.results.map((r) => r.name)).toContain('reviewer__acme_search');
    expect(found.results.map((r) => r.name)).not.toContain('acme_search');
    await turn.end();
  });
});
