/**
 * The CLI's commands and their options, declared once: argument parsing (strict, per command),
 * `zhin-gen <command> --help`, the top-level usage and "did you mean" all read this table, so a
 * flag cannot be accepted by the parser and missing from the help, or the other way round.
 */
import { parseArgs } from 'node:util';
import { didYouMean } from './suggest.js';

export type CommandName =
  | 'init'
  | 'new'
  | 'generate'
  | 'check'
  | 'watch'
  | 'inspect'
  | 'catalog'
  | 'migrate'
  | 'report'
  | 'mcp';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  /** Placeholder shown in usage: `--root DIR`. */
  readonly value?: string;
  readonly description: string;
}

export interface CommandSpec {
  readonly name: CommandName;
  /** One line for the command list. */
  readonly summary: string;
  /** Positional arguments as shown in the usage line (`[dir]`, `<kind> <name>`). */
  readonly positionals?: string;
  readonly maxPositionals: number;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** What `--help` adds below the options (exit codes, examples). */
  readonly details?: string;
}

const root: OptionSpec = { type: 'string', value: 'DIR', description: 'project root (default: the current directory)' };
const out: OptionSpec = {
  type: 'string',
  value: 'FILE',
  description: 'output module, relative to the root (overrides the config `out`)',
};
const json: OptionSpec = {
  type: 'boolean',
  description: 'print JSON on stdout (the documented contract), nothing else',
};

const EXIT_CODES = 'Exit codes: 0 clean, 1 error diagnostics, 64 usage error.';

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'init',
    summary: 'scaffold a working bot (never overwrites a file)',
    positionals: '[dir]',
    maxPositionals: 1,
    options: { json },
    details: `Writes package.json ("type": "module"), tsconfig.json, vite.config.ts, src/main.ts (serves one turn),
AGENTS.md, a tool, a skill with a private tool, a sub-agent and a prompt section into DIR (default: the
current directory), then generates the manifest. Existing files are kept byte for byte and listed.
Exit codes: 0 done (some files may have been skipped), 1 a file could not be written or the tree has errors, 64 usage.`,
  },
  {
    name: 'new',
    summary: 'add a tool, skill, agent or prompt section',
    positionals: '<tool|skill|agent|section> <name>',
    maxPositionals: 2,
    options: {
      agent: {
        type: 'string',
        value: 'A',
        description: 'inside agent A (tool: agent tool; skill: agent-private skill)',
      },
      skill: {
        type: 'string',
        value: 'S',
        description: 'inside skill S (tool only: a skill tool; with --agent, of that agent)',
      },
      plugin: { type: 'string', value: 'P', description: 'in child plugin P (a key, or a path of keys: maps/cn)' },
      root,
      json,
    },
    details: `Prints the qualifiedName the capability gets. Names follow the rules of the tree (tools
^[a-z0-9][a-z0-9_-]*$ without "__", everything else ^[a-z0-9][a-z0-9-]*$); an agent or skill named by
--agent/--skill must exist. Nothing is overwritten: a capability that exists is an error.
Then run \`zhin-gen generate\`.
Exit codes: 0 written, 1 it exists already or could not be written, 64 usage (kind, name, flags).`,
  },
  {
    name: 'generate',
    summary: 'write the capability manifest',
    maxPositionals: 0,
    options: { root, out, json },
    details: EXIT_CODES,
  },
  {
    name: 'check',
    summary: 'validate and compare with the file on disk (CI gate)',
    maxPositionals: 0,
    options: {
      root,
      out,
      format: { type: 'string', value: 'pretty|json|github|sarif', description: 'output format (default pretty)' },
      json: { ...json, description: 'the same as --format json' },
      load: { type: 'boolean', description: 'also import every tool, hook and prompt-section module (slow; CI)' },
      'load-timeout': {
        type: 'string',
        value: 'DURATION',
        description: 'per-module time limit with --load (default 10s; units s or ms)',
      },
    },
    details: 'Exit codes: 0 clean, 1 error diagnostics (takes precedence), 2 output missing or stale, 64 usage error.',
  },
  {
    name: 'watch',
    summary: 'regenerate on every change',
    maxPositionals: 0,
    options: {
      root,
      out,
      json: { ...json, description: 'one JSON object per run, one per line (as generate --json)' },
    },
    details: 'Stops on Ctrl+C or SIGTERM (exit 0).',
  },
  {
    name: 'inspect',
    summary: 'print the capability tree',
    maxPositionals: 0,
    options: {
      root,
      out,
      format: { type: 'string', value: 'pretty|json', description: 'output format (default pretty)' },
      json: { ...json, description: 'the same as --format json' },
    },
    details: EXIT_CODES,
  },
  {
    name: 'catalog',
    summary: 'what the model sees in one turn, and why the rest is left out',
    maxPositionals: 0,
    options: {
      root,
      platform: { type: 'string', value: 'P', description: 'the adapter of the turn (required)' },
      scope: { type: 'string', value: 'S', description: 'private, group or channel (required)' },
      user: { type: 'string', value: 'U', description: 'sender id (default catalog-user)' },
      role: { type: 'string', multiple: true, value: 'R', description: 'sender role (repeatable)' },
      agent: { type: 'string', value: 'A', description: 'select agent A' },
      skill: { type: 'string', multiple: true, value: 'S', description: 'load_skill S (repeatable, in order)' },
      provider: {
        type: 'string',
        value: 'anthropic|openai|generic',
        description: 'provider projection (default anthropic)',
      },
      format: { type: 'string', value: 'pretty|json', description: 'output format (default pretty)' },
      json: { ...json, description: 'the same as --format json' },
    },
    details: 'Exit codes: 0 listed, 1 tree errors, an unknown --agent or --skill, 64 usage error.',
  },
  {
    name: 'mcp',
    summary: "serve the bot's catalog to an MCP client over stdio (development)",
    maxPositionals: 0,
    options: {
      root,
      out,
      platform: { type: 'string', value: 'P', description: 'the session principal: adapter P (with --scope)' },
      scope: { type: 'string', value: 'S', description: 'the session principal: private, group or channel' },
      user: { type: 'string', value: 'U', description: 'the session principal: sender id (default mcp-user)' },
      role: {
        type: 'string',
        multiple: true,
        value: 'R',
        description: 'the session principal: sender role (repeatable)',
      },
      agent: { type: 'string', value: 'A', description: 'select agent A in every turn' },
      session: { type: 'string', value: 'KEY', description: 'session key (loaded tools, once approvals)' },
      'all-tools': { type: 'boolean', description: 'list every admitted tool at once (no deferred catalog)' },
    },
    details: `Generates the manifest (as generate does), imports it and the tool modules, and serves them over
stdin/stdout: tools/list is what the session's turn admits, tools/call runs turn.execute. Without
--platform/--scope the session is anonymous: only tools without platforms, scopes or permissions.
Approval and ask_user use MCP elicitation when the client supports it, and are denied otherwise.
Servers in the config's mcpServers join the catalog. Diagnostics and notices go to stderr.
Exit codes: 0 the client closed the session, 1 tree errors or a generation that does not load, 64 usage error.`,
  },
  {
    name: 'report',
    summary: 'write the capability report page (one self-contained HTML file)',
    maxPositionals: 0,
    options: {
      root,
      out: {
        type: 'string',
        value: 'FILE',
        description: 'the page, relative to the root (default zhin-gen-report.html)',
      },
      platform: {
        type: 'string',
        multiple: true,
        value: 'P',
        description: 'an access-matrix platform (repeatable; default every platform the tree names)',
      },
      scope: {
        type: 'string',
        multiple: true,
        value: 'S',
        description: 'an access-matrix scope (repeatable; default private, group, channel)',
      },
      role: {
        type: 'string',
        multiple: true,
        value: 'R',
        description: 'an access-matrix sender role (repeatable; default user, trusted, master)',
      },
      json: { ...json, description: 'print { out, bytes, tools, principals, errors, warnings, runtime, ms }' },
    },
    details: `The page opens from disk and makes no network request: the owner tree with diagnostics and code
frames, disclosure stages, the access matrix, schemas as forms with sizes and token estimates, the
prompt budget. It is written also when the tree has errors (they are on the page).
Exit codes: 0 written, 1 the tree has errors (the page is written), 64 usage error.`,
  },
  {
    name: 'migrate',
    summary: "convert a tree from zhin.js's earlier layout (prints the plan; --write applies it)",
    maxPositionals: 0,
    options: {
      root,
      write: { type: 'boolean', description: 'apply the plan, then compile and print what is left' },
      json: { ...json, description: 'print the plan (and, with --write, the diagnostics left) as JSON' },
    },
    details: `Without --write nothing is written: every move, every edit as a unified diff, the files it creates
(stubs marked as such), the runtime names it must change, and what it cannot convert, each with file:line.
With --write each file is replaced atomically; a failure restores every file already written. Runtime
names are kept; a tree already in zhin-gen's layout is left byte for byte (a second run changes nothing).
Exit codes: 0 nothing left (or only warnings), 1 something it cannot convert or compile errors after
--write, 64 usage error.`,
  },
];

export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);
/** Words `zhin-gen` accepts in the command position besides commands. */
export const META_COMMANDS: readonly string[] = ['help', 'version'];

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

function optionUsage(name: string, spec: OptionSpec): string {
  return `--${name}${spec.value ? ` ${spec.value}` : ''}${spec.multiple ? '...' : ''}`;
}

/** `Usage: zhin-gen check [--root DIR] ...` */
export function commandSynopsis(spec: CommandSpec): string {
  const options = Object.entries(spec.options).map(([name, o]) => `[${optionUsage(name, o)}]`);
  return `Usage: ${[`zhin-gen ${spec.name}`, spec.positionals ?? '', ...options].filter(Boolean).join(' ')}`;
}

export function commandUsage(spec: CommandSpec): string {
  const options = Object.entries(spec.options);
  const rows = [
    ...options.map(([name, o]) => [optionUsage(name, o), o.description] as const),
    ['-h, --help', 'show this help'] as const,
  ];
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = [
    commandSynopsis(spec),
    '',
    `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`,
    '',
    'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
  ];
  if (spec.details) lines.push('', spec.details);
  return lines.join('\n');
}

export function mainUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 3;
  return [
    'Usage: zhin-gen <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'zhin-gen <command> --help   options of one command',
    'zhin-gen --version          the installed version',
    '',
    'Exit codes: 0 clean, 1 error diagnostics, 2 output missing or stale (check), 64 usage error.',
  ].join('\n');
}

export type ParsedValues = Record<string, string | boolean | string[] | undefined>;

export type Parsed =
  | {
      readonly ok: true;
      readonly values: ParsedValues;
      readonly positionals: readonly string[];
      readonly help: boolean;
    }
  | { readonly ok: false; readonly message: string };

/** The commands (other than `spec`) that have an option of this name. */
function ownersOf(option: string, spec: CommandSpec): string[] {
  return COMMANDS.filter((c) => c !== spec && option in c.options).map((c) => c.name);
}

/**
 * Parses one command's arguments. Unknown options are reported with the nearest option of the
 * command ("did you mean --root?") or, for an option of another command, which command has it.
 */
export function parseCommand(spec: CommandSpec, args: readonly string[]): Parsed {
  const options = { ...spec.options, help: { type: 'boolean', description: '' } } as Record<string, OptionSpec>;
  const config = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(name === 'help' ? { short: 'h' } : {}) },
    ]),
  );
  // A loose pass first, for tokens: which options were given, spelled how.
  const loose = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });
  // --help wins over everything else on the line, mistakes included: it is what one asks after one.
  // Also where an option that takes a value took it (`--root --help`): no one means a root named --help.
  const end = args.indexOf('--');
  const asked = (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
  if (asked || loose.tokens.some((token) => token.kind === 'option' && token.name === 'help'))
    return { ok: true, values: {}, positionals: [], help: true };
  for (const token of loose.tokens) {
    if (token.kind !== 'option' || token.name in options) continue;
    const written = token.rawName;
    const owners = ownersOf(token.name, spec);
    const where =
      owners.length > 0
        ? ` (${written.replace(/=.*/, '')} is an option of ${owners.join(', ')})`
        : didYouMean(token.name, Object.keys(options), (s) => `--${s}`);
    return { ok: false, message: `unknown option ${written} for ${spec.name}${where}` };
  }
  // A value-taking option without its value, in the CLI's words (parseArgs' are three lines of its own).
  for (const token of loose.tokens) {
    if (token.kind !== 'option') continue;
    if (options[token.name]?.type === 'boolean' && token.value !== undefined)
      return { ok: false, message: `${token.rawName} takes no value (got ${token.rawName}=${token.value})` };
    if (options[token.name]?.type !== 'string') continue;
    // `--out "$OUT"` with OUT unset: never a silent default (the current directory, the configured output).
    if (token.value === '')
      return {
        ok: false,
        message: `${token.rawName} is empty (an unset variable?): it takes ${options[token.name]!.value ?? 'a value'}`,
      };
    if (token.inlineValue) continue;
    if (token.value === undefined) return { ok: false, message: `${token.rawName} needs a value` };
    if (token.value.startsWith('-'))
      return {
        ok: false,
        message: `${token.rawName} needs a value, and "${token.value}" after it is not one (write ${token.rawName}=${token.value} if it is)`,
      };
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: config,
      strict: true,
      allowPositionals: true,
    });
    const { help: _help, ...rest } = values as ParsedValues;
    if (positionals.length > spec.maxPositionals) {
      const extra = positionals[spec.maxPositionals]!;
      return {
        ok: false,
        message: `unexpected argument "${extra}" for ${spec.name}${spec.positionals ? ` (usage: zhin-gen ${spec.name} ${spec.positionals})` : ' (it takes no arguments)'}`,
      };
    }
    return { ok: true, values: rest, positionals, help: false };
  } catch (error) {
    // Anything else parseArgs refuses, in its own words.
    return { ok: false, message: error instanceof Error ? error.message.replace(/\.$/, '') : String(error) };
  }
}
