/**
 * The config schema (Zod). Imported only when there is a config to validate: Zod costs ~100 ms
 * to load, which an unchanged tree without a config should not pay.
 */
import { z } from 'zod';
import type { McpServersConfig, ModelProvider } from '@zhin-gen/runtime';
import { NAME_SEGMENT } from '@zhin-gen/runtime/names';
import { customPermitPattern } from '@zhin-gen/runtime/permit-syntax';
import { overrideProblem, SEVERITY_OVERRIDES, type SeverityOverrides } from '../diagnostics.js';

/** The model providers whose documented limits the compiler checks (validate/providers.ts). */
export const PROVIDERS = ['anthropic', 'openai'] as const satisfies readonly ModelProvider[];
export type ProviderName = (typeof PROVIDERS)[number];

export const DEFAULT_MODULES = [
  '@zhin.js/tool',
  '@zhin.js/prompt-section',
  '@zhin.js/agent',
  '@zhin-gen/runtime',
  'zhin-gen/runtime',
];

const childKey = z.string().regex(NAME_SEGMENT, `child plugin keys match ${NAME_SEGMENT.source}`);
/** A provider-safe name, or a pattern of one where `*` stands for any run of name characters. */
const hostName = z
  .string()
  .regex(/^[A-Za-z0-9_*-]{1,64}$/, 'a name (letters, digits, "_", "-") or a pattern with "*" wildcards');

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
    permits: z
      .array(
        z
          .string()
          .min(1)
          .superRefine((custom, context) => {
            const { error } = customPermitPattern(custom);
            if (error !== undefined)
              context.addIssue({ code: 'custom', message: `not a valid regular expression (${error})` });
          }),
      )
      .default([]),
    /** Known adapter names; when set, unknown `platforms` entries are warnings. */
    adapters: z.array(z.string().min(1)).optional(),
    /** Provider profiles whose limits are checked. */
    providers: z.array(z.enum(PROVIDERS)).default([...PROVIDERS]),
    /** Extension written in the manifest's import paths to tool modules. */
    importExtension: z.enum(['.js', '.ts', 'none']).default('.js'),
    /** Time limit for evaluating tool modules whose schema needs a bundle (ms). */
    schemaTimeoutMs: z.number().int().positive().default(10_000),
    /** Directories (relative to the root) whose symbolic links may be followed outside the root. */
    allowOutside: z.array(z.string()).default([]),
    /**
     * Tools and skills that exist at run time without being files of the tree (framework
     * built-ins, installed packages, seam providers): exact names or `*` patterns. Skills and
     * agents may reference them; `host.load` rejects a generation in which a referenced one is
     * missing (docs/config.md "Host-provided capabilities").
     */
    hostProvided: z
      .object({
        tools: z.array(hostName).default([]),
        skills: z.array(hostName).default([]),
      })
      .strict()
      .default({ tools: [], skills: [] }),
    /**
     * MCP servers (docs/mcp.md#configuration): name → { command, args?, env?, cwd? } or
     * { url, headers? }, plus options. Checked by config/mcp-servers.ts (ZG5050–ZG5054, located)
     * with the runtime's rules, not here: one rule set for the config file and for code.
     */
    mcpServers: z.custom<McpServersConfig>(() => true).optional(),
    /**
     * Warnings set to `off` (not reported) or `error` (fail the run) by code; errors cannot be
     * set (compiler/diagnostics.ts `applySeverityOverrides`).
     */
    diagnostics: z
      .custom<SeverityOverrides>(() => true)
      .superRefine((value, context) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          context.addIssue({
            code: 'custom',
            message: 'an object of diagnostic codes, each "off", "warning" or "error"',
          });
          return;
        }
        for (const [code, setting] of Object.entries(value)) {
          const problem = overrideProblem(code);
          if (problem !== undefined) context.addIssue({ code: 'custom', path: [code], message: problem });
          else if (!SEVERITY_OVERRIDES.includes(setting as never))
            context.addIssue({
              code: 'custom',
              path: [code],
              message: `${JSON.stringify(setting)} is no setting; use "off", "warning" or "error"`,
            });
        }
      })
      .default({}),
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
