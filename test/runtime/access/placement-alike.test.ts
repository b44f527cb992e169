/**
 * Items placed alike share one Placement (runtime/access/scope.ts): the decision and the
 * disclosure of every item stay those of a Placement built for it alone, whichever alike item
 * was read first, and an item differing from another in any one field (owner, placement, agent,
 * skill, the agents it is replaced for) never gets the other's.
 */
import { describe, expect, it } from 'vitest';
import { type Placed, Placement, placementDecision, placementOf, disclosureOf } from '../../../runtime/access/scope.js';
import type { ManifestAgent } from '../../../runtime/index.js';

const agentOf = (owner: string, name: string): ManifestAgent =>
  ({ qualifiedName: owner ? `${owner}__${name}` : name, name, owner }) as unknown as ManifestAgent;

const base: Placed = { owner: 'p', placement: 'agent-skill', agent: 'helper', skill: 'alpha' };
const variants: readonly Placed[] = [
  base,
  { ...base, owner: 'q' },
  { ...base, owner: '' },
  { ...base, agent: 'other' },
  { ...base, skill: 'beta' },
  { ...base, placement: 'skill', agent: undefined },
  { ...base, placement: 'agent', skill: undefined },
  { ...base, placement: 'skill', agent: undefined, skill: '' },
  { ...base, placement: 'skill', agent: undefined, skill: undefined },
  { ...base, exceptAgents: ['p__helper'] },
  { ...base, exceptAgents: ['q__other'] },
  { owner: 'p', placement: 'plugin', exceptAgents: ['p__helper'] },
  { owner: 'p', placement: 'bogus' as Placed['placement'] },
];

const agents = [undefined, agentOf('p', 'helper'), agentOf('q', 'helper'), agentOf('p', 'other')];
const skillSets = [
  [],
  ['p__helper__alpha'],
  ['q__helper__alpha'],
  ['p__other__alpha'],
  ['p__helper__beta'],
  ['p__alpha'],
  ['p__beta'],
  ['p__'],
].map((names) => new Set(names));

describe('placements shared by items placed alike', () => {
  it('every item decides and discloses as its own Placement would, whichever alike item came first', () => {
    // Fresh objects per round, read in two orders: a memo keyed too coarsely answers one
    // variant with another's placement in at least one of them.
    for (const order of [variants, [...variants].reverse()]) {
      const items = order.map((item) => ({ ...item }));
      for (const scopeAgent of agents)
        for (const activeSkills of skillSets) {
          const scope = { agent: scopeAgent, activeSkills };
          for (const item of items) {
            const own = new Placement(item);
            expect(placementDecision(item, scope), JSON.stringify({ item, scope: [...activeSkills] })).toEqual(
              own.decide(scope),
            );
            expect(disclosureOf(item)).toEqual(own.disclosure);
          }
        }
    }
  });

  it('separate items with the same placement fields share one Placement; any other field value does not', () => {
    const a = { ...base };
    const b = { ...base };
    expect(placementOf(a)).toBe(placementOf(b));
    const distinct = new Set(variants.map((item) => placementOf({ ...item })));
    expect(distinct.size).toBe(variants.length);
  });
});
