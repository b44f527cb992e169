/** The catalog's ZG2xxx: tool, section and hook definitions, and their schemas. */
import { APPROVAL_MODES, CHANNEL_SCOPES, DEFAULT_APPROVAL_MODE, HOOK_EVENTS } from '@zhin-gen/runtime/define';
import { type CatalogEntry, quoted } from './entry.js';

export const DEFINITIONS = {
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
    title: 'Missing, empty or computed description',
    hint: 'Give the tool a `description` string: it is what the model reads to decide when to call it. Write it as a string literal or a same-file const (template strings of consts are read too): the manifest is built without running the module.',
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
    hint: 'Write the value as a literal (a same-file const is read through): the manifest is built from what is read at build time and leaves this field out; `zhin-gen check --load` compares the loaded definition with it.',
  },
  ZG2012: {
    severity: 'error',
    title: 'Field the runtime enforces is not statically known',
    hint: "The runtime enforces the manifest, which is built from these fields: a tool's `requiresApproval`, `platforms`, `scopes`, `permissions` and `hidden`, and a hook's `events`. Write them as literals in the definition object (same-file consts, their members and enums are read through). A value the build cannot read (imported, computed, changed at import, spread in, or behind a computed key) would be enforced as the default.",
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
    hint: 'zhin-gen reads definitions without running them and stops where code nests deeper than any real module does (1,000 syntax levels, or brackets nested deeper than the stack of the TypeScript parser follows: a few hundred levels), instead of overflowing the stack. Flatten the value: name parts of it as consts, or build it in a function the module calls.',
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
  ZG2033: {
    severity: 'warning',
    title: 'Required prompt over the default budget',
    hint: "AGENTS.md (of each plugin on the chain) and a sub-agent's system.md, boundaries.md and conventions.md are sent whole with every turn; over systemPromptMaxChars, turn.systemPrompt() throws PromptBudgetError. Shorten them, move reference material into a skill (loaded on demand), or raise ai.agent.systemPromptMaxChars in the host config.",
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
  ZG2060: {
    severity: 'error',
    title: '`adapter` is the earlier way to write `platforms`',
    hint: "zhin.js's define helpers turn `adapter: 'wecom'` into `platforms: ['wecom']`: write that (`zhin-gen migrate` does it). It is an error, not an ignored field: dropping it would offer the tool on every platform.",
  },
  ZG2061: {
    severity: 'error',
    title: 'addSkill() in setup()',
    hint: 'A skill is a file: write it as skills/<name>/SKILL.md (its description in the front matter, its instructions as the body, its tools under `tools:`), or declare a skill the host adds as host-provided in the config. zhin-gen reads addTool() and addPromptSection() in setup(), not addSkill().',
  },
  ZG2062: {
    severity: 'warning',
    title: 'Plugin entry not run by the runtime',
    hint: 'The manifest imports a plugin entry only when it default-exports zhin-gen\'s `definePlugin` (from "@zhin-gen/runtime", "@zhin.js/tool" or a config `modules` entry): host.load() runs its setup(). A zhin.js plugin (`definePlugin` from "zhin.js", commands, middleware) stays the zhin.js host\'s, and its `context.addTool()` tools are registered there, not by @zhin-gen/runtime (they are still checked for name clashes). Nothing to do unless you meant zhin-gen to run setup(): then import definePlugin from "@zhin.js/tool" and use only the context zhin-gen gives (docs/authoring.md).',
  },
  // ZG2063–ZG2064: packages a module imports when it loads (check --load, verify/declared-deps.ts).
  ZG2063: {
    severity: 'warning',
    title: 'Imported package is only a devDependency',
    hint: 'A production install (`npm ci --omit=dev`, `npm prune --omit=dev`) leaves devDependencies out, so the module fails to load in the deployed bot. Move the package to `dependencies`, unless your build bundles it into its output. Import the runtime as "@zhin-gen/runtime", not "zhin-gen/runtime" (zhin-gen is the dev-time compiler).',
  },
  ZG2064: {
    severity: 'warning',
    title: 'Imported package is not declared',
    hint: "No package.json that governs the module declares the package: it resolves only because another package's install put it in node_modules, and a production install may not. Declare it with `npm i <package>`.",
  },
  ZG2065: {
    severity: 'warning',
    title: 'Placeholder text left by zhin-gen new',
    hint: '`zhin-gen new` writes "Say here what …" texts for you to replace; the model is sent them as they are (a tool\'s or skill\'s description decides when the model uses it). Write the real text.',
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
    hint: 'The Agent Skills specification makes `metadata` a map of string keys to string values: quote the value (`version: "2"`) or flatten it. zhin-gen passes it to the manifest as its JSON value, which is not always what was written (`1.0` becomes 1, `.inf` null, a long integer loses digits).',
  },
} as const satisfies Record<string, CatalogEntry>;
