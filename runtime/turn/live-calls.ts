/**
 * Which tool-execution contexts belong to a call that is running right now. The pipeline marks
 * the context it hands to `execute` and unmarks it when the call settles. Providers that must
 * only ever be reached through the turn pipeline (Capability Seam tools) check this, so a
 * captured executable or a hand-made context cannot run them: no side channel around access,
 * approval and the journal, and nothing runs after its call is over.
 */
const live = new WeakSet<object>();

/** Marks `context` live; the returned function ends it (idempotent). */
export function beginLiveCall(context: object): () => void {
  live.add(context);
  return () => void live.delete(context);
}

export function isLiveCall(context: unknown): boolean {
  return typeof context === 'object' && context !== null && live.has(context);
}
