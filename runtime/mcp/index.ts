/**
 * `@zhin-gen/runtime/mcp`: the Model Context Protocol both ways (docs/mcp.md), over the official
 * `@modelcontextprotocol/sdk` (an optional peer). MCP servers become Capability Seam providers
 * (`createMcpServers`, `McpToolService`); a bot's catalog is served to MCP clients (`serveMcp`).
 * Nothing here imports a Node built-in: stdio servers need `@zhin-gen/runtime/mcp-stdio`.
 */
export {
  checkMcpServers,
  describeMcpConfigProblems,
  isStdioServer,
  DEFAULT_MCP_TIMEOUT_MS,
  MCP_SERVER_NAME,
} from './config.js';
export type {
  McpConfigProblem,
  McpConfigProblemKind,
  McpHttpServerSpec,
  McpServerOptions,
  McpServerSpec,
  McpServersConfig,
  McpStdioServerSpec,
} from './config.js';
export { McpCallError, McpConnection } from './connection.js';
export type { McpClientInfo } from './connection.js';
export { McpToolService, mcpApproval, mcpOutput } from './tool-service.js';
export { createMcpServers, httpTransport } from './servers.js';
export type { McpServers, McpServersOptions, McpTransportFactory } from './servers.js';
export { serveMcp } from './serve.js';
export type { McpCatalogSession, McpSessionIdentity, ServeMcpOptions } from './serve.js';
