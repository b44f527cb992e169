/** `host.catalog()`: every capability with owner, file, generation and policy — never prompt text. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { copyFixture, removeDir } from '../../helpers.js';
import {
  type CapabilityManifest,
  createCapabilityHost,
  defineAgentPromptSection,
  defineAgentTool,
  definePlugin,
  type ManifestPromptSection,
} from '../../../runtime/index.js';
import { Fixture, agent, manifest, plugin, section, skill } from '../fixture.js';

const fx = new Fixture('prompt-catalog');
afterAll(() => fx.cleanup());
const echo = fx.toolModule('echo');

// Distinctive prompt text: none of it may appear anywhere in the catalog.
const SECRET = {
  section: 'SECRET-SECTION-never route refunds above 500',
  schedule: 'SECRET-SCHEDULE-digest policy',
  setup: 'SECRET-SETUP-computed pricing rule',
  skill: 'SECRET-SKILL-instructions body',
  agentsMd: 'SECRET-AGENTS-main agent policy',
  system: 'SECRET-SYSTEM-reviewer persona',
  boundaries: 'SECRET-BOUNDARIES-never approve',
  conventions: 'SECRET-CONVENTIONS-quote lines',
};

const sectionOf = (
  owner: string,
  name: string,
  content: string,
  extra: Partial<ManifestPromptSection> = {},
): ManifestPromptSection => section(`${owner}:${name}`, { title: `Title ${name}`, content, ...extra });

const fullManifest = () =>
  manifest({
    hash: 'catalog-hash',
    plugins: [plugin('', { agentsMd: SECRET.agentsMd, entrySource: 'plugin.ts' }), plugin('maps')],
    tools: [fx.tool('echo', echo, { keywords: ['k'] })],
    skills: [skill('research', { instructions: SECRET.skill, tools: ['echo'], source: 'skills/research/SKILL.md' })],
    agents: [
      agent('reviewer', {
        system: SECRET.system,
        boundaries: SECRET.boundaries,
        conventions: SECRET.conventions,
        source: 'agents/reviewer/agent.json',
        maxSteps: 8,
      }),
    ],
    promptSections: [
      sectionOf('', 'rules', SECRET.section, { retention: 'required', maxChars: 1000, order: 70, layer: 'safety' }),
      sectionOf('maps', 'digest', SECRET.schedule, {
        profiles: ['schedule'],
        platforms: ['qq'],
        retention: 'opportunistic',
        source: 'plugins/maps/prompt-sections/digest/index.ts',
      }),
    ],
  });

const setup = definePlugin({
  name: 'root',
  setup(context) {
    context.addTool(
      'sync',
      defineAgentTool({ description: 'Sync things', requiresApproval: 'always', execute: () => 1 }),
    );
    context.addPromptSection(
      'pricing',
      defineAgentPromptSection({ title: 'Pricing', content: SECRET.setup, retention: 'preferred', order: 10 }),
    );
  },
});

describe('host.catalog()', () => {
  it('is empty before the first load', () => {
    expect(createCapabilityHost().catalog()).toEqual({
      generation: 0,
      plugins: [],
      tools: [],
      skills: [],
      agents: [],
      promptSections: [],
    });
  });

  it('lists tools, skills, agents, plugins and prompt sections with owner, file, generation and policy', async () => {
    const host = createCapabilityHost({ config: { ai: { agent: { systemPromptMaxChars: 5000 } } } });
    await host.load(fullManifest(), { plugins: { '': setup } });
    await host.load(fullManifest(), { plugins: { '': setup } });
    const catalog = host.catalog();
    expect(catalog).toMatchObject({ generation: 2, manifestHash: 'catalog-hash', systemPromptMaxChars: 5000 });
    expect(catalog.plugins).toEqual([
      { owner: '', dir: '.', file: 'plugin.ts', generation: 2, agentsMdChars: SECRET.agentsMd.length },
      { owner: 'maps', dir: 'plugins/maps', generation: 2 },
    ]);
    expect(catalog.tools.map((t) => [t.qualifiedName, t.origin, t.file, t.requiresApproval])).toEqual([
      ['ask_user', 'runtime', undefined, 'never'],
      ['echo', 'feature', 'tools/echo/index.ts', 'never'],
      ['sync', 'setup', 'plugin.ts', 'always'],
    ]);
    expect(catalog.tools[1]).toEqual({
      qualifiedName: 'echo',
      localName: 'echo',
      owner: '',
      origin: 'feature',
      placement: 'plugin',
      file: 'tools/echo/index.ts',
      generation: 2,
      description: 'tool echo',
      requiresApproval: 'never',
      platforms: [],
      scopes: [],
      permissions: [],
      hidden: false,
    });
    expect(catalog.skills).toEqual([
      {
        qualifiedName: 'research',
        name: 'research',
        owner: '',
        origin: 'feature',
        file: 'skills/research/SKILL.md',
        generation: 2,
        description: 'skill research',
        tools: ['echo'],
        platforms: [],
        scopes: [],
        permissions: [],
        always: false,
        retention: 'preferred',
        instructionsChars: SECRET.skill.length,
      },
    ]);
    expect(catalog.agents).toEqual([
      {
        qualifiedName: 'reviewer',
        name: 'reviewer',
        owner: '',
        file: 'agents/reviewer/agent.json',
        generation: 2,
        description: 'agent reviewer',
        platforms: [],
        tools: [],
        maxSteps: 8,
        workflows: [],
        knowledge: [],
        retention: 'required',
        promptChars: {
          system: SECRET.system.length,
          boundaries: SECRET.boundaries.length,
          conventions: SECRET.conventions.length,
        },
      },
    ]);
    expect(catalog.promptSections).toEqual([
      {
        id: ':pricing',
        name: 'pricing',
        owner: '',
        title: 'Pricing',
        origin: 'setup',
        file: 'plugin.ts',
        generation: 2,
        layer: 'context',
        order: 10,
        retention: 'preferred',
        profiles: ['interactive'],
        platforms: [],
        contentChars: SECRET.setup.length,
      },
      {
        id: ':rules',
        name: 'rules',
        owner: '',
        title: 'Title rules',
        origin: 'feature',
        file: 'prompt-sections/rules/index.ts',
        generation: 2,
        layer: 'safety',
        order: 70,
        retention: 'required',
        maxChars: 1000,
        profiles: ['interactive'],
        platforms: [],
        contentChars: SECRET.section.length,
      },
      {
        id: 'maps:digest',
        name: 'digest',
        owner: 'maps',
        title: 'Title digest',
        origin: 'feature',
        file: 'plugins/maps/prompt-sections/digest/index.ts',
        generation: 2,
        layer: 'context',
        order: 50,
        retention: 'opportunistic',
        profiles: ['schedule'],
        platforms: ['qq'],
        contentChars: SECRET.schedule.length,
      },
    ]);
  });

  it('never contains prompt text, and is plain frozen JSON data', async () => {
    const host = createCapabilityHost();
    await host.load(fullManifest(), { plugins: { '': setup } });
    const catalog = host.catalog();
    const serialized = JSON.stringify(catalog);
    for (const text of Object.values(SECRET)) {
      expect(serialized).not.toContain(text);
      // Not even a fragment of it.
      expect(serialized).not.toContain(text.slice(0, 12));
    }
    expect(serialized).not.toContain('SECRET');
    expect(JSON.parse(serialized)).toEqual(catalog);
    expect(Object.isFrozen(catalog)).toBe(true);
    expect(Object.isFrozen(catalog.promptSections[0])).toBe(true);
    // The prompt itself, of course, still has it.
    const turn = await host.beginTurn({ sessionKey: 's', agent: 'reviewer', skills: ['research'] });
    for (const text of [
      SECRET.section,
      SECRET.setup,
      SECRET.skill,
      SECRET.agentsMd,
      SECRET.system,
      SECRET.boundaries,
      SECRET.conventions,
    ]) {
      expect((await turn.systemPrompt()).text).toContain(text);
    }
  });
});

describe('identities of a generated manifest', () => {
  it("lists each compiled tool's content hash, and derives a manifestHash equal exactly when the served capabilities are", async () => {
    const roots: string[] = [];
    const compileAt = async (prefix: string, edit?: (root: string) => void) => {
      const root = copyFixture('example-bot', prefix);
      edit?.(root);
      const result = await createCompiler({ root, cacheFile: false }).run();
      expect(result.errors).toBe(0);
      const module = (await import(`${result.outFile}?t=${Date.now()}`)) as {
        manifest: CapabilityManifest;
      };
      roots.push(root);
      return module.manifest;
    };
    const catalogOf = async (m: CapabilityManifest) => {
      const host = createCapabilityHost();
      await host.load(m);
      return host.catalog();
    };
    // Two checkouts of one tree (other roots): the same identities.
    const first = await catalogOf(await compileAt('identity-a'));
    const second = await catalogOf(await compileAt('identity-b'));
    const echoOf = (c: typeof first) => c.tools.find((t) => t.qualifiedName === 'echo')!;
    expect(echoOf(first).hash).toMatch(/^[0-9a-f]{16}$/);
    expect(first.tools.find((t) => t.qualifiedName === 'ask_user')!.hash).toBeUndefined();
    expect(first.manifestHash).toMatch(/^[0-9a-f]{16}$/);
    expect(second.manifestHash).toBe(first.manifestHash);
    expect(echoOf(second).hash).toBe(echoOf(first).hash);
    // A served field changed: that tool's hash and the manifest's identity change, no other tool's.
    const edited = await catalogOf(
      await compileAt('identity-c', (root) => {
        const file = join(root, 'tools/echo/index.ts');
        writeFileSync(file, readFileSync(file, 'utf8').replace('Echo a message back', 'Echo a message back twice'));
      }),
    );
    expect(echoOf(edited).hash).not.toBe(echoOf(first).hash);
    expect(edited.manifestHash).not.toBe(first.manifestHash);
    const others = (c: typeof first) =>
      c.tools.filter((t) => t.qualifiedName !== 'echo').map((t) => [t.qualifiedName, t.hash]);
    expect(others(edited)).toEqual(others(first));
    roots.forEach(removeDir);
  });
});
