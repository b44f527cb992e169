/**
 * The shared cache folder in the OS temp directory: the unit caches of roots without
 * node_modules and the TypeScript code caches (util/code-cache.ts) live there, and
 * cache/temp-dir.ts prunes it. A leaf module, so the code cache's loader stays a few files.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempCacheDir(): string {
  return join(tmpdir(), 'zhin-gen-cache');
}
