/**
 * The rules for the paths a config names that end up written or imported (docs/config.md
 * "Output path"): where the output may go, and which paths may appear in the manifest's import
 * specifiers. Checked once per config load, before anything is walked or written; every problem
 * points at its option in the config file.
 *
 * The output may not be, or lie inside, an input of the tree; it may not replace a file that
 * zhin-gen did not write; it must be a TypeScript module path that can be created. Paths that
 * become import specifiers may not hold characters that Node and tsc read differently.
 */
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { locateConfig, readConfigText, type ConfigText } from './locate.js';
import type { ResolvedOptions } from './schema.js';
import { diag, type Diagnostic, type DiagnosticCode } from '../diagnostics.js';
import { GENERATED_MARK } from '../emit/mark.js';
import { specifierProblem } from '../emit/paths.js';
import { CONVENTION_FOLDERS, toPosix } from '../scan/walk.js';

/** Root files the scan reads besides the plugin entries and AGENTS.md. */
const ROOT_INPUTS = ['zhin-gen.config.ts', 'zhin-gen.config.mjs', 'zhin-gen.config.json', 'package.json'] as const;
const INPUT_FOLDERS: readonly string[] = [...CONVENTION_FOLDERS, 'plugins'];
const MODULE_FILE = /\.(c|m)?ts$/;
const DECLARATION_FILE = /\.d\.(c|m)?ts$/;

export interface ConfigPathsInput {
  /** Absolute project root. */
  readonly root: string;
  /** The `out` option as written. */
  readonly out: string;
  /** Absolute output file (`out` resolved against the root). */
  readonly outFile: string;
  readonly pluginEntry: readonly string[];
  /** Configured child plugins: key → directory relative to the root (POSIX). */
  readonly configuredPlugins: readonly { readonly owner: string; readonly dir: string }[];
  /** The config file's text, for positions; undefined without a config file. */
  readonly configText: ConfigText | undefined;
  /** Where `out` came from: the config file, the caller (`--out`, a build plugin option) or the default. */
  readonly outSource: 'config' | 'caller' | 'default';
}

export interface OutputProblem {
  readonly code: DiagnosticCode;
  readonly message: string;
}

/** The real path of a file that may not exist yet: its deepest existing ancestor resolved, the rest appended. */
function realish(path: string): string {
  let head = path;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = realpathSync.native(head);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return path;
      tail.push(basename(head));
      head = parent;
    }
  }
}

function realDir(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/** `path` relative to `dir` when it lies strictly inside it, else undefined. */
function inside(dir: string, path: string): string | undefined {
  const rel = relative(dir, path);
  return rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? undefined : rel;
}

/** Which input of the tree the output would be or lie in, if any. */
function inputProblem(input: ConfigPathsInput, out: string): OutputProblem | undefined {
  const plugins = [
    { label: 'the root plugin', dir: realDir(input.root), isRoot: true },
    ...input.configuredPlugins.map((p) => ({
      label: `the configured child plugin "${p.owner}" (${p.dir})`,
      dir: realDir(resolve(input.root, p.dir)),
      isRoot: false,
    })),
  ];
  for (const plugin of plugins) {
    const rel = inside(plugin.dir, out);
    if (rel === undefined) continue;
    const [first, ...rest] = rel.split(sep);
    const name = toPosix(rel);
    if (INPUT_FOLDERS.includes(first!)) {
      const where = rest.length === 0 ? `is the ${first}/ folder` : `lies inside ${first}/`;
      return {
        code: 'ZG1102',
        message: `The output "${input.out}" ${where} of ${plugin.label}, which the scan reads: writing it would replace or add a capability file`,
      };
    }
    if (rest.length > 0) continue;
    if (first === 'AGENTS.md')
      return {
        code: 'ZG1102',
        message: `The output "${input.out}" is the AGENTS.md of ${plugin.label}, an input of the tree`,
      };
    if (input.pluginEntry.includes(first!))
      return {
        code: 'ZG1102',
        message: `The output "${input.out}" is the plugin entry ${name} of ${plugin.label}, an input of the tree`,
      };
    if (plugin.isRoot && (ROOT_INPUTS as readonly string[]).includes(first!))
      return {
        code: 'ZG1102',
        message: `The output "${input.out}" is ${name}, which holds or may hold the configuration`,
      };
  }
  return undefined;
}

/** Whether the file starts with the generated header (an empty file holds nothing to lose). */
function isGenerated(file: string): boolean {
  const head = Buffer.alloc(GENERATED_MARK.length);
  const fd = openSync(file, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    return read === 0 || head.subarray(0, read).toString('utf8') === GENERATED_MARK;
  } finally {
    closeSync(fd);
  }
}

/** What is on disk at the output path (or above it) that makes writing it wrong. */
function diskProblem(input: ConfigPathsInput): OutputProblem | undefined {
  let stat: ReturnType<typeof statSync> | undefined;
  try {
    stat = statSync(input.outFile);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory())
    return {
      code: 'ZG1104',
      message: `The output "${input.out}" is an existing directory; \`out\` names the manifest file itself`,
    };
  if (stat) {
    let generated: boolean;
    try {
      generated = stat.isFile() && isGenerated(input.outFile);
    } catch (error) {
      return {
        code: 'ZG1104',
        message: `The output "${input.out}" cannot be read to check it is a manifest (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    return generated
      ? undefined
      : {
          code: 'ZG1103',
          message: `The output "${input.out}" exists and was not generated by zhin-gen; writing the manifest would replace it`,
        };
  }
  // Missing: every existing ancestor must be a directory, or the write can only fail.
  for (let dir = dirname(input.outFile); dir !== dirname(dir); dir = dirname(dir)) {
    let above: ReturnType<typeof statSync> | undefined;
    try {
      above = statSync(dir);
    } catch {
      continue;
    }
    if (above.isDirectory()) return undefined;
    return {
      code: 'ZG1104',
      message: `The output "${input.out}" cannot be created: ${toPosix(relative(input.root, dir)) || dir} is a file, not a directory`,
    };
  }
  return undefined;
}

function outProblem(input: ConfigPathsInput): OutputProblem | undefined {
  if (/[\\/]$/.test(input.out))
    return {
      code: 'ZG1104',
      message: `The output "${input.out}" names a directory; \`out\` names the manifest file itself`,
    };
  const real = realish(input.outFile);
  const overlap = inputProblem(input, real);
  if (overlap) return overlap;
  const disk = diskProblem(input);
  if (disk) return disk;
  if (!MODULE_FILE.test(input.outFile) || DECLARATION_FILE.test(input.outFile)) {
    return {
      code: 'ZG1105',
      message: `The output "${input.out}" is not a TypeScript module path (.ts, .mts or .cts): the manifest is TypeScript`,
    };
  }
  const unsafe = specifierProblem(toPosix(relative(input.root, input.outFile)));
  if (unsafe)
    return {
      code: 'ZG1106',
      message: `The output "${input.out}" ${unsafe}; code importing the manifest could not name it`,
    };
  // From the output's directory to the root: every import in the manifest passes through it.
  const toRoot = relative(dirname(input.outFile), input.root);
  if (isAbsolute(toRoot))
    return {
      code: 'ZG1104',
      message: `The output "${input.out}" is on another drive than the root; its imports of the tree could not be relative`,
    };
  const upward = specifierProblem(toPosix(toRoot));
  if (upward)
    return {
      code: 'ZG1106',
      message: `The manifest's imports from "${input.out}" back to the root pass through "${toPosix(toRoot)}", which ${upward}`,
    };
  return undefined;
}

/**
 * Diagnostics for the output path and the configured paths that become import specifiers, and
 * the output's problem on its own (the CLI turns a bad `--out` into a usage error).
 */
export function checkConfigPaths(input: ConfigPathsInput): { diagnostics: Diagnostic[]; out?: OutputProblem } {
  const diagnostics: Diagnostic[] = [];
  const at = (path: readonly (string | number)[]): { file: string; line: number; column: number } =>
    input.configText ? locateConfig(input.configText, path) : { file: 'package.json', line: 1, column: 1 };
  const out = outProblem(input);
  if (out) {
    // An `out` not written in the config file has no position there: the diagnostic sits on the output path.
    const where =
      input.outSource === 'config'
        ? at(['out'])
        : { file: toPosix(relative(input.root, input.outFile)) || '.', line: 1, column: 1 };
    const from =
      input.outSource === 'caller'
        ? " (`out` given by the caller: --out or the build plugin's option)"
        : input.outSource === 'default'
          ? ' (the default `out`)'
          : '';
    diagnostics.push(diag(out.code, { ...where, message: `${out.message}${from}` }));
  }
  input.pluginEntry.forEach((name, index) => {
    const unsafe = specifierProblem(name);
    if (unsafe)
      diagnostics.push(
        diag('ZG1106', { ...at(['pluginEntry', index]), message: `Plugin entry name "${name}" ${unsafe}` }),
      );
  });
  for (const plugin of input.configuredPlugins) {
    const unsafe = specifierProblem(plugin.dir);
    if (unsafe)
      diagnostics.push(
        diag('ZG1106', {
          ...at(['plugins', plugin.owner]),
          message: `Configured child plugin "${plugin.owner}" → "${plugin.dir}" ${unsafe}; the manifest could not import its modules`,
        }),
      );
  }
  return { diagnostics, ...(out ? { out } : {}) };
}

/**
 * A write of the manifest the file system refused (ZG1104), located like the output's other
 * problems; undefined for anything that is not a file-system error (a bug, which propagates).
 */
export function outputWriteFailure(
  options: ResolvedOptions,
  overridden: boolean,
  error: unknown,
): Diagnostic | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  const configText = !overridden && options.configFile ? readConfigText(options.root, options.configFile) : undefined;
  const where = configText
    ? locateConfig(configText, ['out'])
    : { file: toPosix(relative(options.root, options.outFile)) || '.', line: 1, column: 1 };
  return diag('ZG1104', {
    ...where,
    message: `The output "${options.out}" could not be written (${code}); the manifest on disk was left as it was`,
  });
}
