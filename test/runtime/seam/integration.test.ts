/** Registration rules of SeamIntegration, the tokens, and the fail-closed legacy methods. */
import { describe, expect, it } from 'vitest';
import {
  SeamIntegration,
  capabilitySeamToken,
  createCapabilityHost,
  definePlugin,
  isSeamIntegration,
  seamIntegrationToken,
} from '../../../runtime/index.js';
import { manifest } from '../fixture.js';
import { RecordingSkillService, RecordingToolService, seamRoot, tool } from './helpers.js';

const search = () => new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })]);

async function projectedNames(register: (seams: SeamIntegration) => void): Promise<string[]> {
  const host = createCapabilityHost();
  await host.load(manifest(), { plugins: { '': seamRoot(register).plugin } });
  return [...host.current!.tools.values()].filter((b) => b.source === 'seam').map((b) => b.qualifiedName);
}

describe('registration', () => {
  it('a duplicate provider id in one scope throws at registration; other scopes and kinds are separate', () => {
    const seams = new SeamIntegration();
    seams.registerToolService('global', search());
    expect(() => seams.registerToolService('global', search())).toThrow(
      'tool service "acme:search" is already registered in scope "global"',
    );
    expect(() => seams.registerToolService('reviewer', search())).not.toThrow();
    expect(() => seams.registerSkillService('global', new RecordingSkillService('acme:search', []))).not.toThrow();
    expect(() => seams.registerSkillService('global', new RecordingSkillService('acme:search', []))).toThrow(
      'skill service "acme:search" is already registered in scope "global"',
    );
  });

  it('disposers are idempotent and remove exactly their own registration', async () => {
    let first!: () => void;
    let second!: () => void;
    const names = await projectedNames((seams) => {
      first = seams.registerToolService('global', search());
      first();
      first(); // twice: no error, no effect on anything else
      second = seams.registerToolService('global', search()); // the id is free again
      first(); // an old disposer never removes the new registration
    });
    expect(names).toEqual(['acme_search']);
    second();
    second();
  });

  it('rejects invalid scopes and services with TypeErrors', () => {
    const seams = new SeamIntegration();
    expect(() => seams.registerToolService('', search())).toThrow(TypeError);
    expect(() => seams.registerToolService('a b' as never, search())).toThrow(
      "seam scope must be 'global' or an owner id",
    );
    expect(() =>
      seams.registerToolService('global', {
        id: '',
        description: '',
        schema: () => [],
        execute: () => ({ success: true }),
      }),
    ).toThrow('service `id` must be a non-empty string');
    expect(() => seams.registerToolService('global', { id: 'x', description: 'x' } as never)).toThrow(
      'service "x" has no schema() method',
    );
    expect(() =>
      seams.registerSkillService('global', { id: 'x', description: 'x', catalog: () => [] } as never),
    ).toThrow('has no describe() method');
  });

  it('dispose() releases everything, is idempotent, and refuses later registrations', () => {
    const seams = new SeamIntegration();
    seams.registerToolService('global', search());
    seams.dispose();
    seams.dispose();
    expect(seams.disposed).toBe(true);
    expect(() => seams.registerToolService('global', search())).toThrow(
      'cannot register a tool service: the SeamIntegration is disposed',
    );
  });

  it('is recognised by brand, so two copies of the runtime still agree', () => {
    expect(isSeamIntegration(new SeamIntegration())).toBe(true);
    expect(isSeamIntegration({ registerToolService() {} })).toBe(false);
    expect(capabilitySeamToken.key).toBe(Symbol.for('zhin-gen.runtime.capabilitySeam'));
  });
});

describe('legacy surface', () => {
  it('executeTool() and invokeSkill() resolve to fail-closed migration errors and never reach a provider', async () => {
    const service = search();
    const skills = new RecordingSkillService('acme:skills', [{ name: 'acme_research', description: 'x' }]);
    const seams = new SeamIntegration();
    seams.registerToolService('global', service);
    seams.registerSkillService('global', skills);
    const tool = await seams.executeTool('acme_search', { query: 'x' });
    expect(tool.success).toBe(false);
    expect(tool).toEqual({
      success: false,
      error:
        'SeamIntegration.executeTool("acme_search") is not supported: seam tools run only through the turn tool pipeline ' +
        '(generation → permission → approval → journal). Call turn.execute("acme_search", input) on a turn from host.beginTurn().',
    });
    const skill = await seams.invokeSkill('acme_research');
    expect(skill).toMatchObject({ success: false });
    expect(!skill.success && skill.error).toContain('SeamIntegration.invokeSkill("acme_research") is not supported');
    expect(!skill.success && skill.error).toContain('turn tool pipeline');
    expect(service.calls).toHaveLength(0);
    expect(skills.described).toHaveLength(0);
  });

  it('seamIntegrationToken is kept but consumed by nothing; the host reports a root that still provides it', async () => {
    const notices: string[] = [];
    const service = search();
    const host = createCapabilityHost({ onError: (error) => notices.push(error.message) });
    const legacyRoot = definePlugin({
      name: 'root',
      setup({ resources }) {
        const seams = new SeamIntegration();
        seams.registerToolService('global', service);
        resources.provide(seamIntegrationToken, seams);
      },
    });
    await host.load(manifest(), { plugins: { '': legacyRoot } });
    expect(host.current!.tools.has('acme_search')).toBe(false);
    expect(notices).toEqual([
      'the root plugin provides the legacy seamIntegrationToken, which nothing consumes; provide capabilitySeamToken instead (docs/seam.md)',
    ]);
    expect(seamIntegrationToken).not.toBe(capabilitySeamToken);
  });

  it('a root that provides no seam changes nothing', async () => {
    const host = createCapabilityHost();
    await host.load(manifest(), {
      plugins: { '': seamRoot((seams) => seams.registerToolService('global', search()), { provide: false }).plugin },
    });
    expect([...host.current!.tools.keys()]).toEqual(['ask_user']);
  });
});
