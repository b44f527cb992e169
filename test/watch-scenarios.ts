/**
 * The edits real editors and tools make, replayed against a running watch mode (the CLI's, or a
 * bundler's): after every step the manifest on disk must equal what a fresh compiler (no cache)
 * produces for the tree as it is now. Shared by the CLI, Rollup and webpack watch tests so every
 * watch mode is held to the same list.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect } from 'vitest';
import { createCompiler, type CompileResult } from '../compiler/index.js';

/**
 * An observer fed by a build plugin's `onRun` (the bundler watch modes). It counts the runs the
 * plugin's own watcher started (trigger 'watch'): a bundler rebuilding by its own rules (webpack
 * rebuilds when a file appears in a directory of its graph) starts 'build' runs.
 */
export function recordRuns(): {
  readonly onRun: (result: CompileResult, trigger: 'build' | 'watch') => void;
  readonly observer: WatchObserver;
} {
  const codes: string[] = [];
  let runs = 0;
  return {
    onRun: (result, trigger) => {
      if (trigger === 'watch') runs++;
      codes.push(...result.diagnostics.map((d) => `${d.code} ${d.file}:${d.line}`));
    },
    observer: { runs: () => runs, output: () => codes.join('\n') },
  };
}

export interface WatchObserver {
  /** How many compiler runs the watch mode has made so far. */
  runs(): number;
  /** Text the watch mode reported (for error states). */
  output(): string;
}

/** A tool module of this description (and approval), as the scenarios write them. */
export const tool = (
  description: string,
  approval = 'never',
): string => `import { defineAgentTool } from '@zhin.js/tool';

export default defineAgentTool({
  description: ${JSON.stringify(description)},
  requiresApproval: '${approval}',
  async execute() {
    return ${JSON.stringify(description)};
  },
});
`;

/** Writes a temp file beside the target and renames it over (JetBrains safe write, formatters). */
function saveByRename(file: string, text: string): void {
  const temp = `${file}___jb_tmp___`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** `sed -i`: a temp file `sedXXXXXX` in the same directory, renamed over the file. */
function sedInPlace(file: string, from: string, to: string): void {
  const result = spawnSync('sed', ['-i', `s/${from}/${to}/`, file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sed failed: ${result.stderr}`);
}

export async function freshManifest(root: string): Promise<string | undefined> {
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: false });
  return result.errors > 0 ? undefined : result.code;
}

const MANIFEST = 'zhin-capabilities.gen.ts';
/** The generated modules' folder beside the manifest (validators, tool-table shards, search index). */
const GENERATED = 'zhin-capabilities.gen.validators';

/**
 * Everything generated under a root, one text: the manifest and each file of its generated folder
 * (above 64 tools the tool table lives in shards there, and a one-tool edit leaves the manifest's
 * bytes as they were), by name.
 */
export function outputOnDisk(root: string): string {
  const file = join(root, MANIFEST);
  const parts = [`== ${MANIFEST}\n${existsSync(file) ? readFileSync(file, 'utf8') : ''}`];
  const dir = join(root, GENERATED);
  if (!existsSync(dir)) return parts.join('\n');
  // A watcher's write in flight leaves `<name>.<pid>.<random>.tmp` beside its target until the
  // rename: not output, and it may be gone by the time it is read (a CI run failed on that).
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.tmp')) continue;
    const text = readIfPresent(join(dir, name));
    if (text !== undefined) parts.push(`== ${name}\n${text}`);
  }
  return parts.join('\n');
}

/** A file's text, or undefined when it was removed between the listing and the read. */
function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * What a fresh `generate` (no cache) writes for the tree as it is now, as `outputOnDisk` reads
 * it: generated into a copy of the tree (the watched root's output is the thing under test), so
 * every generated file is compared, not only the manifest.
 */
export async function freshOutput(root: string): Promise<string | undefined> {
  const copy = `${root}-fresh`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(root, copy, {
    recursive: true,
    filter: (src) => {
      const name = relative(root, src);
      return !name.startsWith(MANIFEST) && !name.startsWith(GENERATED);
    },
  });
  try {
    const compiler = createCompiler({ root: copy, cacheFile: false });
    const result = await compiler.run({ write: true });
    await compiler.dispose();
    return result.errors > 0 ? undefined : outputOnDisk(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

async function until(check: () => boolean, what: string | (() => string), timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The generated files on disk settle to the fresh output (and stay there). */
async function settlesToFresh(root: string, watch: WatchObserver, step: string, wants?: string): Promise<void> {
  const expected = await freshOutput(root);
  expect(expected, `${step}: the tree is valid`).toBeDefined();
  if (wants) expect(expected).toContain(wants);
  await until(
    () => outputOnDisk(root) === expected,
    () => `${step}: generated files equal to a fresh generate; the watch mode said:\n${watch.output().slice(-3000)}`,
  );
  // No late run may undo it (a stale event replayed, a second writer).
  await new Promise((r) => setTimeout(r, 150));
  expect(outputOnDisk(root), `${step}: still equal`).toBe(expected);
}

export const SCENARIO_TOOL = tool('Version 0');

/** The tree the scenario starts from (besides the caller's own files). */
export const SCENARIO_TREE: Record<string, string> = {
  'tools/a/index.ts': tool('Version 0'),
  'tools/b/index.ts': tool('Tool b'),
};

export async function runWatchScenario(root: string, watch: WatchObserver): Promise<void> {
  const a = join(root, 'tools/a/index.ts');
  await settlesToFresh(root, watch, 'start', 'Version 0');

  writeFileSync(a, tool('Version in place'));
  await settlesToFresh(root, watch, 'in-place write', 'Version in place');

  // The reported defect: the second save by rename was never seen.
  for (const version of ['A', 'B', 'C', 'D', 'E']) {
    sedInPlace(a, 'Version [A-Za-z ]*', `Version ${version}`);
    await settlesToFresh(root, watch, `sed -i save ${version}`, `"Version ${version}"`);
  }
  for (const version of ['F', 'G', 'H', 'I', 'J']) {
    saveByRename(a, tool(`Version ${version}`));
    await settlesToFresh(root, watch, `safe-write save ${version}`, `"Version ${version}"`);
  }

  // An error saved by rename is reported, and its fix (also by rename) clears it.
  const before = watch.output().length;
  saveByRename(a, tool('Version broken', 'sometimes'));
  await until(() => watch.output().slice(before).includes('ZG2'), 'the error reported');
  saveByRename(a, tool('Version fixed'));
  await settlesToFresh(root, watch, 'error fixed by rename', 'Version fixed');

  unlinkSync(a);
  writeFileSync(a, tool('Version recreated'));
  await settlesToFresh(root, watch, 'delete + recreate', 'Version recreated');

  rmSync(join(root, 'tools/b'), { recursive: true });
  await settlesToFresh(root, watch, 'tool directory deleted');
  expect(await freshOutput(root)).not.toContain('Tool b');

  renameSync(join(root, 'tools/a'), join(root, 'tools/renamed'));
  await settlesToFresh(root, watch, 'directory renamed', '"renamed"');

  cpSync(join(root, 'tools/renamed'), join(root, 'tools/copied'), { recursive: true });
  await settlesToFresh(root, watch, 'tool folder copied in', '"copied"');

  // A checkout: 200 files appear at once, then 200 change at once.
  for (let i = 0; i < 200; i++) {
    const file = join(root, `tools/bulk-${String(i).padStart(3, '0')}/index.ts`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, tool(`Bulk ${i}`));
  }
  await settlesToFresh(root, watch, '200 files created', '"bulk-199"');
  for (let i = 0; i < 200; i++)
    writeFileSync(join(root, `tools/bulk-${String(i).padStart(3, '0')}/index.ts`), tool(`Bulk ${i} changed`));
  await settlesToFresh(root, watch, '200 files changed', 'Bulk 199 changed');

  // Editor leftovers never trigger a run and never enter the tree. (A bundler may still be
  // rebuilding after the last step: wait until its runs stop first.)
  let runs = watch.runs();
  for (let stable = 0; stable < 3; ) {
    await new Promise((r) => setTimeout(r, 250));
    stable = watch.runs() === runs ? stable + 1 : 0;
    runs = watch.runs();
  }
  const copied = join(root, 'tools/copied');
  for (const name of ['.index.ts.swp', 'index.ts~', 'index.ts.tmp', '4913', '#index.ts#', 'index.ts___jb_old___'])
    writeFileSync(join(copied, name), 'x');
  writeFileSync(join(root, 'tools/.scratch.swx'), 'x');
  await new Promise((r) => setTimeout(r, 400));
  expect(watch.runs(), 'editor swap/backup files trigger no run').toBe(runs);
  await settlesToFresh(root, watch, 'editor files ignored');
  for (const name of ['.index.ts.swp', 'index.ts~', 'index.ts.tmp', '4913', '#index.ts#', 'index.ts___jb_old___'])
    unlinkSync(join(copied, name));
}
