/**
 * Capability Seam skills and tools in the prompt and the catalog: a loaded seam skill's
 * instructions come from its provider (once per generation), a failing provider is reported
 * instead of silently dropped, and the catalog shows seam provenance but never instructions.
 */
import { describe, expect, it } from 'vitest';
import { createCapabilityHost, type SkillCatalogEntry, type SeamScope } from '../../../runtime/index.js';
import { type LoopModel, runToolLoop } from '../../../runtime/bridges/loop.js';
import { manifest, skill } from '../fixture.js';
import { RecordingSkillService, RecordingToolService, seamRoot, tool } from '../seam/helpers.js';

class FlakySkillService extends RecordingSkillService {
  failures = 0;
  override async describe(scope: SeamScope, skillId: string): Promise<string> {
    if (this.failures-- > 0) throw new Error('provider offline');
    return super.describe(scope, skillId);
  }
}

/** describe() that never settles while `hang` is set (a provider stuck on its network). */
class HangingSkillService extends RecordingSkillService {
  hang = false;
  override describe(scope: SeamScope, skillId: string): Promise<string> {
    return this.hang ? new Promise<string>(() => undefined) : super.describe(scope, skillId);
  }
}

async function seamHost(
  service: RecordingSkillService,
  config: Record<string, unknown> = {},
  released: { dispose?: () => void } = {},
) {
  const root = seamRoot((seams) => {
    released.dispose = seams.registerSkillService('global', service);
    seams.registerToolService(
      'global',
      new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never', source: 'remote:acme' })]),
    );
  });
  const host = createCapabilityHost({ config });
  await host.load(manifest({ skills: [skill('research', { instructions: 'Feature research steps.' })] }), {
    plugins: { '': root.plugin },
  });
  return host;
}

const entries: SkillCatalogEntry[] = [{ name: 'acme_research', description: 'Research with Acme sources' }];

describe('seam skills in the system prompt', () => {
  it('a loaded seam skill renders its provider instructions, asked once per generation', async () => {
    const service = new RecordingSkillService('acme:skills', entries);
    const host = await seamHost(service);
    const turn = await host.beginTurn({ sessionKey: 's', skills: ['research'] });
    expect(await turn.execute('load_skill', { name: 'acme_research' })).toMatchObject({ status: 'completed' });
    const asked = service.described.length;
    const prompt = await turn.systemPrompt();
    expect(prompt.text).toBe(
      'Feature research steps.\n\n# acme_research\nInstructions from acme:skills for scope global.',
    );
    expect(prompt.parts.map((p) => [p.kind, p.id])).toEqual([
      ['skill', 'research'],
      ['skill', 'acme_research'],
    ]);
    // One describe() for the prompt (load_skill's own call is the deferred catalog's), then cached.
    expect(service.described.length).toBe(asked + 1);
    await turn.systemPrompt();
    expect(service.described.length).toBe(asked + 1);
    const other = await host.beginTurn({ sessionKey: 't' });
    await other.execute('load_skill', { name: 'acme_research' });
    const before = service.described.length;
    expect((await other.systemPrompt()).text).toContain('Instructions from acme:skills');
    // Another turn of the same generation reuses the cached instructions.
    expect(service.described.length).toBe(before);
  });

  it('a provider failure is reported, not silently dropped, and retried next time', async () => {
    const service = new FlakySkillService('acme:skills', entries);
    const host = await seamHost(service);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('load_skill', { name: 'acme_research' })).toMatchObject({ status: 'completed' });
    service.failures = 1;
    const failed = await turn.systemPrompt();
    expect(failed.unavailableSkills).toEqual([{ id: 'acme_research', error: 'provider offline' }]);
    expect(failed.text).toBe('');
    const retried = await turn.systemPrompt();
    expect(retried.unavailableSkills).toEqual([]);
    expect(retried.text).toContain('Instructions from acme:skills');
  });
  it('a describe() that never answers is waited for up to ai.agent.skillInstructionsTimeoutMs, then asked again; end() ends the wait', async () => {
    const service = new HangingSkillService('acme:skills', entries);
    const host = await seamHost(service, { ai: { agent: { skillInstructionsTimeoutMs: 40 } } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('load_skill', { name: 'acme_research' })).toMatchObject({ status: 'completed' });
    service.hang = true;
    const stuck = await turn.systemPrompt();
    expect(stuck.unavailableSkills).toEqual([
      { id: 'acme_research', error: 'instructions did not arrive within 40 ms' },
    ]);
    // The hung request is not joined again: the provider is asked anew and answers now.
    service.hang = false;
    expect((await turn.systemPrompt()).text).toContain('Instructions from acme:skills');
    await turn.end();

    const slow = await seamHost(service, { ai: { agent: { skillInstructionsTimeoutMs: 60_000 } } });
    const waiting = await slow.beginTurn({ sessionKey: 's' });
    await waiting.execute('load_skill', { name: 'acme_research' });
    service.hang = true;
    const pending = waiting.systemPrompt();
    setTimeout(() => void waiting.end(), 20);
    await expect(pending).rejects.toThrow(/has ended; begin a new turn/);
    await expect(
      createCapabilityHost({ config: { ai: { agent: { skillInstructionsTimeoutMs: 0 } } } }).load(manifest({})),
    ).rejects.toThrow(/skillInstructionsTimeoutMs must be a positive safe integer/);
  });

  it('a tool loop waiting on that describe() for its system prompt ends "aborted" when its signal aborts', async () => {
    const service = new HangingSkillService('acme:skills', entries);
    const host = await seamHost(service, { ai: { agent: { skillInstructionsTimeoutMs: 60_000 } } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.execute('load_skill', { name: 'acme_research' });
    service.hang = true;
    const requests: unknown[] = [];
    const model: LoopModel<'generic', string> = {
      provider: 'generic',
      request: async (request) => {
        requests.push(request);
        return { messages: [], text: '', calls: [], usage: { inputTokens: 0, outputTokens: 0 }, stopReason: 'stop' };
      },
      results: () => [],
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const result = await runToolLoop(model, ['hi'], { turn, signal: controller.signal });
    expect(result.finishReason).toBe('aborted');
    expect(requests).toEqual([]);
    await turn.end();
  });

  it("a released provider's instructions leave the prompt (reported unavailable), kept answers included", async () => {
    const service = new RecordingSkillService('acme:skills', entries);
    const released: { dispose?: () => void } = {};
    const host = await seamHost(service, {}, released);
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.execute('load_skill', { name: 'acme_research' });
    expect((await turn.systemPrompt()).text).toContain('Instructions from acme:skills');
    released.dispose!();
    const after = await turn.systemPrompt();
    expect(after.text).not.toContain('Instructions from acme:skills');
    expect(after.unavailableSkills).toEqual([
      { id: 'acme_research', error: expect.stringContaining('provider "acme:skills" was released') },
    ]);
  });
});

describe('seam capabilities in host.catalog()', () => {
  it('lists seam tools and skills with provenance and without instructions', async () => {
    const host = await seamHost(new RecordingSkillService('acme:skills', entries));
    const catalog = host.catalog();
    expect(catalog.skills.find((s) => s.qualifiedName === 'acme_research')).toMatchObject({
      origin: 'seam',
      seam: { provider: 'acme:skills', scope: 'global', name: 'acme_research' },
      retention: 'preferred',
    });
    expect(catalog.skills.find((s) => s.qualifiedName === 'acme_research')).not.toHaveProperty('instructionsChars');
    expect(catalog.skills.find((s) => s.qualifiedName === 'research')).toMatchObject({
      origin: 'feature',
      instructionsChars: 23,
    });
    expect(catalog.tools.find((t) => t.qualifiedName === 'acme_search')).toMatchObject({
      origin: 'seam',
      seam: { provider: 'acme:search', scope: 'global', name: 'acme_search', source: 'remote:acme' },
    });
    const serialized = JSON.stringify(catalog);
    expect(serialized).not.toContain('Instructions from');
    expect(serialized).not.toContain('Feature research steps');
  });
});
