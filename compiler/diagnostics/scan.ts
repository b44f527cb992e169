/** The catalog's ZG1xxx: scan, layout and config, and the constructs of zhin.js's earlier layout. */
import { NAME_SEGMENT, TOOL_LOCAL_NAME } from '@zhin-gen/runtime/names';
import type { CatalogEntry } from './entry.js';

export const SCAN = {
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
    hint: 'Symbolic links that loop or lead outside the project root are not followed. If the target belongs to the tree, add its directory to the config option `allowOutside` (a loop is never followed).',
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
    hint: 'zhin-gen reads a tool from its own directory: tools/<name>/index.ts. Run `zhin-gen migrate` (add --write to apply): it moves a tool file tools/<name>.ts to tools/<name>/index.ts and keeps the tool name, and a module of shared code (no default-exported defineAgentTool) to src/tools/<name>.ts, rewriting the imports of both.',
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
  ZG1063: {
    severity: 'error',
    title: 'Hook in the earlier agent/ folder',
    hint: "zhin-gen reads hooks from hooks/<name>/index.ts, written `defineAgentHook({ events: ['tool:before' | 'tool:after'], handle(event) { … } })`; the earlier `defineHook({ event: 'tool.before', handler })` is rewritten by hand (`zhin-gen migrate` leaves it where it is). An error: a hook that vetoes a call must not vanish from the bot without a word.",
  },
  ZG1064: {
    severity: 'error',
    title: 'Skill written in code in the earlier agent/ folder',
    hint: 'zhin-gen reads skills from skills/<name>/SKILL.md: the `description` goes into the front matter, `toolNames` into `tools:`, `platforms` as they are, and `content` becomes the body. `zhin-gen migrate` leaves a skill written in code where it is, to be rewritten by hand.',
  },
  ZG1065: {
    severity: 'error',
    title: 'Plugin in a folder that groups plugins',
    hint: "zhin-gen's child plugins are `plugins/<key>/`, nested as `plugins/<key>/plugins/<child>/`; a folder that only groups plugins (zhin.js's `plugins/utils/lottery/`) is none, so nothing below it is compiled. Move the plugin under a `plugins/` folder, or name its directory in the config: `plugins: { lottery: 'plugins/utils/lottery' }`.",
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
    hint: 'The config module threw or has a syntax error. Run it with node (a .ts config with npx tsx) to see the cause; it must default-export a plain object.',
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
} as const satisfies Record<string, CatalogEntry>;
