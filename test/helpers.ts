/** Shared test helpers: temp trees on disk and the real compiler/CLI. */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRacy } from '../compiler/cache/racy.js';
import { defaultCacheFile } from '../compiler/cache/units.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = join(REPO, 'fixtures');
const TMP = join(REPO, 'test', 'tmp');

/** A fresh directory inside the repo (so `@zhin-gen/runtime`, `zhin-gen/runtime` and `zod` resolve from it). */
export function tempDir(prefix: string): string {
  mkdirSync(TMP, { recursive: true });
  return mkdtempSync(join(TMP, `${prefix}-`));
}

/**
 * Dates every file of a tree a minute back: stamps of files written within a timestamp tick of
 * a run are not trusted (compiler/cache/racy.ts), so tests of stamp-only fast paths settle first.
 * A stamp's time is the later of mtime and ctime (compiler/util/file-stat.ts), and dating a file
 * sets its ctime to now: the call returns once that is a tick in the past.
 */
export function settleTree(root: string): void {
  const past = Date.now() / 1000 - 60;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), past, past);
  }
  pastATick();
}

/** Waits (synchronously) until what was changed before the call is more than a timestamp tick old (compiler/cache/racy.ts). */
export function pastATick(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
}

/**
 * Resolves once no directory of the tree changed within a clock tick of now: the directory
 * listings record (compiler/scan/listings.ts) takes a directory's entries again only then.
 */
export async function settledDirs(root: string): Promise<void> {
  for (;;) {
    const now = Date.now();
    const dirs = [root];
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true }))
      if (entry.isDirectory()) dirs.push(join(entry.parentPath, entry.name));
    const racy = dirs.some((dir) => {
      const s = statSync(dir);
      return isRacy(s.mtimeMs, now) || isRacy(s.ctimeMs, now);
    });
    if (!racy) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function writeTree(root: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/**
 * What a source tree may hold besides its own files after a README command or a bundler run
 * (`npm start` generates into fixtures/example-bot): generated manifests, caches, installs.
 * Never copied, so no test depends on them.
 */
export function isGeneratedArtifact(name: string): boolean {
  return (
    (name.endsWith('.gen.ts') && name !== 'expected.gen.ts') ||
    name.endsWith('.gen.validators') ||
    name === 'node_modules' ||
    name === '.zhin-gen-cache' ||
    name === 'dist'
  );
}

/** A copy of a directory's own files (see isGeneratedArtifact) in a fresh temp dir. */
export function copyTree(source: string, prefix: string): string {
  const dir = tempDir(prefix);
  cpSync(source, dir, { recursive: true, filter: (src) => src === source || !isGeneratedArtifact(basename(src)) });
  return dir;
}

export function copyFixture(name: string, prefix = name): string {
  return copyTree(join(FIXTURES, name), prefix);
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  // Roots without node_modules keep their unit cache in the OS temp dir: drop its set too.
  const cacheFile = defaultCacheFile(dir);
  if (cacheFile === undefined) return;
  const folder = dirname(cacheFile);
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    // No temp cache folder yet.
  }
  for (const name of names) if (name.startsWith(basename(cacheFile))) rmSync(join(folder, name), { force: true });
}

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real CLI (the built bin) as a subprocess. */
export function cli(args: readonly string[], cwd = REPO): CliResult {
  const result = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A diagnostic as `--format json` prints it (docs/cli.md). */
export interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly hint: string | null;
}

export const toolSource = (
  body: string,
  imports = "import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\n",
): string => `${imports}\nexport default defineAgentTool(${body});\n`;

/** A deterministic pseudo-random sequence in [0, 1) (a linear congruential generator): the same run every time. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}
