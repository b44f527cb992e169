/**
 * Provider projection (docs/catalog.md): runtime behaviour plus type tests. The assignments below are
 * compiled by `tsc -p tsconfig.json` against the official request types: `@anthropic-ai/sdk`
 * (`Messages.Tool`, `ToolUnion`, `MessageCreateParams['tools']`, `ToolReferenceBlockParam` — the
 * non-beta types carry `defer_loading`), `openai` v6 (`ChatCompletionTool`,
 * `ChatCompletionFunctionTool`, `ChatCompletionCreateParams['tools']`) and the AI SDK v6
 * (`jsonSchema()` parameter type; executed in a plain Node child together with `tool()`).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { spawnSync } from 'node:child_process';
// Type-only: vitest resolves the `source` export condition, under which the AI SDK's
// dependencies do not load; its runtime check runs in a plain Node child below.
import type { jsonSchema } from 'ai';
import type OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  anthropicToolReferences,
  createCapabilityHost,
  type AnthropicModelTool,
  type GenericModelTool,
  type HostConfig,
  type LoadToolOutput,
  type OpenAIModelTool,
  type Turn,
} from '../../../runtime/index.js';
import { manifest, skill } from '../fixture.js';
import { catalogTool, output } from './fixture.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;
const tools = [
  catalogTool('weather', { description: 'Weather for a city', inputSchema: schema }),
  catalogTool('echo', { description: 'Echo a message back' }),
  catalogTool('ghost', { hidden: true }),
  catalogTool('private__x', { placement: 'skill', skill: 'pack' }),
];

async function turnFor(config?: HostConfig): Promise<Turn> {
  const host = createCapabilityHost(config ? { config } : {});
  await host.load(manifest({ tools, skills: [skill('pack', { tools: ['private__x'] })] }));
  return host.beginTurn({ sessionKey: 's' });
}

describe('types accepted as-is by the official SDKs', () => {
  it('anthropic, openai and the AI SDK', async () => {
    const turn = await turnFor();
    const anthropic = await turn.modelTools({ provider: 'anthropic' });
    const openai = await turn.modelTools({ provider: 'openai' });
    const generic = await turn.modelTools({ provider: 'generic' });
    expectTypeOf(anthropic).toEqualTypeOf<AnthropicModelTool[]>();
    expectTypeOf(openai).toEqualTypeOf<OpenAIModelTool[]>();
    expectTypeOf(generic).toEqualTypeOf<GenericModelTool[]>();

    // Compile-time: these assignments fail `tsc` if the shapes drift from the SDK types.
    const anthropicTools: Anthropic.Messages.Tool[] = anthropic;
    const anthropicUnion: Anthropic.Messages.ToolUnion[] = anthropic;
    const anthropicParams: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1,
      messages: [],
      tools: anthropic,
    };
    const openaiTools: OpenAI.Chat.Completions.ChatCompletionTool[] = openai;
    const openaiFunctions: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = openai;
    const openaiParams: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-5',
      messages: [],
      tools: openai,
    };
    // …and the SDK types are real checks, not `any`: a wrong shape is rejected.
    // @ts-expect-error defer_loading is a boolean in the SDK
    const wrong: Anthropic.Messages.Tool = { ...anthropic[0]!, defer_loading: 'yes' };
    // @ts-expect-error OpenAI function tools need `type: 'function'`
    const wrongOpenai: OpenAI.Chat.Completions.ChatCompletionTool = { function: openai[0]!.function };
    expect([wrong, wrongOpenai]).toHaveLength(2);
    const loaded = output<LoadToolOutput>(await turn.execute('load_tool', { name: 'weather' }));
    const references: Anthropic.Messages.ToolReferenceBlockParam[] = anthropicToolReferences(loaded);
    const toolResult: Anthropic.Messages.ToolResultBlockParam = {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: references,
    };
    expect(anthropicTools.length + anthropicUnion.length + openaiTools.length + openaiFunctions.length).toBeGreaterThan(
      0,
    );
    expect(anthropicParams.tools).toBe(anthropic);
    expect(openaiParams.tools).toBe(openai);
    expect(toolResult.content).toEqual([{ type: 'tool_reference', tool_name: 'weather' }]);

    // The AI SDK: jsonSchema() takes the projected schema as-is.
    const aiSchema: Parameters<typeof jsonSchema>[0] = generic[0]!.inputSchema;
    expect(aiSchema).toBe(generic[0]!.inputSchema);
    const script = `
      import { jsonSchema, tool } from 'ai';
      const input = JSON.parse(process.argv[1]);
      const tools = Object.fromEntries(input.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema) })]));
      const schemas = await Promise.all(Object.values(tools).map((t) => t.inputSchema.jsonSchema));
      console.log(JSON.stringify({ names: Object.keys(tools), same: JSON.stringify(schemas) === JSON.stringify(input.map((t) => t.inputSchema)) }));`;
    const child = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify(await turn.modelTools({ provider: 'generic' }))],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ names: ['discover', 'load_tool', 'load_skill', 'weather'], same: true });
    await turn.end();
  });
});

describe('projection', () => {
  it('anthropic: every admitted, non-hidden tool; unloaded ones carry defer_loading; meta tools never deferred', async () => {
    const turn = await turnFor();
    const before = await turn.modelTools({ provider: 'anthropic' });
    expect(before.map((entry) => [entry.name, entry.defer_loading ?? false])).toEqual([
      ['discover', false],
      ['load_tool', false],
      ['load_skill', false],
      ['echo', true],
      ['weather', true],
    ]);
    expect(before[4]).toEqual({
      name: 'weather',
      description: 'Weather for a city',
      input_schema: schema,
      defer_loading: true,
    });
    await turn.execute('load_tool', { name: 'weather' });
    await turn.execute('load_skill', { name: 'pack' });
    const after = await turn.modelTools({ provider: 'anthropic' });
    expect(after.map((entry) => [entry.name, entry.defer_loading ?? false])).toEqual([
      ['discover', false],
      ['load_tool', false],
      ['load_skill', false],
      ['echo', true],
      ['private__x', false],
      ['weather', false],
    ]);
    await turn.end();
  });

  it('anthropic: at least one tool is never deferred, even with no meta tool and nothing loaded', async () => {
    const turn = await turnFor({ deferredTools: { alwaysLoadedTools: [] } });
    const sent = await turn.modelTools({ provider: 'anthropic' });
    expect(sent.map((entry) => [entry.name, entry.defer_loading ?? false])).toEqual([
      ['echo', false],
      ['weather', true],
    ]);
    await turn.end();
  });

  it('openai / generic: only the loaded set plus the meta tools', async () => {
    const turn = await turnFor();
    expect((await turn.modelTools({ provider: 'openai' })).map((entry) => entry.function.name)).toEqual([
      'discover',
      'load_tool',
      'load_skill',
    ]);
    await turn.execute('load_tool', { name: 'weather' });
    const sent = await turn.modelTools({ provider: 'openai' });
    expect(sent[3]).toEqual({
      type: 'function',
      function: { name: 'weather', description: 'Weather for a city', parameters: schema },
    });
    expect((await turn.modelTools({ provider: 'generic' })).map((entry) => entry.name)).toEqual([
      'discover',
      'load_tool',
      'load_skill',
      'weather',
    ]);
    await turn.end();
  });

  it('schemas come from the manifest; projected objects are shared by every turn of a generation', async () => {
    const host = createCapabilityHost();
    await host.load(manifest({ tools }));
    const a = await host.beginTurn({ sessionKey: 'a' });
    const b = await host.beginTurn({ sessionKey: 'b' });
    const [sentA, sentB] = await Promise.all([
      a.modelTools({ provider: 'anthropic' }),
      b.modelTools({ provider: 'anthropic' }),
    ]);
    const weatherA = sentA.find((entry) => entry.name === 'weather')!;
    expect(weatherA.input_schema).toBe(tools[0]!.inputSchema);
    expect(sentB.find((entry) => entry.name === 'weather')).toBe(weatherA);
    expect(Object.isFrozen(weatherA)).toBe(true);
    await Promise.all([a.end(), b.end()]);
  });
});
