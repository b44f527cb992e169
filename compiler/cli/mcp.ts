/**
 * `zhin-gen mcp` (docs/mcp.md#zhin-gen-mcp): the bot of a tree served to one MCP client over
 * stdio, for development (an editor, a desktop assistant, the MCP Inspector). It runs what a host
 * runs: it generates the manifest (as `generate` does), imports it and the tool modules with
 * tsx's loader (seed `@zhin.js/*` names resolve to the runtime, as in load verification), loads
 * it into a real `createCapabilityHost`, and serves it with `serveMcp`, one turn per request.
 *
 * stdout is the MCP channel: diagnostics and notices go to stderr. The session's principal comes
 * from the flags (`--platform`, `--scope`, `--user`, `--role`, as for `zhin-gen catalog`); without
 * them the session is anonymous (unrestricted tools only). Servers in the config's `mcpServers`
 * are connected into the served catalog (their tools deferred like any other).
 */
import { register } from 'node:module';
import { Writable } from 'node:stream';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type CapabilityManifest,
  type ImMessage,
  PermissionHost,
  type PluginDefinition,
  createCapabilityHost,
} from '@zhin-gen/runtime';
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Compiler } from '../context.js';
import { formatPretty, palette } from '../report/index.js';
import { runtimeEntryFile } from '../runtime-entry.js';
import { ESM_ADVICE, packageType } from '../util/package-type.js';
import { ALIAS_HOOKS } from '../verify/alias-hooks.js';
import type { Io } from './io.js';

export interface McpArgs {
  readonly platform?: string;
  readonly scope?: string;
  readonly user?: string;
  readonly role?: readonly string[];
  readonly agent?: string;
  readonly session?: string;
  readonly 'all-tools'?: boolean;
}

const SCOPES = ['private', 'group', 'channel'];

function identityOf(values: McpArgs): { message?: ImMessage; error?: string } {
  const given = values.platform !== undefined || values.scope !== undefined || values.user !== undefined;
  if (!given && !values.role?.length) return {};
  if (values.platform === undefined || values.scope === undefined)
    return {
      error: '--platform P and --scope S go together (with --user and --role); without them the session is anonymous',
    };
  if (!SCOPES.includes(values.scope)) return { error: `unknown --scope "${values.scope}" (private, group or channel)` };
  const roles = [...(values.role ?? [])];
  return {
    message: {
      $adapter: values.platform,
      $channel: { id: 'zhin-gen-mcp', type: values.scope },
      $sender: { id: values.user ?? 'mcp-user', ...(roles.length ? { role: roles } : {}) },
    },
  };
}

let loaderRegistered = false;

/** tsx for the project's TypeScript, and the seed-name aliases (once per process). */
async function registerLoader(aliases: readonly string[]): Promise<void> {
  if (loaderRegistered) return;
  loaderRegistered = true;
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  const runtime = runtimeEntryFile();
  register(`data:text/javascript,${encodeURIComponent(ALIAS_HOOKS)}`, {
    data: { aliases, runtimeUrl: runtime ? pathToFileURL(runtime).href : '@zhin-gen/runtime' },
  });
}

const MCP_SDK = '@modelcontextprotocol/sdk';

export async function runMcp(compiler: Compiler, values: McpArgs, io: Io): Promise<number> {
  const identity = identityOf(values);
  if (identity.error) {
    io.err(`zhin-gen mcp: ${identity.error}`);
    return 64;
  }
  // An optional peer of the runtime (zhin-gen itself serves nothing else over MCP): said before
  // anything is compiled, as what to install, not as an internal error.
  try {
    await import('@modelcontextprotocol/sdk/server/stdio.js');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    // The SDK itself missing, not a package it needs (an installed SDK with a broken install).
    if (
      code !== 'ERR_MODULE_NOT_FOUND' ||
      !String((error as Error).message).includes(`Cannot find package '${MCP_SDK}`)
    )
      throw error;
    io.err(
      `zhin-gen mcp: ${MCP_SDK} is not installed (an optional peer of @zhin-gen/runtime, needed to serve MCP)\nhint: npm i -D ${MCP_SDK}`,
    );
    return 1;
  }
  const result = await compiler.run({ write: true });
  // Warnings too (stderr is for diagnostics): a provider limit or a policy note matters when serving.
  if (result.diagnostics.length > 0) io.err(formatPretty(result.diagnostics, palette(false), { root: compiler.root }));
  if (result.errors > 0) {
    io.err('zhin-gen mcp: the tree has errors; fix them first');
    return 1;
  }
  const options = result.options;
  const channel = stdoutChannel();
  await registerLoader(options.modules.filter((name) => name.startsWith('@zhin.js/')));
  const url = `${pathToFileURL(join(options.root, result.outRel)).href}?t=${Date.now()}`;
  const [{ ajvValidator }, { createMcpServers, serveMcp }, { stdioTransport }, { StdioServerTransport: Stdio }] =
    await Promise.all([
      import('@zhin-gen/runtime/ajv'),
      import('@zhin-gen/runtime/mcp'),
      import('@zhin-gen/runtime/mcp-stdio'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
  const notice = (error: Error) => io.err(`zhin-gen mcp: ${error.message}`);
  const host = createCapabilityHost({
    permissions: new PermissionHost(),
    jsonSchemaValidator: ajvValidator(),
    onError: notice,
  });
  // Importing the manifest runs the bot's own modules: what they throw is the bot's error, not zhin-gen's.
  const failed = async (what: string, error: unknown): Promise<number> => {
    io.err(`zhin-gen mcp: ${what}: ${error instanceof Error ? error.message : String(error)}`);
    await host.close();
    return 1;
  };
  let manifest: CapabilityManifest;
  try {
    ({ manifest } = (await import(url)) as { manifest: CapabilityManifest });
  } catch (error) {
    const code = await failed(`importing ${result.outRel} failed`, error);
    // A manifest Node reads as CommonJS fails with a bare syntax error: say why.
    const type = error instanceof SyntaxError ? packageType(dirname(join(options.root, result.outRel))) : undefined;
    if (type && !type.esm)
      io.err(`    hint: ${relative(options.root, type.file)} has no "type": "module"; ${ESM_ADVICE}`);
    return code;
  }
  let session: Awaited<ReturnType<typeof serveMcp>> | undefined;
  const servers = options.mcpServers ?? {};
  const mcp =
    Object.keys(servers).length > 0
      ? createMcpServers({
          servers,
          transport: stdioTransport,
          onError: notice,
          reload: async () => {
            await load();
            await session?.refresh();
          },
        })
      : undefined;
  const rootEntry = manifest.plugins.find((plugin) => plugin.owner === '')?.entry;
  let base: PluginDefinition | undefined;
  try {
    base = rootEntry ? ((await rootEntry()).default as PluginDefinition) : undefined;
  } catch (error) {
    return failed("importing the bot's root plugin failed", error);
  }
  const load = () => host.load(manifest, mcp ? { plugins: { '': mcp.plugin(base) } } : {});
  try {
    await load();
  } catch (error) {
    return failed('loading the bot failed', error);
  }
  // An agent that is not there failed every request of the session: refused before serving, as catalog does.
  const agentProblem = values.agent === undefined ? undefined : agentRefusal(manifest, values.agent, values.platform);
  if (agentProblem) {
    io.err(`zhin-gen mcp: ${agentProblem}`);
    await host.close();
    return 1;
  }

  const transport = new Stdio(process.stdin, channel.stream);
  const inFlight = trackRequests(transport);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The client stopped reading (it exited, or `| head`): the session is over, not a crash.
    channel.onGone(() => resolve());
    // The client closed its end: the requests it sent last are answered first (a piped script's),
    // and what the server still asks of it (an approval's elicitation) can have no answer now.
    process.stdin.once('end', () => {
      inFlight.clientGone();
      void inFlight.settled().then(resolve);
    });
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  const named = identity.message !== undefined || values.agent !== undefined || values.session !== undefined;
  session = await serveMcp(host, transport, {
    ...(named ? { identity: identityFor(values, identity.message) } : {}),
    ...(values['all-tools'] === true ? { defer: false } : {}),
    serverInfo: { name: `zhin-gen mcp (${options.root})`, version: '0.1.0' },
    onError: notice,
  });
  io.err(
    `zhin-gen mcp: serving generation ${host.generation} over stdio (${identity.message ? `platform ${values.platform}, scope ${values.scope}` : 'anonymous session'})`,
  );
  await closed;
  await session.close().catch(() => undefined);
  await host.close();
  return 0;
}

/**
 * The MCP channel is the process's stdout, and the bot's own modules run in this process: a
 * tool's `console.log` wrote into the JSON-RPC stream (the client failed to parse it). The
 * transport gets the real stdout as a stream of its own; everything else written to stdout goes
 * to stderr. A stdout that breaks (EPIPE: the client went away) ends the session.
 */
function stdoutChannel(): { stream: Writable; onGone: (listener: () => void) => void } {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (
    chunk: unknown,
    encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ) => boolean;
  const stream = new Writable({
    write(chunk, encoding, done) {
      write(chunk, encoding, (error) => done(error ?? null));
    },
  });
  stdout.write = ((...args: Parameters<typeof process.stderr.write>) =>
    process.stderr.write(...args)) as typeof stdout.write;
  const listeners: (() => void)[] = [];
  const gone = (): void => {
    for (const listener of listeners.splice(0)) listener();
  };
  stdout.on('error', gone);
  stream.on('error', gone);
  return { stream, onGone: (listener) => listeners.push(listener) };
}

/**
 * Requests received and not yet answered, so stdin's end waits for their answers; and the
 * server's own requests to the client not yet answered (elicitations), which stdin's end answers
 * as failed: a call waiting on its approval then ends denied at once, not after the ten-minute
 * elicitation timeout (the process lingered that long after a script closed its input).
 */
function trackRequests(transport: StdioServerTransport): {
  settled: () => Promise<void>;
  clientGone: () => void;
} {
  const pending = new Set<string | number>();
  const asked = new Set<string | number>();
  let idle: (() => void) | undefined;
  let deliver: ((message: JSONRPCMessage) => void) | undefined;
  const connect = transport.start.bind(transport);
  // serveMcp installs onmessage when it connects (start): wrapped then, once.
  transport.start = async () => {
    await connect();
    const received = transport.onmessage;
    deliver = (message) => received?.(message);
    transport.onmessage = (message) => {
      if ('method' in message && 'id' in message) pending.add(message.id);
      else if ('id' in message && message.id !== undefined) asked.delete(message.id);
      received?.(message);
      // A request the client cancelled gets no response (the SDK sends none): it is done too.
      if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
        const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
        if (id !== undefined && pending.delete(id) && pending.size === 0) idle?.();
      }
    };
  };
  const send = transport.send.bind(transport);
  const refuse = (id: string | number): void => {
    asked.delete(id);
    deliver?.({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the client closed its input' } });
  };
  let gone = false;
  transport.send = async (message) => {
    if ('method' in message && 'id' in message) {
      asked.add(message.id);
      // Asked after the client closed its input (the call was piped in just before): no answer can come.
      if (gone) setImmediate(() => refuse(message.id));
    }
    try {
      await send(message);
    } finally {
      const id = 'method' in message ? undefined : (message as { id?: string | number }).id;
      if (id !== undefined && pending.delete(id) && pending.size === 0) idle?.();
    }
  };

  return {
    clientGone: () => {
      gone = true;
      for (const id of [...asked]) refuse(id);
    },
    settled: () =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            idle = resolve;
          }),
  };
}

/** Why `--agent NAME` cannot be served (unknown, or not for `--platform`), or undefined. */
function agentRefusal(manifest: CapabilityManifest, name: string, platform: string | undefined): string | undefined {
  const agent = manifest.agents.find((entry) => entry.name === name);
  if (!agent) {
    const known = manifest.agents.map((entry) => entry.name);
    return `unknown agent "${name}"${known.length ? ` (agents: ${known.join(', ')})` : ' (the bot has no agents)'}`;
  }
  if (platform !== undefined && agent.platforms.length > 0 && !agent.platforms.includes(platform))
    return `agent "${name}" serves platforms [${agent.platforms.join(', ')}] and cannot be selected for --platform ${platform}`;
  return undefined;
}

function identityFor(values: McpArgs, message: ImMessage | undefined) {
  const who = message ? `${String(message.$adapter)}:${String(message.$sender?.id)}` : 'anonymous';
  return {
    sessionKey: values.session ?? `zhin-gen-mcp:${who}`,
    ...(message
      ? { principal: { adapter: String(message.$adapter), userId: String(message.$sender?.id) }, message }
      : {}),
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
  };
}
