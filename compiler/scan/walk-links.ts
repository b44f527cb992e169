/**
 * The walk's rules for symbolic links (scan/walk.ts): a link is followed only when it stays
 * inside the root (or a configured directory) and does not loop; anything else is a ZG1005
 * warning. Every link met is recorded with its target, so watch mode can follow what is at the
 * target (compiler/context.ts).
 */
import { readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { diag, type Diagnostic } from '../diagnostics.js';

export type TreeLink = readonly [link: string, target: string, kind: 'file' | 'dir' | 'broken' | 'via'];

/** What a walk knows when it meets a link: where it is, and where its findings go. */
export interface LinkScope {
  /** The POSIX path of `abs` relative to the root. */
  rel(abs: string): string;
  readonly realRoot: string;
  /** Real paths of the directories links may point into besides the root. */
  readonly allowedReal: readonly string[];
  readonly links: TreeLink[];
  readonly diagnostics: Diagnostic[];
}

/** A followed link: what it leads to, its real path, and the chain of followed links' parents. */
export interface FollowedLink {
  readonly kind: 'file' | 'dir';
  readonly real: string;
  readonly chain: readonly string[];
}

/**
 * The links a link goes through before its target (a link to a link), absolute: retargeting one
 * changes what the tree's link leads to (kind `via`).
 */
function linksOnTheWay(abs: string): string[] {
  const hops: string[] = [];
  let at = abs;
  // A chain longer than the system follows is broken anyway (ELOOP).
  for (let i = 0; i < 40; i++) {
    const named = readlinkOf(at);
    if (named === undefined) break;
    at = resolve(dirname(at), named);
    if (readlinkOf(at) === undefined) break;
    hops.push(at);
  }
  return hops;
}

/** What a symbolic link names (undefined: not readable as a link). */
function readlinkOf(abs: string): string | undefined {
  try {
    return readlinkSync(abs);
  } catch {
    return undefined;
  }
}

export function isInside(dir: string, target: string): boolean {
  return target === dir || target.startsWith(dir + sep);
}

/** The real path of `path`, or `path` itself when it has none (missing, unreadable). */
export function safeRealpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Resolves the symbolic link `abs` to its kind and real path (undefined: skipped with a
 * diagnostic). `parentReal` is the real path of its directory, `chain` the parents of every
 * link followed so far. Only links cost a realpath call: a plain directory's real path is its
 * parent's plus its name.
 */
export function followLink(
  scope: LinkScope,
  abs: string,
  parentReal: string,
  chain: readonly string[],
): FollowedLink | undefined {
  const rel = scope.rel(abs);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    const named = readlinkOf(abs);
    if (named !== undefined) scope.links.push([rel, resolve(dirname(abs), named), 'broken']);
    for (const hop of linksOnTheWay(abs)) scope.links.push([rel, hop, 'via']);
    scope.diagnostics.push(diag('ZG1005', { file: rel, message: `Broken symbolic link "${rel}" is not followed` }));
    return undefined;
  }
  const inside = isInside(scope.realRoot, real) || scope.allowedReal.some((dir) => isInside(dir, real));
  if (!inside) {
    scope.diagnostics.push(
      diag('ZG1005', {
        file: rel,
        message: `Symbolic link "${rel}" points outside the project root and is not followed`,
      }),
    );
    return undefined;
  }
  const stat = statSync(real);
  // A link to any directory enclosing the current position would loop. Between followed links
  // real paths only grow, so the enclosing directories are the prefixes of `parentReal` and of
  // the parent of every link followed so far (`chain`).
  if (stat.isDirectory() && [parentReal, ...chain].some((dir) => dir === real || dir.startsWith(real + sep))) {
    scope.diagnostics.push(
      diag('ZG1005', {
        file: rel,
        message: `Symbolic link "${rel}" loops back to an enclosing directory and is not followed`,
      }),
    );
    return undefined;
  }
  scope.links.push([rel, real, stat.isDirectory() ? 'dir' : 'file']);
  for (const hop of linksOnTheWay(abs)) scope.links.push([rel, hop, 'via']);
  return { kind: stat.isDirectory() ? 'dir' : 'file', real, chain: [...chain, parentReal] };
}
