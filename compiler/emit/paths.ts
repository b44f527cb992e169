/** Import specifiers from the generated module to capability sources: POSIX, relative, mapped extension. */
import { posix } from 'node:path';

export type ImportExtension = '.js' | '.ts' | 'none';

export function importSpecifier(outRel: string, source: string, extension: ImportExtension): string {
  let rel = posix.relative(posix.dirname(outRel), source);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (extension === '.ts') return rel;
  if (extension === 'none') return rel.replace(/\.(m?ts|m?js)$/, '');
  return rel.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs');
}
