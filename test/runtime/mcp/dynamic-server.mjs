// A real MCP server process (the official SDK's McpServer over stdio) whose tool list changes
// at run time: calling `reveal` registers `revealed`, and the SDK sends
// notifications/tools/list_changed. `wipe` declares destructiveHint. Used by the MCP client tests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'dynamic', version: '1.0.0' });
server.registerTool(
  'wipe',
  { description: 'Deletes every note', inputSchema: {}, annotations: { readOnlyHint: false, destructiveHint: true } },
  async () => ({ content: [{ type: 'text', text: 'wiped' }] }),
);
server.registerTool(
  'fail',
  { description: 'Always reports an error', inputSchema: { why: z.string() } },
  async ({ why }) => ({ content: [{ type: 'text', text: `refused: ${why}` }], isError: true }),
);
let revealed = false;
server.registerTool('reveal', { description: 'Adds the tool "revealed"', inputSchema: {} }, async () => {
  if (!revealed) {
    revealed = true;
    server.registerTool(
      process.env.REVEALED_NAME ?? 'revealed',
      { description: 'Only listed after reveal', inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: 'you found me' }] }),
    );
  }
  return { content: [{ type: 'text', text: 'revealed' }] };
});
await server.connect(new StdioServerTransport());
