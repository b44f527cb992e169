/**
 * The runtime package runs in any JS host and is a bot's only production dependency: from every
 * entry its package.json exports, the BUILT module graph (what a deployed bot loads) reaches no
 * Node built-in, no compiler module and no eval-like construct, and imports a package only where
 * the subpath exists to integrate it (an optional peer). Walking the graph from the entries covers
 * every file a host can reach, whatever folder it lives in; files no entry reaches are reported too,
 * since they would ship without being reachable.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';

const RUNTIME = join(REPO, 'runtime');
const pkg = JSON.parse(readFileSync(join(RUNTIME, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { default?: string }>;
  peerDependencies?: Record<string, string>;
};

/**
 * The packages a subpath may import, by design: the SDK or driver it integrates (declared as an
 * optional peer), or Ajv behind `./ajv` (docs/packages.md explains why Ajv is not a peer). Every
 * other entry, the main one first, imports nothing outside the runtime.
 */
const INTEGRATIONS: Readonly<Record<string, readonly string[]>> = {
  './ajv': ['ajv'],
  './ai-sdk': ['ai'],
  './mcp': ['@modelcontextprotocol/sdk'],
  './mcp-stdio': ['@modelcontextprotocol/sdk'],
};

const NODE = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s*\*\s*from\s*)(['"])([^'"]+)\1/g;
const DYNAMIC = /\bimport\s*\(\s*(?!['"])/g;
const EVAL_LIKE = /\beval\s*\(|\bnew\s+Function\s*\(|(?<![.\w])Function\s*\(/;

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

interface Graph {
  readonly files: ReadonlySet<string>;
  readonly problems: readonly string[];
}

function walk(entry: string, subpath: string): Graph {
  const allowed = new Set(INTEGRATIONS[subpath] ?? []);
  const files = new Set<string>();
  const problems: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!existsSync(file)) {
      problems.push(`${relative(RUNTIME, file)} is not built: run \`node scripts/build.mjs\``);
      continue;
    }
    const source = readFileSync(file, 'utf8');
    const name = relative(RUNTIME, file);
    if (EVAL_LIKE.test(source)) problems.push(`${name}: an eval-like construct (eval / Function constructor)`);
    if (DYNAMIC.test(source)) problems.push(`${name}: an import() of a computed specifier`);
    DYNAMIC.lastIndex = 0;
    for (const match of source.matchAll(SPECIFIER)) {
      const specifier = match[2]!;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (!existsSync(target)) problems.push(`${name}: imports ${specifier}, which the build does not have`);
        else queue.push(target);
      } else if (NODE.has(specifier) || NODE.has(specifier.split('/')[0]!)) {
        problems.push(`${name}: imports the Node built-in ${specifier}`);
      } else if (specifier.includes('compiler') || packageOf(specifier) === 'zhin-gen') {
        problems.push(`${name}: imports compiler code (${specifier})`);
      } else if (!allowed.has(packageOf(specifier))) {
        problems.push(`${name}: imports the package ${specifier}, which subpath ${subpath} does not integrate`);
      }
    }
  }
  return { files, problems };
}

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return builtFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** A module of types only builds to no code: nothing imports it at run time, and that is fine. */
function typeOnly(file: string): boolean {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    .replace(/export\s*\{\s*\};?/g, '');
  return code.trim() === '';
}

const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
  const file = typeof target === 'string' ? target : target.default;
  return file?.endsWith('.js') ? [[subpath, join(RUNTIME, file)] as const] : [];
});

describe('the built runtime import graph', () => {
  it('is built (npm test builds it first)', () => {
    expect(existsSync(join(RUNTIME, 'dist', 'index.js')), 'run `node scripts/build.mjs`').toBe(true);
    expect(entries.map(([subpath]) => subpath)).toContain('.');
  });

  it.each(entries)(
    'from %s reaches no Node built-in, no compiler module, no eval, no package it does not integrate',
    (subpath, entry) => {
      expect(walk(entry, subpath).problems).toEqual([]);
    },
  );

  it('every integrated package is an optional peer, except Ajv behind ./ajv', () => {
    const peers = new Set(Object.keys(pkg.peerDependencies ?? {}));
    for (const [subpath, packages] of Object.entries(INTEGRATIONS)) {
      for (const name of packages)
        if (subpath !== './ajv') expect(peers.has(name), `${subpath} integrates ${name}`).toBe(true);
    }
  });

  it('every built module is reachable from some entry (nothing ships that no host can load)', () => {
    const reached = new Set(entries.flatMap(([subpath, entry]) => [...walk(entry, subpath).files]));
    const unreachable = builtFiles(join(RUNTIME, 'dist'))
      .filter((file) => !reached.has(file) && !typeOnly(file))
      .map((file) => relative(RUNTIME, file));
    expect(unreachable).toEqual([]);
  });
});

/** Source rules the type checker does not enforce: no `any`, and files that stay small. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('runtime sources', () => {
  it.each(sourceFiles(RUNTIME).map((file) => relative(RUNTIME, file)))('%s: no any, under 400 lines', (name) => {
    const source = readFileSync(join(RUNTIME, name), 'utf8');
    // A generated validator (validators/generated/*.gen.ts) is Ajv's untyped code typed `any` for
    // tsc (compiler/emit/validator-typing.ts), behind an explicitly typed default export.
    if (!name.endsWith('.gen.ts')) expect(source).not.toMatch(/:\s*any\b|<any>|\bas any\b/);
    expect(source.split('\n').length).toBeLessThan(400);
  });
});
