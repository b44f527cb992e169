/**
 * The shard layout of a large tool table (compiler/emit/shard-layout.ts): a pure function of the
 * set of names, at most SHARD_TOOLS tools a shard, and local: one name added or removed renames
 * at most the shard it lands in (split in two, or merged with its sibling), never another.
 */
import { describe, expect, it } from 'vitest';
import { isSharded, layoutShards, nameHash, SHARD_TOOLS, shardsOf } from '../../../compiler/emit/shard-layout.js';

const names = (n: number, prefix = 'tool'): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

/** Shard name → its tools, for a set of names. */
function contents(list: readonly string[]): Map<string, string[]> {
  const { names: shards, of } = shardsOf(list);
  const out = new Map(shards.map((name) => [name, [] as string[]]));
  for (const name of list) out.get(of.get(name)!)!.push(name);
  return out;
}

/** The shards whose contents differ between two layouts, on either side. */
function touched(a: Map<string, string[]>, b: Map<string, string[]>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((name) => a.get(name)?.join() !== b.get(name)?.join()).sort();
}

describe('shard layout', () => {
  it('puts every tool in exactly one shard of at most SHARD_TOOLS, names by trie path, in table order', () => {
    for (const n of [SHARD_TOOLS + 1, 150, 1000, 5000]) {
      const list = names(n).sort();
      const layout = layoutShards(list.map(nameHash));
      const seen = layout.flatMap((l) => l.positions);
      expect(seen.sort((a, b) => a - b)).toEqual(list.map((_, i) => i));
      for (const { leaf, positions } of layout) {
        expect(positions.length).toBeGreaterThan(0);
        expect(positions.length).toBeLessThanOrEqual(SHARD_TOOLS);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(leaf.name).toMatch(/^tools-[01]{1,10}$/);
        expect(leaf.name.length - 'tools-'.length).toBe(leaf.depth);
        for (const at of positions) expect(nameHash(list[at]!) & ((1 << leaf.depth) - 1)).toBe(leaf.bits);
      }
      // No name is a prefix of another (each hash has one shard), and they come in name order.
      const paths = layout.map((l) => l.leaf.name);
      expect(paths).toEqual([...paths].sort());
      for (const a of paths) for (const b of paths) if (a !== b) expect(b.startsWith(a)).toBe(false);
    }
    expect([isSharded(SHARD_TOOLS), isSharded(SHARD_TOOLS + 1)]).toEqual([false, true]);
  });

  it('depends on the set of names alone, not on their order', () => {
    const list = names(700);
    const shuffled = [...list].reverse();
    expect(shardsOf(list).names).toEqual(shardsOf(shuffled).names);
    expect([...shardsOf(list).of].sort()).toEqual([...shardsOf(shuffled).of].sort());
  });

  it('a name added or removed touches its own shard, or the two or three shards of one split or merge', () => {
    let splits = 0;
    for (const n of [130, 400, 2000]) {
      const list = names(n);
      const before = contents(list);
      for (let k = 0; k < 200; k++) {
        const added = contents([...list, `new-${k}`]);
        const changed = touched(before, added);
        const home = shardsOf([...list, `new-${k}`]).of.get(`new-${k}`)!;
        // The shard it lands in, or the shard it split (first in name order) and its halves.
        if (changed.length === 1) expect(changed).toEqual([home]);
        else expect(changed.every((name) => name.startsWith(changed[0]!))).toBe(true);
        expect(changed.length).toBeLessThanOrEqual(3);
        if (changed.length > 1) splits++;
        const removed = contents(list.filter((name) => name !== list[k]));
        const gone = touched(before, removed);
        expect(gone.length).toBeLessThanOrEqual(3);
        if (gone.length > 1) expect(gone.every((name) => name.startsWith(gone[0]!))).toBe(true);
      }
    }
    // The rounds above include splits (so the split case is exercised, not only the easy one).
    expect(splits).toBeGreaterThan(0);
  });
});
