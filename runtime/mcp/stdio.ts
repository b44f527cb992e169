/**
 * `@zhin-gen/runtime/mcp-stdio`: the transport for MCP servers started as child processes. It is
 * its own subpath because the SDK's stdio transport spawns processes (Node's child_process):
 * `@zhin-gen/runtime/mcp` stays usable in any JS host, and only a Node host imports this.
 *
 *   createMcpServers({ servers, transport: stdioTransport, reload: () => host.load(manifest) })
 *
 * A server's stderr is inherited (its logs reach the host's stderr); `env` is added to the SDK's
 * default environment (PATH, HOME, …) instead of replacing it, so `npx`-started servers work.
 */
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type McpServerSpec, isStdioServer } from './config.js';
import { httpTransport } from './servers.js';

/** Stdio for `command` servers, Streamable HTTP for `url` servers. */
export function stdioTransport(server: string, spec: McpServerSpec): Transport | Promise<Transport> {
  if (!isStdioServer(spec)) return httpTransport(server, spec);
  return new StdioClientTransport({
    command: spec.command,
    args: [...(spec.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
    ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    stderr: 'inherit',
  });
}
