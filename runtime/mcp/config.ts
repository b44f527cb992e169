/**
 * The MCP server list (docs/mcp.md#configuration): the same shape in code and in the zhin-gen
 * config file (`mcpServers`), keyed by server name like `deferredTools.mcpServers`. Checked here,
 * once, without the SDK: the compiler turns the problems into located diagnostics, the runtime
 * (`createMcpServers`) into one `TypeError` before anything connects.
 */
import { APPROVAL_MODES } from '../contract/define.js';
import type { ApprovalMode } from '../contract/manifest.js';

/** What every server entry may set besides its transport. */
export interface McpServerOptions {
  /**
   * One approval mode for every tool of the server. Unset: `on-risk`, informed by the tools'
   * annotations (docs/mcp.md#approval-and-annotations).
   */
  readonly approval?: ApprovalMode;
  /** Let `readOnlyHint: true` waive the `on-risk` confirmation. Default false: hints are untrusted. */
  readonly trustAnnotations?: boolean;
  /** Per request (connect, list, call), in ms. Default 30 000. */
  readonly timeoutMs?: number;
  /** Only these tools of the server (exact names). */
  readonly include?: readonly string[];
  /** Never these tools of the server (exact names). */
  readonly exclude?: readonly string[];
  /** Prepended to every tool name (`fs_` → `fs_read_file`); the server still receives its own name. */
  readonly prefix?: string;
  /** A server that cannot be reached leaves its tools out (reported) instead of rejecting the generation. */
  readonly optional?: boolean;
}

/** A server started as a child process, spoken to over stdio (`@zhin-gen/runtime/mcp-stdio`). */
export interface McpStdioServerSpec extends McpServerOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the SDK's default environment (PATH, HOME, …), not replacing it. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerSpec extends McpServerOptions {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec;

/** Server name → entry. Names are the `<server>` of `mcp:<server>` and of `discover`'s filter. */
export type McpServersConfig = Readonly<Record<string, McpServerSpec>>;

/** `shape`: not an object; `name`: a bad server name; `transport`: neither or both of command/url. */
export type McpConfigProblemKind = 'shape' | 'name' | 'transport' | 'value' | 'unknown-key';

export interface McpConfigProblem {
  readonly kind: McpConfigProblemKind;
  /** Path below `mcpServers` (`['github', 'args', 1]`); `[]` is the list itself. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Server names: provider-safe and short, since they appear in every tool's `mcp:<server>` source. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

const COMMON_KEYS = ['approval', 'trustAnnotations', 'timeoutMs', 'include', 'exclude', 'prefix', 'optional'];
const STDIO_KEYS = ['command', 'args', 'env', 'cwd', ...COMMON_KEYS];
const HTTP_KEYS = ['url', 'headers', ...COMMON_KEYS];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isStdioServer(spec: McpServerSpec): spec is McpStdioServerSpec {
  return typeof (spec as { command?: unknown }).command === 'string';
}

/** Every problem of a server list, in document order. Empty: the list is valid. */
export function checkMcpServers(value: unknown): readonly McpConfigProblem[] {
  const problems: McpConfigProblem[] = [];
  if (value === undefined) return problems;
  if (!isObject(value)) {
    return [
      { kind: 'shape', path: [], message: 'must be an object of server name → { command, args?, env? } or { url }' },
    ];
  }
  for (const [name, entry] of Object.entries(value)) {
    const at = (kind: McpConfigProblemKind, path: readonly (string | number)[], message: string) =>
      problems.push({ kind, path: [name, ...path], message });
    if (!MCP_SERVER_NAME.test(name))
      at('name', [], `server name "${name}" must match ${MCP_SERVER_NAME.source} (it becomes the source mcp:${name})`);
    if (!isObject(entry)) {
      at('shape', [], 'must be an object: { command, args?, env?, cwd? } or { url, headers? }');
      continue;
    }
    const hasCommand = 'command' in entry;
    const hasUrl = 'url' in entry;
    if (hasCommand === hasUrl) {
      at(
        'transport',
        [],
        hasCommand
          ? 'sets both `command` (stdio) and `url` (Streamable HTTP); choose one'
          : 'needs `command` (a stdio server) or `url` (a Streamable HTTP server)',
      );
    }
    const known = hasUrl && !hasCommand ? HTTP_KEYS : STDIO_KEYS;
    for (const key of Object.keys(entry)) {
      if (!known.includes(key) && !(key === 'url' && hasCommand))
        at('unknown-key', [key], `unknown option \`${key}\` (known: ${known.join(', ')})`);
    }
    checkFields(entry, (path, message) => at('value', path, message));
  }
  return problems;
}

function checkFields(
  entry: Record<string, unknown>,
  bad: (path: readonly (string | number)[], message: string) => void,
) {
  const text = (key: string) => {
    const value = entry[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === ''))
      bad([key], `\`${key}\` must be a non-empty string`);
  };
  text('command');
  text('cwd');
  if (typeof entry.url === 'string') {
    let ok = false;
    try {
      const url = new URL(entry.url);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok) bad(['url'], `\`url\` must be an http:// or https:// URL, got ${JSON.stringify(entry.url)}`);
  } else if (entry.url !== undefined) bad(['url'], '`url` must be a string');
  for (const key of ['args', 'include', 'exclude']) {
    const value = entry[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) bad([key], `\`${key}\` must be an array of strings`);
    else
      for (const [index, item] of value.entries()) if (typeof item !== 'string') bad([key, index], 'must be a string');
  }
  for (const key of ['env', 'headers']) {
    const value = entry[key];
    if (value === undefined) continue;
    if (!isObject(value)) bad([key], `\`${key}\` must be an object of name → string`);
    else
      for (const [name, item] of Object.entries(value))
        if (typeof item !== 'string') bad([key, name], 'must be a string');
  }
  if (entry.approval !== undefined && !APPROVAL_MODES.includes(entry.approval as ApprovalMode))
    bad(['approval'], `\`approval\` must be one of ${APPROVAL_MODES.join(', ')}`);
  for (const key of ['trustAnnotations', 'optional'])
    if (entry[key] !== undefined && typeof entry[key] !== 'boolean') bad([key], `\`${key}\` must be a boolean`);
  const timeout = entry.timeoutMs;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout < 1))
    bad(['timeoutMs'], '`timeoutMs` must be a positive integer (milliseconds)');
  if (entry.prefix !== undefined && (typeof entry.prefix !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(entry.prefix)))
    bad(['prefix'], '`prefix` must be 1–32 letters, digits, "_" or "-"');
}

/** The problems as one message (`mcpServers.github.args[1] must be a string; …`). */
export function describeMcpConfigProblems(problems: readonly McpConfigProblem[]): string {
  return problems
    .map((problem) => {
      const path = problem.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('');
      return `mcpServers${path}: ${problem.message}`;
    })
    .join('; ');
}
