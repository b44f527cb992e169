/**
 * `deferredTools` configuration (docs/catalog.md), read from
 * the host config section of that name. Validated when a generation is prepared, so a bad value
 * rejects the candidate instead of failing turns later.
 */
import { ASK_USER, DISCOVER, LOAD_SKILL, LOAD_TOOL, SPAWN_TASK } from '../contract/names.js';

export interface DeferredToolsConfig {
  /** Most tools loaded per session (always-loaded and pinned tools not counted). Default 12. */
  readonly maxLoadedPerSession?: number;
  /** Results returned by `discover`. Default 5. */
  readonly discoverTopK?: number;
  /** Always visible to the model; a configured list replaces the default entirely. */
  readonly alwaysLoadedTools?: readonly string[];
  /** Per MCP server: replaces `alwaysLoadedTools` for that server's tools (`'*'` = all of them). */
  readonly mcpServers?: Readonly<Record<string, { readonly alwaysLoaded?: readonly string[] }>>;
}

export interface ResolvedDeferredConfig {
  readonly maxLoadedPerSession: number;
  readonly discoverTopK: number;
  readonly alwaysLoadedTools: ReadonlySet<string>;
  readonly mcpServers: ReadonlyMap<string, ReadonlySet<string>>;
}

export const DEFAULT_ALWAYS_LOADED_TOOLS: readonly string[] = Object.freeze([
  ASK_USER,
  SPAWN_TASK,
  DISCOVER,
  LOAD_TOOL,
  LOAD_SKILL,
]);
export const DEFAULT_MAX_LOADED_PER_SESSION = 12;
export const DEFAULT_DISCOVER_TOP_K = 5;

function fail(path: string, rule: string): never {
  throw new TypeError(`config.deferredTools${path} ${rule}`);
}

function names(value: unknown, path: string): ReadonlySet<string> {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item !== '')) {
    fail(path, 'must be an array of non-empty tool names');
  }
  return new Set(value as string[]);
}

function integer(value: unknown, path: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    fail(path, `must be an integer ≥ ${min}`);
  return value;
}

/** Reads `config.deferredTools` (unknown shape: it comes from the host's own config). */
export function resolveDeferredConfig(section: unknown): ResolvedDeferredConfig {
  if (section === undefined || section === null) section = {};
  if (typeof section !== 'object' || Array.isArray(section)) fail('', 'must be an object');
  const raw = section as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!['maxLoadedPerSession', 'discoverTopK', 'alwaysLoadedTools', 'mcpServers'].includes(key))
      fail(`.${key}`, 'is not a known option');
  }
  const mcpServers = new Map<string, ReadonlySet<string>>();
  if (raw.mcpServers !== undefined) {
    if (typeof raw.mcpServers !== 'object' || raw.mcpServers === null || Array.isArray(raw.mcpServers))
      fail('.mcpServers', 'must be an object');
    for (const [server, entry] of Object.entries(raw.mcpServers as Record<string, unknown>)) {
      if (typeof entry !== 'object' || entry === null) fail(`.mcpServers.${server}`, 'must be an object');
      mcpServers.set(
        server,
        names((entry as { alwaysLoaded?: unknown }).alwaysLoaded ?? [], `.mcpServers.${server}.alwaysLoaded`),
      );
    }
  }
  return Object.freeze({
    maxLoadedPerSession: integer(raw.maxLoadedPerSession, '.maxLoadedPerSession', 0, DEFAULT_MAX_LOADED_PER_SESSION),
    discoverTopK: integer(raw.discoverTopK, '.discoverTopK', 1, DEFAULT_DISCOVER_TOP_K),
    alwaysLoadedTools:
      raw.alwaysLoadedTools === undefined
        ? new Set(DEFAULT_ALWAYS_LOADED_TOOLS)
        : names(raw.alwaysLoadedTools, '.alwaysLoadedTools'),
    mcpServers,
  });
}

/** The MCP override: a server with an entry uses only its own list (`'*'` = every tool of it). */
export function isAlwaysLoaded(config: ResolvedDeferredConfig, name: string, mcpServer: string | undefined): boolean {
  const server = mcpServer === undefined ? undefined : config.mcpServers.get(mcpServer);
  if (server) return server.has(name) || server.has('*');
  return config.alwaysLoadedTools.has(name);
}
