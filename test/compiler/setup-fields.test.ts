/**
 * plugin.ts literal fields: the compiler reports what `definePlugin` / `setup()` reject at
 * runtime, and accepts what they accept (issue 13, item 5 audit). Real trees, real compiler,
 * real runtime helpers for the other side of each comparison.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { createCapabilityHost, defineAgentPromptSection, definePlugin } from '../../runtime/index.js';
import { removeDir, tempDir, writeTree } from '../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function compile(pluginTs: string) {
  const root = writeTree(tempDir('setup-fields'), { 'plugin.ts': pluginTs });
  dirs.push(root);
  const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
  return result.diagnostics
    .filter((d) => d.severity === 'error')
    .map(({ code, line, column, message }) => ({ code, at: `${line}:${column}`, message }));
}

describe('definePlugin fields', () => {
  it.each([
    [
      'no name',
      `definePlugin({ setup() {} })`,
      [
        {
          code: 'ZG2005',
          at: '2:29',
          message:
            'definePlugin: `name` is missing; it must be a non-empty string (definePlugin() rejects it when plugin.ts is imported, so host.load() fails)',
        },
      ],
    ],
    [
      'an empty name',
      `definePlugin({ name: ' ' })`,
      [
        {
          code: 'ZG2005',
          at: '2:37',
          message:
            'definePlugin: `name` must be a non-empty string (definePlugin() rejects it when plugin.ts is imported, so host.load() fails)',
        },
      ],
    ],
    [
      'a numeric name and a non-function setup',
      `definePlugin({ name: 7, setup: 'run' })`,
      [
        {
          code: 'ZG2005',
          at: '2:37',
          message:
            'definePlugin: `name` must be a non-empty string (definePlugin() rejects it when plugin.ts is imported, so host.load() fails)',
        },
        {
          code: 'ZG2005',
          at: '2:47',
          message:
            'definePlugin: `setup` must be a function (definePlugin() rejects it when plugin.ts is imported, so host.load() fails)',
        },
      ],
    ],
  ])('%s is a located error, as definePlugin throws on it', async (_label, call, expected) => {
    expect(await compile(`import { definePlugin } from 'zhin-gen/runtime';\nexport default ${call};\n`)).toEqual(
      expected,
    );
    const init = new Function(`return ${call.replace(/^definePlugin/, '')}`)() as Parameters<typeof definePlugin>[0];
    expect(() => definePlugin(init)).toThrow(TypeError);
  });

  it("a computed name, or another framework's definePlugin, is left to the runtime", async () => {
    expect(
      await compile(
        `import { definePlugin } from 'zhin-gen/runtime';\nconst name = process.env.NAME ?? 'bot';\nexport default definePlugin({ name, setup() {} });\n`,
      ),
    ).toEqual([]);
    expect(
      await compile(`import { definePlugin } from 'zhin.js';\nexport default definePlugin({ setup() {} });\n`),
    ).toEqual([]);
  });
});

describe('addPromptSection fields', () => {
  it('computed title and content are accepted, as setup() accepts them', async () => {
    const source = `import { defineAgentPromptSection, definePlugin } from 'zhin-gen/runtime';
const TITLE = process.env.TITLE ?? 'Rules';
const body = ['Be kind.', 'Be brief.'].join('\\n');
export default definePlugin({
  name: 'bot',
  setup(context) {
    context.addPromptSection('rules', defineAgentPromptSection({ title: TITLE, content: body }));
  },
});
`;
    expect(await compile(source)).toEqual([]);
    const TITLE = 'Rules';
    const body = ['Be kind.', 'Be brief.'].join('\n');
    const host = createCapabilityHost();
    const summary = await host.load(
      {
        version: 1,
        hash: 'm',
        plugins: [{ owner: '', dir: '.', conditionalTools: [] }],
        tools: [],
        skills: [],
        agents: [],
        promptSections: [],
        hooks: [],
      },
      {
        plugins: {
          '': definePlugin({
            name: 'bot',
            setup: (context) =>
              context.addPromptSection('rules', defineAgentPromptSection({ title: TITLE, content: body })),
          }),
        },
      },
    );
    expect(summary.generation).toBe(1);
    expect(host.current!.promptSections.get(':rules')?.source).toBe('setup');
  });

  it('literal values are still checked (an empty title, a missing content)', async () => {
    const source = `import { defineAgentPromptSection, definePlugin } from 'zhin-gen/runtime';
export default definePlugin({
  name: 'bot',
  setup(context) {
    context.addPromptSection('rules', defineAgentPromptSection({ title: '' }));
  },
});
`;
    expect((await compile(source)).map((d) => d.message)).toEqual([
      'conditional prompt section "rules": `content` is required',
      'conditional prompt section "rules": `title` must be a non-empty string',
    ]);
  });
});
