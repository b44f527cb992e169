/**
 * zhin-gen's own version, from its package.json: the CLI prints it, and the unit cache keys on
 * it, so an upgrade (new rules, new emitted bytes) never reuses parse results or a "this output
 * is current" stamp written by another version. The module runs from the sources (tests) and
 * from dist/ (the package), one directory deeper: the nearest package.json named zhin-gen wins.
 */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'zhin-gen' && typeof pkg.version === 'string') return (cached = pkg.version);
    } catch {
      // Not this one: try the next.
    }
  }
  return (cached = '0.0.0');
}
