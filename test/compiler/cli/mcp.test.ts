/**
 * `zhin-gen mcp` as an MCP client sees it: the official SDK's Client drives the built CLI over
 * stdio on a copy of fixtures/example-bot (whose config also names an MCP server, so both
 * directions meet: that server's tools are served through the bot's catalog).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, cli, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';

const TOOL =
  "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 't', requiresApproval: 'never', inputSchema: { type: 'object', properties: {} }, execute: () => 1 });\n";
const DYNAMIC = join(REPO, 'test', 'runtime', 'mcp', 'dynamic-server.mjs');
let root: string;
beforeAll(() => {
  root = copyFixture('example-bot', 'cli-mcp');
  const mcpServers = { dynamic: { command: process.execPath, args: [DYNAMIC], approval: 'never' } };
  writeFileSync(join(root, 'zhin-gen.config.json'), `${JSON.stringify({ mcpServers }, null, 2)}\n`);
});
afterAll(() => removeDir(root));

interface Session {
  readonly client: Client;
  readonly elicited: string[];
  readonly changes: number[];
}

async function connect(args: readonly string[], answer?: (message: string) => boolean): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO, 'bin', 'zhin-gen.mjs'), 'mcp', '--root', root, ...args],
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  const session: Session = { client, elicited: [], changes: [] };
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      session.elicited.push(request.params.message);
      const schema = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
      if (schema?.properties?.answer) return { action: 'accept', content: { answer: 'blue' } };
      const approve = answer(request.params.message);
      return approve ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
    });
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void session.changes.push(Date.now()));
  await client.connect(transport);
  return session;
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('zhin-gen mcp', () => {
  it('lists what each principal admits, runs calls through the pipeline, denies like an unknown tool', async () => {
    const anonymous = await connect(['--all-tools']);
    const member = await connect(['--all-tools', '--platform', 'qq', '--scope', 'group', '--user', 'u1']);
    try {
      const shared = ['discover', 'echo', 'fail', 'load_skill', 'load_tool', 'reveal', 'short-url', 'wipe'];
      expect(await names(anonymous.client)).toEqual(shared);
      // The group member also gets the scoped tool; hidden, agent and skill tools and the admin's
      // mute (platform icqq + permission) appear for neither.
      expect(await names(member.client)).toEqual([...shared, 'maps__get-weather'].sort());

      const weather = await member.client.callTool({ name: 'maps__get-weather', arguments: { city: 'Paris' } });
      expect(weather.isError).toBe(false);
      expect(JSON.parse(text(weather))).toEqual({ city: 'Paris', unit: 'c', temperature: 21 });

      const forbidden = await anonymous.client.callTool({ name: 'maps__get-weather', arguments: { city: 'Paris' } });
      const unknown = await anonymous.client.callTool({ name: 'no-such-tool', arguments: {} });
      expect(forbidden.isError).toBe(true);
      expect(text(forbidden)).toBe('tool "maps__get-weather" is not available');
      expect(text(unknown)).toBe('tool "no-such-tool" is not available');
      const invalid = await member.client.callTool({ name: 'maps__get-weather', arguments: { city: '' } });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toMatch(/^invalid input at \/city/);

      // A client without elicitation cannot be asked: an on-risk tool is denied, fail closed.
      const unasked = await anonymous.client.callTool({ name: 'echo', arguments: { message: 'hi' } });
      expect([unasked.isError, text(unasked)]).toEqual([
        true,
        "This call needs the user's approval, which cannot be asked for in this conversation.",
      ]);
      // The config's MCP server is served through the same catalog and pipeline.
      const wiped = await member.client.callTool({ name: 'wipe', arguments: {} });
      expect([wiped.isError, text(wiped)]).toEqual([false, 'wiped']);
    } finally {
      await Promise.all([anonymous.client.close(), member.client.close()]);
    }
  });

  it('asks approval and ask_user through elicitation; list_changed after load_skill brings its tools', async () => {
    const session = await connect([], (message) => !message.includes('"no"'));
    try {
      const first = await names(session.client);
      expect(first).toEqual(['ask_user', 'discover', 'load_skill', 'load_tool']);

      const approved = await session.client.callTool({ name: 'echo', arguments: { message: 'yes' } });
      expect([approved.isError, text(approved)]).toEqual([false, 'echo: yes']);
      expect(session.elicited).toHaveLength(1);
      expect(session.elicited[0]).toContain('echo');
      const declined = await session.client.callTool({ name: 'echo', arguments: { message: 'no' } });
      expect([declined.isError, text(declined)]).toEqual([true, 'The user did not approve this call.']);

      const asked = await session.client.callTool({ name: 'ask_user', arguments: { question: 'Favourite colour?' } });
      expect(asked.isError).toBe(false);
      expect(text(asked)).toContain('blue');
      expect(session.elicited.at(-1)).toBe('Favourite colour?');

      const found = JSON.parse(
        text(await session.client.callTool({ name: 'discover', arguments: { query: 'notes', mcp_server: 'dynamic' } })),
      ) as { results: { name: string; mcp_server: string }[] };
      expect(found.results.map((r) => [r.name, r.mcp_server])).toContainEqual(['wipe', 'dynamic']);

      const loaded = await session.client.callTool({ name: 'load_skill', arguments: { name: 'short-url' } });
      expect(loaded.isError).toBe(false);
      const until = Date.now() + 5000;
      while (session.changes.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(session.changes).toHaveLength(1);
      expect(await names(session.client)).toEqual([...first, 'short-url', 'short-url__normalize'].sort());
    } finally {
      await session.client.close();
    }
  });

  it('usage errors and tree errors exit before serving anything', () => {
    const usage = cli(['mcp', '--root', root, '--scope', 'group']);
    expect(usage.status).toBe(64);
    expect(usage.stderr).toContain('--platform P and --scope S go together');
    expect(usage.stdout).toBe('');
    const help = cli(['mcp', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: zhin-gen mcp [--root DIR]');
  });

  it("a tree with errors, or a plugin that throws on import: the bot's error on stderr, exit 1, nothing served", () => {
    const broken = tempDir('cli-mcp-broken');
    const throwing = tempDir('cli-mcp-throwing');
    const commonjs = tempDir('cli-mcp-commonjs');
    try {
      const tool = (body: string) => ({ 'tools/t/index.ts': body });
      writeTree(broken, tool('export default 5;\n'));
      writeTree(throwing, {
        ...tool(TOOL),
        'plugin.ts':
          "import { definePlugin } from 'zhin-gen/runtime';\nthrow new Error('plugin exploded at import');\nexport default definePlugin({ name: 'x' });\n",
      });
      const errors = cli(['mcp', '--root', broken]);
      expect(errors.status).toBe(1);
      expect(errors.stderr).toContain('ZG2002');
      expect(errors.stderr).toContain('zhin-gen mcp: the tree has errors; fix them first');
      expect(errors.stdout).toBe('');
      const threw = cli(['mcp', '--root', throwing]);
      expect(threw.status).toBe(1);
      expect(threw.stderr).toMatch(/^zhin-gen mcp: importing .* failed: plugin exploded at import$/m);
      expect(threw.stderr).not.toContain('internal error');
      expect(threw.stdout).toBe('');
      // A CommonJS package: Node's bare syntax error comes with why and the fix.
      writeTree(commonjs, { ...tool(TOOL), 'package.json': '{ "name": "cjs-bot", "type": "commonjs" }\n' });
      const cjs = cli(['mcp', '--root', commonjs]);
      expect(cjs.status).toBe(1);
      expect(cjs.stderr).toMatch(/^zhin-gen mcp: importing zhin-capabilities\.gen\.ts failed: /m);
      expect(cjs.stderr).toContain('hint: package.json has no "type": "module"; add "type": "module" to package.json');
      expect(cjs.stdout).toBe('');
    } finally {
      removeDir(broken);
      removeDir(throwing);
      removeDir(commonjs);
    }
  });
});
