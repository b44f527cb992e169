/**
 * One MCP client session to one server, over the official SDK's `Client`. It is opened for one
 * generation (by `createMcpServers().register`), lists the server's tools once at open (the
 * generation's immutable snapshot), performs calls with a timeout and the call's abort signal,
 * and reports `notifications/tools/list_changed`. It never throws into the host: a server that
 * exits or stops answering turns every later call into an error result, which the pipeline
 * journals as `tool_failed`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MCP_TIMEOUT_MS, type McpServerSpec } from './config.js';

export interface McpClientInfo {
  readonly name: string;
  readonly version: string;
}

export const DEFAULT_CLIENT_INFO: McpClientInfo = Object.freeze({ name: 'zhin-gen', version: '0.1.0' });

/** What a failed call says: `closed` (the server went away), `timeout`, or the server's own error. */
export class McpCallError extends Error {
  constructor(
    message: string,
    readonly reason: 'closed' | 'timeout' | 'error',
  ) {
    super(message);
    this.name = 'McpCallError';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A stable text of a tool list, to tell a real change from a repeated notification. */
export function toolsDigest(tools: readonly Tool[]): string {
  return JSON.stringify(
    [...tools]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((tool) => [tool.name, tool.description ?? '', tool.inputSchema, tool.annotations ?? null]),
  );
}

export class McpConnection {
  readonly #client: Client;
  readonly #timeoutMs: number;
  #closed = false;
  #closedReason: string | undefined;
  /** The first error the client or its transport reported. */
  #lastError: string | undefined;
  #listeners: (() => void)[] = [];
  #tools: readonly Tool[] = [];

  private constructor(
    readonly server: string,
    readonly spec: McpServerSpec,
    client: Client,
  ) {
    this.#client = client;
    this.#timeoutMs = spec.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  }

  /** Connects, then lists the tools (every page). Rejects when either fails or times out. */
  static async open(
    server: string,
    spec: McpServerSpec,
    transport: Transport,
    clientInfo: McpClientInfo = DEFAULT_CLIENT_INFO,
  ): Promise<McpConnection> {
    const client = new Client({ name: clientInfo.name, version: clientInfo.version }, { capabilities: {} });
    const connection = new McpConnection(server, spec, client);
    // What the transport reported (a command that does not exist, a refused connection): the
    // cause a closed connection is described with, which "the server closed the connection" lost.
    client.onerror = (error) => {
      // fetch's own message is "fetch failed": the system's code (ECONNREFUSED) is on a cause.
      let code: unknown;
      for (let at: unknown = error, depth = 0; at && code === undefined && depth < 4; depth++) {
        code = (at as { code?: unknown }).code;
        at = (at as { cause?: unknown }).cause;
      }
      connection.#lastError ??= typeof code === 'string' ? `${messageOf(error)}: ${code}` : messageOf(error);
    };
    client.onclose = () =>
      connection.#markClosed(
        `the server closed the connection${connection.#lastError ? ` (${connection.#lastError})` : ''}`,
      );
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      for (const listener of connection.#listeners) listener();
    });
    try {
      await client.connect(transport, { timeout: connection.#timeoutMs });
      connection.#tools = Object.freeze(await connection.listTools());
    } catch (error) {
      // Described before it is closed here: closing names this generation as the closer.
      const described = connection.#describe(error, 'connecting');
      await connection.close();
      throw new Error(`MCP server "${server}": ${described}`, { cause: error });
    }
    return connection;
  }

  /** The tools listed at open: what this connection's generation serves. */
  get tools(): readonly Tool[] {
    return this.#tools;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Lists the server's tools now (every page). */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.#timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls a tool by the server's own name. Rejects with `McpCallError`; a tool error is a result. */
  async call(name: string, args: Record<string, unknown>, signal: AbortSignal | undefined): Promise<CallToolResult> {
    if (this.#closed)
      throw new McpCallError(`MCP server "${this.server}" is not connected (${this.#closedReason})`, 'closed');
    try {
      const result = await this.#client.callTool({ name, arguments: args }, undefined, {
        timeout: this.#timeoutMs,
        ...(signal ? { signal } : {}),
      });
      return result as CallToolResult;
    } catch (error) {
      const reason =
        this.#closed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
          ? 'closed'
          : error instanceof McpError && error.code === ErrorCode.RequestTimeout
            ? 'timeout'
            : 'error';
      throw new McpCallError(`MCP server "${this.server}" ${this.#describe(error, `calling "${name}"`)}`, reason);
    }
  }

  /** Called on every `notifications/tools/list_changed` from the server. */
  onToolsChanged(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Closes the session (a stdio server's process ends with it). Idempotent, never throws. */
  async close(): Promise<void> {
    this.#listeners = [];
    if (this.#closed && !this.#closedReason?.startsWith('the server closed the connection')) return;
    this.#markClosed('the connection was closed by its generation');
    try {
      await this.#client.close();
    } catch {
      // Already gone: nothing left to release.
    }
  }

  #markClosed(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closedReason = reason;
  }

  #describe(error: unknown, doing: string): string {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return `did not answer within ${this.#timeoutMs} ms (${doing})`;
    if (this.#closed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed))
      return `closed the connection (${doing}): ${this.#closedReason ?? 'connection closed'}`;
    return `failed (${doing}): ${messageOf(error)}`;
  }
}
