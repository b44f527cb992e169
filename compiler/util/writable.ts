/**
 * An object type whose properties can be assigned: for building a readonly value whose optional
 * fields are set one by one, in key order, instead of spread in.
 *
 * Why not `{ ...(x !== undefined ? { x } : {}) }`: where objects are made per unit or per tool
 * (tens of thousands a run), a spread whose source is `{}` one time and `{ x }` the next falls
 * off V8's fast object-clone path, and the objects it makes survive young-generation collections
 * although they die at once: measured, 1.2 million of them cost 0.93 s against 0.26 s assigned,
 * and the unit index's records alone left ~25 MB in the old generation at the end of a cold run
 * at 20,000 tools (docs/bench.md, twelfth pass).
 */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
