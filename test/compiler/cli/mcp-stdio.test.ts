/**
 * `zhin-gen mcp`'s stdio channel as scripts and clients use it, in raw JSON-RPC lines (the real
 * CLI as a subprocess): the bot's own stdout writes stay off the channel, requests piped in
 * just before stdin closes are answered, a client that stops reading ends the session without
 * a crash, an unknown `--agent` is refused before serving, and a client that declares URL-mode
 * elicitation only is not offered `ask_user`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, cli, removeDir, tempDir, writeTree } from '../../helpers.js';

const LOUD = `import { defineAgentTool } from 'zhin-gen/runtime';
console.log('a module of the bot logging at import');
export default defineAgentTool({
  description: 'Logs to stdout, then answers',
  flavour: 'loud',
  requiresApproval: 'never',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    console.log('polluting stdout');
    process.stdout.write('raw write\\n');
    return 'quiet answer';
  },
});
`;
let root: string;
beforeAll(() => {
  root = tempDir('cli-mcp-stdio');
  writeTree(root, {
    'tools/loud/index.ts': LOUD,
    'tools/slow/index.ts':
      "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Takes a while', requiresApproval: 'never', inputSchema: { type: 'object', properties: {} }, execute: () => new Promise((resolve) => setTimeout(() => resolve('late'), 1500)) });\n",
    'tools/guarded/index.ts':
      "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Needs a yes', requiresApproval: 'always', inputSchema: { type: 'object', properties: {} }, execute: () => 'ran' });\n",
    'AGENTS.md': '# Bot\n\nHelpful.\n',
  });
  expect(cli(['generate', '--root', root]).status).toBe(0);
});
afterAll(() => removeDir(root));

const line = (message: object): string => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const initialize = (capabilities: object = {}): string =>
  line({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'script', version: '1' } },
  }) + line({ method: 'notifications/initialized' });

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Pipes `input` into `zhin-gen mcp` and closes stdin at once; resolves when the server exits. */
function pipe(input: string, args: readonly string[] = []): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'mcp', '--root', root, ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('zhin-gen mcp over stdio', () => {
  it('answers what was piped in before stdin closed, and keeps the bot’s stdout off the channel', async () => {
    const run = await pipe(
      initialize() + line({ id: 2, method: 'tools/call', params: { name: 'loud', arguments: {} } }),
    );
    expect(run.code).toBe(0);
    const messages = run.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { id?: number; result?: { content?: { text: string }[] } });
    expect(messages.map((m) => m.id)).toEqual([1, 2]);
    expect(messages[1]!.result?.content?.[0]?.text).toBe('quiet answer');
    expect(run.stderr).toContain('polluting stdout');
    expect(run.stderr).toContain('raw write');
    expect(run.stderr).toContain('a module of the bot logging at import');
    // Warnings are printed (stderr carries diagnostics), and serving goes on.
    expect(run.stderr).toMatch(/tools\/loud\/index\.ts:\d+:\d+ +warning +ZG2010/);
  });

  it('a request the client cancelled is not waited for when stdin closes (it gets no response)', async () => {
    const run = await pipe(
      initialize() +
        line({ id: 2, method: 'tools/call', params: { name: 'slow', arguments: {} } }) +
        line({ method: 'notifications/cancelled', params: { requestId: 2 } }),
    );
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((text) => (JSON.parse(text) as { id?: number }).id),
    ).toEqual([1]);
  });

  it('stdin closed while a call waits on its approval: the elicitation fails, the call is denied, exit 0 at once', async () => {
    const started = Date.now();
    const run = await pipe(
      initialize({ elicitation: { form: {} } }) +
        line({ id: 2, method: 'tools/call', params: { name: 'guarded', arguments: {} } }),
      ['--platform', 'qq', '--scope', 'group'],
    );
    expect(run.code).toBe(0);
    // It waited for nothing: the elicitation (a ten-minute timeout) had no one to answer it.
    expect(Date.now() - started).toBeLessThan(8000);
    const messages = run.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { id?: number; method?: string; result?: { isError?: boolean } });
    expect(messages.some((m) => m.method === 'elicitation/create')).toBe(true);
    const answer = messages.find((m) => m.id === 2 && m.method === undefined);
    expect(answer?.result?.isError).toBe(true);
  });

  it('a client that stops reading ends the session: exit 0, no stack trace', async () => {
    const child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'mcp', '--root', root], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write(initialize());
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    // `| head -c 10`: the reader goes away, the server writes on.
    child.stdout.destroy();
    for (let id = 2; id < 40; id++) child.stdin.write(line({ id, method: 'tools/list' }));
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/Unhandled|EPIPE|\n\s+at /);
  });

  it('without @modelcontextprotocol/sdk installed: what to install, exit 1, before compiling (no internal error)', () => {
    // The SDK resolved as a package that is not installed: Node's own resolution error, as in a
    // bot that has only zhin-gen and the runtime (the SDK is an optional peer).
    const hook = `export async function resolve(specifier, context, next) {
  return next(specifier.replace(/^@modelcontextprotocol\\/sdk\\//, '@modelcontextprotocol/sdk-not-installed/'), context);
}`;
    const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        `data:text/javascript,${encodeURIComponent(register)}`,
        join(REPO, 'bin', 'zhin-gen.mjs'),
        'mcp',
        '--root',
        root,
      ],
      { input: '', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'zhin-gen mcp: @modelcontextprotocol/sdk is not installed (an optional peer of @zhin-gen/runtime, needed to serve MCP)',
    );
    expect(run.stderr).toContain('hint: npm i -D @modelcontextprotocol/sdk');
    expect(run.stderr).not.toMatch(/internal error|ZG9001|\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it('refuses an unknown --agent before serving', async () => {
    const run = await pipe(initialize(), ['--agent', 'nosuch']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('zhin-gen mcp: unknown agent "nosuch" (the bot has no agents)');
    expect(run.stdout).toBe('');
  });

  it('does not offer ask_user to a client that declares URL-mode elicitation only', async () => {
    const listed = async (capabilities: object): Promise<string[]> => {
      const run = await pipe(initialize(capabilities) + line({ id: 2, method: 'tools/list' }));
      const reply = run.stdout
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text) as { id?: number; result?: { tools?: { name: string }[] } })
        .find((m) => m.id === 2);
      return (reply?.result?.tools ?? []).map((tool) => tool.name).sort();
    };
    expect(await listed({ elicitation: { url: {} } })).not.toContain('ask_user');
    expect(await listed({ elicitation: { form: {} } })).toContain('ask_user');
    expect(await listed({ elicitation: {} })).toContain('ask_user');
  });
});
