/**
 * Shared by the package tests: `npm pack` of both packages (what `npm publish` would upload) and a
 * fresh project outside the repository (inside it, Node would find the repository's own
 * node_modules by walking up, and a missing production dependency would go unnoticed).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO } from '../helpers.js';

export interface PackedFile {
  readonly path: string;
  readonly size: number;
}

export interface Packed {
  readonly name: string;
  readonly version: string;
  /** Absolute path of the tarball. */
  readonly tarball: string;
  /** Tarball bytes (gzipped) and the unpacked size. */
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly PackedFile[];
  /** The package.json as packed (its directory in the repository: the repository root or runtime/). */
  readonly manifest: PackageJson;
}

export interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly scripts?: Readonly<Record<string, string>>;
  readonly exports?: ExportsValue;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly main?: string;
  readonly types?: string;
  readonly files?: readonly string[];
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

export type ExportsValue = string | null | { readonly [key: string]: ExportsValue };

/** What the tests build on: built output of both packages (`npm test` builds before vitest runs). */
export function assertBuilt(): void {
  const missing = [
    'dist/compiler/index.js',
    'dist/compiler/index.d.ts',
    'runtime/dist/index.js',
    'runtime/dist/index.d.ts',
  ].filter((file) => !existsSync(join(REPO, file)));
  if (missing.length > 0)
    throw new Error(
      `the packages are not built (${missing.join(', ')} missing): run \`node scripts/build.mjs\` first (npm test does)`,
    );
}

/**
 * Packs zhin-gen and @zhin-gen/runtime into `dest`. `--ignore-scripts`: `prepack` would rebuild
 * dist/ under every other test running at the same time; the tests pack what the build made.
 */
export function packAll(dest: string): { readonly zhinGen: Packed; readonly runtime: Packed } {
  assertBuilt();
  mkdirSync(dest, { recursive: true });
  const out = execFileSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dest, '--workspaces', '--include-workspace-root'],
    {
      cwd: REPO,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const reports = JSON.parse(out) as {
    name: string;
    version: string;
    filename: string;
    size: number;
    unpackedSize: number;
    files: PackedFile[];
  }[];
  const packed = (name: string, dir: string): Packed => {
    const report = reports.find((r) => r.name === name);
    if (!report) throw new Error(`npm pack did not pack ${name}: ${out}`);
    return {
      name,
      version: report.version,
      tarball: join(dest, report.filename),
      size: report.size,
      unpackedSize: report.unpackedSize,
      files: report.files,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson,
    };
  };
  return { zhinGen: packed('zhin-gen', REPO), runtime: packed('@zhin-gen/runtime', join(REPO, 'runtime')) };
}

/** A fresh directory outside the repository (removed by the caller). */
export function outsideTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `zhin-gen-${prefix}-`));
}

export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/**
 * What npm needs to reach the registry: the CA bundle that vitest.config.ts keeps out of every
 * other process of the suite (each Node start would parse it).
 */
const REGISTRY_ENV: Readonly<Record<string, string>> =
  process.env.ZHIN_GEN_TEST_EXTRA_CA_CERTS === undefined
    ? {}
    : { NODE_EXTRA_CA_CERTS: process.env.ZHIN_GEN_TEST_EXTRA_CA_CERTS };

function commandEnv(command: string, env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: '1', ...(command === 'npm' || command === 'npx' ? REGISTRY_ENV : {}), ...env };
}

function checked(command: string, args: readonly string[], cwd: string, done: Run): Run {
  if (done.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${done.status}) in ${cwd}:\n${done.stdout}\n${done.stderr}`);
  return done;
}

/** Runs a command; a failure throws with its output (a test reads why, not just an exit code). */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Run {
  const started = performance.now();
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: commandEnv(command, env),
    maxBuffer: 64 * 1024 * 1024,
  });
  return checked(command, args, cwd, {
    status: result.status ?? -1,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? String(result.error ?? ''),
    ms: performance.now() - started,
  });
}

/** run() without blocking: commands that do not depend on each other run side by side. */
export function start(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: commandEnv(command, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        resolve(checked(command, args, cwd, { status: status ?? -1, stdout, stderr, ms: performance.now() - started }));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** npm as CI runs it: the registry's cache first, no audit or funding requests. */
export const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'] as const;

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
