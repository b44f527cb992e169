/**
 * Handing out a search's hits in rank order (score desc, doc asc: the order sorting them all
 * gives) without sorting them all: the best few from one pass, the rest from a heap.
 */
import type { SearchHit } from './search.js';

/**
 * The best `k` of the `n` scored documents `docs[0..n)`, in rank order (score desc, doc asc),
 * from one pass: each match is compared with the worst kept one and only better ones are placed.
 */
export function selectBest(docs: Int32Array, scores: Float64Array, n: number, k: number): SearchHit[] {
  const keptDocs = new Int32Array(Math.min(k, n));
  const keptScores = new Float64Array(keptDocs.length);
  let kept = 0;
  for (let i = 0; i < n; i += 1) {
    const doc = docs[i]!;
    const score = scores[doc]!;
    if (kept === k) {
      const last = keptScores[k - 1]!;
      if (score < last || (score === last && doc > keptDocs[k - 1]!)) continue;
    }
    let at = kept < k ? kept++ : k - 1;
    while (at > 0) {
      const above = keptScores[at - 1]!;
      if (above > score || (above === score && keptDocs[at - 1]! < doc)) break;
      keptDocs[at] = keptDocs[at - 1]!;
      keptScores[at] = above;
      at -= 1;
    }
    keptDocs[at] = doc;
    keptScores[at] = score;
  }
  const out: SearchHit[] = [];
  for (let i = 0; i < kept; i += 1) out.push({ doc: keptDocs[i]!, score: keptScores[i]! });
  return out;
}

/**
 * The hits in rank order (score desc, doc asc: the order sorting them all gives), popped from a
 * binary heap over parallel arrays: the first k cost O(n + k log n) and allocate k hits.
 */
export function* rankLazily(docs: Int32Array, scores: Float64Array): Generator<SearchHit> {
  const before = (a: number, b: number) => scores[a]! > scores[b]! || (scores[a] === scores[b] && docs[a]! < docs[b]!);
  const swap = (a: number, b: number) => {
    const doc = docs[a]!;
    docs[a] = docs[b]!;
    docs[b] = doc;
    const score = scores[a]!;
    scores[a] = scores[b]!;
    scores[b] = score;
  };
  const down = (from: number, size: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) return;
      const right = left + 1;
      const best = right < size && before(right, left) ? right : left;
      if (!before(best, at)) return;
      swap(at, best);
      at = best;
    }
  };
  let size = docs.length;
  for (let i = (size >> 1) - 1; i >= 0; i -= 1) down(i, size);
  while (size > 0) {
    const hit = { doc: docs[0]!, score: scores[0]! };
    size -= 1;
    swap(0, size);
    down(0, size);
    yield hit;
  }
}
