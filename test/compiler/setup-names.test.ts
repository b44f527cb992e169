/**
 * `context.addTool()` / `context.addPromptSection()` literal names in plugin.ts get, at build
 * time, exactly the checks `host.load()` applies when setup() runs (runtime/contract/names.ts is the one
 * definition both use). Before, `check` exited 0 for `addTool('Discover', …)` and
 * `addTool('Sync', …)` and the bot then failed to start (issue 13, item 5).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../compiler/index.js';
import { createCapabilityHost, defineAgentPromptSection, defineAgentTool, definePlugin } from '../../runtime/index.js';
import type { CapabilityManifest } from '../../runtime/index.js';
import { cli, removeDir, tempDir, writeTree, type JsonDiagnostic } from '../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function tree(files: Record<string, string>): string {
  const root = tempDir('setup-names');
  dirs.push(root);
  return writeTree(root, files);
}

const PLUGIN = (
  calls: string,
) => `import { defineAgentPromptSection, defineAgentTool, definePlugin } from 'zhin-gen/runtime';

export default definePlugin({
  name: 'bot',
  setup(context) {
${calls}
  },
});
`;
const addTool = (name: string) =>
  `    context.addTool(${JSON.stringify(name)}, defineAgentTool({ description: 'A tool', execute: () => 1 }));`;
const addSection = (name: string) =>
  `    context.addPromptSection(${JSON.stringify(name)}, defineAgentPromptSection({ title: 'Rules', content: 'Be kind.' }));`;

describe('zhin-gen check on setup() names', () => {
  it('exits 1 with a located error for each name host.load() would reject', () => {
    const root = tree({
      'plugin.ts': PLUGIN(
        [
          addTool('Discover'),
          addTool('Sync'),
          addTool('a__b'),
          addTool('lottery_sync'),
          addSection('Intro'),
          addSection('rules'),
        ].join('\n'),
      ),
    });
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(run.status).toBe(1);
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] };
    const located = diagnostics.map(({ code, file, line, column, message }) => ({
      code,
      at: `${file}:${line}:${column}`,
      message,
    }));
    expect(located).toEqual([
      {
        code: 'ZG3003',
        at: 'plugin.ts:6:21',
        message:
          'Tool name "Discover" is reserved by the runtime: it equals "discover" after case folding (discover, load_tool, load_skill, ask_user, spawn_task)',
      },
      {
        code: 'ZG3011',
        at: 'plugin.ts:6:21',
        message:
          'addTool("Discover") in plugin.ts: the name does not match ^[a-z0-9][a-z0-9_-]*$, so host.load() rejects it',
      },
      {
        code: 'ZG3011',
        at: 'plugin.ts:7:21',
        message:
          'addTool("Sync") in plugin.ts: the name does not match ^[a-z0-9][a-z0-9_-]*$, so host.load() rejects it',
      },
      {
        code: 'ZG3005',
        at: 'plugin.ts:8:21',
        message: 'addTool("a__b") contains "__", which separates owner segments in qualifiedNames',
      },
      {
        code: 'ZG3011',
        at: 'plugin.ts:10:30',
        message:
          'addPromptSection("Intro") in plugin.ts: the name does not match ^[a-z0-9][a-z0-9-]*$, so host.load() rejects it',
      },
    ]);
    for (const d of diagnostics) {
      expect(d.severity).toBe('error');
      expect(d.hint?.length).toBeGreaterThan(0);
    }
    // Nothing was written: check never writes, and the pretty format names the same places.
    const pretty = cli(['check', '--root', root]);
    expect(pretty.status).toBe(1);
    expect(pretty.stderr + pretty.stdout).toContain('plugin.ts:7:21  error  ZG3011  addTool("Sync")');
  });

  it('exits 0 once the names are valid', () => {
    const root = tree({
      'plugin.ts': PLUGIN([addTool('discover_docs'), addTool('sync'), addTool('a_b'), addSection('intro')].join('\n')),
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(JSON.parse(run.stdout)).toEqual({ diagnostics: [], stale: false });
    expect(run.status).toBe(0);
  });
});

/** What the runtime says about one setup() call: rejected or not, by the real host. */
async function runtimeRejects(owner: string, kind: 'tool' | 'section', name: string): Promise<boolean> {
  const manifest: CapabilityManifest = {
    version: 1,
    plugins: [
      { owner: '', dir: '.', conditionalTools: [] },
      ...(owner === '' ? [] : [{ owner, dir: `plugins/${owner}`, conditionalTools: [] }]),
    ],
    tools: [],
    skills: [],
    agents: [],
    promptSections: [],
    hooks: [],
  };
  const definition = definePlugin({
    name: 'bot',
    setup(context) {
      if (kind === 'tool') context.addTool(name, defineAgentTool({ description: 'A tool', execute: () => 1 }));
      else context.addPromptSection(name, defineAgentPromptSection({ title: 'Rules', content: 'Be kind.' }));
    },
  });
  return createCapabilityHost()
    .load(manifest, { plugins: { [owner]: definition } })
    .then(
      () => false,
      () => true,
    );
}

async function compilerRejects(owner: string, kind: 'tool' | 'section', name: string): Promise<boolean> {
  const call = kind === 'tool' ? addTool(name) : addSection(name);
  const root = tree({ [owner === '' ? 'plugin.ts' : `plugins/${owner}/plugin.ts`]: PLUGIN(call) });
  const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
  return result.diagnostics.some((d) => d.severity === 'error');
}

describe('the compiler and the runtime agree on every setup() name', () => {
  const cases: readonly (readonly [owner: string, kind: 'tool' | 'section', name: string])[] = [
    ...[
      'sync',
      'lottery_sync',
      'get-weather',
      '9lives',
      'Discover',
      'Sync',
      'a__b',
      '__x',
      'discover',
      'ask_user',
      'spawn_task',
      'load_tool',
      '-x',
      '_x',
      'x y',
      'x.y',
      'é',
      'a'.repeat(64),
      'a'.repeat(65),
    ].map((name) => ['', 'tool', name] as const),
    ['maps', 'tool', 'discover'],
    ['maps', 'tool', 'Discover'],
    ['maps', 'tool', 'a'.repeat(58)],
    ['maps', 'tool', 'a'.repeat(59)],
    ...['rules', 'x-1', 'Intro', 'a_b', 'a__b', '-x', 'x y'].map((name) => ['', 'section', name] as const),
  ];
  it.each(cases)('owner "%s", %s "%s"', async (owner, kind, name) => {
    const runtime = await runtimeRejects(owner, kind, name);
    expect(await compilerRejects(owner, kind, name)).toBe(runtime);
  });

  it('the table holds names of both verdicts', async () => {
    expect(await runtimeRejects('', 'tool', 'Sync')).toBe(true);
    expect(await runtimeRejects('', 'tool', 'sync')).toBe(false);
  });
});

describe('a plugin entry whose definePlugin call is out of sight', () => {
  it("is imported still (zhin-gen's definePlugin imported): no ZG2062, and setup() registers its tool", async () => {
    const root = tree({
      'plugin.ts': `import { defineAgentTool, definePlugin } from 'zhin-gen/runtime';

const make = (name: string) =>
  definePlugin({
    name,
    setup(context) {
      context.addTool('greet', defineAgentTool({ description: 'Greet', execute: () => 'hi' }));
    },
  });

export default make('p1');
`,
    });
    const run = cli(['generate', '--root', root]);
    expect(run.stderr).not.toContain('ZG2062');
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('plugin.js');
  });
});

describe('a zhin.js plugin entry (definePlugin from "zhin.js")', () => {
  it('its addTool names get no zhin-gen name-pattern error (host.load() never runs it)', () => {
    const root = tree({
      'plugin.ts': `import { definePlugin } from 'zhin.js';
export default definePlugin({
  name: 'showcase',
  setup(context) {
    context.addTool('showcaseGreet', { description: 'Greet', execute: () => 'hi' });
  },
});
`,
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(run.status).toBe(0);
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] };
    expect(diagnostics.map((d) => d.code)).toEqual(['ZG2062']);
  });

  it('is not imported by the manifest: a warning says so, and host.load() starts the bot', async () => {
    const root = tree({
      'plugin.ts': `import { definePlugin } from 'zhin.js';

export default definePlugin({
  name: 'showcase',
  setup(context) {
    context.addTool('showcase_greet', { description: 'Greet', execute: () => 'hi' });
  },
});
`,
      'tools/echo/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Echo', execute: () => 'echo' });\n",
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(run.status).toBe(0);
    const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] };
    expect(diagnostics.map((d) => [d.code, d.severity, `${d.file}:${d.line}`])).toEqual([
      ['ZG2062', 'warning', 'plugin.ts:3'],
    ]);
    expect(diagnostics[0]!.message).toContain("does not default-export zhin-gen's definePlugin");
    // The generated module names no entry to import (it imported plugin.ts, and host.load() threw
    // "does not default-export definePlugin(...)"), and the bot starts on it.
    const code = readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
    expect(code).not.toContain('plugin.js');
    const { manifest } = (await import(`${pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href}?v=1`)) as {
      manifest: CapabilityManifest;
    };
    const host = createCapabilityHost();
    await host.load(manifest);
    expect([...host.current!.tools.keys()]).toContain('echo');
    await host.close();
  });
});
