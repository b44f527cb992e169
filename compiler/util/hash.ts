/**
 * sha256 as hex, one shot. `crypto.hash` (Node ≥ 20.12) skips the Hash object a
 * `createHash().update().digest()` chain allocates: it is called per file and per tool, and in a
 * fresh process the object path is several times slower for the first thousands of calls.
 */
import crypto from 'node:crypto';

const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'hex') => string }).hash;

export function sha256(data: string | Buffer): string {
  return oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * The unit cache's digest of a parse result (its JSON). One function for the thread that stores
 * the result and the parse worker that made it: a worker computes it beside the parse, so the
 * main thread does not serialise every result again while it stores them.
 */
export function resultPrint(result: unknown): string {
  return sha256(JSON.stringify(result));
}

/** The seal of a value a cache file carries: a digest of its JSON text (cache/run-summary.ts, cache/index-file.ts). */
export function sealOf(value: unknown): string {
  return sha256(JSON.stringify(value)).slice(0, 32);
}
