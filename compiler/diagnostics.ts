/**
 * The one catalog of diagnostics. Every problem the compiler can report has a stable code, a
 * severity and a hint here; stages create diagnostics only through `diag()` so a code can never
 * be reported without its hint. Ranges (docs/diagnostics.md): ZG1xxx scan/layout/config, ZG2xxx definitions
 * and schemas, ZG3xxx names and conflicts, ZG4xxx manifests, ZG5xxx provider profiles, ZG9xxx
 * internal. `docs/diagnostics.md` is checked against this table by a test.
 */

import { APPROVAL_MODES, CHANNEL_SCOPES, DEFAULT_APPROVAL_MODE, HOOK_EVENTS } from '@zhin-gen/runtime/define';
import { MAX_DESCRIPTION_CHARS, NAME_SEGMENT, PROVIDER_SAFE_NAME, TOOL_LOCAL_NAME } from '@zhin-gen/runtime/names';

// Hints state the rules from their one definition (runtime/contract/names.ts, enums.ts).
const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`);

export type Severity = 'error' | 'warning';

export interface SourceLocation {
  /** POSIX path relative to the project root. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

export interface RelatedLocation extends SourceLocation {
  readonly message: string;
}

export interface Diagnostic extends SourceLocation {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
}

interface CatalogEntry {
  readonly severity: Severity;
  readonly title: string;
  readonly hint: string;
}

export const CATALOG = {
  // ── ZG1xxx scan, layout, config ─────────────────────────────────────────────
  ZG1001: {
    severity: 'error',
    title: 'Invalid tool directory name',
    hint: `Tool directories match ${TOOL_LOCAL_NAME.source} (lowercase letters, digits, "_" and "-") and never contain "__". Rename the directory.`,
  },
  ZG1002: {
    severity: 'error',
    title: 'Invalid capability directory name',
    hint: `Agent, skill, prompt-section, hook and child-plugin directories match ${NAME_SEGMENT.source}. Rename the directory.`,
  },
  ZG1003: {
    severity: 'error',
    title: 'Capability directory without entry file',
    hint: 'Add index.ts (or index.mts / index.js / index.mjs) for tools, prompt sections and hooks, SKILL.md for skills, agent.json for agents; or remove the directory.',
  },
  ZG1004: {
    severity: 'warning',
    title: 'Unexpected entry in an agent directory',
    hint: 'An agent directory holds agent.json, system.md, boundaries.md, conventions.md and the optional workflows/, tools/, skills/, hooks/, knowledge/ folders. Move or remove anything else.',
  },
  ZG1005: {
    severity: 'warning',
    title: 'Link not followed',
    hint: 'Symbolic links that loop or lead outside the project root are not followed. Name the target in the config (plugins) if it belongs to the tree.',
  },
  ZG1006: {
    severity: 'error',
    title: 'Unreadable file',
    hint: 'Check the file permissions and that it is valid UTF-8 text.',
  },
  ZG1007: {
    severity: 'warning',
    title: 'Capability entry reaches into plugin internals',
    hint: 'A leaf index.ts declares the capability and calls modules in its own folder. Move shared code into the skill or agent root (e.g. skills/<skill>/handlers.ts) or expose it as a stable package API.',
  },
  ZG1008: {
    severity: 'error',
    title: 'Configured child plugin not found',
    hint: 'The config `plugins` maps an instance key to a directory (relative to the root) or an installed package. Fix the path or install the package.',
  },
  ZG1009: {
    severity: 'warning',
    title: 'Stray file in a convention folder',
    hint: 'Convention folders (tools/, skills/, agents/, hooks/, prompt-sections/, plugins/) contain one directory per capability. Move the file into a capability directory.',
  },
  // ZG1050–ZG1062: constructs of zhin.js's earlier authoring layout (docs/authoring.md
  // "Coming from the earlier zhin.js layout"). Each one is a capability the author wrote that
  // zhin-gen does not compile as it stands, so each is an error: a tree that still has one must
  // not pass `check` with the capability missing from its manifest.
  ZG1050: {
    severity: 'error',
    title: 'Tool in the earlier agent/ folder',
    hint: 'zhin-gen reads tools from tools/<name>/index.ts; the plugin-level agent/ folder of the earlier zhin.js layout is not compiled. Run `zhin-gen migrate` (add --write to apply): it moves agent/tools/<name>.ts to tools/<name>/index.ts, keeps the tool name, and rewrites its relative imports (imports into src/ then remain ZG1007 warnings to move by hand).',
  },
  ZG1051: {
    severity: 'error',
    title: 'Skill in the earlier agent/ folder',
    hint: 'zhin-gen reads skills from skills/<name>/SKILL.md. Run `zhin-gen migrate` (add --write to apply): it moves agent/skills/<name>.md to skills/<name>/SKILL.md.',
  },
  ZG1052: {
    severity: 'error',
    title: 'Agent module in the earlier agent/ folder',
    hint: 'zhin-gen reads the main agent from AGENTS.md and sub-agents from agents/<name>/ (agent.json, system.md, boundaries.md, conventions.md). Run `zhin-gen migrate` (add --write to apply): it converts agent/agent.ts and reports what it cannot carry over.',
  },
  ZG1053: {
    severity: 'error',
    title: 'Prompt section in the earlier layout',
    hint: 'zhin-gen reads prompt sections from prompt-sections/<name>/index.ts. Run `zhin-gen migrate` (add --write to apply): it moves the file and maps id / priority / truncatable to the directory name, order and retention.',
  },
  ZG1054: {
    severity: 'warning',
    title: 'File in the earlier agent/ folder',
    hint: 'The plugin-level agent/ folder of the earlier zhin.js layout is not compiled, and this file is not a tool, skill, agent or prompt section there (a helper module, notes). `zhin-gen migrate` converts the capabilities beside it; move or delete the file by hand once nothing imports it.',
  },
  ZG1055: {
    severity: 'error',
    title: 'Flat tool file (earlier layout)',
    hint: 'zhin-gen reads a tool from its own directory: tools/<name>/index.ts. Run `zhin-gen migrate` (add --write to apply): it moves tools/<name>.ts to tools/<name>/index.ts and keeps the tool name.',
  },
  ZG1056: {
    severity: 'error',
    title: 'Markdown tool (<name>.tool.md + handler.ts)',
    hint: 'zhin-gen reads tools defined in code: tools/<name>/index.ts default-exporting defineAgentTool({ description, inputSchema, execute }). Run `zhin-gen migrate` (add --write to apply): it writes index.ts from the .tool.md front matter and the handler.',
  },
  ZG1057: {
    severity: 'error',
    title: 'Markdown agent (agents/<name>.agent.md)',
    hint: 'zhin-gen reads a sub-agent from agents/<name>/ (agent.json, system.md, boundaries.md, conventions.md). Run `zhin-gen migrate` (add --write to apply): it maps the front matter to agent.json keys, the body to system.md, and creates marked stubs for the files it has no source for.',
  },
  ZG1058: {
    severity: 'error',
    title: 'Agent as agent.ts + instructions.md (earlier layout)',
    hint: 'zhin-gen reads a sub-agent from agent.json, system.md, boundaries.md and conventions.md in agents/<name>/. Run `zhin-gen migrate` (add --write to apply): it converts agent.ts to agent.json, instructions.md to system.md, and creates marked stubs for the rest.',
  },
  ZG1059: {
    severity: 'error',
    title: 'Flat skill file (earlier layout)',
    hint: 'zhin-gen reads a skill from skills/<name>/SKILL.md. Run `zhin-gen migrate` (add --write to apply): it moves skills/<name>.md to skills/<name>/SKILL.md.',
  },
  ZG1060: {
    severity: 'error',
    title: 'Installed plugin manifest cannot be read',
    hint: 'A package named in `plugins` that exports "./zhin-capabilities" ships its generated manifest; that module must import without throwing and export `manifest` (version 1). Rebuild the package (zhin-gen generate, then its build), or name a directory instead.',
  },
  ZG1080: {
    severity: 'error',
    title: 'Invalid skill name',
    hint: 'Skill names follow the Agent Skills specification: ^[a-z0-9][a-z0-9-]*$, at most 64 characters, no "--" and no "-" at the end. Rename the skill directory and the `name` in its SKILL.md.',
  },
  ZG1100: {
    severity: 'error',
    title: 'Invalid configuration',
    hint: 'Fix the zhin-gen config (zhin-gen.config.{ts,mjs,json} or the "zhin-gen" key of package.json); see docs/config.md for every option.',
  },
  ZG1101: {
    severity: 'error',
    title: 'Configuration could not be loaded',
    hint: 'The config module threw or has a syntax error. Run it with node to see the cause; it must default-export a plain object.',
  },
  ZG1102: {
    severity: 'error',
    title: 'Output path is an input of the tree',
    hint: 'The output may not be, or lie inside, anything the scan reads: a convention folder (tools/, skills/, agents/, hooks/, prompt-sections/, plugins/) of any plugin, a plugin entry, AGENTS.md, the config file or package.json. Point `out` elsewhere, e.g. the default zhin-capabilities.gen.ts or src/zhin-capabilities.gen.ts.',
  },
  ZG1103: {
    severity: 'error',
    title: 'Output would replace a file zhin-gen did not write',
    hint: 'The file at `out` exists and does not start with the "// Generated by zhin-gen." header, so it is yours. Choose another `out`, or delete the file if it really is an old manifest.',
  },
  ZG1104: {
    severity: 'error',
    title: 'Output path cannot be written',
    hint: '`out` must name a file whose directory exists or can be created: not an existing directory, not a path below a regular file, on the same drive as the root. Fix `out` (or the file system).',
  },
  ZG1105: {
    severity: 'error',
    title: 'Output is not a TypeScript module',
    hint: 'The manifest is TypeScript (`import type`, annotations): `out` ends in .ts, .mts or .cts (not a .d.ts declaration file).',
  },
  ZG1106: {
    severity: 'error',
    title: 'Path cannot be written in an import specifier',
    hint: 'Import specifiers are URLs to Node and file names to tsc and bundlers, so a path with #, ?, %, \\ or a control character cannot be imported the same way by both. Rename the directory (or choose another `out`).',
  },

  // ── ZG2xxx definitions and schemas ──────────────────────────────────────────
  ZG2001: {
    severity: 'error',
    title: 'Syntax error',
    hint: 'Fix the TypeScript/JavaScript syntax error; the capability cannot be read until the file parses.',
  },
  ZG2002: {
    severity: 'error',
    title: 'Missing definition export',
    hint: 'Default-export the definition: `export default defineAgentTool({ ... })` (defineAgentPromptSection / defineAgentHook for sections and hooks).',
  },
  ZG2003: {
    severity: 'error',
    title: 'Definition helper from an unrecognised module',
    hint: 'Import the define* helper (defineAgentTool, defineAgentPromptSection, defineAgentHook) from "@zhin-gen/runtime" (or "@zhin.js/tool", "@zhin.js/prompt-section" in a tree written for zhin.js), or add its module to the config `modules` option.',
  },
  ZG2004: {
    severity: 'error',
    title: 'Missing or empty description',
    hint: 'Give the tool a `description` string: it is what the model reads to decide when to call it.',
  },
  ZG2005: {
    severity: 'error',
    title: 'Field has the wrong type',
    hint: 'Use the type the field expects (see docs/authoring.md); literal values let zhin-gen check them at build time.',
  },
  ZG2006: {
    severity: 'error',
    title: 'Unknown approval mode',
    hint: `\`requiresApproval\` is one of ${quoted(APPROVAL_MODES).join(', ')} (default '${DEFAULT_APPROVAL_MODE}').`,
  },
  ZG2007: {
    severity: 'error',
    title: 'Unknown scope',
    hint: `\`scopes\` entries are ${quoted(CHANNEL_SCOPES.slice(0, -1)).join(', ')} or ${quoted(CHANNEL_SCOPES.slice(-1))}; leave it out to allow every scope.`,
  },
  ZG2008: {
    severity: 'error',
    title: 'Permit can never pass',
    hint: 'Permits are adapter(…), group(…), private(…), channel(…), user(…), role(…), platform(adapter,perm) or a custom permit declared in the config `permits` option. Kinds are lowercase with no space before "(".',
  },
  ZG2009: {
    severity: 'error',
    title: 'Missing execute',
    hint: 'A tool needs `execute(input, context)`: the function that runs when the model calls it.',
  },
  ZG2010: {
    severity: 'warning',
    title: 'Unknown definition field',
    hint: 'The field is ignored. Check the spelling against docs/authoring.md.',
  },
  ZG2011: {
    severity: 'warning',
    title: 'Field is not statically known',
    hint: 'Write the value as a literal so it can be checked at build time; it is still checked at runtime.',
  },
  ZG2020: {
    severity: 'error',
    title: 'Input schema root is not an object',
    hint: 'The input schema must be a Zod object (z.object({...})) or a JSON Schema with type: "object".',
  },
  ZG2021: {
    severity: 'error',
    title: 'Schema type cannot be represented in JSON Schema',
    hint: 'Replace the property (e.g. z.date(), z.bigint(), z.function(), transforms) with a JSON-representable type such as z.string().datetime() or z.number().',
  },
  ZG2022: {
    severity: 'error',
    title: 'Invalid JSON Schema',
    hint: 'The JSON Schema does not satisfy the draft 2020-12 meta-schema; fix the keyword named in the message.',
  },
  ZG2023: {
    severity: 'error',
    title: 'Schema could not be evaluated',
    hint: 'Evaluating the tool module threw or timed out. Keep module top level free of side effects and make inputSchema a plain Zod or JSON Schema value.',
  },
  ZG2024: {
    severity: 'error',
    title: 'Code nested too deeply',
    hint: 'zhin-gen reads definitions without running them and stops where code nests deeper than any real module does (256 levels of brackets, 1,000 syntax levels), instead of overflowing the stack. Flatten the value: name parts of it as consts, or build it in a function the module calls.',
  },
  ZG2030: {
    severity: 'error',
    title: 'Invalid prompt section field',
    hint: 'See docs/authoring.md#prompt-sections: title and content are strings, layer/retention/profiles use the listed values, order and maxChars are safe integers.',
  },
  ZG2031: {
    severity: 'error',
    title: 'Required prompt section exceeds its maxChars',
    hint: 'A required section is never truncated: raise maxChars, shorten the content, or make the section preferred.',
  },
  ZG2032: {
    severity: 'warning',
    title: 'Unknown platform',
    hint: 'The platform is not in the config `adapters` list, so it can never match a turn. Fix the spelling or add the adapter to the config.',
  },
  ZG2040: {
    severity: 'error',
    title: 'Invalid hook definition',
    hint: `A hook default-exports defineAgentHook({ events: [${quoted(HOOK_EVENTS).join(' | ')}, ...], handle(event) { ... } }).`,
  },
  ZG2050: {
    severity: 'warning',
    title: 'Conditional tool with a computed name',
    hint: 'context.addTool() with a non-literal name cannot take part in build-time conflict checks; use a string literal.',
  },
  ZG2051: {
    severity: 'error',
    title: 'Module fails to load',
    hint: 'Importing the module throws (or ends the process), so the bot fails the first time it is used. Run it with `npx tsx <file>` in the environment the bot has; keep top-level code free of side effects that can fail (read environment variables inside execute(), not at import).',
  },
  ZG2052: {
    severity: 'error',
    title: 'Module hangs while loading',
    hint: 'Its top-level code never finishes (a top-level await that never settles, a network call, a busy loop), so the first call never returns. Move waits and I/O into execute(), or start them lazily.',
  },
  ZG2053: {
    severity: 'error',
    title: 'Loaded default export is not a definition',
    hint: 'At runtime the default export must be the value the define* helper returns (defineAgentTool / defineAgentHook / defineAgentPromptSection); the runtime rejects anything else.',
  },
  ZG2054: {
    severity: 'error',
    title: 'Loaded definition differs from the manifest',
    hint: 'The manifest was built from a static read of the definition; the module computes a different value when it loads. Write the field as a literal (or a same-file const of literals) so both agree.',
  },
  ZG2055: {
    severity: 'error',
    title: 'Load verification could not run',
    hint: 'The child process that imports the modules (node with tsx) could not start. Check that tsx is installed (zhin-gen depends on it) and that `node --import tsx` works in the project root.',
  },
  ZG2056: {
    severity: 'error',
    title: '`approval` is the earlier name of `requiresApproval`',
    hint: "Rename the field to `requiresApproval` ('never' | 'on-risk' | 'once' | 'always'); `zhin-gen migrate` does it. It is an error, not an ignored field: dropping it would silently turn the tool into 'on-risk'.",
  },
  ZG2057: {
    severity: 'error',
    title: 'platformPermit() helper of the earlier layout',
    hint: "Write the permit as the string literal it returns, e.g. 'platform(icqq,admin)', so it is checked at build time and recorded in the manifest; `zhin-gen migrate` does it. It is an error: a permit the compiler cannot read is missing from the manifest, which would widen who may call the tool.",
  },
  ZG2058: {
    severity: 'error',
    title: 'Definition helper of the earlier layout',
    hint: "Import defineAgentTool from '@zhin.js/tool' (or '@zhin-gen/runtime') instead of defineTool from '@zhin.js/agent/tools'; the fields are the same. `zhin-gen migrate` rewrites the import and the call.",
  },
  ZG2059: {
    severity: 'error',
    title: 'Prompt section field of the earlier layout',
    hint: "zhin-gen identifies a section by its directory and orders it with `order`: `id` becomes the directory name, `priority` becomes `order`, `truncatable: false` becomes retention 'required' (true: 'preferred'). `zhin-gen migrate` does it. An error, because dropping `truncatable: false` would let a required section be cut.",
  },
  // ZG2080–ZG2082: SKILL.md keys the Agent Skills specification constrains (docs/authoring.md "Keys").
  ZG2080: {
    severity: 'error',
    title: 'Skill compatibility note too long',
    hint: 'The Agent Skills specification limits `compatibility` to 500 characters: name the products, system packages or network access the skill needs and move the details into its instructions.',
  },
  ZG2081: {
    severity: 'warning',
    title: '`allowed-tools` is not a space-separated string',
    hint: 'The Agent Skills specification writes `allowed-tools` as one space-separated string (`allowed-tools: Bash(git:*) Read`). zhin-gen reads the YAML list, but other agents may not.',
  },
  ZG2082: {
    severity: 'warning',
    title: 'Skill metadata value is not a string',
    hint: 'The Agent Skills specification makes `metadata` a map of string keys to string values: quote the value (`version: "2"`) or flatten it. zhin-gen passes it through as written.',
  },

  // ── ZG3xxx names and conflicts ──────────────────────────────────────────────
  ZG3001: {
    severity: 'error',
    title: 'Duplicate tool name',
    hint: 'Two tools resolve to the same qualifiedName. Rename one directory (or the addTool name); names are never silently overridden.',
  },
  ZG3002: {
    severity: 'error',
    title: 'Names collide after case folding',
    hint: 'Names equal up to letter case collide on case-insensitive file systems and confuse models. Rename one of them.',
  },
  ZG3003: {
    severity: 'error',
    title: 'Reserved name',
    hint: 'discover, load_tool, load_skill, ask_user and spawn_task are provided by the runtime. Rename the capability.',
  },
  ZG3004: {
    severity: 'error',
    title: 'Name is not provider-safe',
    hint: `Tool names sent to model providers match ${PROVIDER_SAFE_NAME.source}. Shorten the directory names or the child-plugin keys.`,
  },
  ZG3005: {
    severity: 'error',
    title: 'Local name contains "__"',
    hint: '"__" separates owner segments in qualifiedNames. Use a single "_" or "-" instead.',
  },
  ZG3006: {
    severity: 'error',
    title: 'Unknown tool reference',
    hint: 'The referenced name is not the qualifiedName of a public (plugin-placed) tool. Run `zhin-gen inspect` to list the names; a tool the host provides at run time (a framework built-in, an installed package, a seam provider) is declared in the config `hostProvided.tools` (docs/config.md).',
  },
  ZG3007: {
    severity: 'error',
    title: 'Two platform agents for one platform',
    hint: 'Only one agent may be auto-selected per platform. Merge their responsibilities or remove the platform from one agent.json.',
  },
  ZG3008: {
    severity: 'error',
    title: 'Duplicate skill name',
    hint: 'Two skills resolve to the same qualifiedName. Rename one skill directory.',
  },
  ZG3009: {
    severity: 'error',
    title: 'Duplicate agent name',
    hint: 'Two agents resolve to the same qualifiedName. Rename one agent directory.',
  },
  ZG3010: {
    severity: 'error',
    title: 'Duplicate prompt section or hook',
    hint: 'Prompt sections and hooks are identified by owner and directory name; rename one of them.',
  },
  ZG3011: {
    severity: 'error',
    title: 'Invalid setup() name',
    hint: `host.load() rejects it when setup() runs: context.addTool() names match ${TOOL_LOCAL_NAME.source} and context.addPromptSection() names match ${NAME_SEGMENT.source} (lowercase, like directory names).`,
  },

  // ── ZG4xxx manifests: SKILL.md, agent.json, AGENTS.md ───────────────────────
  ZG4001: {
    severity: 'error',
    title: 'SKILL.md front matter missing or invalid',
    hint: 'SKILL.md starts with a YAML front matter block between "---" lines holding at least name and description.',
  },
  ZG4002: {
    severity: 'error',
    title: 'Name does not match its directory',
    hint: 'The `name` must equal the directory name (or be left out for agents).',
  },
  ZG4003: {
    severity: 'error',
    title: 'Description missing or out of range',
    hint: `Give a description of 1 to ${MAX_DESCRIPTION_CHARS} characters.`,
  },
  ZG4004: {
    severity: 'warning',
    title: 'Unknown manifest key',
    hint: 'The key is ignored. Check the spelling against docs/authoring.md.',
  },
  ZG4005: {
    severity: 'warning',
    title: 'SKILL.md has no instructions',
    hint: "Write the skill instructions as Markdown below the front matter; they are what load_skill returns. An empty body is allowed (the Agent Skills specification's smallest skill has none), but load_skill then returns no instructions.",
  },
  ZG4006: {
    severity: 'error',
    title: 'Manifest key has the wrong type',
    hint: 'Use the type documented for the key (see docs/authoring.md).',
  },
  ZG4010: {
    severity: 'error',
    title: 'agent.json is not valid JSON',
    hint: 'Fix the JSON syntax at the reported position (no comments or trailing commas).',
  },
  ZG4011: {
    severity: 'error',
    title: 'Value nested too deeply',
    hint: 'agent.json and SKILL.md front matter hold names, lists of names and numbers; zhin-gen stops reading a value nested more than 256 levels deep instead of overflowing the stack. Flatten the value.',
  },
  ZG4014: {
    severity: 'error',
    title: 'Required agent file missing',
    hint: 'A sub-agent directory needs agent.json, system.md, boundaries.md and conventions.md.',
  },
  ZG4015: {
    severity: 'error',
    title: 'Required agent file is empty',
    hint: 'system.md, boundaries.md and conventions.md must have content.',
  },
  ZG4016: {
    severity: 'error',
    title: 'AGENTS.md missing',
    hint: 'Sub-agents extend the main agent: add AGENTS.md at the plugin root.',
  },
  ZG4017: {
    severity: 'warning',
    title: 'conventions.md restates an AGENTS.md heading',
    hint: 'conventions.md extends AGENTS.md and must not redefine its sections; rename the heading or move the rule to AGENTS.md.',
  },

  // ── ZG5xxx provider profiles ────────────────────────────────────────────────
  ZG5001: {
    severity: 'warning',
    title: 'Description exceeds a provider limit',
    hint: 'Shorten the description; the provider may truncate or reject it.',
  },
  ZG5002: {
    severity: 'warning',
    title: 'Too many tools for a provider',
    hint: 'The provider rejects requests with more tools than its limit; rely on the deferred catalog or split plugins.',
  },
  ZG5003: {
    severity: 'warning',
    title: 'Schema keyword unsupported by a provider',
    hint: 'Some providers reject or ignore this keyword in tool schemas; prefer plain types, enums and descriptions.',
  },
  ZG5004: {
    severity: 'error',
    title: 'Name exceeds a provider limit',
    hint: 'Shorten the directory names or the child-plugin keys so the qualifiedName fits the provider limit.',
  },

  // ── ZG5050–ZG5069 MCP servers (config `mcpServers`, docs/mcp.md) ────────────
  ZG5050: {
    severity: 'error',
    title: 'MCP server list is not an object',
    hint: 'Write `mcpServers` as an object of server name → { "command": "...", "args": [...], "env": {...} } (stdio) or { "url": "https://..." } (Streamable HTTP).',
  },
  ZG5051: {
    severity: 'error',
    title: 'Invalid MCP server name',
    hint: 'Server names are 1–32 letters, digits, "_" or "-", starting with a letter or digit: they become the tools\' source `mcp:<name>` and the `discover` filter.',
  },
  ZG5052: {
    severity: 'error',
    title: 'MCP server without exactly one transport',
    hint: 'Give each server either `command` (started as a child process, spoken to over stdio) or `url` (a Streamable HTTP endpoint), not both.',
  },
  ZG5053: {
    severity: 'error',
    title: 'Invalid MCP server option value',
    hint: '`args`, `include`, `exclude` are arrays of strings; `env`, `headers` objects of strings; `timeoutMs` a positive integer; `approval` one of never, on-risk, once, always; `url` http(s). See docs/mcp.md#configuration.',
  },
  ZG5054: {
    severity: 'error',
    title: 'Unknown MCP server option',
    hint: 'Remove the option or fix its spelling; docs/mcp.md#configuration lists the options of stdio and HTTP servers.',
  },

  // ── ZG6001–ZG6049 zhin-gen migrate ──────────────────────────────────────────
  ZG6001: {
    severity: 'error',
    title: 'migrate cannot convert this construct',
    hint: 'Convert it by hand (docs/authoring.md#coming-from-the-earlier-zhinjs-layout says what each construct becomes); migrate left this part exactly as it was.',
  },
  ZG6002: {
    severity: 'warning',
    title: 'migrate created a stub',
    hint: 'The earlier layout had no source for this required file: migrate wrote a marked placeholder. Replace its text before shipping the bot.',
  },
  ZG6003: {
    severity: 'warning',
    title: 'migrate changed a runtime name',
    hint: 'The earlier name is not valid in zhin-gen; migrate renamed it and rewrote every skills/agent `tools:` reference it found. Check callers outside the tree (prompts, other bots).',
  },

  // ── ZG9xxx internal ─────────────────────────────────────────────────────────
  ZG9001: {
    severity: 'error',
    title: 'Internal error',
    hint: 'zhin-gen hit an unexpected error while processing this file. Please report it with the file that triggers it.',
  },
} as const satisfies Record<string, CatalogEntry>;

export type DiagnosticCode = keyof typeof CATALOG;

export interface DiagnosticInput {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  /** Overrides the catalog hint with a more specific one. */
  readonly hint?: string;
  readonly related?: readonly RelatedLocation[];
  /** Overrides the catalog severity (e.g. config-escalated warnings). */
  readonly severity?: Severity;
}

export function diag(code: DiagnosticCode, input: DiagnosticInput): Diagnostic {
  const entry: CatalogEntry = CATALOG[code];
  return {
    code,
    severity: input.severity ?? entry.severity,
    message: input.message,
    file: input.file,
    line: input.line ?? 1,
    column: input.column ?? 1,
    hint: input.hint ?? entry.hint,
    ...(input.related && input.related.length > 0 ? { related: input.related } : {}),
  };
}

/** Total, explicit order: file, line, column, code, message (never localeCompare). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.code, b.code) ||
    compareStrings(a.message, b.message)
  );
}

/** Code-unit order: identical on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 1-based line/column of an offset, via a precomputed line-start table. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function positionAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** The same diagnostic reported twice (one file reached through two units) is shown once. */
export function uniqueDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
