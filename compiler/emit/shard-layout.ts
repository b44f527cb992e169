/**
 * Which shard a tool of a large bot's table goes to, and the shard's name (shards.ts,
 * docs/cli.md#the-generated-modules). The shards are the leaves of a binary trie over the bits
 * of each tool's name hash, low bit first: a node holding more than SHARD_TOOLS tools splits by
 * its next bit, until MAX_DEPTH. A shard is named by its path in the trie (`tools-0110`: bit 0 is
 * 0, bit 1 is 1, …), never by its position or by how many shards there are. The layout is a pure
 * function of the set of names (a fresh `generate` and a watch-mode run agree), and it is local:
 * adding or removing a tool changes the shard it lands in, or splits that shard in two, or merges
 * it with its sibling; every other shard keeps its name and its bytes. (Before, the shards were
 * `hash mod 2^k` named `tools-<i>-of-<n>`: crossing a power of two renamed every shard, so a dev
 * server reloaded the page and the client asked for modules that were just deleted.)
 */

/** Tools per shard at most (below MAX_DEPTH); a table of at most this many stays in the main module. */
export const SHARD_TOOLS = 64;
/** The trie's depth at most: at most 2^10 shards, which grow past SHARD_TOOLS beyond ~65,000 tools. */
const MAX_DEPTH = 10;

/** 32-bit FNV-1a over UTF-16 code units: the same number for the same name on every machine. */
export function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Whether a table of `tools` tools is in shards (else inline in the main module). */
export function isSharded(tools: number): boolean {
  return tools > SHARD_TOOLS;
}

/** One leaf of the trie: the hashes whose low `depth` bits are `bits`. */
export interface ShardLeaf {
  /** `tools-` and the leaf's path, bit 0 first: a module name of the generated folder. */
  readonly name: string;
  readonly depth: number;
  readonly bits: number;
}

/** Whether a name hash falls in this leaf. */
export function inLeaf(leaf: ShardLeaf, hash: number): boolean {
  return leaf.depth === 0 || (hash & ((1 << leaf.depth) - 1)) >>> 0 === leaf.bits;
}

function leafName(depth: number, bits: number): string {
  let path = '';
  for (let k = 0; k < depth; k++) path += (bits >>> k) & 1 ? '1' : '0';
  return `tools-${path}`;
}

/**
 * The table's positions (in table order) by leaf, the leaves in trie order (bit 0 before bit 1
 * at each level, i.e. by name): each list keeps table order. Empty leaves get no shard. A table
 * of at most SHARD_TOOLS tools is one leaf of depth 0 (callers keep it in the main module).
 */
export function layoutShards(hashes: readonly number[]): { leaf: ShardLeaf; positions: number[] }[] {
  const out: { leaf: ShardLeaf; positions: number[] }[] = [];
  const split = (positions: number[], depth: number, bits: number): void => {
    if (positions.length === 0) return;
    if (positions.length <= SHARD_TOOLS || depth === MAX_DEPTH) {
      out.push({ leaf: { name: leafName(depth, bits), depth, bits }, positions });
      return;
    }
    const zero: number[] = [];
    const one: number[] = [];
    const bit = 1 << depth;
    for (const at of positions) (hashes[at]! & bit ? one : zero).push(at);
    split(zero, depth + 1, bits);
    split(one, depth + 1, (bits | bit) >>> 0);
  };
  split(
    Array.from({ length: hashes.length }, (_, i) => i),
    0,
    0,
  );
  return out;
}

/** The shard names of a table of these tool names (in trie order), and each name's shard. */
export function shardsOf(names: readonly string[]): { names: string[]; of: Map<string, string> } {
  const layout = layoutShards(names.map(nameHash));
  const of = new Map<string, string>();
  for (const { leaf, positions } of layout) for (const at of positions) of.set(names[at]!, leaf.name);
  return { names: layout.map((l) => l.leaf.name), of };
}
