/** Real MCP server processes for the MCP tests, and a host wired to them. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ApprovalRequest,
  type CapabilityManifest,
  type JournalEntry,
  createCapabilityHost,
} from '../../../runtime/index.js';
import { type McpServersConfig, createMcpServers } from '../../../runtime/mcp/index.js';
import { stdioTransport } from '../../../runtime/mcp/stdio.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { REPO } from '../../helpers.js';

/** The reference server from the registry (devDependency `@modelcontextprotocol/server-everything`). */
export const EVERYTHING = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** A server whose tool list changes at run time (the SDK's McpServer). */
export const DYNAMIC = join(REPO, 'test', 'runtime', 'mcp', 'dynamic-server.mjs');

/** server-everything over stdio, started through `sh` so the test learns the server's pid. */
export function everything(pidFile: string, extra: Partial<McpServersConfig[string]> = {}): McpServersConfig[string] {
  return {
    command: '/bin/sh',
    args: ['-c', `echo $$ > "${pidFile}"; exec "${process.execPath}" "${EVERYTHING}" stdio`],
    ...extra,
  } as McpServersConfig[string];
}

export function pidOf(file: string): number {
  if (!existsSync(file)) throw new Error(`no pid file ${file}`);
  return Number(readFileSync(file, 'utf8').trim());
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A host whose root plugin registers the MCP servers; approvals answered by `approve`. */
export function mcpHost(
  servers: McpServersConfig,
  manifestOf: () => CapabilityManifest,
  options: { approve?: (request: ApprovalRequest) => boolean; config?: Record<string, unknown> } = {},
) {
  const journal: JournalEntry[] = [];
  const errors: Error[] = [];
  const approvals: ApprovalRequest[] = [];
  const host = createCapabilityHost({
    jsonSchemaValidator: ajvValidator(),
    journal: { record: (entry) => void journal.push(entry) },
    approval: {
      requestApproval: async (request) => {
        approvals.push(request);
        return options.approve?.(request) ?? false;
      },
    },
    ...(options.config ? { config: options.config } : {}),
    onError: (error) => errors.push(error),
  });
  const mcp = createMcpServers({
    servers,
    transport: stdioTransport,
    reload: () => load(),
    onError: (error) => errors.push(error),
  });
  const load = () => host.load(manifestOf(), { plugins: { '': mcp.plugin() } });
  return { host, mcp, load, journal, errors, approvals };
}
