/**
 * A tool's own `keywords` and `tags` (zhin.js's earlier layout had them; zhin-gen keeps them as
 * real fields) reach `discover` end to end: written in the definition, read by the compiler,
 * emitted in the manifest, searched by the runtime. The same for a `setup()` tool, whose
 * definition the runtime reads itself.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import {
  createCapabilityHost,
  defineAgentTool,
  definePlugin,
  type CapabilityManifest,
  type DiscoverOutput,
} from '../../../runtime/index.js';
import { copyFixture, removeDir } from '../../helpers.js';
import { output } from './fixture.js';

const root = copyFixture('tool-search-fields', 'tool-keywords');
afterAll(() => removeDir(root));

const found = async (turn: { execute(name: string, input: unknown): Promise<unknown> }, query: string) =>
  output<DiscoverOutput>((await turn.execute('discover', { query })) as never).results.map((r) => r.name);

describe('tool keywords and tags feed discover', () => {
  it('a compiled tool is found by its keywords and its tags, not only by name and description', async () => {
    const compiler = createCompiler({ root, cacheFile: false });
    const result = await compiler.run({ write: true });
    await compiler.dispose();
    expect(result.errors).toBe(0);
    const { manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
      manifest: CapabilityManifest;
    };
    const weather = manifest.tools.find((t) => t.qualifiedName === 'weather')!;
    expect(weather.keywords).toEqual(['天气', 'forecast', 'rain']);
    expect(weather.tags).toEqual(['生活', 'outdoors']);
    expect(manifest.tools.find((t) => t.qualifiedName === 'echo')!.tags).toBeUndefined();

    const host = createCapabilityHost();
    await host.load(manifest);
    const turn = await host.beginTurn({ sessionKey: 'kw' });
    // Neither word is in the name or the description: only the keywords / tags can match.
    expect(await found(turn, 'forecast')).toEqual(['weather']);
    expect(await found(turn, '天气')).toEqual(['weather']);
    expect(await found(turn, 'outdoors')).toEqual(['weather']);
    expect(await found(turn, '生活')).toEqual(['weather']);
    await turn.end();
    await host.close();
  });

  it('a setup() tool is found by the keywords and tags of its definition', async () => {
    const host = createCapabilityHost();
    const manifest: CapabilityManifest = {
      version: 1,
      plugins: [{ owner: '', dir: '.', conditionalTools: [] }],
      tools: [],
      skills: [],
      agents: [],
      promptSections: [],
      hooks: [],
    };
    await host.load(manifest, {
      plugins: {
        '': definePlugin({
          name: 'lottery',
          setup(context) {
            context.addTool(
              'lottery_sync',
              defineAgentTool({
                description: 'Synchronize the draws',
                keywords: ['彩票'],
                tags: ['jackpot'],
                execute: () => 'synced',
              }),
            );
          },
        }),
      },
    });
    const turn = await host.beginTurn({ sessionKey: 'kw' });
    expect(await found(turn, '彩票')).toEqual(['lottery_sync']);
    expect(await found(turn, 'jackpot')).toEqual(['lottery_sync']);
    await turn.end();
    await host.close();
  });

  it('defineAgentTool refuses malformed keywords / tags and the earlier `approval` field', () => {
    const base = { description: 'd', execute: () => 'x' };
    expect(() => defineAgentTool({ ...base, keywords: [''] })).toThrow(/`keywords` entries must be non-empty strings/);
    expect(() => defineAgentTool({ ...base, tags: ['a', 'a'] })).toThrow(/`tags` lists "a" twice/);
    expect(() => defineAgentTool({ ...base, approval: 'always' } as never)).toThrow(
      /`approval` is the earlier name of `requiresApproval`/,
    );
    // zhin.js made `adapter` a platforms list: ignored, the tool would be offered on every platform.
    expect(() => defineAgentTool({ ...base, adapter: 'wecom' } as never)).toThrow(/`adapter` is the earlier way/);
  });
});
