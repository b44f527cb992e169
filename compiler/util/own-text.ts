/**
 * A parse result outlives its source file: the unit cache and the model keep it for the whole
 * run (and watch mode keeps it between runs), while the file's text is needed only while the
 * unit is parsed. But a string TypeScript's scanner cuts out of the text (a literal's value, a
 * node's text) is a V8 slice that keeps the whole text alive, so every tool's source stayed in
 * the heap as long as its result: ~1 KB per tool, 20 MB at 20,000 tools. The values the parse
 * and schema stages take out of a tree go through `ownText`, which lets the text go.
 *
 * Only strings cut from a source text are copied: a copy of every string of a result would also
 * duplicate what results share (file paths from the walk, the schema stage's format patterns).
 */

/**
 * V8 cuts a slice (which keeps its parent) only for 13 characters or more; shorter strings are
 * always copies.
 */
const MIN_SLICE = 13;

/**
 * `text`, as a string that holds no reference to a larger one: the concatenation is flattened
 * into a string of its own before the slice is cut from it.
 */
export function ownText(text: string): string {
  return text.length < MIN_SLICE ? text : ` ${text}`.slice(1);
}
