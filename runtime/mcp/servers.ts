/**
 * `createMcpServers`: a host's MCP server list, made into seam providers for every generation.
 *
 * The object lives as long as the host. `register()` runs in the root plugin's `setup()`: for
 * each server it takes the open connection (or opens one), lists the tools for THIS generation,
 * registers an `McpToolService` with that list in the setup's `SeamIntegration`, and hands a
 * reference to the connection to the generation's resources. A connection is shared by the
 * generations that hold it and closed when the last of them is disposed: a rejected candidate
 * drops its reference at once, a retired generation when its last turn ends (docs/seam.md). So a
 * reload neither restarts a stdio server nor loses its session state, and a server that died is
 * connected again by the next generation.
 *
 * `notifications/tools/list_changed` re-lists the server's tools; if they differ from the list
 * the newest generation was prepared with, `reload()` (the host's `host.load(...)`) prepares a
 * new generation. Turns in flight keep the generation they leased and its list. Notifications
 * that change nothing (servers that announce their initial list) are dropped, so a reload never
 * triggers another one by itself.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type PluginDefinition, type PluginSetupContext, createToken, definePlugin } from '../contract/define.js';
import { SeamIntegration, capabilitySeamToken } from '../seam/integration.js';
import { type McpServerSpec, type McpServersConfig, checkMcpServers, describeMcpConfigProblems } from './config.js';
import { DEFAULT_CLIENT_INFO, type McpClientInfo, McpConnection, toolsDigest } from './connection.js';
import { McpToolService } from './tool-service.js';

/** Makes the SDK transport for one server (stdio: `@zhin-gen/runtime/mcp-stdio`; HTTP: `httpTransport`). */
export type McpTransportFactory = (server: string, spec: McpServerSpec) => Transport | Promise<Transport>;

export interface McpServersOptions {
  readonly servers: McpServersConfig;
  /** Default `httpTransport` (`url` servers only); stdio servers need `stdioTransport` from `/mcp-stdio`. */
  readonly transport?: McpTransportFactory;
  /** Prepares a new generation (`() => host.load(manifest)`) when a server's tools change. */
  readonly reload?: () => Promise<unknown>;
  /** Non-fatal problems: an optional server that could not connect, a reload that was rejected. */
  readonly onError?: (error: Error) => void;
  readonly clientInfo?: McpClientInfo;
}

export interface McpServers {
  /** Connects every server and registers its tools; call once per `setup()`. Rejects the candidate on failure. */
  register(seams: SeamIntegration, resources: PluginSetupContext['resources']): Promise<void>;
  /**
   * A root plugin that runs `base`'s setup (if any), then registers the servers into the seam
   * integration `base` provided, or into a new one it provides.
   */
  plugin(base?: PluginDefinition): PluginDefinition;
  /** Open connections (for operators and tests). */
  readonly openConnections: number;
  /** Settles when no reload is running or pending. */
  idle(): Promise<void>;
}

interface Shared {
  readonly connection: McpConnection;
  refs: number;
  /** What the newest generation that registered this server was prepared with. */
  digest: string;
}

/** The default transport: Streamable HTTP for `url` servers (needs only `fetch`). */
export async function httpTransport(server: string, spec: McpServerSpec): Promise<Transport> {
  if (!('url' in spec))
    throw new TypeError(
      `MCP server "${server}" is a stdio server: pass transport: stdioTransport from @zhin-gen/runtime/mcp-stdio`,
    );
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return new StreamableHTTPClientTransport(new URL(spec.url), {
    ...(spec.headers ? { requestInit: { headers: { ...spec.headers } } } : {}),
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createMcpServers(options: McpServersOptions): McpServers {
  const problems = checkMcpServers(options.servers);
  if (problems.length > 0) throw new TypeError(describeMcpConfigProblems(problems));
  const servers = Object.entries(options.servers);
  const transport = options.transport ?? httpTransport;
  const onError = options.onError ?? (() => {});
  const tokens = new Map(servers.map(([name]) => [name, createToken<McpConnection>(`mcp:${name}`)]));
  const shared = new Map<string, Shared>();
  let reloading: Promise<void> = Promise.resolve();
  let pending = false;

  function scheduleReload(reason: string): void {
    if (pending) return;
    pending = true;
    reloading = reloading.then(async () => {
      pending = false;
      if (!options.reload) {
        onError(new Error(`${reason}; no reload is configured, so the current generation keeps its tools`));
        return;
      }
      try {
        await options.reload();
      } catch (error) {
        onError(new Error(`${reason}; the new generation was rejected: ${messageOf(error)}`, { cause: error }));
      }
    });
  }

  async function changed(entry: Shared): Promise<void> {
    const { connection } = entry;
    if (connection.closed || shared.get(connection.server) !== entry) return;
    let digest: string;
    try {
      digest = toolsDigest(await connection.listTools());
    } catch (error) {
      onError(
        new Error(`MCP server "${connection.server}" announced new tools but could not list them: ${messageOf(error)}`),
      );
      return;
    }
    if (digest !== entry.digest) scheduleReload(`MCP server "${connection.server}" changed its tools`);
  }

  /** The open connection of a server, or a new one; with the tools to serve now. */
  async function acquire(name: string, spec: McpServerSpec): Promise<{ entry: Shared; tools: readonly Tool[] }> {
    const open = shared.get(name);
    if (open && !open.connection.closed) {
      open.refs += 1;
      try {
        return { entry: open, tools: await open.connection.listTools() };
      } catch (error) {
        release(open);
        throw new Error(`MCP server "${name}": listing its tools failed: ${messageOf(error)}`, { cause: error });
      }
    }
    const connection = await McpConnection.open(
      name,
      spec,
      await transport(name, spec),
      options.clientInfo ?? DEFAULT_CLIENT_INFO,
    );
    const entry: Shared = { connection, refs: 1, digest: toolsDigest(connection.tools) };
    shared.set(name, entry);
    connection.onToolsChanged(() => void changed(entry));
    return { entry, tools: connection.tools };
  }

  function release(entry: Shared): Promise<void> | undefined {
    entry.refs -= 1;
    if (entry.refs > 0) return undefined;
    if (shared.get(entry.connection.server) === entry) shared.delete(entry.connection.server);
    return entry.connection.close();
  }

  async function register(seams: SeamIntegration, resources: PluginSetupContext['resources']): Promise<void> {
    const acquired = await Promise.allSettled(servers.map(([name, spec]) => acquire(name, spec)));
    const failures: string[] = [];
    acquired.forEach((result, index) => {
      const [name, spec] = servers[index]!;
      if (result.status === 'rejected') {
        if (spec.optional === true)
          onError(new Error(`${messageOf(result.reason)} (optional: its tools are left out of this generation)`));
        else failures.push(messageOf(result.reason));
        return;
      }
      const { entry, tools } = result.value;
      let released = false;
      const drop = () => {
        if (released) return undefined;
        released = true;
        return release(entry);
      };
      // The generation's reference: dropped once, when it is disposed (or rejected).
      try {
        resources.provide(tokens.get(name)!, entry.connection, drop);
      } catch (error) {
        void drop();
        failures.push(messageOf(error));
        return;
      }
      entry.digest = toolsDigest(tools);
      seams.registerToolService('global', new McpToolService(entry.connection, tools));
    });
    if (failures.length > 0) throw new Error(failures.join('; '));
  }

  return Object.freeze({
    register,
    plugin(base?: PluginDefinition): PluginDefinition {
      return definePlugin({
        name: base?.name ?? 'mcp-servers',
        async setup(context: PluginSetupContext) {
          await base?.setup?.(context);
          let seams: SeamIntegration | undefined;
          try {
            seams = context.resources.use(capabilitySeamToken);
          } catch {
            seams = undefined;
          }
          if (seams === undefined) {
            const created = new SeamIntegration();
            context.resources.provide(capabilitySeamToken, created, () => created.dispose());
            seams = created;
          }
          await register(seams, context.resources);
        },
      });
    },
    get openConnections() {
      return [...shared.values()].filter((entry) => !entry.connection.closed).length;
    },
    idle: async () => {
      while (pending) await reloading;
      await reloading;
    },
  });
}
