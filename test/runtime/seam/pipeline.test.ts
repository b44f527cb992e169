/**
 * Seam tools are ordinary entries of the generation's tool table and run only through the turn
 * tool pipeline: visibility filter, validation, approval through the turn's port, journal.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  APPROVAL_UNAVAILABLE,
  PermissionHost,
  createCapabilityHost,
  type ApprovalPort,
  type SeamToolContext,
  type ToolExecutionContext,
} from '../../../runtime/index.js';
import { Fixture, deferred, im, manifest } from '../fixture.js';
import { RecordingToolService, searchParameters, seamRoot, tool } from './helpers.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const fx = new Fixture('seam-pipeline');
afterAll(() => fx.cleanup());
const echoFile = fx.toolModule('echo');

const approveAll = (asked: string[] = []): ApprovalPort => ({
  async requestApproval(request) {
    asked.push(request.toolName);
    return true;
  },
});

function authenticated(): PermissionHost {
  const permissions = new PermissionHost();
  permissions.register('authenticated', (_permit, subject) => subject.sender?.id !== 'anon');
  return permissions;
}

async function hostWith(service: RecordingToolService, options: Parameters<typeof createCapabilityHost>[0] = {}) {
  const root = seamRoot((seams) => seams.registerToolService('global', service));
  // Seam tools bring JSON Schemas the compiler never saw: the runtime validator is needed.
  const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator(), ...options });
  await host.load(manifest({ tools: [fx.tool('echo', echoFile)] }), { plugins: { '': root.plugin } });
  return { host, root };
}

describe('projection into the tool table', () => {
  it('a seam tool is a table entry with source seam, provenance, defaults and the policy fields of its schema', async () => {
    const service = new RecordingToolService('acme:search', [
      tool('acme_search', {
        parameters: searchParameters,
        permissions: ['authenticated'],
        source: 'remote:acme',
        approval: 'never',
      }),
      tool('acme_fetch', { source: 'mcp:acme-docs', platforms: ['qq'], scopes: ['group'], keywords: ['docs'] }),
    ]);
    const { host } = await hostWith(service);
    const table = host.current!.tools;
    const search = table.get('acme_search')!;
    expect(search).toMatchObject({
      qualifiedName: 'acme_search',
      localName: 'acme_search',
      owner: '',
      source: 'seam',
      placement: 'plugin',
      requiresApproval: 'never',
      permissions: ['authenticated'],
      inputSchema: searchParameters,
      seam: { provider: 'acme:search', scope: 'global', name: 'acme_search', source: 'remote:acme' },
    });
    const fetch = table.get('acme_fetch')!;
    // Approval defaults to on-risk; an open object schema when none is given; MCP server parsed.
    expect(fetch).toMatchObject({
      requiresApproval: 'on-risk',
      inputSchema: { type: 'object' },
      platforms: ['qq'],
      scopes: ['group'],
      keywords: ['docs'],
    });
    expect(fetch.seam).toEqual({
      provider: 'acme:search',
      scope: 'global',
      name: 'acme_fetch',
      source: 'mcp:acme-docs',
      mcpServer: 'acme-docs',
    });
    // schema() is read once per generation, with the registration scope.
    expect(service.schemaScopes).toEqual(['global']);
    expect([...table.keys()].sort()).toEqual(['acme_fetch', 'acme_search', 'ask_user', 'echo']);
  });
});

describe('the one pipeline', () => {
  it('runs a seam tool through turn.execute with a journal and a live turn context', async () => {
    const service = new RecordingToolService('acme:search', [
      tool('acme_search', { parameters: searchParameters, approval: 'never', source: 'remote:acme' }),
    ]);
    const { host } = await hostWith(service);
    const turn = await host.beginTurn({ sessionKey: 'qq:group:1', message: im({ type: 'group' }) });
    const outcome = await turn.execute('acme_search', { query: 'zhin' }, { toolUseId: 'toolu_1' });
    expect(outcome).toMatchObject({
      status: 'completed',
      output: { provider: 'acme:search', tool: 'acme_search', input: { query: 'zhin' } },
    });
    expect(turn.journal.map((e) => [e.type, e.toolName, e.toolUseId])).toEqual([
      ['tool_call', 'acme_search', 'toolu_1'],
      ['tool_result', 'acme_search', 'toolu_1'],
    ]);
    expect(turn.journal[0]).toMatchObject({ source: 'seam', owner: '', input: { query: 'zhin' } });
    const [call] = service.calls;
    expect(call!.scope).toBe('global');
    const context = call!.context as SeamToolContext;
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context).toMatchObject({
      turnId: turn.id,
      sessionKey: 'qq:group:1',
      generation: 1,
      toolUseId: 'toolu_1',
      origin: 'im',
    });
    expect(context.policy).toEqual({ approval: 'never', decision: 'not-required' });
    expect((await turn.admittedTools()).map((t) => t.qualifiedName)).toContain('acme_search');
    await turn.end();
  });

  it('visibility filter: permissions, platforms and scopes deny with the unknown-tool answer, before the provider', async () => {
    const service = new RecordingToolService('acme:search', [
      tool('acme_search', { approval: 'never', permissions: ['authenticated'] }),
      tool('acme_group', { approval: 'never', platforms: ['qq'], scopes: ['group'] }),
    ]);
    const { host } = await hostWith(service, { permissions: authenticated() });
    const anon = await host.beginTurn({ sessionKey: 's', message: im({ user: 'anon', type: 'private' }) });
    expect(await anon.execute('acme_search', {})).toEqual({
      status: 'denied',
      policy: 'capability',
      reason: 'tool "acme_search" is not available',
    });
    expect(await anon.execute('acme_group', {})).toEqual({
      status: 'denied',
      policy: 'capability',
      reason: 'tool "acme_group" is not available',
    });
    expect(anon.journal.map((e) => e.type)).toEqual(['tool_denied', 'tool_denied']);
    expect((await anon.admittedTools()).map((t) => t.qualifiedName)).not.toContain('acme_search');
    expect(service.calls).toHaveLength(0);

    const member = await host.beginTurn({ sessionKey: 's', message: im({ user: 'u1', type: 'group' }) });
    expect(await member.execute('acme_search', {})).toMatchObject({ status: 'completed' });
    expect(await member.execute('acme_group', {})).toMatchObject({ status: 'completed' });
    // A non-IM turn never passes platform/scope restrictions.
    const system = await host.beginTurn({ sessionKey: 's' });
    expect(await system.execute('acme_group', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    await Promise.all([anon.end(), member.end(), system.end()]);
  });

  it('hidden seam tools are not listed but run by name through every gate', async () => {
    const service = new RecordingToolService('acme:search', [tool('acme_hidden', { hidden: true })]);
    const asked: string[] = [];
    const { host } = await hostWith(service, { approval: approveAll(asked) });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect((await turn.admittedTools()).map((t) => t.qualifiedName)).not.toContain('acme_hidden');
    expect(await turn.execute('acme_hidden', {})).toMatchObject({ status: 'completed' });
    expect(asked).toEqual(['acme_hidden']); // on-risk by default: asked
    await turn.end();
  });

  it('approval goes through the turn port; a refusal and an unattended turn are denied before the provider is called', async () => {
    const service = new RecordingToolService('acme:search', [
      tool('acme_write', { approval: 'on-risk' }),
      tool('acme_always', { approval: 'always' }),
    ]);
    const asked: string[] = [];
    const { host } = await hostWith(service, { approval: approveAll(asked) });

    const unattended = await host.beginTurn({ sessionKey: 'cron', unattended: true });
    expect(await unattended.execute('acme_write', {})).toEqual({
      status: 'denied',
      policy: 'approval',
      reason: APPROVAL_UNAVAILABLE,
    });
    expect(unattended.journal.map((e) => e.type)).toEqual(['tool_call', 'tool_denied']);
    expect(service.calls).toHaveLength(0);
    expect(asked).toEqual([]);

    const refusing = await host.beginTurn({ sessionKey: 's', approval: { requestApproval: async () => false } });
    expect(await refusing.execute('acme_always', {})).toEqual({
      status: 'denied',
      policy: 'approval',
      reason: 'approval denied',
    });
    expect(service.calls).toHaveLength(0);

    const attended = await host.beginTurn({ sessionKey: 's' });
    expect(await attended.execute('acme_write', {})).toMatchObject({ status: 'completed' });
    expect(asked).toEqual(['acme_write']);
    expect(service.calls[0]!.context!.policy).toEqual({ approval: 'on-risk', decision: 'approved' });
    await Promise.all([unattended.end(), refusing.end(), attended.end()]);
  });

  it('validates input against the schema parameters before approval and the provider', async () => {
    const service = new RecordingToolService('acme:search', [tool('acme_search', { parameters: searchParameters })]);
    const asked: string[] = [];
    const { host } = await hostWith(service, { approval: approveAll(asked) });
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('acme_search', { query: '' });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/query' },
      retryable: false,
    });
    expect(await turn.execute('acme_search', {})).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/query' },
    });
    expect(asked).toEqual([]);
    expect(service.calls).toHaveLength(0);
    await turn.end();
  });

  it('a thrown error, success: false and a malformed result are journaled as tool_failed', async () => {
    const service = new RecordingToolService(
      'acme:search',
      [
        tool('acme_throw', { approval: 'never' }),
        tool('acme_false', { approval: 'never' }),
        tool('acme_retry', { approval: 'never' }),
        tool('acme_bad', { approval: 'never' }),
      ],
      (call) => {
        if (call.toolName === 'acme_throw') throw new Error('remote exploded');
        if (call.toolName === 'acme_false') return { success: false, error: 'Unknown query' };
        if (call.toolName === 'acme_retry') return { success: false, error: 'rate limited', retryable: true };
        return { output: 'no success flag' } as never;
      },
    );
    const { host } = await hostWith(service);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('acme_throw', {})).toEqual({
      status: 'failed',
      error: { code: 'execution_error', message: 'remote exploded' },
      retryable: false,
    });
    expect(await turn.execute('acme_false', {})).toEqual({
      status: 'failed',
      error: { code: 'execution_error', message: 'Unknown query' },
      retryable: false,
    });
    expect(await turn.execute('acme_retry', {})).toEqual({
      status: 'failed',
      error: { code: 'execution_error', message: 'rate limited' },
      retryable: true,
    });
    expect(await turn.execute('acme_bad', {})).toMatchObject({
      status: 'failed',
      error: {
        code: 'execution_error',
        message: 'provider "acme:search" returned no valid ToolExecutionResult for "acme_bad"',
      },
    });
    const failed = turn.journal.filter((e) => e.type === 'tool_failed');
    expect(failed.map((e) => e.toolName)).toEqual(['acme_throw', 'acme_false', 'acme_retry', 'acme_bad']);
    expect(turn.journal.filter((e) => e.type === 'tool_call')).toHaveLength(4);
    await turn.end();
  });

  it('turn.end() aborts the provider signal of a call in flight; a later call is refused', async () => {
    const started = deferred<void>();
    const service = new RecordingToolService(
      'acme:search',
      [tool('acme_slow', { approval: 'never' })],
      async (call) => {
        started.resolve();
        const signal = call.context!.signal;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        signal.throwIfAborted();
        return { success: true, output: 'not reached' };
      },
    );
    const { host } = await hostWith(service);
    const turn = await host.beginTurn({ sessionKey: 's' });
    const running = turn.execute('acme_slow', {});
    await started.promise;
    await turn.end();
    expect(await running).toEqual({ status: 'cancelled', reason: 'aborted during execution' });
    expect(service.calls[0]!.context!.signal.aborted).toBe(true);
    expect(turn.journal.map((e) => e.type)).toEqual(['tool_call', 'tool_cancelled']);
    await expect(turn.execute('acme_slow', {})).rejects.toThrow(/has ended/);
    expect(service.calls).toHaveLength(1);
  });
});

describe('no side channel', () => {
  it('a captured executable does not run outside a live pipeline call', async () => {
    let captured: ToolExecutionContext | undefined;
    const service = new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })], (call) => {
      captured = call.context;
      return { success: true, output: 'ok' };
    });
    const { host } = await hostWith(service);
    const executable = await host.current!.tools.get('acme_search')!.resolve();
    const turn = await host.beginTurn({ sessionKey: 's' });
    const forged = { generation: 1, signal: new AbortController().signal } as unknown as ToolExecutionContext;
    await expect(executable.execute({}, forged)).rejects.toThrow(/runs only inside a turn tool call \(turn\.execute\)/);
    expect(await turn.execute('acme_search', {})).toMatchObject({ status: 'completed' });
    // The context of a finished call is no key either.
    await expect(executable.execute({}, captured!)).rejects.toMatchObject({ name: 'ToolUnavailableError' });
    expect(service.calls).toHaveLength(1);
    await turn.end();
  });

  it('a registration disposed after publish makes its tools fail closed as unavailable', async () => {
    const service = new RecordingToolService('acme:search', [tool('acme_search', { approval: 'never' })]);
    let dispose!: () => void;
    const root = seamRoot((seams) => void (dispose = seams.registerToolService('global', service)));
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root.plugin } });
    const turn = await host.beginTurn({ sessionKey: 's' });
    dispose();
    dispose(); // idempotent
    expect(await turn.execute('acme_search', {})).toEqual({
      status: 'failed',
      error: {
        code: 'unavailable',
        message: 'seam tool "acme_search" is unavailable: provider "acme:search" was released',
      },
      retryable: false,
    });
    expect(service.calls).toHaveLength(0);
    await turn.end();
  });

  it("registering into a published generation's integration has no effect on it", async () => {
    const late = new RecordingToolService('acme:late', [tool('acme_late', { approval: 'never' })]);
    const root = seamRoot((seams) =>
      seams.registerToolService('global', new RecordingToolService('acme:search', [tool('acme_search')])),
    );
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root.plugin } });
    const dispose = root.integrations[0]!.registerToolService('global', late);
    expect(host.current!.tools.has('acme_late')).toBe(false);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('acme_late', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(late.calls).toHaveLength(0);
    dispose();
    await turn.end();
  });
});
