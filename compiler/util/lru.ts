/**
 * A Map that keeps at most `capacity` entries, dropping the least recently used: per-run caches
 * whose entries are mostly used once (file texts, parsed helper modules) stay small, so their
 * contents die young instead of being promoted and scanned by every garbage collection.
 */
export class LruMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override get(key: K): V | undefined {
    if (!super.has(key)) return undefined;
    const value = super.get(key) as V;
    super.delete(key);
    super.set(key, value);
    return value;
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.capacity) this.delete(this.keys().next().value as K);
    return this;
  }
}
