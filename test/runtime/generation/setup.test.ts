import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createCapabilityHost,
  PermissionHost,
  defineAgentPromptSection,
  defineAgentTool,
  definePlugin,
  type PluginDefinition,
} from '../../../runtime/index.js';
import { Fixture, events, loadedModules, manifest, plugin, resetGlobals, section } from '../fixture.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const fx = new Fixture('generation-setup');
afterAll(() => fx.cleanup());
beforeEach(() => resetGlobals());

const tool = (name: string, value = name) =>
  defineAgentTool({ description: `setup ${name}`, requiresApproval: 'never', execute: () => value });
const withSetup = (setup: PluginDefinition['setup']): PluginDefinition =>
  definePlugin({ name: 'p', ...(setup ? { setup } : {}) });

describe('plugin setup', () => {
  it('qualifies setup tools by owner path and publishes them with the generation', async () => {
    const host = createCapabilityHost({
      config: { plugins: { maps: { enabled: true }, 'maps/cn': { enabled: false } } },
    });
    const conditional = withSetup((context) => {
      if (context.config.get().enabled) context.addTool('lookup', tool('lookup', `${context.owner} lookup`));
    });
    await host.load(manifest({ plugins: [plugin(''), plugin('maps'), plugin('maps/cn')] }), {
      plugins: {
        '': withSetup((context) => context.addTool('echo', tool('echo', 'root echo'))),
        maps: conditional,
        'maps/cn': withSetup((context) => context.addTool('lookup', tool('lookup', 'cn lookup'))),
      },
    });
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect([...host.current!.tools.keys()].sort()).toEqual(['ask_user', 'echo', 'maps__cn__lookup', 'maps__lookup']);
    expect(await turn.execute('echo', {})).toMatchObject({ output: 'root echo' });
    expect(await turn.execute('maps__lookup', {})).toMatchObject({ output: 'maps lookup' });
    expect(await turn.execute('maps__cn__lookup', {})).toMatchObject({ output: 'cn lookup' });
    expect(turn.journal[0]).toMatchObject({ source: 'setup', owner: '' });
    await turn.end();
  });

  it('runs parents before children and imports manifest plugin entries at load', async () => {
    const entry = fx.write(
      'plugins/maps/plugin.ts',
      `import { definePlugin, defineAgentTool } from 'RUNTIME';
(globalThis.__loaded ??= []).push('maps entry');
export default definePlugin({ name: 'maps', setup(context) {
  (globalThis.__events ??= []).push('setup:maps');
  context.addTool('from-entry', defineAgentTool({ description: 'e', requiresApproval: 'never', execute: () => 'entry tool' }));
} });`,
    );
    const host = createCapabilityHost();
    await host.load(
      manifest({
        plugins: [plugin('maps', { entry: fx.loader(entry), entrySource: 'plugins/maps/plugin.ts' }), plugin('')],
      }),
      {
        plugins: { '': withSetup(() => void events().push('setup:root')) },
      },
    );
    expect(loadedModules()).toEqual(['maps entry']);
    expect(events()).toEqual(['setup:root', 'setup:maps']);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('maps__from-entry', {})).toMatchObject({ output: 'entry tool' });
    await turn.end();
  });

  it('an explicit plugins option overrides the manifest entry (which is then not imported)', async () => {
    const entry = fx.write(
      'plugins/other/plugin.ts',
      `(globalThis.__loaded ??= []).push('other entry'); export default {};`,
    );
    const host = createCapabilityHost();
    await host.load(manifest({ plugins: [plugin('other', { entry: fx.loader(entry) })] }), {
      plugins: { other: withSetup((context) => context.addTool('t', tool('t'))) },
    });
    expect(loadedModules()).toEqual([]);
    expect(host.current!.tools.has('other__t')).toBe(true);
    // Without the override, an entry that is not definePlugin(...) rejects the candidate.
    await expect(
      host.load(
        manifest({ plugins: [plugin('other', { entry: fx.loader(entry), entrySource: 'plugins/other/plugin.ts' })] }),
      ),
    ).rejects.toThrow(/plugin "other": entry plugins\/other\/plugin.ts does not default-export definePlugin/);
  });

  it("a definition keeps what defineAgentTool validated: the caller's arrays and schema changed afterwards change nothing", async () => {
    const permissions = ['role(admin)'];
    const scopes: ('group' | 'private')[] = ['group'];
    const schema = { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] };
    const definition = defineAgentTool({
      description: 'admin only',
      permissions,
      scopes,
      inputSchema: schema,
      requiresApproval: 'never',
      execute: () => 'ran',
    });
    expect(Object.isFrozen(definition.permissions)).toBe(true);
    expect(Object.isFrozen((definition.inputSchema as typeof schema).properties.n)).toBe(true);
    // After define: emptied (would admit anyone), an unparsable permit, a wider scope, a looser schema.
    permissions.length = 0;
    permissions.push('Not A Permit');
    scopes.push('private');
    schema.required.length = 0;
    schema.properties.n.type = 'string';
    expect(definition.permissions).toEqual(['role(admin)']);
    expect(definition.scopes).toEqual(['group']);
    const host = createCapabilityHost({ permissions: new PermissionHost(), jsonSchemaValidator: ajvValidator() });
    await host.load(manifest(), { plugins: { '': withSetup((context) => context.addTool('adm', definition)) } });
    const member = { $adapter: 'x', $channel: { id: '1', type: 'group' }, $sender: { id: 'u', role: 'member' } };
    const asMember = await host.beginTurn({ sessionKey: 's', message: member as never });
    expect(await asMember.execute('adm', { n: 1 })).toMatchObject({ status: 'denied' });
    await asMember.end();
    const admin = { ...member, $sender: { id: 'a', role: 'admin' } };
    const asAdmin = await host.beginTurn({ sessionKey: 's', message: admin as never });
    expect(await asAdmin.execute('adm', {})).toMatchObject({ status: 'failed', error: { code: 'invalid_input' } });
    expect(await asAdmin.execute('adm', { n: 1 })).toMatchObject({ status: 'completed', output: 'ran' });
    await asAdmin.end();
  });

  it('a late addTool after setup returned throws instead of mutating a sealed candidate', async () => {
    let late: (() => void) | undefined;
    const host = createCapabilityHost();
    await host.load(manifest(), {
      plugins: { '': withSetup((context) => void (late = () => context.addTool('late', tool('late')))) },
    });
    expect(late).toThrow(/addTool\(\) called after setup\(\) returned/);
    expect(host.current!.tools.has('late')).toBe(false);
  });

  it('collects prompt sections from the manifest and setup', async () => {
    const host = createCapabilityHost();
    await host.load(
      manifest({
        promptSections: [section(':rules')],
        plugins: [plugin(''), plugin('maps')],
      }),
      {
        plugins: {
          maps: withSetup((context) =>
            context.addPromptSection('terms', defineAgentPromptSection({ title: 'T', content: 'c' })),
          ),
        },
      },
    );
    expect([...host.current!.promptSections.values()].map((entry) => [entry.id, entry.source])).toEqual([
      [':rules', 'feature'],
      ['maps:terms', 'setup'],
    ]);
  });
});

describe('setup tool schemas', () => {
  it('lists a Zod setup tool with its projected JSON Schema and validates with Zod; JSON Schema tools with the runtime Ajv', async () => {
    const { z } = await import('zod');
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    await host.load(manifest(), {
      plugins: {
        '': withSetup((context) => {
          context.addTool(
            'zod-tool',
            defineAgentTool<{ city: string }>({
              description: 'zod',
              requiresApproval: 'never',
              inputSchema: z.object({ city: z.string() }),
              execute: ({ city }) => city.toUpperCase(),
            }),
          );
          context.addTool(
            'json-tool',
            defineAgentTool<{ n: number }>({
              description: 'json',
              requiresApproval: 'never',
              inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
              execute: ({ n }) => n * 2,
            }),
          );
        }),
      },
    });
    const listed = host.current!.tools.get('zod-tool')!.inputSchema;
    expect(listed).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(listed).not.toHaveProperty('$schema');
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('zod-tool', { city: 'paris' })).toMatchObject({ output: 'PARIS' });
    expect(await turn.execute('zod-tool', {})).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_input', path: '/city' },
    });
    expect(await turn.execute('json-tool', { n: 21 })).toMatchObject({ output: 42 });
    expect(await turn.execute('json-tool', { n: 1.5 })).toMatchObject({
      status: 'failed',
      error: { path: '/n', message: 'invalid input at /n: must be integer' },
    });
    await turn.end();
  });
});
