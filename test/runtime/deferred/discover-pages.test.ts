/**
 * `discover` keeps the first page of recent queries per search mask (runtime/deferred/search.ts):
 * turns of principals whose access differs alternate on one generation, and every `discover`
 * must return exactly what a fresh generation (no page kept) returns for the same turn — never a
 * tool the turn may not list. The restricted tools outrank the open ones, so a page shared across
 * masks would hand one principal's ranking to another and change (or leak into) its answer.
 */
import { describe, expect, it } from 'vitest';
import { createCapabilityHost, type ImMessage, PermissionHost, type TurnInput } from '../../../runtime/index.js';
import { manifest } from '../fixture.js';
import { catalogTool } from './fixture.js';

const many = (prefix: string, count: number, description: string, meta: Parameters<typeof catalogTool>[1] = {}) =>
  Array.from({ length: count }, (_, i) =>
    catalogTool(`${prefix}-${String(i).padStart(2, '0')}`, { description, ...meta }),
  );

const tools = [
  // Best matches first: restricted ones, so each mask's first page differs.
  ...many('master', 20, 'weather weather weather report', { permissions: ['role(master)'] }),
  ...many('vip', 20, 'weather weather forecast', { permissions: ['vip'] }),
  ...many('group', 20, 'weather weather now', { scopes: ['group'] }),
  ...many('open', 20, 'weather in a city and more words here'),
];

const message = (scene: 'group' | 'private', user: string, roles: string[] = []): ImMessage => ({
  $adapter: 'qq',
  $channel: { id: 'c1', type: scene },
  $sender: { id: user, ...(roles.length > 0 ? { role: roles } : {}) },
});

describe('discover pages kept per mask', () => {
  it('never shares a page between principals whose access differs (listed first or not)', async () => {
    const vips = new Set<string>(['ann']);
    const permissions = new PermissionHost();
    permissions.register('vip', (_permit, subject) => vips.has(String(subject.sender?.id)));
    const host = createCapabilityHost({ permissions });
    await host.load(manifest({ tools }));
    const inputs: TurnInput[] = [
      { sessionKey: 'ann', message: message('group', 'ann', ['master']) },
      { sessionKey: 'bob', message: message('group', 'bob') },
      { sessionKey: 'ann-dm', message: message('private', 'ann') },
      { sessionKey: 'carl', message: message('private', 'carl') },
      { sessionKey: 'system' },
    ];
    const seen = new Set<string>();
    for (let round = 0; round < 3; round += 1) {
      if (round === 1) vips.delete('ann'); // a live permission changes between turns
      if (round === 2) vips.add('carl');
      for (const listedFirst of [true, false]) {
        for (const input of inputs) {
          const turn = await host.beginTurn(input);
          if (listedFirst) await turn.modelTools({ provider: 'anthropic' });
          const allowed = new Set((await turn.deferred.listing()).tools.map((tool) => tool.name));
          const got = await turn.deferred.discover({ query: 'weather' });
          await turn.end();

          const fresh = createCapabilityHost({ permissions });
          await fresh.load(manifest({ tools }));
          const reference = await fresh.beginTurn(input);
          if (listedFirst) await reference.modelTools({ provider: 'anthropic' });
          const want = await reference.deferred.discover({ query: 'weather' });
          await reference.end();
          await fresh.close();

          const names = got.results.map((result) => result.name);
          expect(names, `${input.sessionKey} round ${round}`).toEqual(want.results.map((result) => result.name));
          expect(names.length).toBeGreaterThan(0);
          for (const name of names) expect(allowed.has(name), `${input.sessionKey} sees ${name}`).toBe(true);
          seen.add(names[0]!.split('-')[0]!);
        }
      }
    }
    // The rounds really exercised different first pages.
    expect([...seen].sort()).toEqual(['group', 'master', 'open', 'vip']);
    await host.close();
  });
});
