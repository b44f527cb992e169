/**
 * The `zhin-gen` CLI: a thin shell over `createCompiler()`. Exit codes are a contract:
 * 0 clean (warnings allowed), 1 error diagnostics (takes precedence), 2 output missing or stale
 * (`check`), 64 usage errors. Never prints a stack trace for bad input.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createCompiler, type CompileResult } from '../context.js';
import { packageVersion } from '../version.js';
import { loadConfig } from '../config.js';
import { CATALOG } from '../diagnostics.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import { formatGithub, formatPretty, formatSarif, palette, shortDiff, toJsonDiagnostics, type OutputFormat } from './format.js';
// inspect, watch and catalog load on demand: `generate`/`check` on an unchanged tree should not
// pay for esbuild (catalog) or the watcher.
import type { CatalogArgs } from './catalog.js';

const USAGE = `Usage: zhin-gen <command> [options]

Commands:
  generate   write the capability manifest            [--root DIR] [--out FILE]
  check      validate and compare with the file on disk (CI gate)
                                                      [--root DIR] [--out FILE] [--format pretty|json|github|sarif]
                                                      [--load [--load-timeout 10s]]  also import every module (slow; CI)
  watch      regenerate on every change               [--root DIR] [--out FILE]
  inspect    print the capability tree                [--root DIR] [--json]
  catalog    what the model sees in one turn, and why the rest is left out
             --platform P --scope S [--user U] [--role R]... [--agent A] [--skill S]... [--provider anthropic|openai|generic] [--json]

Exit codes: 0 clean, 1 error diagnostics, 2 output missing or stale (check), 64 usage error.`;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
}

const defaultIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  isTTY: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
};


function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summary(result: CompileResult): string {
  const m = result.model;
  const counts = [plural(m.tools.length, 'tool'), plural(m.skills.length, 'skill'), plural(m.agents.length, 'agent'), plural(m.promptSections.length, 'prompt section'), plural(m.hooks.length, 'hook')].join(', ');
  const problems = result.errors + result.warnings > 0 ? `; ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}` : '';
  const state = result.errors > 0 ? 'not written' : result.written ? 'written' : 'unchanged';
  return `zhin-gen: ${counts}${problems} → ${result.outRel} (${state}) in ${Math.round(result.stats.ms)} ms`;
}

export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return command ? 0 : 64;
  }
  if (command === '--version' || command === '-v') {
    io.out(packageVersion());
    return 0;
  }
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...rest],
      options: {
        root: { type: 'string' },
        out: { type: 'string' },
        format: { type: 'string' },
        json: { type: 'boolean' },
        platform: { type: 'string' },
        scope: { type: 'string' },
        user: { type: 'string' },
        role: { type: 'string', multiple: true },
        agent: { type: 'string' },
        skill: { type: 'string', multiple: true },
        provider: { type: 'string' },
        load: { type: 'boolean' },
        'load-timeout': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`zhin-gen: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 64;
  }
  const root = resolve(typeof values.root === 'string' ? values.root : process.cwd());
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    io.err(`zhin-gen: --root ${root} is not a directory`);
    return 64;
  }
  const format = (values.format ?? 'pretty') as OutputFormat;
  if (!['pretty', 'json', 'github', 'sarif'].includes(format)) {
    io.err(`zhin-gen: unknown --format "${String(values.format)}" (pretty, json, github or sarif)`);
    return 64;
  }
  const load = await loadArgs(command, values, io);
  if (load === 'usage') return 64;
  if (typeof values.out === 'string') {
    // A bad --out is a usage error: nothing is compiled or written.
    const { outProblem } = await loadConfig(root, { out: values.out });
    if (outProblem) {
      io.err(`zhin-gen: --out ${values.out}: ${outProblem.message} [${outProblem.code}]\nhint: ${CATALOG[outProblem.code].hint}`);
      return 64;
    }
  }
  const compiler = createCompiler({ root, ...(typeof values.out === 'string' ? { config: { out: values.out } } : {}) });
  const colors = palette(io.isTTY);
  try {
    switch (command) {
      case 'generate': {
        const result = await compiler.run({ write: true });
        if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, colors));
        io.out(summary(result));
        return result.errors > 0 ? 1 : 0;
      }
      case 'check':
        return await check(compiler, format, io, colors, load.timeoutMs);
      case 'inspect': {
        const result = await compiler.run({ write: false });
        const { inspectJson, inspectPretty } = await import('./inspect.js');
        if (values.json) io.out(JSON.stringify(inspectJson(result.model), null, 2));
        else {
          if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, colors));
          io.out(inspectPretty(result.model));
        }
        return result.errors > 0 ? 1 : 0;
      }
      case 'watch':
        return await (await import('./watch.js')).runWatch(compiler, io, colors);
      case 'catalog':
        return await (await import('./catalog.js')).runCatalog(compiler, values as CatalogArgs, io);
      default:
        io.err(`zhin-gen: unknown command "${command}"\n\n${USAGE}`);
        return 64;
    }
  } catch (error) {
    // Bad input is reported as diagnostics; reaching here is a bug in zhin-gen itself.
    io.err(`zhin-gen: internal error (ZG9001): ${error instanceof Error ? error.message : String(error)}\nPlease report this with the tree that triggers it.`);
    return 1;
  } finally {
    await compiler.dispose();
  }
}

/** `--load` / `--load-timeout` (check only): the per-module time limit (`undefined` without `--load`). */
async function loadArgs(command: string, values: Record<string, unknown>, io: Io): Promise<{ readonly timeoutMs?: number } | 'usage'> {
  const timeout = values['load-timeout'];
  if (values.load !== true && timeout === undefined) return {};
  const usage = (message: string): 'usage' => {
    io.err(`zhin-gen: ${message}\n\n${USAGE}`);
    return 'usage';
  };
  if (command !== 'check') return usage(`--load${timeout !== undefined ? ' and --load-timeout' : ''} belong to check`);
  if (values.load !== true) return usage('--load-timeout needs --load');
  const { DEFAULT_LOAD_TIMEOUT_MS, parseDuration } = await import('../verify/index.js');
  if (typeof timeout !== 'string') return { timeoutMs: DEFAULT_LOAD_TIMEOUT_MS };
  const timeoutMs = parseDuration(timeout);
  return timeoutMs !== undefined ? { timeoutMs } : usage(`--load-timeout "${timeout}" is not a duration (write e.g. 10s or 500ms)`);
}

/** The compile result with the load-verification diagnostics merged in (sorted, counted). */
function withLoadDiagnostics(result: CompileResult, extra: readonly Diagnostic[]): CompileResult {
  if (extra.length === 0) return result;
  const diagnostics = [...result.diagnostics, ...extra].sort(compareDiagnostics);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { ...result, diagnostics, errors, warnings: diagnostics.length - errors };
}

async function check(compiler: ReturnType<typeof createCompiler>, format: OutputFormat, io: Io, colors: ReturnType<typeof palette>, loadTimeoutMs?: number): Promise<number> {
  const compiled = await compiler.run({ write: false });
  const loaded = loadTimeoutMs === undefined ? undefined : await (await import('../verify/index.js')).verifyLoad(compiled, { timeoutMs: loadTimeoutMs });
  const result = loaded ? withLoadDiagnostics(compiled, loaded.diagnostics) : compiled;
  const onDisk = compiler.readOutput();
  const stale = compiled.errors === 0 && onDisk !== result.code;
  const missing = onDisk === undefined;
  if (format === 'json') {
    io.out(JSON.stringify({ diagnostics: toJsonDiagnostics(result.diagnostics), stale, ...(stale ? { missing } : {}) }, null, 2));
  } else if (format === 'sarif') {
    io.out(JSON.stringify(formatSarif(result.diagnostics, packageVersion()), null, 2));
  } else if (format === 'github') {
    if (result.diagnostics.length > 0) io.out(formatGithub(result.diagnostics));
    if (stale) io.out(`::error file=${result.outRel},title=stale::${result.outRel} is ${missing ? 'missing' : 'out of date'}; run npx zhin-gen generate`);
  } else {
    if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, colors));
    if (stale) {
      io.err(missing ? `${result.outRel} is missing.` : `${result.outRel} is out of date:\n${shortDiff(onDisk ?? '', result.code)}`);
      io.err(`Fix: npx zhin-gen generate${compiler.root !== process.cwd() ? ` --root ${compiler.root}` : ''}`);
    }
    const verified = loaded ? (loaded.skipped ? '; modules not loaded (fix the errors first)' : `; ${plural(loaded.modules, 'module')} loaded in ${Math.round(loaded.ms)} ms`) : '';
    io.out(`zhin-gen check: ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}, output ${compiled.errors > 0 ? 'not compared' : stale ? (missing ? 'missing' : 'stale') : 'up to date'}${verified}`);
  }
  if (result.errors > 0) return 1;
  return stale ? 2 : 0;
}
