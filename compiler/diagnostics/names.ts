/** The catalog's ZG3xxx: names and conflicts. */
import { NAME_SEGMENT, PROVIDER_SAFE_NAME, TOOL_LOCAL_NAME } from '@zhin-gen/runtime/names';
import type { CatalogEntry } from './entry.js';

export const NAMES = {
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
  ZG3012: {
    severity: 'warning',
    title: 'Own private tool listed',
    hint: "A skill's private tools (skills/<skill>/tools/) and an agent's (agents/<agent>/tools/) are associated with it without being listed, after the listed ones; zhin.js trees list them by local name. Remove the entry.",
  },
  ZG3013: {
    severity: 'warning',
    title: 'Tool reference resolves elsewhere',
    hint: "Listed names are qualifiedNames, so this one names another plugin's tool (or a host tool), not the tool of the same local name beside the skill or agent. Write the qualifiedName of the tool you mean (`zhin-gen inspect` lists them); a private tool of its own needs no entry.",
  },
} as const satisfies Record<string, CatalogEntry>;
