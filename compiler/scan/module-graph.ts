/**
 * A module and the relative modules it imports for their value, transitively, each stamped as
 * read: what watch mode follows for a module the compiler imports whole (a shipped package
 * manifest, scan/shipped.ts; the config module, config/load.ts), whose imports no unit stamps.
 * And the record of which modules this process evaluated, to evaluate them afresh.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, relative, resolve } from 'node:path';
import { ABSENT, contentHash, type FileStamp } from '../cache/flat-stamps.js';
import { fileStat } from '../util/file-stat.js';
import { sha256 } from '../util/hash.js';
import { toPosix } from './walk.js';

/** A module file (absolute) and its stamp when it was read (ABSENT: missing). */
export interface StampedModule {
  readonly path: string;
  readonly stamp: FileStamp;
}

/** A file's stamp and bytes: stat first, so a write after it gives a stamp that differs; ABSENT when missing. */
export function readStamped(path: string): { stamp: FileStamp; bytes?: Buffer } {
  try {
    const stat = fileStat(statSync(path));
    const bytes = readFileSync(path);
    return { stamp: { ...stat, hash: contentHash(bytes) }, bytes };
  } catch {
    return { stamp: ABSENT };
  }
}

/**
 * The relative modules a module imports for its value (`import … from './…'`, `export … from`,
 * `import './…'`; never `import type`, which is erased): how a generated manifest reaches its
 * shards and items (emit/sharded-main.ts). A statement starts a line or follows a `;`, and its
 * clause may span lines (a formatter wraps long ones); a match inside a comment or a string
 * only follows one more file.
 */
const STATIC_IMPORT =
  /(?:^|;)\s*(?:(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s*|import\s*)["'](\.{1,2}\/[^"'\n]+)["']/gm;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The files a relative specifier may name: as written, a TypeScript source behind a `.js` one,
 * or (no extension, as tsx and bundlers allow) the usual extensions and index files. The first
 * that exists is the one; when none does, all of them are followed (ABSENT), so whichever is
 * made later is seen.
 */
function resolveRelative(from: string, specifier: string): string[] {
  const target = resolve(dirname(from), specifier);
  const candidates = /\.(c|m)?js$/.test(target)
    ? [target, target.replace(/js$/, 'ts')]
    : extname(target) === ''
      ? ['.ts', '.mts', '.js', '.mjs', '/index.ts', '/index.js'].map((end) => target + end)
      : [target];
  const found = candidates.find(isFile);
  return found === undefined ? candidates : [found];
}

/** Modules followed from one module at most: a generated manifest of 20,000 tools imports ~500 shards. */
const MAX_FOLLOWED = 4096;

/** The module itself (as `first` read it) and the modules it imports for their value, transitively. */
export function moduleGraph(path: string, first: { stamp: FileStamp; bytes?: Buffer }): StampedModule[] {
  const files: StampedModule[] = [{ path, stamp: first.stamp }];
  const seen = new Set([path]);
  const queue: [string, Buffer | undefined][] = [[path, first.bytes]];
  while (queue.length > 0 && files.length < MAX_FOLLOWED) {
    const [from, bytes] = queue.shift()!;
    if (bytes === undefined) continue;
    for (const match of bytes.toString('utf8').matchAll(STATIC_IMPORT)) {
      for (const file of resolveRelative(from, match[1]!)) {
        if (seen.has(file)) continue;
        seen.add(file);
        const read = readStamped(file);
        files.push({ path: file, stamp: read.stamp });
        queue.push([file, read.bytes]);
      }
    }
  }
  return files;
}

/**
 * The module files this process evaluated, each with the digest of its graph then. Not a cache:
 * the record of one, the module loaders', which belong to the process (every compiler in it
 * shares them), so this does too. A module evaluated before from other bytes (its own or a
 * module's it imports) must be evaluated afresh with what it imports: a plain import, even under
 * a new query, gets the modules it imports from the loaders' caches, as they were then.
 */
const evaluated = new Map<string, string>();

/**
 * Whether the module, whose graph `moduleGraph` read, must be evaluated afresh (tsx's `tsImport`,
 * a loader namespace of its own, after `forgetRequired`): this process evaluated it before from
 * other bytes. Records this evaluation. Only a change costs a namespace (each stays registered).
 */
export function evaluateAfresh(graph: readonly StampedModule[]): boolean {
  const path = graph[0]!.path;
  const digest = sha256(graph.map((file) => `${file.path}\0${file.stamp.hash}`).join('\n'));
  const before = evaluated.get(path);
  evaluated.set(path, digest);
  return before !== undefined && before !== digest;
}

/**
 * Drops a graph's modules from the CommonJS cache: tsx compiles a `.ts` module of a package
 * without `"type": "module"` to CommonJS, whose `require`s a fresh loader namespace does not
 * evaluate again.
 */
export function forgetRequired(graph: readonly StampedModule[]): void {
  const cache = createRequire(import.meta.url).cache;
  const paths = new Set(graph.map((file) => file.path));
  // tsx keys a module of a loader namespace `<path>?namespace=<id>`.
  for (const key of Object.keys(cache)) if (paths.has(key.split('?')[0]!)) delete cache[key];
}

/**
 * A path stamped by a stat now, without reading it (no content hash: one whose stat moved counts
 * as changed when the watcher first compares it); ABSENT when missing.
 */
export function statStamped(path: string): StampedModule {
  try {
    return { path, stamp: { ...fileStat(statSync(path)), hash: '' } };
  } catch {
    return { path, stamp: ABSENT };
  }
}

/**
 * Modules the compiler follows for one thing it imports whole (a shipped package's manifest, the
 * config module), as last read: handed to the watcher once (`take`, as POSIX paths relative to
 * the root, with their stamps), and asked of events (`has`). One per thing, per compiler.
 */
export class FollowedModules {
  private files = new Set<string>();
  private untaken: readonly { readonly path: string; readonly stamp: FileStamp }[] = [];

  constructor(private readonly root: string) {}

  /** The modules of the last read. */
  use(modules: readonly StampedModule[]): void {
    this.untaken = modules.map(({ path, stamp }) => ({ path: toPosix(relative(this.root, path)), stamp }));
    this.files = new Set(this.untaken.map((file) => file.path));
  }

  /** Whether a path (POSIX, relative to the root) is one of them. */
  has(rel: string): boolean {
    return this.files.has(rel);
  }

  /** Whether any of them is among these changed paths (POSIX, relative). */
  changedIn(dirty: ReadonlySet<string>): boolean {
    for (const rel of this.files) if (dirty.has(rel)) return true;
    return false;
  }

  /** The modules of the last read, once: what the watcher has yet to follow. */
  take(): readonly { readonly path: string; readonly stamp: FileStamp }[] {
    const taken = this.untaken;
    this.untaken = [];
    return taken;
  }
}
