/**
 * Whether the packages a bot's own modules import at load time are ones a production install
 * keeps (docs/cli.md "check --load"). The deployed bot is installed with `npm ci --omit=dev` (or
 * pruned), so a package that is only a devDependency — or declared nowhere and found only because
 * another package's install hoisted it — loads in development and fails in production, on the
 * first call of the tool that imports it. Load verification sees every package a module imports
 * for real (verify/alias-hooks.ts: through local helper files, after type-only imports are erased),
 * and this judges them against the package.json files that govern the importer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { lazyRequire } from '../util/lazy.js';
import type { ImportSeen } from './protocol.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');

/** A package.json as this check reads it (missing fields: empty). */
interface PackageFile {
  /** Relative to the root, POSIX. */
  readonly rel: string;
  readonly name: string | undefined;
  readonly production: ReadonlySet<string>;
  readonly dev: ReadonlySet<string>;
  /**
   * The workspace patterns (`workspaces`, or its `packages`; pnpm-workspace.yaml's `packages`
   * beside it), relative to its directory.
   */
  readonly workspaces: readonly string[];
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** `workspaces` as npm and yarn write it: a list of patterns, or `{ packages: [...] }`. */
function workspacesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : (value as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}

/** pnpm's workspace list (`pnpm-workspace.yaml` `packages`), read only where a package.json is. */
function pnpmWorkspacesOf(dir: string): string[] {
  const file = join(dir, 'pnpm-workspace.yaml');
  if (!existsSync(file)) return [];
  try {
    return workspacesOf(yaml().parse(readFileSync(file, 'utf8'), { logLevel: 'error' }) as unknown);
  } catch {
    return [];
  }
}

/**
 * Whether a directory (POSIX, relative to the workspace root) is one of the workspace's packages:
 * matched by a pattern and by no `!` pattern (pnpm's exclusions).
 */
function inWorkspace(patterns: readonly string[], dir: string): boolean {
  const matches = (pattern: string): boolean => {
    const parts = pattern.replace(/^\.\//, '').replace(/\/+$/, '').split('/');
    // `**` is any number of folders, none included (`**/test/**` matches `test/bot`).
    const source = parts
      .map((part, i) => {
        const last = i === parts.length - 1;
        if (part === '**') return last ? '.*' : '(?:[^/]+/)*';
        const segment = part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
        return last ? segment : `${segment}/`;
      })
      .join('');
    return new RegExp(`^${source}$`).test(dir);
  };
  const excluded = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return patterns.some((p) => !p.startsWith('!') && matches(p)) && !excluded.some(matches);
}

function keysOf(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

/** Reads package.json files once per directory (undefined: none there, or one JSON cannot read). */
class PackageFiles {
  private readonly byDir = new Map<string, PackageFile | undefined>();
  constructor(private readonly root: string) {}

  at(dir: string): PackageFile | undefined {
    if (this.byDir.has(dir)) return this.byDir.get(dir);
    let found: PackageFile | undefined;
    // A stat first: most directories (a tool's own) have none, and a failed read throws.
    if (!existsSync(join(dir, 'package.json'))) {
      this.byDir.set(dir, undefined);
      return undefined;
    }
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8').replace(/^\uFEFF/, '')) as Record<
        string,
        unknown
      >;
      found = {
        rel: relative(this.root, join(dir, 'package.json')).split(sep).join('/'),
        name: typeof json.name === 'string' ? json.name : undefined,
        production: new Set([
          ...keysOf(json.dependencies),
          ...keysOf(json.optionalDependencies),
          ...keysOf(json.peerDependencies),
        ]),
        dev: new Set(keysOf(json.devDependencies)),
        workspaces: [...workspacesOf(json.workspaces), ...pnpmWorkspacesOf(dir)],
      };
    } catch {
      found = undefined;
    }
    this.byDir.set(dir, found);
    return found;
  }

  /**
   * The package.json files that govern a module: every one from its directory up to the first at
   * or above the root (the bot's own), and the workspace root above that whose `workspaces` list
   * the bot's package: a production install of the workspace keeps its dependencies too.
   */
  chainOf(file: string): PackageFile[] {
    const chain: PackageFile[] = [];
    let own: string | undefined;
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      const found = this.at(dir);
      if (found && own === undefined) {
        chain.push(found);
        if (this.root === dir || this.root.startsWith(dir.endsWith(sep) ? dir : dir + sep)) own = dir;
      } else if (found && own !== undefined && inWorkspace(found.workspaces, relative(dir, own).split(sep).join('/'))) {
        chain.push(found);
        break;
      }
      if (dirname(dir) === dir) break;
    }
    return chain;
  }
}

/** Where the specifier is written in the importer (its first quoted occurrence), else the file's start. */
function locate(file: string, rel: string, specifier: string): SourceLocation {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { file: rel, line: 1, column: 1 };
  }
  for (const quote of ['"', "'", '`']) {
    const at = text.indexOf(`${quote}${specifier}${quote}`);
    if (at < 0) continue;
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    return { file: rel, line, column: at - before.lastIndexOf('\n') };
  }
  return { file: rel, line: 1, column: 1 };
}

interface Finding {
  readonly kind: 'dev' | 'undeclared';
  readonly pkg: string;
  readonly file: string;
  readonly specifier: string;
  /** The package.json it was judged by (the nearest). */
  readonly manifest: string | undefined;
}

/**
 * One warning per package a production install would leave out (ZG2063: only a devDependency,
 * ZG2064: declared nowhere), at the first importer by path, with how many other modules import
 * it. (The manifest imports the runtime only as types: the host imports it, and declares it.)
 */
export function checkDeclaredDependencies(root: string, seen: readonly ImportSeen[]): Diagnostic[] {
  const files = new PackageFiles(root);
  const byPackage = new Map<string, Finding[]>();
  const ownFile = (file: string): boolean => {
    const rel = relative(root, file);
    return !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('node_modules');
  };
  const seenFiles = new Map<string, Set<string>>();
  for (const { parent, specifier, url } of seen) {
    const file = fileURLToPath(parent);
    // The bot's own modules only: not a linked package's, nor a file through an allowed link.
    if (!ownFile(file)) continue;
    // A tsconfig `paths` / `baseUrl` alias (`@/util`) resolves into the project: no package.
    if (url !== undefined && ownFile(fileURLToPath(url))) continue;
    const pkg = packageOf(specifier);
    const chain = files.chainOf(file);
    if (chain.some((p) => p.name === pkg || p.production.has(pkg))) continue;
    const finding: Finding = {
      kind: chain.some((p) => p.dev.has(pkg)) ? 'dev' : 'undeclared',
      pkg,
      file,
      specifier,
      manifest: chain[0]?.rel,
    };
    // Each importer once (a Set: 20,000 tools importing one package is the common case).
    const importers = seenFiles.get(pkg) ?? new Set<string>();
    if (importers.has(file)) continue;
    importers.add(file);
    seenFiles.set(pkg, importers);
    const list = byPackage.get(pkg) ?? [];
    list.push(finding);
    byPackage.set(pkg, list);
  }
  const out: Diagnostic[] = [];
  for (const [pkg, findings] of byPackage) {
    findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const first = findings[0]!;
    const rel = relative(root, first.file).split(sep).join('/');
    const more =
      findings.length > 1 ? ` (and ${findings.length - 1} other module${findings.length > 2 ? 's' : ''})` : '';
    const at = locate(first.file, rel, first.specifier);
    const installs = `A production install (\`npm ci --omit=dev\`, \`npm prune --omit=dev\`) leaves it out, so ${rel} fails to load in the deployed bot.`;
    const runtime =
      pkg === 'zhin-gen'
        ? " zhin-gen is the dev-time compiler: import the runtime as '@zhin-gen/runtime' (`npm i @zhin-gen/runtime`), which is what 'zhin-gen/runtime' re-exports."
        : '';
    if (first.kind === 'dev')
      out.push(
        diag('ZG2063', {
          ...at,
          message: `${rel} imports "${first.specifier}"${more}, but ${first.manifest ?? 'package.json'} lists "${pkg}" only in devDependencies`,
          hint: `${installs} Move it to dependencies (\`npm i ${pkg}\`), unless your build bundles it into its output.${runtime}`,
        }),
      );
    else
      out.push(
        diag('ZG2064', {
          ...at,
          message: `${rel} imports "${first.specifier}"${more}, but ${first.manifest ? `${first.manifest} does not declare "${pkg}"` : `no package.json above it declares "${pkg}"`}: it resolves only because another install put it there`,
          hint: `Declare it (\`npm i ${pkg}\`): an undeclared package comes and goes with other packages' installs, and a production install may not have it.${runtime}`,
        }),
      );
  }
  return out;
}
