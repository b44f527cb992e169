/**
 * `discover` hints at nothing a principal may not access (SPEC §7.3): a member's answers are the
 * same whether or not the generation also holds admin-only tools and skills — the same names, in
 * the same order, the same "no match". Before, the search ranked by the whole catalog's statistics
 * and expanded a prefix to the catalog's first 64 words, so 70 admin-only words starting `secr`
 * hid the member's own `secrzz` tool, and admin-only tools sharing a word reordered the member's
 * hits: enough to count them by word and probe their vocabulary.
 */
import { describe, expect, it } from 'vitest';
import { createCapabilityHost, PermissionHost, type TurnInput } from '../../../runtime/index.js';
import { im, manifest, skill } from '../fixture.js';
import { catalogTool } from './fixture.js';

const ADMIN = { permissions: ['role(admin)'] };

const visible = [
  catalogTool('visible', { description: 'Keeps the secrzz notes of the group.' }),
  catalogTool('alpha', { description: 'Alpha zeta helper.' }),
  catalogTool('beta', { description: 'Beta omega helper.' }),
  catalogTool('gamma', { description: 'Gamma helper for secrets, zeta and omega.' }),
];
const visibleSkills = [skill('notes', { description: 'Write notes with the helper tools.' })];

// Admin-only: one tool whose description holds 70 words starting `secr`, three "zeta" tools, a skill.
const secrWords = Array.from({ length: 70 }, (_, i) => `secr${String.fromCharCode(97 + (i % 26))}${i}`).join(' ');
const denied = [
  catalogTool('vault', { description: secrWords, ...ADMIN }),
  ...['z1', 'z2', 'z3'].map((name) => catalogTool(name, { description: 'zeta zeta zeta helper', ...ADMIN })),
];
const deniedSkills = [skill('audit', { description: 'Audit secrets with zeta omega helper tools.', ...ADMIN })];

const QUERIES = ['secr', 'secrzz', 'zeta omega', 'zeta', 'helper', 'omega', 'secrets', 'audit', 'vault', 'nothing'];

async function answers(withDenied: boolean, input: TurnInput, listedFirst: boolean): Promise<unknown[]> {
  const host = createCapabilityHost({ permissions: new PermissionHost() });
  await host.load(
    manifest({
      tools: [...visible, ...(withDenied ? denied : [])],
      skills: [...visibleSkills, ...(withDenied ? deniedSkills : [])],
    }),
  );
  const turn = await host.beginTurn(input);
  if (listedFirst) await turn.modelTools({ provider: 'anthropic' });
  const out: unknown[] = [];
  for (const query of QUERIES) {
    const { results, message } = await turn.deferred.discover({ query });
    out.push({ query, names: results.map((r) => r.name), message });
  }
  await turn.end();
  await host.close();
  return out;
}

describe('discover under access control', () => {
  it("a member's answers are the same with and without the admin-only tools and skills", async () => {
    const member: TurnInput = { sessionKey: 'm', message: im({ user: 'member' }) };
    for (const listedFirst of [true, false]) {
      const without = await answers(false, member, listedFirst);
      expect(await answers(true, member, listedFirst)).toEqual(without);
      // The member's own prefix match is found, and ranked as in a bot without admin tools.
      expect((without[0] as { names: string[] }).names).toContain('visible');
    }
  });

  it('an admin finds the admin-only tools and skills (the mask is per access)', async () => {
    const admin: TurnInput = { sessionKey: 'a', message: im({ user: 'boss', role: ['admin'] }) };
    const got = (await answers(true, admin, false)) as { query: string; names: string[] }[];
    expect(got.find((a) => a.query === 'vault')!.names).toContain('vault');
    expect(got.find((a) => a.query === 'audit')!.names).toContain('audit');
  });
});
