/**
 * `serveMcp`: a bot's catalog served to one MCP client session, over any SDK transport (stdio
 * for `zhin-gen mcp`, Streamable HTTP in a web host). docs/mcp.md#serving-a-bot-over-mcp.
 *
 * - One MCP session is one session key and one principal, fixed by the host when it serves the
 *   session (after its own authentication). Without an identity the session is anonymous: a
 *   non-IM turn with no message, which admits only tools without any restriction — the most
 *   restricted principal there is, never a privileged one.
 * - Every request runs in its own turn on the committed generation: `tools/list` is what that
 *   turn sends a model (`turn.modelTools`, deferral included: the meta tools, the always-loaded
 *   and the loaded tools), so hidden and forbidden tools never appear; `tools/call` is
 *   `turn.execute`, and the client reads the text a model would (bridges/results.ts: a forbidden
 *   tool reads exactly like an unknown one). Loaded tools persist per session key in the host's
 *   session store, so after a completed `load_tool` / `load_skill` the server sends
 *   `notifications/tools/list_changed` and the next `tools/list` carries them.
 * - Approval and `ask_user` use form elicitation when the client declared it; otherwise the turn
 *   has no port and the pipeline fails closed (`tool_denied`, and `ask_user` is not listed).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ImMessage } from '../access/permissions.js';
import { executeCalls, loadedSomething } from '../bridges/loop.js';
import type { CapabilityHost } from '../generation/host.js';
import type { ApprovalPort } from '../turn/approval.js';
import type { QuestionPort } from '../turn/ask-user.js';
import type { Turn, TurnInput } from '../turn/turn.js';

/** Who the MCP session is: set by the host, once per session. */
export interface McpSessionIdentity {
  /** The session key loaded tools and `once` approvals are kept under. */
  readonly sessionKey: string;
  /** Recorded in the journal and handed to tools as `context.principal`. */
  readonly principal?: unknown;
  /** Access is decided from it exactly as for an IM turn (platforms, scopes, permissions). */
  readonly message?: ImMessage;
  /** Select this agent (qualifiedName) for every turn of the session. */
  readonly agent?: string;
}

export interface ServeMcpOptions {
  /** Absent: an anonymous session (its own session key, no message: unrestricted tools only). */
  readonly identity?: McpSessionIdentity;
  /** `false` lists every admitted tool at once instead of the deferred catalog. Default true. */
  readonly defer?: boolean;
  readonly serverInfo?: { readonly name: string; readonly version: string };
  readonly onError?: (error: Error) => void;
}

export interface McpCatalogSession {
  readonly server: Server;
  readonly sessionKey: string;
  /** Tells the client to list again (call it after `host.load` committed a new generation). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

let anonymous = 0;

function anonymousKey(): string {
  anonymous += 1;
  return `mcp:anonymous:${Math.random().toString(36).slice(2, 10)}:${anonymous}`;
}

const APPROVE_SCHEMA = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve this call', default: false } },
  required: ['approve'],
};

function ports(server: Server, requestId: string | number): { approval?: ApprovalPort; question?: QuestionPort } {
  const elicitation = server.getClientCapabilities()?.elicitation as Record<string, unknown> | undefined;
  // Form mode only: declared as `form`, or as `{}` (before the spec named modes). A client that
  // declares URL mode alone cannot show a form, so it is as one that cannot be asked.
  if (elicitation === undefined || (elicitation.form === undefined && Object.keys(elicitation).length > 0)) return {};
  const related = { relatedRequestId: requestId };
  return {
    approval: {
      async requestApproval(request) {
        const result = await server.elicitInput(
          { mode: 'form', message: request.question, requestedSchema: APPROVE_SCHEMA },
          { ...related, signal: request.signal, timeout: 10 * 60_000 },
        );
        return result.action === 'accept' && result.content?.approve === true;
      },
    },
    question: {
      async ask(request) {
        const answer = request.options?.length
          ? { type: 'string' as const, title: 'Answer', enum: [...request.options] }
          : { type: 'string' as const, title: 'Answer' };
        const result = await server.elicitInput(
          {
            mode: 'form',
            message: request.question,
            requestedSchema: { type: 'object', properties: { answer }, required: ['answer'] },
          },
          { ...related, signal: request.signal, timeout: 10 * 60_000 },
        );
        if (result.action !== 'accept' || typeof result.content?.answer !== 'string')
          throw new Error(`the user did not answer (${result.action})`);
        return result.content.answer;
      },
    },
  };
}

export async function serveMcp(
  host: CapabilityHost,
  transport: Transport,
  options: ServeMcpOptions = {},
): Promise<McpCatalogSession> {
  const identity = options.identity;
  const sessionKey = identity?.sessionKey ?? anonymousKey();
  const onError = options.onError ?? (() => {});
  const server = new Server(options.serverInfo ?? { name: 'zhin-gen', version: '0.1.0' }, {
    capabilities: { tools: { listChanged: true } },
  });
  /** What the last tools/list sent, by generation: a new generation notifies only if this changed. */
  let listed: { readonly generation: number; readonly signature: string } | undefined;
  const modelTools = (turn: Turn) =>
    turn.modelTools({ provider: 'generic', ...(options.defer === false ? { defer: false } : {}) });
  const signatureOf = (tools: Awaited<ReturnType<typeof modelTools>>): string =>
    JSON.stringify(tools.map((tool) => [tool.name, tool.description, tool.inputSchema]));
  const turnInput = (extra: Partial<TurnInput>): TurnInput => ({
    sessionKey,
    ...(identity?.message ? { message: identity.message, origin: 'im' } : { origin: 'mcp' }),
    ...(identity?.principal !== undefined ? { principal: identity.principal } : {}),
    ...(identity?.agent !== undefined ? { agent: identity.agent } : {}),
    ...extra,
  });
  const listChanged = () =>
    server.sendToolListChanged().catch((error: unknown) => onError(new Error(`tools/list_changed: ${String(error)}`)));

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const turn = await host.beginTurn(turnInput({ ...ports(server, 0) }));
    try {
      const tools = await modelTools(turn);
      listed = { generation: turn.generation, signature: signatureOf(tools) };
      return {
        tools: tools.map(
          (tool): Tool => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
        ),
      };
    } finally {
      await turn.end();
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const turn = await host.beginTurn(turnInput({ ...ports(server, extra.requestId), signal: extra.signal }));
    let reload = false;
    try {
      const call = {
        id: `mcp_${String(extra.requestId)}`,
        name: request.params.name,
        input: request.params.arguments ?? {},
      };
      const results = await executeCalls(turn, [call], turn.signal);
      const result = results[0]!;
      reload = loadedSomething(results);
      // A new generation: notify only when this principal's list changed. A change only to tools
      // it may not see must not tell it that something it cannot see changed.
      if (!reload && listed !== undefined && listed.generation !== turn.generation) {
        const signature = signatureOf(await modelTools(turn));
        if (signature === listed.signature) listed = { generation: turn.generation, signature };
        else reload = true;
      }
      return { content: [{ type: 'text', text: result.text }], isError: result.isError };
    } finally {
      await turn.end();
      // After the session store has the loads (turn.end flushes it), so the next list sees them.
      if (reload) void listChanged();
    }
  });

  await server.connect(transport);
  return Object.freeze({
    server,
    sessionKey,
    refresh: listChanged,
    close: () => server.close(),
  });
}
