import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PermissionHost,
  createCapabilityHost,
  createToken,
  defineAgentTool,
  definePlugin,
  type JournalEntry,
  type QuestionRequest,
} from '../../../runtime/index.js';
import { Fixture, events, im, loadedModules, manifest, plugin, resetGlobals } from '../fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const fx = new Fixture('pipeline');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const types = (journal: readonly JournalEntry[]) => journal.map((entry) => entry.type);

const zodTool = fx.toolModule('weather', {
  imports: `import { z } from 'zod';`,
  schema: `z.object({ city: z.string().min(1), days: z.number().int().default(3) })`,
  body: `return { city: input.city, days: input.days };`,
});
const jsonTool = fx.toolModule('json', {
  schema: `{ type: 'object', properties: { m: { type: 'string' } }, required: ['m'] }`,
});
const plainTool = fx.toolModule('plain');
const secretTool = fx.toolModule('secret');
const hiddenTool = fx.toolModule('hidden');
const failing = fx.toolModule('failing', { body: `const e = new Error('upstream 503'); e.retryable = true; throw e;` });
const brokenExport = fx.write(
  'tools/broken/index.ts',
  `(globalThis.__loaded ??= []).push('broken'); export default { description: 'not a tool' };`,
);
const contextTool = fx.toolModule('ctx', {
  body: `return {
    config: context.config, owner: context.owner, generation: context.generation, sessionKey: context.sessionKey,
    turnId: context.turnId, traceId: context.traceId, origin: context.origin, principal: context.principal,
    policy: context.policy, hasQuestion: context.question !== undefined, toolName: context.toolName,
    toolUseId: context.toolUseId, aborted: context.signal.aborted,
  };`,
});

const jsonSchema = { type: 'object', properties: { m: { type: 'string' } }, required: ['m'] };

function baseManifest() {
  return manifest({
    tools: [
      fx.tool('weather', zodTool, { inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }),
      fx.tool('json', jsonTool, { inputSchema: jsonSchema }),
      fx.tool('plain', plainTool),
      fx.tool('secret', secretTool, { permissions: ['role(master)'] }),
      fx.tool('platform-only', plainTool, { platforms: ['qq'] }),
      fx.tool('hidden', hiddenTool, { hidden: true }),
      fx.tool('failing', failing),
      fx.tool('broken', brokenExport),
      fx.tool('ctx', contextTool),
      fx.tool('maps__ctx', contextTool, { owner: 'maps', localName: 'ctx' }),
    ],
  });
}

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

describe('execution context', () => {
  it('gives each tool its own owner config, ids, origin, principal and policy', async () => {
    const host = createCapabilityHost({ config: { plugins: { '': { key: 'root' }, maps: { key: 'maps' } } } });
    await host.load(baseManifest());
    const turn = await host.beginTurn({ sessionKey: 'sess', message: im({ adapter: 'qq', user: 'u7' }) });
    const root = await turn.execute('ctx', {}, { toolUseId: 'x1' });
    const maps = await turn.execute('maps__ctx', {});
    expect(root).toMatchObject({
      status: 'completed',
      output: {
        config: { key: 'root' },
        owner: '',
        generation: 1,
        sessionKey: 'sess',
        turnId: turn.id,
        traceId: turn.traceId,
        origin: 'im',
        principal: { adapter: 'qq', userId: 'u7' },
        policy: { approval: 'never', decision: 'not-required' },
        hasQuestion: false,
        toolName: 'ctx',
        toolUseId: 'x1',
        aborted: false,
      },
    });
    expect(maps).toMatchObject({ output: { config: { key: 'maps' }, owner: 'maps', toolName: 'maps__ctx' } });
    await turn.end();
  });

  it('resolves use(token) from the tool owner and its ancestors, never a sibling or the caller', async () => {
    const rootToken = createToken<string>('root-db');
    const mapsToken = createToken<string>('maps-client');
    const weatherToken = createToken<string>('weather-client');
    const probe = (owner: string) =>
      defineAgentTool<{ token: 'root' | 'maps' | 'weather' }>({
        description: `probe ${owner}`,
        requiresApproval: 'never',
        execute: ({ token }, context) =>
          context.use(token === 'root' ? rootToken : token === 'maps' ? mapsToken : weatherToken),
      });
    const host = createCapabilityHost();
    await host.load(manifest({ plugins: [plugin(''), plugin('maps'), plugin('weather')] }), {
      plugins: {
        '': definePlugin({
          name: 'root',
          setup(context) {
            context.resources.provide(rootToken, 'root value');
            context.addTool('probe', probe(''));
          },
        }),
        maps: definePlugin({
          name: 'maps',
          setup(context) {
            expect(context.resources.use(rootToken)).toBe('root value');
            context.resources.provide(mapsToken, 'maps value');
            context.addTool('probe', probe('maps'));
          },
        }),
        weather: definePlugin({
          name: 'weather',
          setup(context) {
            expect(() => context.resources.use(mapsToken)).toThrow(/not provided for owner "weather"/);
            context.resources.provide(weatherToken, 'weather value');
          },
        }),
      },
    });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('maps__probe', { token: 'maps' })).toMatchObject({ output: 'maps value' });
    expect(await turn.execute('maps__probe', { token: 'root' })).toMatchObject({ output: 'root value' });
    expect(await turn.execute('maps__probe', { token: 'weather' })).toMatchObject({
      status: 'failed',
      error: { message: 'resource "weather-client" is not provided for owner "maps"' },
    });
    expect(await turn.execute('probe', { token: 'maps' })).toMatchObject({
      status: 'failed',
      error: { message: 'resource "maps-client" is not provided for owner ""' },
    });
    await turn.end();
  });
});

describe('ask_user', () => {
  it('asks through the turn QuestionPort, scoped to the session and principal', async () => {
    const requests: QuestionRequest[] = [];
    const host = createCapabilityHost();
    await host.load(baseManifest());
    const turn = await host.beginTurn({
      sessionKey: 'sess',
      message: im({ user: 'u3' }),
      question: {
        ask: async (request) => {
          requests.push(request);
          return 'blue';
        },
      },
    });
    expect(await turn.execute('ask_user', { question: 'Favourite colour?', options: ['red', 'blue'] })).toMatchObject({
      status: 'completed',
      output: { answer: 'blue' },
    });
    expect(requests[0]).toMatchObject({
      question: 'Favourite colour?',
      options: ['red', 'blue'],
      sessionKey: 'sess',
      principal: { adapter: 'qq', userId: 'u3' },
    });
    expect(requests[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(types(turn.journal)).toEqual(['tool_call', 'tool_result']);
    expect(turn.journal[0]).toMatchObject({ source: 'runtime' });
    expect(await turn.execute('ask_user', { question: '' })).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/question' },
    });
    await turn.end();
  });

  it('says it is unavailable without a port, and unattended turns never get one', async () => {
    const host = createCapabilityHost();
    await host.load(baseManifest());
    let asked = 0;
    const port = { ask: async () => String(++asked) };
    for (const input of [{ sessionKey: 's' }, { sessionKey: 's', unattended: true, question: port }]) {
      const turn = await host.beginTurn(input);
      const outcome = await turn.execute('ask_user', { question: 'Anyone?' });
      expect(outcome).toMatchObject({ status: 'failed', retryable: false, error: { code: 'unavailable' } });
      expect(outcome.status === 'failed' && outcome.error.message).toMatch(/no QuestionPort/);
      expect(await turn.execute('ctx', {})).toMatchObject({ output: { hasQuestion: false } });
      await turn.end();
    }
    expect(asked).toBe(0);
  });

  it('hands plugin tools the turn-bound question channel', async () => {
    const host = createCapabilityHost();
    await host.load(manifest(), {
      plugins: {
        '': definePlugin({
          name: 'root',
          setup(context) {
            context.addTool(
              'confirm',
              defineAgentTool({
                description: 'asks',
                requiresApproval: 'never',
                execute: async (_input, ctx) => (ctx.question ? ctx.question.ask({ question: 'sure?' }) : 'no port'),
              }),
            );
          },
        }),
      },
    });
    const turn = await host.beginTurn({ sessionKey: 's', question: { ask: async (r) => `answered ${r.question}` } });
    expect(await turn.execute('confirm', {})).toMatchObject({ output: 'answered sure?' });
    await turn.end();
  });
});
