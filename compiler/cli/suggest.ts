/**
 * "Did you mean": the closest known word to a mistyped command or option, by edit distance
 * (optimal string alignment: insertions, deletions, substitutions and adjacent transpositions
 * each cost 1, so `inpsect` is one edit from `inspect`).
 */

export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word `input` most likely meant, or `undefined`: the only one it is a prefix of
 * (`gen` → `generate`), else the nearest within a third of its length (at least 1, at most 3
 * edits), ties broken by the order of `known`. Case is ignored.
 */
export function suggest(input: string, known: readonly string[]): string | undefined {
  const word = input.toLowerCase();
  if (word === '') return undefined;
  const prefixed = known.filter((k) => k.toLowerCase().startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or `''`. */
export function didYouMean(input: string, known: readonly string[], quote = (s: string) => `"${s}"`): string {
  const match = suggest(input, known);
  return match === undefined ? '' : ` (did you mean ${quote(match)}?)`;
}
