/**
 * MCP servers as Capability Seam providers, against real server processes over stdio: the
 * registry's `@modelcontextprotocol/server-everything`, and a small SDK server whose tool list
 * changes. Only turns are driven by the test; every call goes through the real pipeline.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CandidateRejectedError } from '../../../runtime/index.js';
import { Fixture, manifest } from '../fixture.js';
import { DYNAMIC, alive, everything, mcpHost, pidOf, waitFor } from './helpers.js';

const fx = new Fixture('mcp-client');
afterAll(() => fx.cleanup());
const echoFile = fx.toolModule('echo', { body: 'return "feature echo";' });
const pingFile = fx.toolModule('ping', { body: 'return "pong";' });

const plain = () => manifest({ tools: [fx.tool('ping', pingFile)] });
const withEcho = () => manifest({ tools: [fx.tool('ping', pingFile), fx.tool('echo', echoFile)] });

describe('server-everything through the seam', () => {
  it('lists its tools in discover (server filter), loads one, runs it through approval and the journal', async () => {
    const pidFile = join(fx.dir, 'everything-1.pid');
    const h = mcpHost({ everything: everything(pidFile) }, plain, { approve: () => true });
    await h.load();
    try {
      const binding = h.host.current!.tools.get('get-sum')!;
      expect(binding).toMatchObject({ source: 'seam', requiresApproval: 'on-risk' });
      expect(binding.seam).toMatchObject({
        provider: 'mcp:everything',
        source: 'mcp:everything',
        mcpServer: 'everything',
      });

      const turn = await h.host.beginTurn({ sessionKey: 's1', question: { ask: async () => 'x' } });
      const found = await turn.execute('discover', { query: 'sum of two numbers', mcp_server: 'everything' });
      expect(found.status).toBe('completed');
      const results = (found as { output: { results: { name: string; mcp_server?: string }[] } }).output.results;
      expect(results[0]).toMatchObject({ name: 'get-sum', mcp_server: 'everything' });
      // The filter names only this server's tools: the feature tool never matches it.
      const other = await turn.execute('discover', { query: 'ping', mcp_server: 'everything' });
      expect((other as { output: { results: { name: string }[] } }).output.results.map((r) => r.name)).not.toContain(
        'ping',
      );

      expect((await turn.execute('load_tool', { name: 'get-sum' })).status).toBe('completed');
      const sent = (await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name);
      expect(sent).toContain('get-sum');

      const outcome = await turn.execute('get-sum', { a: 2, b: 40 });
      expect(outcome).toMatchObject({ status: 'completed', output: 'The sum of 2 and 40 is 42.' });
      expect(h.approvals.map((a) => a.toolName)).toEqual(['get-sum']);
      const invalid = await turn.execute('get-sum', { a: 'two' });
      expect(invalid).toMatchObject({ status: 'failed', error: { code: 'invalid_input' } });
      await turn.end();
      const sum = h.journal.filter((entry) => entry.toolName === 'get-sum').map((entry) => entry.type);
      expect(sum).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_failed']);
      expect(h.journal.find((e) => e.toolName === 'get-sum' && e.type === 'tool_call')).toMatchObject({
        source: 'seam',
      });
    } finally {
      await h.host.close();
    }
    await waitFor('the server process to end with its last generation', () => !alive(pidOf(pidFile)));
    expect(h.mcp.openConnections).toBe(0);
  });

  it('denied approval never reaches the server; deferredTools.mcpServers makes its tools always loaded', async () => {
    const h = mcpHost({ everything: everything(join(fx.dir, 'everything-2.pid')) }, plain, {
      approve: () => false,
      config: { deferredTools: { mcpServers: { everything: { alwaysLoaded: ['echo'] } } } },
    });
    await h.load();
    try {
      const turn = await h.host.beginTurn({ sessionKey: 's2' });
      const sent = (await turn.modelTools({ provider: 'openai' })).map((tool) => tool.function.name);
      expect(sent).toContain('echo');
      expect(sent).not.toContain('get-sum');
      const outcome = await turn.execute('echo', { message: 'hi' });
      expect(outcome).toMatchObject({ status: 'denied', policy: 'approval', reason: 'approval denied' });
      expect(h.journal.map((e) => e.type)).toEqual(['tool_call', 'tool_denied']);
      await turn.end();
      const unattended = await h.host.beginTurn({ sessionKey: 's2', unattended: true });
      expect(await unattended.execute('echo', { message: 'hi' })).toMatchObject({
        status: 'denied',
        policy: 'approval',
      });
      await unattended.end();
    } finally {
      await h.host.close();
    }
  });

  it('trusted readOnlyHint waives on-risk; destructiveHint asks every time, even when trusted', async () => {
    const h = mcpHost(
      {
        everything: everything(join(fx.dir, 'everything-3.pid'), { trustAnnotations: true }),
        dynamic: { command: process.execPath, args: [DYNAMIC], trustAnnotations: true },
      },
      plain,
      { approve: () => true },
    );
    await h.load();
    try {
      const tools = h.host.current!.tools;
      expect(tools.get('get-sum')!.requiresApproval).toBe('never');
      expect(tools.get('toggle-simulated-logging')!.requiresApproval).toBe('on-risk');
      expect(tools.get('wipe')!.requiresApproval).toBe('always');
      const turn = await h.host.beginTurn({ sessionKey: 's3' });
      expect(await turn.execute('get-sum', { a: 1, b: 1 })).toMatchObject({ status: 'completed' });
      expect(await turn.execute('wipe', {})).toMatchObject({ status: 'completed', output: 'wiped' });
      expect(await turn.execute('wipe', {})).toMatchObject({ status: 'completed' });
      expect(h.approvals.map((a) => a.toolName)).toEqual(['wipe', 'wipe']);
      // A tool's own error result is its answer: tool_failed with the server's text.
      expect(await turn.execute('fail', { why: 'no' })).toMatchObject({
        status: 'failed',
        error: { code: 'execution_error', message: 'refused: no' },
      });
      await turn.end();
    } finally {
      await h.host.close();
    }
  });

  it('a server killed mid-call fails that call (tool_failed), the host keeps running', async () => {
    const pidFile = join(fx.dir, 'everything-4.pid');
    const h = mcpHost({ everything: everything(pidFile, { approval: 'never' }) }, plain);
    await h.load();
    try {
      const turn = await h.host.beginTurn({ sessionKey: 's4' });
      const call = turn.execute('trigger-long-running-operation', { duration: 5, steps: 5 });
      await waitFor('the call to reach the server', () => h.journal.some((e) => e.type === 'tool_call'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(pidOf(pidFile), 'SIGKILL');
      const outcome = await call;
      expect(outcome).toMatchObject({ status: 'failed', error: { code: 'execution_error' } });
      expect((outcome as { error: { message: string } }).error.message).toMatch(
        /MCP server "everything" closed the connection/,
      );
      expect(h.journal.at(-1)).toMatchObject({ type: 'tool_failed', toolName: 'trigger-long-running-operation' });
      // Later calls on that generation fail the same way; the feature tool is unaffected.
      expect(await turn.execute('get-sum', { a: 1, b: 2 })).toMatchObject({ status: 'failed' });
      expect(await turn.execute('ping', {})).toMatchObject({ status: 'completed', output: 'pong' });
      await turn.end();
      // The next generation connects again.
      await h.load();
      const next = await h.host.beginTurn({ sessionKey: 's4' });
      expect(await next.execute('get-sum', { a: 1, b: 2 })).toMatchObject({ status: 'completed' });
      await next.end();
    } finally {
      await h.host.close();
    }
  });

  it('a server tool clashing with a feature tool rejects the candidate; the previous generation keeps serving', async () => {
    let current = plain;
    const pidFile = join(fx.dir, 'everything-5.pid');
    const h = mcpHost({ everything: everything(pidFile, { approval: 'never' }) }, () => current());
    await h.load();
    try {
      const leased = await h.host.beginTurn({ sessionKey: 's5' });
      current = withEcho;
      const rejected = await h.load().catch((error: unknown) => error);
      expect(rejected).toBeInstanceOf(CandidateRejectedError);
      expect(String((rejected as Error).message)).toMatch(
        /duplicate tool name "echo": feature tool "echo" of root plugin and seam tool "echo" of provider "mcp:everything" \(scope global, mcp:everything\)/,
      );
      expect(h.host.generation).toBe(1);
      // The rejected candidate only dropped its reference: the shared connection still serves.
      expect(h.mcp.openConnections).toBe(1);
      expect(await leased.execute('echo', { message: 'still here' })).toMatchObject({
        status: 'completed',
        output: 'Echo: still here',
      });
      await leased.end();
      const fresh = await h.host.beginTurn({ sessionKey: 's5' });
      expect(fresh.generation).toBe(1);
      expect(await fresh.execute('get-sum', { a: 3, b: 4 })).toMatchObject({ status: 'completed' });
      await fresh.end();
    } finally {
      await h.host.close();
    }
    await waitFor('the server to stop', () => !alive(pidOf(pidFile)));
  });
});

describe('tools/list_changed', () => {
  it('prepares a new generation with the new list; a turn in flight keeps its own', async () => {
    const h = mcpHost({ dynamic: { command: process.execPath, args: [DYNAMIC], approval: 'never' } }, plain);
    await h.load();
    try {
      const before = await h.host.beginTurn({ sessionKey: 's6' });
      expect(h.host.current!.tools.has('revealed')).toBe(false);
      expect(await before.execute('reveal', {})).toMatchObject({ status: 'completed', output: 'revealed' });
      await waitFor('the reload', () => h.host.generation === 2);
      await h.mcp.idle();
      expect(h.host.current!.tools.get('revealed')).toMatchObject({ source: 'seam', seam: { mcpServer: 'dynamic' } });
      // Generation 1 is still leased by `before`, and still has only its own list.
      expect(before.generation).toBe(1);
      expect(await before.execute('revealed', {})).toMatchObject({ status: 'denied', policy: 'capability' });
      const after = await h.host.beginTurn({ sessionKey: 's6' });
      expect(await after.execute('revealed', {})).toMatchObject({ status: 'completed', output: 'you found me' });
      await after.end();
      await before.end();
      // One process served both generations (the reload reused the session).
      expect(h.mcp.openConnections).toBe(1);
      expect(h.errors).toEqual([]);
    } finally {
      await h.host.close();
    }
  });

  it('a list change that clashes is rejected and reported; the previous generation keeps serving', async () => {
    const h = mcpHost(
      { dynamic: { command: process.execPath, args: [DYNAMIC], approval: 'never', env: { REVEALED_NAME: 'ping' } } },
      plain,
    );
    await h.load();
    try {
      const turn = await h.host.beginTurn({ sessionKey: 's7' });
      await turn.execute('reveal', {});
      await turn.end();
      await waitFor('the rejected reload to be reported', () => h.errors.length > 0);
      expect(h.errors[0]!.message).toMatch(
        /MCP server "dynamic" changed its tools; the new generation was rejected: .*duplicate tool name "ping"/,
      );
      expect(h.host.generation).toBe(1);
      const next = await h.host.beginTurn({ sessionKey: 's7' });
      expect(await next.execute('ping', {})).toMatchObject({ status: 'completed', output: 'pong' });
      await next.end();
    } finally {
      await h.host.close();
    }
  });
});

describe('configuration', () => {
  it('a bad server list throws one message naming every problem; a server that cannot start rejects the load', async () => {
    const { createMcpServers } = await import('../../../runtime/mcp/index.js');
    expect(() =>
      createMcpServers({
        servers: {
          'bad name': { command: 'x' },
          ok: { url: 'ftp://x' },
          both: { command: 'a', url: 'http://b' },
        } as never,
      }),
    ).toThrow(
      'mcpServers.bad name: server name "bad name" must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$ (it becomes the source mcp:bad name); mcpServers.ok.url: `url` must be an http:// or https:// URL, got "ftp://x"; mcpServers.both: sets both `command` (stdio) and `url` (Streamable HTTP); choose one',
    );
    const h = mcpHost({ missing: { command: join(fx.dir, 'no-such-server') } }, plain);
    // The cause is named (it read "closed by its generation; the previous generation keeps serving").
    const failed = (await h.load().catch((e: unknown) => e)) as Error;
    expect(failed.message).toMatch(/MCP server "missing": .*ENOENT.*; no generation is serving yet$/);
    expect(failed.message).not.toContain('closed by its generation');
    expect(h.host.generation).toBe(0);
    const refused = mcpHost({ refused: { url: 'http://127.0.0.1:1/mcp' } }, plain);
    const unreachable = (await refused.load().catch((e: unknown) => e)) as Error;
    expect(unreachable.message).toMatch(/MCP server "refused": .*the server closed the connection \(fetch failed/);
    await refused.host.close();
    const optional = mcpHost({ missing: { command: join(fx.dir, 'no-such-server'), optional: true } }, plain);
    await optional.load();
    expect(optional.host.current!.tools.has('ping')).toBe(true);
    expect(optional.errors[0]!.message).toMatch(
      /MCP server "missing": .*\(optional: its tools are left out of this generation\)/,
    );
    await optional.host.close();
  });
});
