/**
 * `host.load` reads a manifest it was not built for (a newer compiler's value, a hand-made typo, a
 * file cut short) as a rejected candidate naming the entry and the field — never a generation
 * that loads and then fails quietly (a section that never renders, a call that throws "load is
 * not a function") — and the generation before it keeps serving.
 */
import { describe, expect, it } from 'vitest';
import { CandidateRejectedError, type CapabilityManifest, createCapabilityHost } from '../../../runtime/index.js';
import { catalogTool } from '../deferred/fixture.js';
import { manifest, section, skill } from '../fixture.js';

const good = (): CapabilityManifest =>
  manifest({
    tools: [catalogTool('echo')],
    skills: [skill('words', { tools: ['echo'] })],
    promptSections: [section(':tone', { title: 'Tone' })],
  });

type Spoil = (m: Record<string, unknown>) => void;
const at =
  (key: string, index: number, patch: Record<string, unknown>): Spoil =>
  (m) => {
    const list = m[key] as Record<string, unknown>[];
    list[index] = { ...list[index], ...patch };
  };

describe('host.load: a manifest this runtime cannot read as written', () => {
  it.each<[string, Spoil, RegExp]>([
    [
      'a newer format version',
      (m) => void (m.version = 2),
      /unsupported manifest version 2: this @zhin-gen\/runtime reads version 1; the manifest and @zhin-gen\/runtime come from different zhin-gen versions/,
    ],
    ['a version as a string', (m) => void (m.version = '1'), /unsupported manifest version "1"/],
    [
      'a scope it does not know',
      at('tools', 0, { scopes: ['thread'] }),
      /manifest tool "echo": scopes has "thread", not one of private, group, channel/,
    ],
    [
      'an approval mode it does not know',
      at('tools', 0, { requiresApproval: 'sometimes' }),
      /manifest tool "echo": requiresApproval "sometimes" is not one of never, on-risk, once, always/,
    ],
    [
      'a schema that is no object',
      at('tools', 0, { inputSchema: 'object' }),
      /manifest tool "echo": inputSchema is not an object/,
    ],
    ['a tool without its loader', at('tools', 0, { load: undefined }), /manifest tool "echo": load is not a function/],
    [
      'a layer it does not know',
      at('promptSections', 0, { layer: 'persona' }),
      /manifest prompt section ":tone": layer "persona" is not one of system, role/,
    ],
    [
      'a profile it does not know',
      at('promptSections', 0, { profiles: ['batch'] }),
      /manifest prompt section ":tone": profiles has "batch"/,
    ],
    [
      'a skill without its tool list',
      at('skills', 0, { tools: undefined }),
      /manifest skill "words": tools is not a list of strings/,
    ],
  ])('%s: rejected, naming the entry and the field; the serving generation stays', async (_, spoil, why) => {
    const host = createCapabilityHost();
    await host.load(good());
    const bad = good() as unknown as Record<string, unknown>;
    spoil(bad);
    const error = await host.load(bad as unknown as CapabilityManifest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRejectedError);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message).toContain('the previous generation keeps serving');
    expect(host.generation).toBe(1);
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(await turn.execute('echo', {})).toMatchObject({ status: 'completed' });
    await turn.end();
    await host.close();
  });

  it("an installed package's manifest is checked as the bot's (a package built by another zhin-gen)", async () => {
    const host = createCapabilityHost();
    await host.load(good());
    const withPackage = (scopes: string[]): CapabilityManifest => ({
      ...good(),
      plugins: [...good().plugins, { owner: 'maps', dir: 'node_modules/maps', conditionalTools: [] }],
      packages: [
        {
          owner: 'maps',
          name: 'maps-plugin',
          manifest: manifest({ tools: [catalogTool('find', { scopes: scopes as never })] }),
        },
      ],
    });
    expect(await host.load(withPackage(['group']))).toMatchObject({ generation: 2 });
    const error = await host.load(withPackage(['thread'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRejectedError);
    expect((error as Error).message).toMatch(/manifest tool "maps__find": scopes has "thread"/);
    expect(host.generation).toBe(2);
    await host.close();
  });

  it('a package that no longer provides a tool the bot references: the package is named, not setup()', async () => {
    const host = createCapabilityHost();
    const bot = (tools: string[]): CapabilityManifest => ({
      ...manifest({ skills: [skill('travel', { tools: ['maps__weather'] })] }),
      plugins: [...good().plugins, { owner: 'maps', dir: 'node_modules/maps', conditionalTools: [] }],
      hostProvided: { tools: ['maps__weather'] },
      packages: [
        { owner: 'maps', name: 'maps-plugin', manifest: manifest({ tools: tools.map((t) => catalogTool(t)) }) },
      ],
    });
    expect(await host.load(bot(['weather']))).toMatchObject({ generation: 1 });
    // The installed package renamed it (an update the bot was not generated against).
    const error = await host.load(bot(['forecast'])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateRejectedError);
    expect((error as Error).message).toContain(
      '"maps__weather" (skill "travel"; package "maps-plugin" of plugin "maps" does not provide it)',
    );
    expect((error as Error).message).toContain('generate again (and rebuild)');
    await host.close();
  });

  it('the manifests the compiler writes load (every enumerated field as the contract lists it)', async () => {
    const host = createCapabilityHost();
    expect(await host.load(good())).toMatchObject({ generation: 1 });
    await host.close();
  });
});
