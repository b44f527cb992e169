/**
 * The config's `mcpServers` (docs/mcp.md#configuration): checked with the runtime's own rules
 * (runtime/mcp/config.ts, the ones `createMcpServers` applies to a list given in code), each
 * problem a located ZG5050–ZG5054 diagnostic. Loaded only when a config has the option.
 */
import { join } from 'node:path';
import { type McpConfigProblemKind, type McpServersConfig, checkMcpServers } from '@zhin-gen/runtime';
import { type DiagnosticCode, type Diagnostic, diag } from '../diagnostics.js';
import { type ConfigText, locateConfig, relativeName } from './locate.js';

const CODES: Record<McpConfigProblemKind, DiagnosticCode> = {
  shape: 'ZG5050',
  name: 'ZG5051',
  transport: 'ZG5052',
  value: 'ZG5053',
  'unknown-key': 'ZG5054',
};

export interface CheckedMcpServers {
  readonly diagnostics: readonly Diagnostic[];
  /** The list when it is valid; `{}` otherwise (the diagnostics say why). */
  readonly servers: McpServersConfig;
}

export function checkConfiguredMcpServers(
  value: unknown,
  configText: ConfigText | undefined,
  root: string,
  sourceFile: string,
): CheckedMcpServers {
  const problems = checkMcpServers(value);
  const diagnostics = problems.map((problem) => {
    const path = ['mcpServers', ...problem.path];
    const unknownKey = problem.kind === 'unknown-key' ? String(path.pop()) : undefined;
    const where = configText
      ? locateConfig(configText, path, unknownKey)
      : { file: relativeName(root, join(root, sourceFile)), line: 1, column: 1 };
    const option = [...path, ...(unknownKey !== undefined ? [unknownKey] : [])]
      .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`))
      .join('');
    return diag(CODES[problem.kind], { ...where, message: `Config option \`${option}\`: ${problem.message}` });
  });
  return { diagnostics, servers: problems.length === 0 && value !== undefined ? (value as McpServersConfig) : {} };
}
