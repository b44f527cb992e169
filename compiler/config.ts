/**
 * Configuration: `zhin-gen.config.{ts,mjs,json}` or the `zhin-gen` key of package.json,
 * validated with Zod. Every path option is resolved against one root: the project root (the
 * directory given by `--root`, or the bundler's root), never the current working directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { locateConfig, type ConfigText } from './config-locate.js';
import { diag, type Diagnostic } from './diagnostics.js';

export const CONFIG_FILES = ['zhin-gen.config.ts', 'zhin-gen.config.mjs', 'zhin-gen.config.json'] as const;

const PROVIDERS = ['anthropic', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const DEFAULT_MODULES = ['@zhin.js/tool', '@zhin.js/prompt-section', '@zhin.js/agent', 'zhin-gen/runtime'];

const childKey = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'child plugin keys match ^[a-z0-9][a-z0-9-]*$');

export const configSchema = z
  .object({
    /** Output module, relative to the root. */
    out: z.string().min(1).default('zhin-capabilities.gen.ts'),
    /** Module names whose define* helpers are recognised (replaces the default list). */
    modules: z.array(z.string().min(1)).min(1).default(DEFAULT_MODULES),
    /** Extra child plugins: instance key → directory (relative to the root) or package name. */
    plugins: z.record(childKey, z.string().min(1)).default({}),
    /** Plugin entry file names tried in each plugin directory, in order. */
    pluginEntry: z.array(z.string().min(1)).default(['plugin.ts', 'plugin.mts', 'plugin.js', 'plugin.mjs']),
    /** Custom permits tools may declare: exact names, or `/regex/` sources. */
    permits: z.array(z.string().min(1)).default([]),
    /** Known adapter names; when set, unknown `platforms` entries are warnings. */
    adapters: z.array(z.string().min(1)).optional(),
    /** Provider profiles whose limits are checked. */
    providers: z.array(z.enum(PROVIDERS)).default(['anthropic', 'openai']),
    /** Extension written in the manifest's import paths to tool modules. */
    importExtension: z.enum(['.js', '.ts', 'none']).default('.js'),
    /** Time limit for evaluating tool modules whose schema needs a bundle (ms). */
    schemaTimeoutMs: z.number().int().positive().default(10_000),
    /** Directories (relative to the root) whose symbolic links may be followed outside the root. */
    allowOutside: z.array(z.string()).default([]),
  })
  .strict();

export type UserConfig = z.input<typeof configSchema>;
export type ResolvedOptions = z.output<typeof configSchema> & {
  /** Absolute project root. */
  readonly root: string;
  /** Absolute output path. */
  readonly outFile: string;
  /** Absolute config file path, if one was found. */
  readonly configFile?: string;
};

export interface LoadedConfig {
  readonly options: ResolvedOptions;
  readonly diagnostics: readonly Diagnostic[];
}

/** Define a config with types: `export default defineConfig({ ... })`. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

async function importConfigModule(file: string): Promise<unknown> {
  const url = pathToFileURL(file).href + `?t=${Date.now()}`;
  if (file.endsWith('.ts')) {
    // tsx's loader API imports a TS module without registering a global hook.
    const { tsImport } = await import('tsx/esm/api');
    const mod = (await tsImport(url, import.meta.url)) as { default?: unknown };
    return mod.default;
  }
  const mod = (await import(url)) as { default?: unknown };
  return mod.default;
}

/** The config file's text and where the config object sits in it (for diagnostic positions). */
export function readConfigText(root: string, configFile: string): ConfigText | undefined {
  try {
    const text = readFileSync(configFile, 'utf8').replace(/^\uFEFF/, '');
    const file = relativeName(root, configFile);
    return { file, text, prefix: file === 'package.json' ? ['zhin-gen'] : [] };
  } catch {
    return undefined;
  }
}

function relativeName(root: string, file: string): string {
  return file.startsWith(root + '/') ? file.slice(root.length + 1) : file;
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
  for (const name of CONFIG_FILES) {
    const candidate = join(root, name);
    if (!existsSync(candidate)) continue;
    configFile = candidate;
    sourceFile = name;
    try {
      raw = name.endsWith('.json') ? JSON.parse(readFileSync(candidate, 'utf8').replace(/^\uFEFF/, '')) : await importConfigModule(candidate);
    } catch (error) {
      diagnostics.push(
        diag('ZG1101', { file: name, message: `Could not load ${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` }),
      );
      raw = {};
    }
    break;
  }
  if (!configFile && existsSync(join(root, 'package.json'))) {
    try {
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;
      if (pkg['zhin-gen'] !== undefined) {
        raw = pkg['zhin-gen'];
        configFile = join(root, 'package.json');
      }
    } catch {
      // An unparsable package.json is not ours to report; the bundler or npm will.
    }
  }
  if (raw === undefined || raw === null) raw = {};
  const parsed = configSchema.safeParse({ ...(typeof raw === 'object' ? raw : { invalid: raw }), ...overrides });
  let options: z.output<typeof configSchema>;
  const configText = configFile ? readConfigText(root, configFile) : undefined;
  if (parsed.success) {
    options = parsed.data;
  } else {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) {
        const where = configText ? locateConfig(configText, path, key) : { file: relativeName(root, join(root, sourceFile)), line: 1, column: 1 };
        const option = [...path, ...(key !== undefined ? [key] : [])].join('.') || '(root)';
        diagnostics.push(
          diag('ZG1100', {
            ...where,
            message: key !== undefined ? `Unknown config option \`${option}\`` : `Config option \`${option}\`: ${issue.message}`,
            ...(key !== undefined ? { hint: `Known options: ${Object.keys(configSchema.shape).join(', ')} (docs/config.md).` } : {}),
          }),
        );
      }
    }
    options = configSchema.parse(overrides);
  }
  const outFile = isAbsolute(options.out) ? options.out : join(root, options.out);
  return { options: { ...options, root, outFile, ...(configFile ? { configFile } : {}) }, diagnostics };
}
