/** The adapters: explicit bridges only, and what they offer passes the consuming turn's pipeline. */
import { afterAll, describe, expect, it } from 'vitest';
import {
  BuiltinToolService,
  SkillRegistryAsService,
  ToolRegistryAsService,
  createCapabilityHost,
  type QuestionPort,
} from '../../../runtime/index.js';
import { Fixture, agent, manifest, skill } from '../fixture.js';
import { seamRoot } from './helpers.js';
import { ajvValidator } from '../../../runtime/validators/ajv.js';

const fx = new Fixture('seam-adapters');
afterAll(() => fx.cleanup());

const lookupFile = fx.toolModule('lookup', {
  imports: `import { z } from 'zod';`,
  schema: `z.object({ n: z.string().transform(Number) })`,
  body: `return { value: input.n * context.config.factor, owner: context.owner, generation: context.generation };`,
});
const secretFile = fx.toolModule('secret');
const privateFile = fx.toolModule('check');

async function sourceHost() {
  const host = createCapabilityHost({ config: { plugins: { '': { factor: 3 } } } });
  await host.load(
    manifest({
      tools: [
        fx.tool('lookup', lookupFile, {
          requiresApproval: 'never',
          inputSchema: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
        }),
        fx.tool('secret', secretFile, { requiresApproval: 'never', permissions: ['role(master)'] }),
        fx.tool('reviewer__check', privateFile, { placement: 'agent', agent: 'reviewer', localName: 'check' }),
      ],
      agents: [agent('reviewer')],
      skills: [
        skill('research', { instructions: 'Research carefully.' }),
        skill('reviewer__review', { agent: 'reviewer' }),
      ],
    }),
  );
  return host;
}

describe('ToolRegistryAsService', () => {
  it("bridges another generation's public tools through the consuming pipeline, until that generation retires", async () => {
    const source = await sourceHost();
    const bridge = new ToolRegistryAsService(source.current!, { id: 'bot-a:tools' });
    expect(bridge.schema().map((s) => s.function.name)).toEqual(['lookup', 'secret']);
    const root = seamRoot((seams) => seams.registerToolService('global', bridge));
    // Bridged tools are seam tools: their projected JSON Schemas need the runtime validator.
    const host = createCapabilityHost({ jsonSchemaValidator: ajvValidator() });
    await host.load(manifest(), { plugins: { '': root.plugin } });
    expect(host.current!.tools.get('secret')).toMatchObject({
      source: 'seam',
      permissions: ['role(master)'],
      seam: { provider: 'bot-a:tools', source: 'registry:feature' },
    });

    const turn = await host.beginTurn({ sessionKey: 's' });
    // Zod transform of the definition applies; config and owner are the source tool's own.
    expect(await turn.execute('lookup', { n: '7' })).toMatchObject({
      status: 'completed',
      output: { value: 21, owner: '', generation: 1 },
    });
    expect(turn.journal[0]).toMatchObject({ type: 'tool_call', source: 'seam' });
    // Access comes from the projected schema: no permission host here, so role(master) is denied.
    expect(await turn.execute('secret', {})).toMatchObject({ status: 'denied', policy: 'capability' });
    expect(await turn.execute('reviewer__check', {})).toMatchObject({ status: 'denied', policy: 'capability' });

    await source.load(manifest()); // the bridged generation retires (and, unleased, is disposed)
    expect(await turn.execute('lookup', { n: '1' })).toMatchObject({
      status: 'failed',
      error: {
        code: 'execution_error',
        message: 'tool registry unavailable: generation 1 is disposed and cannot be leased',
      },
    });
    await turn.end();
  });
});

describe('SkillRegistryAsService', () => {
  it('bridges public feature skills and reads their documents', async () => {
    const source = await sourceHost();
    const bridge = new SkillRegistryAsService(source.current!);
    const root = seamRoot((seams) => seams.registerSkillService('global', bridge));
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root.plugin } });
    const table = host.current!.skillTable;
    expect(table.catalog()).toEqual([{ name: 'research', description: 'skill research', source: 'seam' }]);
    expect(await table.describe('research')).toBe('Research carefully.');
    await expect(bridge.describe('global', 'reviewer__review')).rejects.toThrow('Skill not found: reviewer__review');
  });
});

describe('BuiltinToolService', () => {
  it("asks through the turn's QuestionPort; unattended turns get a failure, never a global port", async () => {
    const asked: string[] = [];
    const question: QuestionPort = {
      async ask(request) {
        asked.push(`${request.sessionKey}: ${request.question}`);
        return 'blue';
      },
    };
    const root = seamRoot((seams) => seams.registerToolService('global', new BuiltinToolService()));
    const host = createCapabilityHost();
    await host.load(manifest(), { plugins: { '': root.plugin } });
    expect(host.current!.tools.get('ask_question')).toMatchObject({
      requiresApproval: 'never',
      seam: { provider: 'builtin:question', source: 'builtin:question' },
    });

    const turn = await host.beginTurn({ sessionKey: 'qq:1', question });
    expect(await turn.execute('ask_question', { question: 'Colour?' })).toMatchObject({
      status: 'completed',
      output: { answer: 'blue' },
    });
    expect(asked).toEqual(['qq:1: Colour?']);

    const unattended = await host.beginTurn({ sessionKey: 'cron', unattended: true, question });
    expect(await unattended.execute('ask_question', { question: 'Colour?' })).toMatchObject({
      status: 'failed',
      error: {
        message:
          'ask_question is unavailable in this turn: the user cannot be asked here (the turn was begun without a QuestionPort: beginTurn({ question }))',
      },
    });
    expect(asked).toHaveLength(1);
    await Promise.all([turn.end(), unattended.end()]);
  });
});

describe('never automatic', () => {
  it('a host without a seam offers no adapter tools or bridged skills', async () => {
    const host = await sourceHost();
    const tools = [...host.current!.tools.values()];
    expect(tools.filter((b) => b.source === 'seam')).toEqual([]);
    expect(host.current!.tools.has('ask_question')).toBe(false);
    expect(host.current!.skillTable.catalog().every((s) => s.source === 'feature')).toBe(true);
  });
});
