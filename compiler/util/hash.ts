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
