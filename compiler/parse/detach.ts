/**
 * A parse result outlives its source file: the unit cache and the model keep it for the whole
 * run (and watch mode keeps it between runs), while the file's text is needed only while the
 * unit is parsed. But a string TypeScript's scanner cuts out of the text (a description, a
 * name, a schema's `describe`, a diagnostic built from them) is a V8 slice that keeps the whole
 * text alive, so every tool's source stayed in the heap as long as its result: ~1 KB per tool,
 * 20 MB at 20,000 tools. Copying the result's strings once, as they are stored, lets the text
 * go. A result a worker thread sends back is already a copy (structured clone) and needs none.
 */

/**
 * V8 cuts a slice (which keeps its parent) only for 13 characters or more; shorter strings are
 * always copies.
 */
const MIN_SLICE = 13;

/**
 * A copy of `text` that holds no reference to a larger string: the concatenation is flattened
 * into a string of its own before the slice is cut from it.
 */
function ownCopy(text: string): string {
  return ` ${text}`.slice(1);
}

/** Replaces, in place, every string of 13+ characters in a plain-data result by its own copy. */
export function detachStrings<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    // Shared constants (frozen) hold no source text; never written.
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') {
          if (item.length >= MIN_SLICE) node[i] = ownCopy(item);
        } else if (typeof item === 'object' && item !== null) pending.push(item);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const item = record[key];
      if (typeof item === 'string') {
        if (item.length >= MIN_SLICE) record[key] = ownCopy(item);
      } else if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return value;
}
