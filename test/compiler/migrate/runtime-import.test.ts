/**
 * The define helpers of a migrated module come from ONE import of `@zhin-gen/runtime`, through the
 * real CLI: each local name is bound once (the earlier `defineTool` renamed beside a
 * `defineAgentTool` made two), an import of the runtime the module has is joined, a name something
 * else binds keeps its local name, and what the runtime has no counterpart for stays and is
 * reported. The result loads under plain `tsc` (the golden fixtures cover the common shapes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, removeDir, tempDir, writeTree } from '../../helpers.js';
import { typeErrors } from './typecheck.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

interface Note {
  readonly code: string;
  readonly file: string;
  readonly message: string;
}

function migrate(files: Record<string, string>): { root: string; notes: Note[]; status: number | null } {
  const root = writeTree(tempDir('migrate-runtime-import'), files);
  dirs.push(root);
  const write = cli(['migrate', '--root', root, '--write', '--json']);
  const { notes } = JSON.parse(write.stdout) as { notes: Note[] };
  return { root, notes, status: write.status };
}

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8');

describe('zhin-gen migrate: one runtime import per module', () => {
  it('joins the runtime import the module has, and never binds a name twice', () => {
    const { root, notes, status } = migrate({
      // A zhin-gen/runtime import already binds defineAgentTool: the renamed defineTool is not added.
      'tools/shout.ts': [
        "import { defineAgentTool } from 'zhin-gen/runtime';",
        "import { defineTool } from '@zhin.js/agent/tools';",
        '',
        "export const quiet = defineAgentTool({ description: 'Whisper', execute: async () => 'psst' });",
        '',
        "export default defineTool({ description: 'Shout', approval: true, execute: async () => 'HEY' });",
        '',
      ].join('\n'),
      // An @zhin-gen/runtime import with a default-less named list takes the helpers, in the quotes written.
      'plugin.ts': [
        'import { definePlugin } from "zhin.js"',
        'import { defineAgentHook } from "@zhin-gen/runtime"',
        'import { defineTool as tool } from "@zhin.js/agent/tools"',
        '',
        "export const audit = defineAgentHook({ events: ['tool:after'], handle() {} })",
        '',
        'export default definePlugin({',
        "  name: 'shop',",
        '  setup(context) {',
        "    context.addTool('hours', tool({ description: 'Opening hours', execute: async () => '9-18' }))",
        '  },',
        '})',
        '',
      ].join('\n'),
    });
    expect(notes.filter((n) => n.code === 'ZG6001')).toEqual([]);
    expect(status).toBe(0);
    expect(read(root, 'tools/shout/index.ts')).toBe(
      [
        "import { defineAgentTool } from 'zhin-gen/runtime';",
        '',
        "export const quiet = defineAgentTool({ description: 'Whisper', execute: async () => 'psst' });",
        '',
        "export default defineAgentTool({ description: 'Shout', requiresApproval: 'always', execute: async () => 'HEY' });",
        '',
      ].join('\n'),
    );
    expect(read(root, 'plugin.ts').split('\n').slice(0, 3)).toEqual([
      'import { defineAgentHook, definePlugin, defineAgentTool as tool } from "@zhin-gen/runtime"',
      '',
      "export const audit = defineAgentHook({ events: ['tool:after'], handle() {} })",
    ]);
    expect(typeErrors(root)).toEqual([]);
    expect(cli(['check', '--root', root]).stdout).toMatch(/^zhin-gen check: 0 errors/);
  });

  it('keeps the local name defineTool where defineAgentTool names something else', () => {
    const { root, status } = migrate({
      'src/legacy.ts': 'export function defineAgentTool(description: string): string {\n  return description;\n}\n',
      'tools/legacy.ts': [
        "import { defineTool } from '@zhin.js/agent/tools';",
        "import { defineAgentTool } from '../src/legacy.js';",
        '',
        "export default defineTool({ description: 'Legacy', execute: async () => defineAgentTool('x') });",
        '',
      ].join('\n'),
    });
    expect(status).toBe(0);
    expect(read(root, 'tools/legacy/index.ts').split('\n').slice(0, 4)).toEqual([
      "import { defineAgentTool as defineTool } from '@zhin-gen/runtime';",
      "import { defineAgentTool } from '../../src/legacy.js';",
      '',
      "export default defineTool({ description: 'Legacy', execute: async () => defineAgentTool('x') });",
    ]);
    expect(typeErrors(root)).toEqual([]);
  });

  it("moves zhin.js's define helpers and leaves the rest of zhin.js, reported", () => {
    const { root, notes, status } = migrate({
      'plugin.ts': [
        "import zhin, { definePlugin, useLogger } from 'zhin.js';",
        "import { defineTool } from '@zhin.js/agent/tools';",
        '',
        'useLogger(zhin);',
        "export default definePlugin({ name: 'x', setup(context) { context.addTool('a', defineTool({ description: 'A', execute: async () => 1 })); } });",
        '',
      ].join('\n'),
      // Not migrated otherwise (nothing of the earlier layout in it): its zhin.js import stays, unreported.
      'src/untouched.ts': "import { definePlugin } from 'zhin.js';\n\nexport const plugin = definePlugin;\n",
    });
    expect(status).toBe(1);
    // The runtime import takes the place of the first import that moved whole.
    expect(read(root, 'plugin.ts').split('\n').slice(0, 3)).toEqual([
      "import zhin, { useLogger } from 'zhin.js';",
      "import { definePlugin, defineAgentTool } from '@zhin-gen/runtime';",
      '',
    ]);
    expect(notes.filter((n) => n.code === 'ZG6001')).toEqual([
      expect.objectContaining({
        file: 'plugin.ts',
        message: expect.stringMatching(/^imports useLogger from zhin\.js: .*the rest of the import is left as it was$/),
      }),
    ]);
    expect(read(root, 'src/untouched.ts')).toContain("from 'zhin.js'");
    // Only what was left by design fails to resolve: zhin.js is not installed here.
    expect(typeErrors(root).map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual([
      'plugin.ts:1 TS2307',
      'src/untouched.ts:1 TS2307',
    ]);
  });
});
