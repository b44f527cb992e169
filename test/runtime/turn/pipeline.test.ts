import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PermissionHost, createCapabilityHost, type JournalEntry } from '../../../runtime/index.js';
import { Fixture, events, im, loadedModules, manifest, resetGlobals } from '../fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';
import { pipelineTools, types } from './pipeline-tools.js';

const fx = new Fixture('pipeline');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const { plainTool, hiddenTool, baseManifest } = pipelineTools(fx);

describe('lazy tool modules', () => {
  it('imports nothing at host.load or beginTurn, and only the executed module afterwards', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.admittedTools();
    expect(loadedModules()).toEqual([]);
    await turn.execute('plain', {});
    expect(loadedModules()).toEqual(['plain']);
    await turn.execute('plain', {});
    expect(loadedModules()).toEqual(['plain']);
    await turn.execute('secret', {}); // denied: never imported
    await turn.execute('json', {}); // invalid input: imported (validation needs the definition), never executed
    expect(loadedModules()).toEqual(['plain', 'json']);
    expect(events()).toEqual(['execute:plain', 'execute:plain']);
    await turn.end();
  });
});

describe('journal and outcomes', () => {
  it('completed: tool_call then tool_result with timing', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('plain', { a: 1 }, { toolUseId: 'tu_1' });
    expect(outcome).toMatchObject({ status: 'completed', output: { echo: { a: 1 }, owner: '' } });
    expect(outcome.status === 'completed' && outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_result']);
    const [call, result] = turn.journal;
    expect(call).toMatchObject({
      seq: 0,
      toolName: 'plain',
      toolUseId: 'tu_1',
      input: { a: 1 },
      owner: '',
      source: 'feature',
      generation: 1,
    });
    expect(result).toMatchObject({
      seq: 1,
      toolName: 'plain',
      toolUseId: 'tu_1',
      output: { echo: { a: 1 }, owner: '' },
      afterAbort: false,
    });
    expect(typeof result!.at).toBe('number');
    expect(result!.type === 'tool_result' && result!.durationMs >= result!.executionMs).toBe(true);
    expect(Object.isFrozen(call)).toBe(true);
    expect(() => (turn.journal as JournalEntry[]).push(call!)).toThrow();
    await turn.end();
  });

  it('unknown tool: only tool_denied (capability); inaccessible tool: the identical answer', async () => {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ role: 'user' }) });
    const unknown = await turn.execute('nope', {}, { toolUseId: 'a' });
    const denied = await turn.execute('secret', {}, { toolUseId: 'b' });
    expect(unknown).toEqual({ status: 'denied', policy: 'capability', reason: 'tool "nope" is not available' });
    expect(denied).toEqual({ status: 'denied', policy: 'capability', reason: 'tool "secret" is not available' });
    expect(types(turn.journal)).toEqual(['tool_denied', 'tool_denied']);
    const strip = (entry: JournalEntry) => {
      const { seq: _s, at: _a, toolName: _n, toolUseId: _u, ...rest } = entry as JournalEntry & { reason: string };
      return { ...rest, reason: rest.reason.replace(/"[^"]+"/, 'X') };
    };
    expect(strip(turn.journal[0]!)).toEqual(strip(turn.journal[1]!));
    expect(loadedModules()).toEqual([]);
    await turn.end();
  });

  it('a principal with access runs the gated tool', async () => {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's', message: im({ role: 'master' }) });
    expect(await turn.execute('secret', {})).toMatchObject({ status: 'completed' });
    await turn.end();
  });

  it('names are exact: a case variant of a tool name is unknown', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('Plain', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    await turn.end();
  });

  it('invalid input (Zod) → tool_failed naming the path; execute never runs', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('weather', { city: 42 });
    expect(outcome).toMatchObject({
      status: 'failed',
      retryable: false,
      error: { code: 'invalid_input', path: '/city' },
    });
    expect(outcome.status === 'failed' && outcome.error.message).toMatch(
      /^invalid input at \/city: .*expected string/i,
    );
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_failed']);
    expect(events()).toEqual([]);
    // Zod output (defaults) is what execute receives.
    expect(await turn.execute('weather', { city: 'Paris' })).toMatchObject({ output: { city: 'Paris', days: 3 } });
    await turn.end();
  });

  it('invalid input (hand-made manifest JSON Schema, runtime Ajv) → tool_failed naming the missing property', async () => {
    // A hand-made manifest has no generated validators: its JSON Schema tool needs the runtime one.
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const missing = await turn.execute('json', {});
    expect(missing).toMatchObject({ status: 'failed', error: { code: 'invalid_input', path: '/m' } });
    expect(missing.status === 'failed' && missing.error.message).toContain("must have required property 'm'");
    const wrongType = await turn.execute('json', { m: 1 });
    expect(wrongType).toMatchObject({
      status: 'failed',
      error: { path: '/m', message: 'invalid input at /m: must be string' },
    });
    const root = await turn.execute('json', 'text' as never);
    expect(root).toMatchObject({ status: 'failed', error: { path: '(root)' } });
    expect(await turn.execute('json', { m: 'ok' })).toMatchObject({ status: 'completed' });
    expect(types(turn.journal)).toEqual([
      'tool_call',
      'tool_failed',
      'tool_call',
      'tool_failed',
      'tool_call',
      'tool_failed',
      'tool_call',
      'tool_result',
    ]);
    await turn.end();
  });

  it('a throwing tool → tool_failed with its message and retryable flag', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('failing', {})).toEqual({
      status: 'failed',
      retryable: true,
      error: { code: 'execution_error', message: 'upstream 503' },
    });
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_failed']);
    await turn.end();
  });

  it('a module without a defineAgentTool default export → tool_failed load_failed', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('broken', {});
    expect(outcome).toMatchObject({ status: 'failed', error: { code: 'load_failed' } });
    expect(outcome.status === 'failed' && outcome.error.message).toMatch(/does not default-export defineAgentTool/);
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_failed']);
    await turn.end();
  });

  it('does not cache a failed import: the next call retries', async () => {
    let attempts = 0;
    const flaky = fx.tool('flaky', plainTool);
    const host = createCapabilityHost();
    await host.load(
      manifest({
        tools: [
          {
            ...flaky,
            load: () => (++attempts === 1 ? Promise.reject(new Error('network down')) : flaky.load()),
          },
        ],
      }),
    );
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('flaky', {})).toMatchObject({
      status: 'failed',
      error: { code: 'load_failed', message: 'tool module tools/plain/index.ts failed to load: network down' },
    });
    expect(await turn.execute('flaky', {})).toMatchObject({ status: 'completed' });
    expect(attempts).toBe(2);
    await turn.end();
  });

  it('feeds every entry to the host journal sink, in order', async () => {
    const seen: string[] = [];
    const host = createCapabilityHost({
      journal: { record: (entry, meta) => void seen.push(`${meta.sessionKey}:${entry.type}:${entry.toolName}`) },
    });
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's9' });
    await turn.execute('plain', {});
    await turn.execute('nope', {});
    expect(seen).toEqual(['s9:tool_call:plain', 's9:tool_result:plain', 's9:tool_denied:nope']);
    await turn.end();
  });

  it('rejects execute after the turn ended', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    await turn.end();
    expect(turn.state).toBe('ended');
    await expect(turn.execute('plain', {})).rejects.toThrow(/has ended/);
  });
});

describe('hidden tools and non-IM turns', () => {
  it('hidden tools are not listed but run by name through the same gates', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    const listed = (await turn.admittedTools()).map((tool) => tool.qualifiedName);
    expect(listed).not.toContain('hidden');
    expect(listed).toContain('plain');
    expect(listed).toContain('ask_user');
    expect(await turn.execute('hidden', {})).toMatchObject({ status: 'completed' });
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_result']);
    await turn.end();
  });

  it('a hidden tool still fails closed on access', async () => {
    const host = createCapabilityHost({ permissions: new PermissionHost() });
    await host.load(
      manifest({ tools: [fx.tool('hidden', hiddenTool, { hidden: true, permissions: ['role(master)'] })] }),
    );
    const turn = await host.beginTurn({ sessionKey: 's', message: im() });
    expect(await turn.execute('hidden', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    await turn.end();
  });

  it('non-IM turns never pass platform- or scope-restricted tools, even when carrying a message', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const system = await host.beginTurn({ sessionKey: 's' });
    expect(system.origin).toBe('system');
    expect(await system.execute('platform-only', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    const schedule = await host.beginTurn({ sessionKey: 's', origin: 'schedule', message: im({ adapter: 'qq' }) });
    expect(await schedule.execute('platform-only', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    const chat = await host.beginTurn({ sessionKey: 's', message: im({ adapter: 'qq' }) });
    expect(chat.origin).toBe('im');
    expect(await chat.execute('platform-only', {})).toMatchObject({ status: 'completed' });
    await Promise.all([system.end(), schedule.end(), chat.end()]);
  });
});
