/**
 * The `zhin-gen` CLI: a thin shell over `createCompiler()`. Exit codes are a contract:
 * 0 clean (warnings allowed), 1 error diagnostics (takes precedence), 2 output missing or stale
 * (`check`), 64 usage errors. Never prints a stack trace for bad input.
 *
 * Conventions (docs/cli.md): every command takes `--help` (its own usage, exit 0); unknown
 * commands and options get a "did you mean"; `--json` is accepted everywhere and is the same as
 * `--format json` where a command has formats; durations are rounded (formatDuration); pretty
 * diagnostics carry a code frame.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { createCompiler, type CompileResult } from '../context.js';
import { packageVersion } from '../version.js';
import { loadConfig } from '../config/load.js';
import { CATALOG } from '../diagnostics.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import {
  COMMAND_NAMES,
  META_COMMANDS,
  commandSpec,
  commandSynopsis,
  commandUsage,
  mainUsage,
  parseCommand,
  type CommandSpec,
  type ParsedValues,
} from './commands.js';
import {
  formatDuration,
  formatGithub,
  formatPretty,
  formatSarif,
  palette,
  plural,
  runJson,
  shortDiff,
  summary,
  toJsonDiagnostics,
  type OutputFormat,
  esmNote,
  shellArg,
  type StaleFinding,
} from '../report/index.js';
import { defaultIo, type Io } from './io.js';
import { generatedProblems } from '../write/freshness.js';
import { didYouMean } from './suggest.js';
import { enclosingTree } from './root.js';
// inspect, watch, catalog, init, new and migrate load on demand: `generate`/`check` on an unchanged tree
// should not pay for esbuild (catalog), the watcher or the templates.
import type { CatalogArgs } from './catalog.js';
import type { ReportArgs } from './report.js';
import type { McpArgs } from './mcp.js';

export type { Io } from './io.js';

/** A usage error: the message, the command's usage, exit 64. */
function usageError(io: Io, message: string, spec?: CommandSpec): number {
  const more = spec
    ? `${commandSynopsis(spec)}\nzhin-gen ${spec.name} --help for its options.`
    : 'zhin-gen --help lists the commands.';
  io.err(`zhin-gen: ${message}\n${more}`);
  return 64;
}

/** `--json` and `--format json` are one choice; `--json` with another `--format` is a usage error. */
function outputFormat(spec: CommandSpec, values: ParsedValues): OutputFormat | { readonly error: string } {
  const format = values.format;
  const formats = /\|/.test(spec.options.format?.value ?? '')
    ? spec.options.format!.value!.split('|')
    : ['pretty', 'json'];
  if (typeof format === 'string' && !formats.includes(format))
    return {
      error: `unknown --format "${format}" for ${spec.name}: one of ${formats.join(', ')}${didYouMean(format, formats)}`,
    };
  if (values.json === true && typeof format === 'string' && format !== 'json')
    return { error: `--json and --format ${format} disagree (--json is --format json)` };
  return values.json === true ? 'json' : typeof format === 'string' ? (format as OutputFormat) : 'pretty';
}

/**
 * Whether the line asks for JSON (`--json`, `--format json`), read from the words alone: a usage
 * error comes before, or instead of, parsing. `mcp` never (its stdout is the MCP protocol).
 */
function asksJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  if (words[0] === 'mcp') return false;
  return words.some(
    (word, i) => word === '--json' || word === '--format=json' || (word === '--format' && words[i + 1] === 'json'),
  );
}

/**
 * `--json` prints only JSON on stdout "also when it fails" (docs/cli.md): a failure that printed
 * nothing there prints `{ "error": message }`, its first line on stderr, with `"usage": true` for
 * a usage error (exit 64) and `"internal": true` for a bug in zhin-gen (ZG9001).
 */
export async function main(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  if (!asksJson(argv)) return run(argv, io);
  let printed = false;
  let firstError: string | undefined;
  const watched: Io = {
    isTTY: io.isTTY,
    ...(io.errTTY !== undefined ? { errTTY: io.errTTY } : {}),
    out: (text) => {
      printed = true;
      io.out(text);
    },
    err: (text) => {
      firstError ??= text.split('\n')[0]!.replace(/^zhin-gen(?: [a-z]+)?: /, '');
      io.err(text);
    },
  };
  const code = await run(argv, watched);
  // Whatever else failed before a command printed its JSON (an internal error) says so in JSON too.
  if (code !== 0 && !printed) {
    const error = firstError ?? (code === 64 ? 'usage error' : `failed with exit code ${code}`);
    io.out(
      JSON.stringify({
        error,
        ...(code === 64 ? { usage: true } : {}),
        ...(error.startsWith('internal error') ? { internal: true } : {}),
      }),
    );
  }
  return code;
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    // Asked for: stdout, exit 0; no command at all is a usage error: stderr, exit 64.
    if (command) io.out(mainUsage());
    else io.err(mainUsage());
    return command ? 0 : 64;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    // With --json, a document as every command's --json gives (a script reads one shape).
    io.out(rest.includes('--json') ? JSON.stringify({ version: packageVersion() }) : packageVersion());
    return 0;
  }
  if (command === 'help') {
    const topic = rest[0];
    if (topic === undefined) {
      io.out(mainUsage());
      return 0;
    }
    const spec = commandSpec(topic);
    if (!spec) return usageError(io, `no command "${topic}"${didYouMean(topic, COMMAND_NAMES)}`);
    io.out(commandUsage(spec));
    return 0;
  }
  const spec = commandSpec(command);
  if (!spec) {
    const hint = command.startsWith('-')
      ? ` (options go after the command: zhin-gen <command> ${command})`
      : didYouMean(command, [...COMMAND_NAMES, ...META_COMMANDS]);
    return usageError(io, `unknown command "${command}"${hint}`);
  }
  const parsed = parseCommand(spec, rest);
  if (!parsed.ok) return usageError(io, parsed.message, spec);
  if (parsed.help) {
    io.out(commandUsage(spec));
    return 0;
  }
  const { values, positionals } = parsed;
  const format = outputFormat(spec, values);
  if (typeof format === 'object') return usageError(io, format.error, spec);

  if (spec.name === 'init') {
    try {
      return await (await import('./init.js')).runInit(
        { ...(positionals[0] !== undefined ? { dir: positionals[0] } : {}), json: format === 'json' },
        io,
      );
    } catch (error) {
      return internalError(io, error);
    }
  }

  const root = resolve(typeof values.root === 'string' ? values.root : process.cwd());
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    io.err(`zhin-gen: --root ${root} is not a directory`);
    return 64;
  }
  const enclosing = enclosingTree(root, typeof values.root !== 'string');
  if (enclosing) {
    const at = relative(process.cwd(), enclosing.tree) || '.';
    io.err(
      `zhin-gen: ${root} is inside the ${enclosing.folder}/ folder of the tree at ${enclosing.tree}; a folder inside a tree is no project root (generate would write zhin-capabilities.gen.ts into it, and new a capability the tree never compiles)\nhint: run zhin-gen in ${enclosing.tree}, or pass --root ${shellArg(at)}`,
    );
    return 64;
  }
  const load = await loadArgs(spec, values, io);
  if (load === 'usage') return 64;
  // `report --out` names the page, not the manifest.
  const manifestOut = spec.name === 'report' ? undefined : values.out;
  if (typeof manifestOut === 'string') {
    // A bad --out is a usage error: nothing is compiled or written.
    const { outProblem } = await loadConfig(root, { out: manifestOut });
    if (outProblem) {
      io.err(
        `zhin-gen: --out ${manifestOut}: ${outProblem.message} [${outProblem.code}]\nhint: ${CATALOG[outProblem.code].hint}`,
      );
      return 64;
    }
  }
  const compiler = createCompiler({
    root,
    ...(typeof manifestOut === 'string' ? { config: { out: manifestOut } } : {}),
  });
  const errColors = palette(io.errTTY ?? io.isTTY);
  const pretty = (diagnostics: readonly Diagnostic[]): string => formatPretty(diagnostics, errColors, { root });
  try {
    switch (spec.name) {
      case 'generate': {
        const result = await compiler.run({ write: true });
        if (format === 'json') io.out(JSON.stringify(runJson(result), null, 2));
        else {
          if (result.diagnostics.length > 0) io.err(pretty(result.diagnostics));
          io.out(summary(result));
          const note = esmNote(result.outFile);
          if (note) io.err(note);
        }
        return result.errors > 0 ? 1 : 0;
      }
      case 'check':
        return await check(compiler, format, io, pretty, {
          // The command that makes the output check compares: this run's --root and --out.
          fix: `npx zhin-gen generate${compiler.root !== process.cwd() ? ` --root ${shellArg(compiler.root)}` : ''}${typeof manifestOut === 'string' ? ` --out ${shellArg(manifestOut)}` : ''}`,
          ...(load.timeoutMs !== undefined ? { loadTimeoutMs: load.timeoutMs } : {}),
        });
      case 'inspect': {
        const result = await compiler.run({ write: false, model: true });
        const { inspectJson, inspectPretty } = await import('./inspect.js');
        // The diagnostics on stderr in either format: with --json too, an exit code of 1 says why.
        if (result.diagnostics.length > 0) io.err(pretty(result.diagnostics));
        io.out(format === 'json' ? JSON.stringify(inspectJson(result.model), null, 2) : inspectPretty(result.model));
        return result.errors > 0 ? 1 : 0;
      }
      case 'watch':
        // Its colours are the diagnostics', on stderr.
        return await (await import('./watch.js')).runWatch(compiler, io, errColors, format === 'json');
      case 'catalog':
        return await (await import('./catalog.js')).runCatalog(
          compiler,
          { ...(values as CatalogArgs), json: format === 'json' },
          io,
        );
      case 'report':
        return await (await import('./report.js')).runReport(
          compiler,
          { ...(values as ReportArgs), json: format === 'json' },
          io,
        );
      case 'mcp':
        return await (await import('./mcp.js')).runMcp(compiler, values as McpArgs, io);
      case 'migrate':
        return await (await import('../migrate/run.js')).runMigrate(
          compiler,
          { write: values.write === true, json: format === 'json' },
          io,
          pretty,
        );
      case 'new':
        return await (await import('./new.js')).runNew(
          compiler,
          {
            ...(positionals[0] !== undefined ? { kind: positionals[0] } : {}),
            ...(positionals[1] !== undefined ? { name: positionals[1] } : {}),
            ...(typeof values.agent === 'string' ? { agent: values.agent } : {}),
            ...(typeof values.skill === 'string' ? { skill: values.skill } : {}),
            ...(typeof values.plugin === 'string' ? { plugin: values.plugin } : {}),
            json: format === 'json',
          },
          io,
        );
    }
  } catch (error) {
    return internalError(io, error);
  } finally {
    await disposeOf(compiler, io);
  }
}

/** Disposes the compiler (its last cache write), then says once if the cache could not be written. */
async function disposeOf(compiler: ReturnType<typeof createCompiler>, io: Io): Promise<void> {
  await compiler.dispose();
  // The cache only makes later runs faster: a note, never an error or a changed exit code.
  const failure = compiler.cacheWriteFailure;
  if (failure !== undefined)
    io.err(`note: zhin-gen could not write its cache (${failure}); the output is right, later runs are only slower`);
}

/** Bad input is reported as diagnostics; reaching here is a bug in zhin-gen itself. */
function internalError(io: Io, error: unknown): number {
  io.err(
    `zhin-gen: internal error (ZG9001): ${error instanceof Error ? error.message : String(error)}\nPlease report this with the tree that triggers it.`,
  );
  return 1;
}

/** `--load` / `--load-timeout` (check only): the per-module time limit (`undefined` without `--load`). */
async function loadArgs(
  spec: CommandSpec,
  values: ParsedValues,
  io: Io,
): Promise<{ readonly timeoutMs?: number } | 'usage'> {
  const timeout = values['load-timeout'];
  if (values.load !== true && timeout === undefined) return {};
  const usage = (message: string): 'usage' => {
    usageError(io, message, spec);
    return 'usage';
  };
  if (values.load !== true) return usage('--load-timeout needs --load');
  const { DEFAULT_LOAD_TIMEOUT_MS, parseDuration } = await import('../verify/index.js');
  if (typeof timeout !== 'string') return { timeoutMs: DEFAULT_LOAD_TIMEOUT_MS };
  const timeoutMs = parseDuration(timeout);
  return timeoutMs !== undefined
    ? { timeoutMs }
    : usage(
        /^0+(?:\.0+)?(?:ms|s)$/.test(timeout.trim())
          ? `--load-timeout ${timeout} would fail every module: give it more than 0 (e.g. 10s or 500ms)`
          : `--load-timeout "${timeout}" is not a duration (write e.g. 10s or 500ms)`,
      );
}

/** The compile result with the load-verification diagnostics merged in (sorted, counted). */
function withLoadDiagnostics(result: CompileResult, extra: readonly Diagnostic[]): CompileResult {
  if (extra.length === 0) return result;
  const diagnostics = [...result.diagnostics, ...extra].sort(compareDiagnostics);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return { ...result, diagnostics, errors, warnings: diagnostics.length - errors };
}

async function check(
  compiler: ReturnType<typeof createCompiler>,
  format: OutputFormat,
  io: Io,
  pretty: (diagnostics: readonly Diagnostic[]) => string,
  { fix, loadTimeoutMs }: { readonly fix: string; readonly loadTimeoutMs?: number },
): Promise<number> {
  const compiled = await compiler.run({ write: false });
  const loaded =
    loadTimeoutMs === undefined
      ? undefined
      : await (await import('../verify/index.js')).verifyLoad(compiled, { timeoutMs: loadTimeoutMs });
  const result = loaded ? withLoadDiagnostics(compiled, loaded.diagnostics) : compiled;
  const onDisk = compiler.readOutput();
  // The manifest is current only with the validator modules it imports (compiler/write/validators.ts).
  const absentValidators = compiled.errors === 0 && onDisk === result.code ? compiler.missingValidators() : [];
  const stale = compiled.errors === 0 && (onDisk !== result.code || absentValidators.length > 0);
  const missing = onDisk === undefined;
  // Modules of the generated folder that are missing or not what generate writes, located.
  const generated =
    stale && absentValidators.length > 0 ? generatedProblems(compiler.root, absentValidators) : undefined;
  if (format === 'json') {
    io.out(
      JSON.stringify(
        {
          diagnostics: toJsonDiagnostics(result.diagnostics),
          stale,
          ...(stale ? { missing } : {}),
          // Which modules of the generated folder are missing or not what generate writes, located.
          ...(generated ? { generated: { missing: generated.missing, changed: generated.changed } } : {}),
        },
        null,
        2,
      ),
    );
  } else if (format === 'sarif' || format === 'github') {
    // Staleness as results too (a SARIF consumer saw a clean run while the job failed), and paths
    // as the repository has them: CI resolves them against its checkout, not against --root.
    const run = `run ${fix}`;
    const staleFindings: StaleFinding[] = [
      ...(generated?.missing ?? []).map((path) => ({
        file: path,
        line: 1,
        message: `missing: ${result.outRel} imports this generated module; ${run}`,
      })),
      ...(generated?.changed ?? []).map((p) => ({ file: p.path, line: p.line, message: `${p.reason}; ${run}` })),
      ...(stale && generated === undefined
        ? [
            {
              file: result.outRel,
              line: 1,
              message: `${result.outRel} is ${missing ? 'missing' : 'out of date'}; ${run}`,
            },
          ]
        : []),
    ];
    // GitHub resolves annotation and SARIF paths against its checkout (a job's
    // working-directory may be below it); elsewhere the working directory is the best guess.
    const fromCwd = relative(process.env.GITHUB_WORKSPACE || process.cwd(), compiler.root)
      .split(sep)
      .join('/');
    const options = { base: fromCwd.startsWith('..') || isAbsolute(fromCwd) ? '' : fromCwd, stale: staleFindings };
    if (format === 'sarif') io.out(JSON.stringify(formatSarif(result.diagnostics, packageVersion(), options), null, 2));
    else {
      const text = formatGithub(result.diagnostics, options);
      if (text !== '') io.out(text);
    }
  } else {
    if (result.diagnostics.length > 0) io.err(pretty(result.diagnostics));
    if (stale) {
      if (absentValidators.length > 0) {
        // A module of the generated folder, missing or not what generate writes: located, with why.
        const problems = generated ?? { missing: [], changed: [] };
        for (const path of problems.missing)
          io.err(`${path}:1:1 - error: missing: ${result.outRel} imports this generated module`);
        for (const problem of problems.changed) io.err(`${problem.path}:${problem.line}:1 - error: ${problem.reason}`);
      } else
        io.err(
          missing
            ? `${result.outRel} is missing.`
            : `${result.outRel} is out of date:\n${shortDiff(onDisk ?? '', result.code)}`,
        );
      io.err(`Fix: ${fix}`);
    }
    const verified = loaded
      ? loaded.skipped
        ? '; modules not loaded (fix the errors first)'
        : `; ${plural(loaded.modules, 'module')} loaded in ${formatDuration(loaded.ms)}`
      : '';
    io.out(
      `zhin-gen check: ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}, output ${compiled.errors > 0 ? 'not compared' : stale ? (missing ? 'missing' : 'stale') : 'up to date'}${verified}`,
    );
    const note = esmNote(result.outFile);
    if (note) io.err(note);
  }
  if (result.errors > 0) return 1;
  return stale ? 2 : 0;
}
