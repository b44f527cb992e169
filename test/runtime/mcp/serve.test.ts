/**
 * `serveMcp` over Streamable HTTP on loopback: one SDK server transport per MCP session, the
 * principal chosen by the host from the request's authorization (anonymous without), and the
 * official SDK client on the other side. Elicitation travels back on the call's own stream.
 */
import { randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JournalEntry, createCapabilityHost } from '../../../runtime/index.js';
import { serveMcp } from '../../../runtime/mcp/index.js';
import { Fixture, im, manifest } from '../fixture.js';

const fx = new Fixture('mcp-serve');
const journal: { entry: JournalEntry; principal: unknown }[] = [];
const host = createCapabilityHost({
  journal: { record: (entry, turn) => void journal.push({ entry, principal: turn.principal }) },
});
let http: Server;
let url: URL;

beforeAll(async () => {
  const open = fx.toolModule('open', { body: 'return { open: true, principal: context.principal };' });
  const group = fx.toolModule('group_only', { body: 'return "for the group";' });
  const guarded = fx.toolModule('guarded', { body: 'return "ran";' });
  await host.load(
    manifest({
      tools: [
        fx.tool('open', open),
        fx.tool('group_only', group, { scopes: ['group'] }),
        fx.tool('guarded', guarded, { requiresApproval: 'always' }),
      ],
    }),
  );
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      const member = req.headers.authorization === 'Bearer member-token';
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
      });
      const identity = member
        ? { sessionKey: 'mcp:u1', principal: { user: 'u1' }, message: im({ type: 'group', user: 'u1' }) }
        : undefined;
      await serveMcp(host, created, { defer: false, ...(identity ? { identity } : {}) });
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await host.close();
  fx.cleanup();
});

async function client(token?: string, approve?: boolean): Promise<Client> {
  const c = new Client(
    { name: 'http-test', version: '1.0.0' },
    { capabilities: approve === undefined ? {} : { elicitation: { form: {} } } },
  );
  if (approve !== undefined)
    c.setRequestHandler(ElicitRequestSchema, async () =>
      approve ? { action: 'accept', content: { approve: true } } : { action: 'accept', content: { approve: false } },
    );
  await c.connect(
    new StreamableHTTPClientTransport(
      url,
      token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
    ),
  );
  return c;
}
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

describe('serveMcp over Streamable HTTP', () => {
  it('one session = one principal: the host authenticates, anonymous gets the unrestricted tools only', async () => {
    const anonymous = await client();
    const member = await client('member-token', true);
    try {
      expect(await names(anonymous)).toEqual(['discover', 'guarded', 'load_skill', 'load_tool', 'open']);
      expect(await names(member)).toEqual([
        'ask_user',
        'discover',
        'group_only',
        'guarded',
        'load_skill',
        'load_tool',
        'open',
      ]);
      expect(text(await member.callTool({ name: 'group_only', arguments: {} }))).toBe('for the group');
      const denied = await anonymous.callTool({ name: 'group_only', arguments: {} });
      expect([denied.isError, text(denied)]).toEqual([true, 'tool "group_only" is not available']);
      expect(JSON.parse(text(await member.callTool({ name: 'open', arguments: {} })))).toEqual({
        open: true,
        principal: { user: 'u1' },
      });
      // Approval by elicitation over the call's own HTTP stream; no elicitation: fail closed.
      expect(text(await member.callTool({ name: 'guarded', arguments: {} }))).toBe('ran');
      const unasked = await anonymous.callTool({ name: 'guarded', arguments: {} });
      expect(unasked.isError).toBe(true);
      const principals = journal.filter((j) => j.entry.toolName === 'guarded').map((j) => [j.entry.type, j.principal]);
      expect(principals).toEqual([
        ['tool_call', { user: 'u1' }],
        ['tool_result', { user: 'u1' }],
        ['tool_call', undefined],
        ['tool_denied', undefined],
      ]);
    } finally {
      await Promise.all([anonymous.close(), member.close()]);
    }
  });

  it('a user who declines the elicitation denies the call', async () => {
    const member = await client('member-token', false);
    try {
      const declined = await member.callTool({ name: 'guarded', arguments: {} });
      expect([declined.isError, text(declined)]).toEqual([true, 'The user did not approve this call.']);
    } finally {
      await member.close();
    }
  });

  it('a new generation notifies list_changed only when this principal sees a change (never for tools it may not see)', async () => {
    const own = createCapabilityHost();
    const open = fx.toolModule('open2', { body: 'return "open";' });
    const grouped = fx.toolModule('grouped2', { body: 'return "group";' });
    const load = (extra: readonly string[]) =>
      own.load(
        manifest({
          tools: [
            fx.tool('open2', open),
            ...(extra.includes('group') ? [fx.tool('grouped2', grouped, { scopes: ['group'] })] : []),
            ...(extra.includes('open') ? [fx.tool('open3', open)] : []),
          ],
        }),
      );
    await load([]);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await serveMcp(own, serverSide, { defer: false });
    const c = new Client({ name: 'list-changed', version: '1.0.0' });
    const changes: number[] = [];
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push(Date.now()));
    await c.connect(clientSide);
    try {
      const before = await names(c);
      expect(before).toContain('open2');
      // Only a group tool added: an anonymous session sees nothing new, and is told nothing.
      await load(['group']);
      await c.callTool({ name: 'open2', arguments: {} });
      await new Promise((r) => setTimeout(r, 50));
      expect(changes).toEqual([]);
      // A tool it sees: told, and the next list has it.
      await load(['group', 'open']);
      await c.callTool({ name: 'open2', arguments: {} });
      await new Promise((r) => setTimeout(r, 50));
      expect(changes).toHaveLength(1);
      expect(await names(c)).toEqual([...before, 'open3'].sort());
    } finally {
      await c.close();
      await own.close();
    }
  });
});
