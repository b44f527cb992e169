/**
 * The slow path for schemas the extractor cannot isolate: ONE esbuild bundle of just those tool
 * modules (plus the child runner), imported one by one in a child process with a per-module
 * timeout. The recognised definition modules resolve to a shim over zhin-gen's runtime whose
 * define* helpers return their argument unchanged: this stage only reads `inputSchema`, and
 * definition mistakes are reported by the parse stage with positions, not as "module threw".
 * A module that throws, hangs or exits costs only its own result; the child is restarted for
 * the rest.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type OnResolveArgs, type Plugin } from 'esbuild';
import { bundleDependencies, type ResolveRequest } from './bundle-deps.js';
import type { ChildMessage, ChildTask } from './child.js';
import type { Projection } from './project.js';
import { RUNTIME_PACKAGE, runtimeEntryFile } from '../runtime-entry.js';

export interface FallbackTask {
  readonly id: string;
  /** Absolute path of the tool entry file. */
  readonly absPath: string;
}

/**
 * `sources`: what the module's schema depends on (schema/bundle-deps.ts), absolute and sorted,
 * whether or not it could be evaluated: a failure depends on the files it got to as much.
 */
export type FallbackResult =
  | { readonly ok: true; readonly projection: Projection; readonly sources: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly sources: readonly string[] };

export interface FallbackOptions {
  readonly timeoutMs: number;
  readonly runtimeModules: readonly string[];
  readonly tempDir?: string;
}

/** First existing file among candidates relative to this module (sources: .ts, dist/: .js). */
function sibling(...candidates: string[]): string {
  for (const candidate of candidates) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new Error(`zhin-gen: none of ${candidates.join(', ')} exists next to ${fileURLToPath(import.meta.url)}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The plugins of one build; `requests` collects every import it was asked to resolve (schema/bundle-deps.ts). */
function plugins(runtimeModules: readonly string[], shim: string, requests: ResolveRequest[]): Plugin[] {
  const zhinGenDir = path.dirname(fileURLToPath(import.meta.url));
  const note = (args: OnResolveArgs): void => {
    if (args.importer !== '' && !(args.pluginData as { zg?: boolean } | undefined)?.zg)
      requests.push({ importer: args.importer, specifier: args.path, resolveDir: args.resolveDir });
  };
  return [
    {
      name: 'zhin-gen-schema',
      setup(b) {
        const runtime = new RegExp(`^(${runtimeModules.map(escapeRegExp).join('|')})$`);
        b.onResolve({ filter: runtime }, () => ({ path: shim }));
        // The project's own zod wins; zhin-gen's is used when the project has none.
        b.onResolve({ filter: /^zod(\/.*)?$/ }, async (args) => {
          if ((args.pluginData as { zg?: boolean } | undefined)?.zg) return undefined;
          note(args);
          for (const resolveDir of [args.resolveDir, zhinGenDir]) {
            const r = await b.resolve(args.path, { kind: args.kind, resolveDir, pluginData: { zg: true } });
            if (r.errors.length === 0) return { path: r.path, sideEffects: r.sideEffects };
          }
          return undefined;
        });
        // Last: every other import is noted and left to esbuild (the runtime's never gets here).
        b.onResolve({ filter: /.*/ }, (args) => {
          note(args);
          return undefined;
        });
      },
    },
  ];
}

interface Bundle {
  readonly outputs: Map<string, string>;
  readonly metafile: Metafile;
  readonly requests: readonly ResolveRequest[];
}

/** A build that failed, with the imports it was asked to resolve before it did. */
class BundleFailed extends Error {
  constructor(
    readonly error: unknown,
    readonly requests: readonly ResolveRequest[],
  ) {
    super('bundling failed');
  }
}

async function bundle(
  entries: readonly { in: string; out: string }[],
  outdir: string,
  plug: (requests: ResolveRequest[]) => Plugin[],
): Promise<Bundle> {
  const requests: ResolveRequest[] = [];
  try {
    return await build1(entries, outdir, plug(requests), requests);
  } catch (error) {
    throw new BundleFailed(error, requests);
  }
}

async function build1(
  entries: readonly { in: string; out: string }[],
  outdir: string,
  plug: Plugin[],
  requests: readonly ResolveRequest[],
): Promise<Bundle> {
  const result = await build({
    entryPoints: [...entries],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
    plugins: plug,
  });
  return {
    outputs: new Map(entries.map((e) => [e.out, path.join(outdir, `${e.out}.mjs`)])),
    metafile: result.metafile,
    requests,
  };
}

function buildError(error: unknown): string {
  const first = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] })
    .errors?.[0];
  if (!first) return error instanceof Error ? error.message : String(error);
  return `bundling failed: ${first.text}${first.location ? ` (${first.location.file}:${first.location.line})` : ''}`;
}

/** What an output and its chunks depend on (schema/bundle-deps.ts): the inputs they read, and the imports of those. */
function sourcesOf(built: Bundle, outFile: string, exclude: readonly string[]): string[] {
  const meta = built.metafile;
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const keys = new Map(Object.keys(meta.outputs).map((k) => [path.resolve(k), k] as const));
  const key = (file: string): string | undefined => keys.get(path.resolve(file));
  const visit = (outputKey: string | undefined): void => {
    if (!outputKey || seen.has(outputKey)) return;
    seen.add(outputKey);
    const output = meta.outputs[outputKey]!;
    for (const input of Object.keys(output.inputs)) inputs.add(input);
    for (const imp of output.imports) visit(key(imp.path));
  };
  visit(key(outFile));
  return bundleDependencies(inputs, built.requests, exclude);
}

/** What a module whose bundle failed depends on: the entry and every file the build got to. */
function failedSourcesOf(entry: string, requests: readonly ResolveRequest[], exclude: readonly string[]): string[] {
  return bundleDependencies([entry, ...requests.map((r) => r.importer)], requests, exclude);
}

export async function runFallback(
  tasks: readonly FallbackTask[],
  options: FallbackOptions,
): Promise<Map<string, FallbackResult>> {
  const results = new Map<string, FallbackResult>();
  if (tasks.length === 0) return results;
  const dir = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), 'zhin-gen-schema-'));
  try {
    const runtime = runtimeEntryFile();
    if (runtime === undefined) {
      // An incomplete install, not the tool's fault: each task says so instead of a crash.
      const message = `zhin-gen cannot resolve its runtime package ${RUNTIME_PACKAGE} (a dependency of zhin-gen: reinstall it)`;
      for (const task of tasks) results.set(task.id, { ok: false, message, sources: [] });
      return results;
    }
    const childEntry = sibling('./child.ts', './child.js');
    const shim = path.join(dir, 'runtime-shim.mjs');
    await writeFile(
      shim,
      [
        `export * from ${JSON.stringify(runtime)};`,
        'const identity = (init) => init;',
        'export { identity as defineAgentTool, identity as defineAgentPromptSection, identity as defineAgentHook, identity as definePlugin };',
        '',
      ].join('\n'),
    );
    const plug = (requests: ResolveRequest[]): Plugin[] => plugins(options.runtimeModules, shim, requests);
    // zhin-gen's own files (runtime behind the shim, the child runner) are not the tool's sources.
    const exclude = [path.dirname(runtime), path.dirname(path.dirname(childEntry)), dir].map(
      (p) => path.resolve(p) + path.sep,
    );
    const entries = tasks.map((t, i) => ({ in: t.absPath, out: `t${i}` }));

    let childFile: string;
    const outputs = new Map<string, { file: string; sources: string[] }>();
    try {
      const all = await bundle([{ in: childEntry, out: 'child' }, ...entries], path.join(dir, 'all'), plug);
      childFile = all.outputs.get('child')!;
      tasks.forEach((t, i) => {
        const file = all.outputs.get(`t${i}`)!;
        outputs.set(t.id, { file, sources: sourcesOf(all, file, exclude) });
      });
    } catch {
      // One unbundleable module fails the whole build: rebuild each alone to isolate it.
      childFile = (await bundle([{ in: childEntry, out: 'child' }], path.join(dir, 'child'), plug)).outputs.get(
        'child',
      )!;
      await Promise.all(
        tasks.map(async (t, i) => {
          try {
            const one = await bundle([entries[i]!], path.join(dir, `one${i}`), plug);
            const file = one.outputs.get(`t${i}`)!;
            outputs.set(t.id, { file, sources: sourcesOf(one, file, exclude) });
          } catch (error) {
            const failed = error instanceof BundleFailed ? error : new BundleFailed(error, []);
            results.set(t.id, {
              ok: false,
              message: buildError(failed.error),
              sources: failedSourcesOf(t.absPath, failed.requests, exclude),
            });
          }
        }),
      );
    }

    const runnable: ChildTask[] = tasks
      .filter((t) => outputs.has(t.id))
      .map((t) => ({ id: t.id, file: outputs.get(t.id)!.file }));
    const raw = await runChildren(childFile, runnable, options.timeoutMs);
    for (const [id, r] of raw) results.set(id, { ...r, sources: outputs.get(id)!.sources });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}

type RawResult =
  | { readonly ok: true; readonly projection: Projection }
  | { readonly ok: false; readonly message: string };

/** Runs children until every task has a result, restarting after a hang or an exit. */
async function runChildren(
  childFile: string,
  tasks: readonly ChildTask[],
  timeoutMs: number,
): Promise<Map<string, RawResult>> {
  const results = new Map<string, RawResult>();
  let pending = [...tasks];
  while (pending.length > 0) {
    const before = results.size;
    const { blamed, message } = await runChild(childFile, pending, timeoutMs, results);
    if (blamed !== undefined) results.set(blamed, { ok: false, message });
    else if (results.size === before) {
      // The child failed before finishing any module: another one would fail the same way.
      for (const t of pending) if (!results.has(t.id)) results.set(t.id, { ok: false, message });
    }
    pending = pending.filter((t) => !results.has(t.id));
  }
  return results;
}

/** One child; resolves when it finished all tasks, or with the task to blame when it did not. */
function runChild(
  childFile: string,
  tasks: readonly ChildTask[],
  timeoutMs: number,
  results: Map<string, RawResult>,
): Promise<{ blamed?: string; message: string }> {
  return new Promise((resolve) => {
    let current: string | undefined;
    let stderr = '';
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const child: ChildProcess = fork(childFile, [], {
      execArgv: [],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    const finish = (outcome: { blamed?: string; message: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(outcome);
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(
        () => finish({ blamed: current, message: `timed out after ${timeoutMs} ms (top-level code did not finish)` }),
        timeoutMs,
      );
    };
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'start') {
        current = message.id;
        arm();
      } else if (message.type === 'result') {
        results.set(message.id, { ok: true, projection: message.projection });
        current = undefined;
      } else if (message.type === 'error') {
        results.set(message.id, { ok: false, message: message.message });
        current = undefined;
      } else finish({ message: 'done' });
    });
    child.on('error', (error) => finish({ blamed: current, message: `schema process failed: ${error.message}` }));
    child.on('exit', (code, signal) => {
      const last = stderr.trim().split('\n').pop();
      finish({
        blamed: current,
        message: `the module ended the schema process (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`,
      });
    });
    arm();
    child.send(tasks);
  });
}
