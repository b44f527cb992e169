/**
 * Parsing over worker threads (compiler/parse/pool.ts), through the built CLI (the pool runs
 * the built worker module): a cold run with the pool writes byte for byte what a run on the
 * main thread writes — the manifest, every generated validator module, the same diagnostics —
 * and a warm run after a pooled run trusts what the workers recorded (nothing parsed again).
 * The split itself, through the built pool: the main thread and every worker take part, and
 * each result lands at its own index, equal to what the main thread alone makes of it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validatorsDirRel } from '../../../compiler/emit/validator-table.js';
import { idleCores } from '../../../compiler/parse/pool.js';
import { copyFixture, REPO, removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Tools of every schema shape the parse stage handles: static, fragment import, const, evaluated, none, broken. */
function tools(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`tools/t${i}/fragment.ts`] =
      `import { z } from 'zod';\nexport const paging = z.object({ page: z.number().int().min(${i}) });\n`;
    const schema = [
      `z.object({ q${i}: z.string().max(${i + 1}) })`,
      `z.object({ paging: paging.optional(), n: z.number().min(${i}) })`,
      'input',
      `z.object({ when: z.string().refine((v) => v.length > ${i}) })`,
      undefined,
    ][i % 5];
    files[`tools/t${i}/index.ts`] = `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';
import { paging } from './fragment.js';
const input = z.object({ id: z.string().uuid(), size: z.number().int().max(${i}) });
void paging; void input;
export default defineAgentTool({
  description: 'Tool ${i}',${schema ? `\n  inputSchema: ${schema},` : ''}
  ${i % 7 === 3 ? 'timeoutMs: 5,' : ''}
  async execute() { return ${i}; },
});
`;
  }
  return files;
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = { manifest: readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8') };
  const validators = join(root, validatorsDirRel('zhin-capabilities.gen.ts'));
  let names: string[] = [];
  try {
    names = readdirSync(validators).sort();
  } catch {
    names = [];
  }
  for (const name of names) out[name] = readFileSync(join(validators, name), 'utf8');
  return out;
}

function generate(root: string, workers: string): { json: Record<string, unknown>; stderr: string } {
  // The real CLI (the built bin) with the pool setting.
  const run = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ZHIN_GEN_WORKERS: workers },
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return { json: JSON.parse(run.stdout) as Record<string, unknown>, stderr: run.stderr };
}

/** Plugin entries that register one tool each; every third has a timeout the checks refuse. */
function pluginEntries(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`plugins/p${i}/plugin.ts`] = `import { definePlugin, defineAgentTool } from 'zhin-gen/runtime';
export default definePlugin({
  name: 'p${i}',
  setup(context) {
    context.addTool('t${i}', defineAgentTool({ description: 'Tool ${i}'${i % 3 === 0 ? ', timeoutMs: -1' : ''}, async execute() { return ${i}; } }));
  },
});
`;
  }
  return files;
}

/** Each cached unit's digest of its parse result, by key, from the unit cache's base file. */
function resultDigests(cacheDir: string): Record<string, unknown> {
  const base = JSON.parse(readFileSync(join(cacheDir, 'zhin-gen', 'units.json'), 'utf8')) as {
    entries: Record<string, { resultPrint?: unknown }>;
  };
  const digests = Object.fromEntries(Object.entries(base.entries).map(([key, entry]) => [key, entry.resultPrint]));
  expect(Object.keys(digests).length).toBeGreaterThan(60);
  expect(Object.values(digests).every((d) => typeof d === 'string' && d.length === 64)).toBe(true);
  return digests;
}

interface PoolRun {
  readonly outputs: { index: number; result: { diagnostics: unknown[] }; files?: unknown[]; print: string }[];
  readonly workers: number;
  readonly here: number[];
  readonly alone: unknown[];
  readonly stamps: unknown[];
}

/**
 * In a plain Node process (the built modules, as the CLI loads them): the pool over `files` with
 * up to `size` workers (`probe`: as many as the load leaves cores for), and what the main
 * thread alone makes of every job, with this reader's stamps.
 */
function runPool(files: Record<string, string>, size: number, probe: boolean): PoolRun {
  const root = tempDir('parse-pool-split');
  dirs.push(root);
  writeTree(root, files);
  settleTree(root);
  const script = `
    const load = (path) => import(${JSON.stringify(pathToFileURL(join(REPO, 'dist', 'compiler')).href)} + '/' + path);
    const { parseInPool } = await load('parse/pool.js');
    const { parsePluginEntry } = await load('parse/units.js');
    const { createReader } = await load('cache/reader.js');
    const { ts } = await load('util/typescript.js');
    const [root, size, probe, ...files] = process.argv.slice(2);
    const reader = createReader(root);
    const modules = ['zhin-gen/runtime'];
    const env = { ts, readFile: (p) => reader.read(p), readProblem: (p) => reader.problem(p), modules,
      customPermits: [], agentsMdOf: () => undefined };
    const jobs = files.map((file, index) => ({ index, files: [file] }));
    const here = [];
    const setup = { root, modules, permits: [], agentsMd: [] };
    const { outputs, workers } = await parseInPool(jobs, setup, Number(size), (job) => {
      here.push(job.index);
      return parsePluginEntry(job.files[0], env);
    }, probe === 'probe');
    const alone = files.map((file) => parsePluginEntry(file, env));
    const stamps = files.map((file) => [file, reader.hashOf(file), reader.stampOf(file).changedMs, reader.stampOf(file).size, reader.stampOf(file).ino]);
    console.log(JSON.stringify({ outputs, workers, here, alone, stamps }));
  `;
  const scriptFile = join(root, 'split.mjs');
  writeFileSync(scriptFile, script);
  const args = [scriptFile, root, String(size), probe ? 'probe' : 'fixed', ...Object.keys(files)];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as PoolRun;
}

/** Every job answered once, at its own index, as the main thread alone answers it. */
function expectComplete(run: PoolRun, jobs: number): void {
  expect(run.outputs.map((out) => out.index)).toEqual(Array.from({ length: jobs }, (_, i) => i));
  for (const out of run.outputs) {
    expect(out.result).toEqual(run.alone[out.index]);
    if (out.files) expect(out.files).toEqual([run.stamps[out.index]]);
    // The cache's digest of the result, taken where it was parsed, is the one of the result as it arrived.
    expect(out.print).toBe(createHash('sha256').update(JSON.stringify(run.alone[out.index])).digest('hex'));
  }
}

describe('the parse worker pool', () => {
  it('writes byte for byte what a single-threaded run writes, and leaves a cache a warm run trusts', () => {
    const root = copyFixture('example-bot', 'parse-pool');
    dirs.push(root);
    writeTree(root, tools(60));
    const cache = join(root, 'node_modules', '.cache');
    writeTree(root, { 'node_modules/.keep': '' });

    const single = generate(root, '0');
    expect(single.json.workers).toBe(0);
    const expected = snapshot(root);
    const digests = resultDigests(cache);
    rmSync(join(root, 'zhin-capabilities.gen.ts'));
    rmSync(join(root, validatorsDirRel('zhin-capabilities.gen.ts')), { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });

    const pooled = generate(root, '2');
    expect(pooled.json.workers).toBe(2);
    expect(pooled.json.parsed).toBe(single.json.parsed);
    expect({ ...pooled.json, ms: 0, workers: 0 }).toEqual({ ...single.json, ms: 0 });
    expect(snapshot(root)).toEqual(expected);
    // The digests the workers took of their results are the ones the main thread takes.
    expect(resultDigests(cache)).toEqual(digests);

    const warm = generate(root, '2');
    expect(warm.json.parsed).toBe(0);
    expect(warm.json.state).toBe('unchanged');
  });

  it('parses on the main thread and in every worker, each result at its index as the main thread makes it', () => {
    const run = runPool(pluginEntries(40), 2, false);
    expect(run.workers).toBe(2);
    expectComplete(run, 40);
    // A worker's result carries the stamps it read; one parsed here leaves them to this reader.
    const byWorkers = run.outputs.filter((out) => out.files !== undefined);
    expect(run.here.length).toBeGreaterThan(0);
    expect(byWorkers.length).toBeGreaterThanOrEqual(2);
    expect(run.here.length + byWorkers.length).toBe(40);
    expect(
      run.outputs
        .filter((out) => out.files === undefined)
        .map((out) => out.index)
        .sort((a, b) => a - b),
    ).toEqual([...run.here].sort((a, b) => a - b));
    // The checks ran in the workers too: every third definition has a bad timeout.
    expect(byWorkers.some((out) => out.result.diagnostics.length > 0)).toBe(true);
  });

  it('counts the cores left idle between two samples of every CPU, and restricts nothing it cannot measure', () => {
    // 2 CPUs, 400 ms of their time in all, 150 ms of it idle: three quarters of a core.
    expect(idleCores({ idle: 1000, total: 5000 }, { idle: 1150, total: 5400 }, 2)).toBe(0.75);
    expect(idleCores({ idle: 0, total: 0 }, { idle: 0, total: 0 }, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it("counts this process's own background threads (V8's compiler) as idle, never another process's load", () => {
    // 200 ms of wall on 2 CPUs: 100 ms idle, and this process used 300 ms, 100 ms of it beside
    // the parsing thread: one core is free for a worker.
    const from = { idle: 1000, total: 5000, own: 50, at: 10 };
    expect(idleCores(from, { idle: 1100, total: 5400, own: 350, at: 210 }, 2)).toBe(1);
    // The same 100 ms idle, but this process used only its parsing thread: another process is busy.
    expect(idleCores(from, { idle: 1100, total: 5400, own: 250, at: 210 }, 2)).toBe(0.5);
  });

  it('starts no worker while every core is busy, and parses everything on the main thread', async () => {
    // One busy process per core, bounded in time, for as long as the pool measures the load.
    const spinners = Array.from({ length: availableParallelism() }, () =>
      spawn(process.execPath, ['-e', 'const end = Date.now() + 8000; while (Date.now() < end);'], { stdio: 'ignore' }),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const run = runPool(pluginEntries(400), 1, true);
      expect(run.workers).toBe(0);
      expect(run.here.length).toBe(400);
      expect(run.outputs.every((out) => out.files === undefined)).toBe(true);
      expectComplete(run, 400);
    } finally {
      for (const spinner of spinners) spinner.kill();
    }
  });
});
