import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createCapabilityHost,
  createToken,
  defineAgentTool,
  definePlugin,
  type QuestionRequest,
} from '../../../runtime/index.js';
import { Fixture, im, manifest, plugin, resetGlobals } from '../fixture.js';
import { pipelineTools, types } from './pipeline-tools.js';

const fx = new Fixture('pipeline-context');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const { baseManifest } = pipelineTools(fx);

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
      expect(outcome.status === 'failed' && outcome.error.message).toMatch(/without a QuestionPort/);
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
