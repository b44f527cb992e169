/**
 * Configuration: `zhin-gen.config.{ts,mjs,json}` or the `zhin-gen` key of package.json,
 * validated with Zod. Every path option is resolved against one root: the project root (the
 * directory given by `--root`, or the bundler's root), never the current working directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { locateConfig, readConfigText, relativeName } from './locate.js';
import { checkConfigPaths, type OutputProblem } from './paths.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { resolveConfiguredPlugins } from '../scan/configured.js';
import { evaluateAfresh, forgetRequired, moduleGraph, readStamped, type StampedModule } from '../scan/module-graph.js';

export const CONFIG_FILES = ['zhin-gen.config.ts', 'zhin-gen.config.mjs', 'zhin-gen.config.json'] as const;

export type { ProviderName, ResolvedOptions, UserConfig } from './schema.js';
import type { ResolvedOptions, UserConfig } from './schema.js';

/**
 * The defaults, spelled out so a run without any config needs no Zod. A test asserts this equals
 * `configSchema.parse({})`, so the two can never drift.
 */
export const DEFAULT_OPTIONS = {
  out: 'zhin-capabilities.gen.ts',
  modules: ['@zhin.js/tool', '@zhin.js/prompt-section', '@zhin.js/agent', '@zhin-gen/runtime', 'zhin-gen/runtime'],
  plugins: {},
  pluginEntry: ['plugin.ts', 'plugin.mts', 'plugin.js', 'plugin.mjs'],
  permits: [],
  providers: ['anthropic', 'openai'],
  importExtension: '.js',
  schemaTimeoutMs: 10_000,
  allowOutside: [],
  hostProvided: { tools: [], skills: [] },
  diagnostics: {},
} as const satisfies Omit<ResolvedOptions, 'root' | 'outFile' | 'configFile' | 'adapters'>;

export interface LoadedConfig {
  readonly options: ResolvedOptions;
  readonly diagnostics: readonly Diagnostic[];
  /** What is wrong with the output path, if anything (also among `diagnostics`). */
  readonly outProblem?: OutputProblem;
  /** The modules a config module imports, transitively (not itself): watch mode follows them. */
  readonly modules: readonly StampedModule[];
}

/** Define a config with types: `export default defineConfig({ ... })`. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/**
 * The default export as written. A `.ts` config outside a `"type": "module"` package is compiled
 * to CommonJS, whose `module.exports` (the import's default) holds the ES module's `default`.
 */
function esmDefault(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('default' in value)) return value;
  const keys = Object.keys(value);
  return keys.every((key) => key === 'default' || key === '__esModule')
    ? (value as { default: unknown }).default
    : value;
}

/**
 * `fresh`: this process evaluated the module before from other bytes (its own or a module's it
 * imports), so what it imports is evaluated afresh too (scan/module-graph.ts `evaluateAfresh`): a
 * watch session after an imported module changed.
 */
async function importConfigModule(file: string, fresh: boolean): Promise<unknown> {
  const url = `${pathToFileURL(file).href}?t=${Date.now()}`;
  if (fresh || file.endsWith('.ts')) {
    // tsx's loader API imports a TS module without registering a global hook.
    const { tsImport } = await import('tsx/esm/api');
    const mod = (await tsImport(url, import.meta.url)) as { default?: unknown };
    return esmDefault(mod.default);
  }
  const mod = (await import(url)) as { default?: unknown };
  return mod.default;
}

export { readConfigText };

/** esbuild's (tsx's) report of a module it could not compile: `<file>:<line>:<col>: ERROR: <text>`. */
const TRANSFORM_ERROR = /^(.+):(\d+):(\d+): ERROR: (.+)$/;

/**
 * What a config module that failed to load says, in one line, and where when it says so. tsx
 * reports a syntax error as "Transform failed with 1 error:" and puts the place and the text on
 * the next line, which a first-line message lost (and the frame pointed at line 1): the config's
 * own position becomes the diagnostic's, a module it imports is named in the message.
 */
function loadError(
  error: unknown,
  configFile: string,
  root: string,
): { readonly message: string; readonly at: { readonly line?: number; readonly column?: number } } {
  const lines = error instanceof Error ? error.message.split('\n') : [String(error)];
  const detail = /^Transform failed with \d+ errors?:$/.test(lines[0]!) ? TRANSFORM_ERROR.exec(lines[1] ?? '') : null;
  if (!detail) return { message: lines[0]!, at: {} };
  const [, file, line, column, text] = detail as unknown as [string, string, string, string, string];
  // esbuild counts columns from 0; diagnostics (and SARIF, which requires it) from 1.
  const col = Number(column) + 1;
  if (resolve(file) === configFile) return { message: text, at: { line: Number(line), column: col } };
  const shown = relative(root, file);
  return { message: `${shown.startsWith('..') ? file : shown}:${line}:${col}: ${text}`, at: {} };
}

function strictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('it is not valid UTF-8 (save it as UTF-8)');
  }
}

/**
 * A deep copy of the plain objects and arrays of `value` (anything else, a RegExp permit, kept as
 * it is), so that every getter and Proxy trap of a config module runs once, here, inside the
 * caller's try: later stages read plain data.
 */
function plainData<T>(value: T, depth = 0): T {
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => plainData(item, depth + 1)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a key `__proto__` stays a key (the schema then names it unknown).
  for (const key of Object.keys(value))
    Object.defineProperty(out, key, {
      value: plainData((value as Record<string, unknown>)[key], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out as T;
}

/**
 * Finds and validates the config. Never throws: a bad config is reported as ZG1100/ZG1101 and the
 * defaults are used, so the rest of the run can still report everything else.
 */
export async function loadConfig(rootInput: string, overrides: UserConfig = {}): Promise<LoadedConfig> {
  const root = resolve(rootInput);
  const diagnostics: Diagnostic[] = [];
  let raw: unknown = {};
  let configFile: string | undefined;
  let sourceFile = 'package.json';
  // The modules a config module imports, stamped before it is imported (watch mode follows them).
  let modules: StampedModule[] = [];
  for (const name of CONFIG_FILES) {
    const candidate = join(root, name);
    if (!existsSync(candidate)) continue;
    configFile = candidate;
    sourceFile = name;
    try {
      // Decoded strictly: a byte that is not UTF-8 became U+FFFD in a path or a name, unreported.
      if (name.endsWith('.json')) raw = JSON.parse(strictUtf8(readFileSync(candidate)).replace(/^\uFEFF/, ''));
      else {
        const graph = moduleGraph(candidate, readStamped(candidate));
        modules = graph.slice(1);
        const fresh = evaluateAfresh(graph);
        if (fresh) forgetRequired(graph);
        raw = await importConfigModule(candidate, fresh);
      }
    } catch (error) {
      const { message, at } = loadError(error, candidate, root);
      diagnostics.push(
        diag('ZG1101', {
          file: name,
          message: `Could not load ${name}: ${message}`,
          // JSON.parse names an offset: the diagnostic points there, with the JSON hint.
          ...(name.endsWith('.json') && error instanceof SyntaxError ? jsonSyntaxAt(candidate, message) : at),
        }),
      );
      raw = {};
    }
    break;
  }
  if (!configFile && existsSync(join(root, 'package.json'))) {
    try {
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8').replace(/^\uFEFF/, '')) as Record<
        string,
        unknown
      >;
      if (pkg['zhin-gen'] !== undefined) {
        raw = pkg['zhin-gen'];
        configFile = join(root, 'package.json');
      }
    } catch {
      // An unparsable package.json is not ours to report; the bundler or npm will.
    }
  }
  // A config file that exports `null` or no default at all: an export the author forgot
  // (`export const config = …`) must not read as "no options" in silence.
  const loadFailed = diagnostics.length > 0;
  if ((raw === undefined || raw === null) && configFile && sourceFile !== 'package.json' && !loadFailed)
    diagnostics.push(
      diag('ZG1100', {
        file: relativeName(root, configFile),
        message: `The config must be a plain object of options; it exports ${raw === null ? 'null' : 'no default'}`,
        hint: 'Default-export the options object (`export default { out: … }`, or `export default defineConfig({ … })`).',
      }),
    );
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    // A function (`export default () => ({…})`), an array or a string: nothing of it is an option.
    diagnostics.push(
      diag('ZG1100', {
        file: relativeName(root, configFile ?? join(root, sourceFile)),
        message: `The config must be a plain object of options; ${sourceFile === 'package.json' ? 'its "zhin-gen" key holds' : 'it exports'} ${describeValue(raw)}`,
        hint: 'Default-export the options object itself (`export default { out: … }`), not a function that returns it.',
      }),
    );
    raw = {};
  }
  let input: Record<string, unknown>;
  try {
    // Copied, and through JSON's eye for anything nested: a getter or Proxy trap of the config
    // module runs here, where what it throws is the config's error, not zhin-gen's.
    input = { ...plainData(raw as object), ...overrides };
  } catch (error) {
    diagnostics.push(
      diag('ZG1101', {
        file: relativeName(root, configFile ?? join(root, sourceFile)),
        message: `Could not read the options ${sourceFile} exports: ${error instanceof Error ? error.message.split('\n')[0]! : String(error)}`,
      }),
    );
    input = { ...overrides };
  }
  if (Object.keys(input).length === 0) {
    const outFile = join(root, DEFAULT_OPTIONS.out);
    const options = {
      ...structuredClone(DEFAULT_OPTIONS),
      root,
      outFile,
      ...(configFile ? { configFile } : {}),
    } as ResolvedOptions;
    const paths = pathDiagnostics(options, 'default');
    diagnostics.push(...paths.diagnostics);
    return { options, diagnostics, modules, ...(paths.out ? { outProblem: paths.out } : {}) };
  }
  const { configSchema } = await import('./schema.js');
  const parsed = configSchema.safeParse(input);
  let options: Omit<ResolvedOptions, 'root' | 'outFile' | 'configFile'>;
  const configText = configFile ? readConfigText(root, configFile) : undefined;
  if (parsed.success) {
    options = parsed.data;
  } else {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) {
        const where = configText
          ? locateConfig(configText, path, key)
          : { file: relativeName(root, join(root, sourceFile)), line: 1, column: 1 };
        const option = [...path, ...(key !== undefined ? [key] : [])].join('.') || '(root)';
        diagnostics.push(
          diag('ZG1100', {
            ...where,
            message:
              key !== undefined
                ? `Unknown config option \`${option}\``
                : `Config option \`${option}\`: ${issueMessage(issue)}`,
            ...(key !== undefined
              ? { hint: `Known options: ${Object.keys(configSchema.shape).join(', ')} (docs/config.md).` }
              : {}),
          }),
        );
      }
    }
    // The caller's own options alone; if those are wrong too (a plugin given `out: ''`), the
    // defaults: the diagnostics above say what was wrong, never a thrown ZodError.
    const fallback = configSchema.safeParse(overrides);
    options = fallback.success ? fallback.data : configSchema.parse({});
  }
  const outFile = isAbsolute(options.out) ? options.out : join(root, options.out);
  const resolved: ResolvedOptions = { ...options, root, outFile, ...(configFile ? { configFile } : {}) };
  if (input.mcpServers !== undefined) {
    const { checkConfiguredMcpServers } = await import('./mcp-servers.js');
    const mcp = checkConfiguredMcpServers(input.mcpServers, configText, root, sourceFile);
    diagnostics.push(...mcp.diagnostics);
    Object.assign(resolved, { mcpServers: mcp.servers });
  }
  const outSource =
    overrides.out !== undefined
      ? 'caller'
      : parsed.success && typeof raw === 'object' && raw !== null && 'out' in raw
        ? 'config'
        : 'default';
  const paths = pathDiagnostics(resolved, outSource);
  diagnostics.push(...paths.diagnostics);
  return { options: resolved, diagnostics, modules, ...(paths.out ? { outProblem: paths.out } : {}) };
}

/**
 * The output path and the configured paths that end up in import specifiers (config/paths.ts).
 * The configured plugins are resolved here only for their directories; the run resolves them
 * again and reports their own problems (ZG1008).
 */
function pathDiagnostics(
  options: ResolvedOptions,
  outSource: 'config' | 'caller' | 'default',
): ReturnType<typeof checkConfigPaths> {
  const configText = options.configFile ? readConfigText(options.root, options.configFile) : undefined;
  const configuredPlugins = resolveConfiguredPlugins(options.root, options.plugins, configText).plugins;
  return checkConfigPaths({
    root: options.root,
    out: options.out,
    outFile: options.outFile,
    pluginEntry: options.pluginEntry,
    configuredPlugins,
    configText,
    outSource,
  });
}

/** What a config that is not an object is, for its diagnostic. */
function describeValue(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** A Zod issue's message; a record key's own rule (e.g. the child-plugin key pattern) over "Invalid key in record". */
function issueMessage(issue: { readonly code: string; readonly message: string; readonly issues?: unknown }): string {
  if (issue.code !== 'invalid_key' || !Array.isArray(issue.issues)) return issue.message;
  const inner = (issue.issues as { message?: unknown }[]).find((i) => typeof i.message === 'string');
  return inner ? `the key: ${inner.message as string}` : issue.message;
}

/** Where JSON.parse stopped (its "position N"), as a location with the JSON hint. */
function jsonSyntaxAt(file: string, message: string): { line: number; column: number; hint: string } | object {
  const position = /\bposition (\d+)/.exec(message);
  if (!position) return {};
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const before = text.slice(0, Number(position[1]));
  const lines = before.split('\n');
  return {
    line: lines.length,
    column: lines[lines.length - 1]!.length + 1,
    hint: 'The file is not valid JSON at this position: JSON has no comments and no trailing commas, and quotes every key with double quotes.',
  };
}
