/** Import specifiers from the generated module to capability sources: POSIX, relative, mapped extension. */
import { posix } from 'node:path';

export type ImportExtension = '.js' | '.ts' | 'none';

/**
 * Characters a relative import specifier cannot carry so that every consumer reads the same
 * file. Node resolves a specifier as a URL (`#` starts a fragment, `?` a query, `%XX` is decoded,
 * `\` becomes `/`, tab and newlines are dropped); tsc, esbuild and Rollup read it as a plain
 * path and decode nothing. No spelling of such a path works for both, so zhin-gen refuses it
 * (config/paths.ts) instead of emitting a specifier one of them cannot load.
 */
export const SPECIFIER_UNSAFE = /[#?%\\\u0000-\u001f\u007f]/;

/** Why a path cannot appear in an import specifier, or undefined when it can. */
export function specifierProblem(path: string): string | undefined {
  const found = SPECIFIER_UNSAFE.exec(path);
  if (!found) return undefined;
  const char = found[0];
  const shown = /[\u0000-\u001f\u007f]/.test(char)
    ? `U+${char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`
    : `"${char}"`;
  return `contains ${shown}, which Node reads as URL syntax in an import specifier while tsc and bundlers read it as part of the file name`;
}

/** A root in POSIX form below a leading '/', so posix.* treats it as absolute on every platform. */
function posixBase(root: string): string {
  return posix.join('/', root.split('\\').join('/'));
}

/** An empty, `.` or `..` segment, or a backslash: a path the plain way below does not handle. */
const NOT_PLAIN = /\\|(?:^|\/)\.{0,2}(?:\/|$)/;

/**
 * `posix.relative` from the output's folder to the source for the common case of two plain paths
 * below the root, by their segments: the same answer without resolving both against the root
 * (a path resolution per tool and module was most of a fresh emit's specifier cost). Undefined
 * for anything else, which takes the general way.
 */
function plainRelative(outRel: string, source: string): string | undefined {
  if (NOT_PLAIN.test(outRel) || NOT_PLAIN.test(source)) return undefined;
  const slash = outRel.lastIndexOf('/');
  if (slash < 0) return source;
  const out = outRel.slice(0, slash).split('/');
  const to = source.split('/');
  let common = 0;
  while (common < out.length && common < to.length - 1 && out[common] === to[common]) common++;
  return `${'../'.repeat(out.length - common)}${to.slice(common).join('/')}`;
}

/**
 * The specifier the module at `outRel` uses for `source` (both POSIX, relative to `root`). Both
 * are resolved against the root first: `posix.relative` resolves relative arguments against the
 * working directory, which made an output outside the root (`../gen/caps.gen.ts`) import paths
 * that depended on where the command ran.
 */
export function importSpecifier(root: string, outRel: string, source: string, extension: ImportExtension): string {
  let rel = plainRelative(outRel, source);
  if (rel === undefined) {
    const base = posixBase(root);
    rel = posix.relative(posix.dirname(posix.join(base, outRel)), posix.join(base, source));
  }
  // "./" or "../" only: a path starting with a dot directory (".ext/…") would be a bare specifier.
  if (!rel.startsWith('../')) rel = `./${rel}`;
  if (extension === '.ts') return rel;
  if (extension === 'none') return rel.replace(/\.(m?ts|m?js)$/, '');
  return rel.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs');
}
