/**
 * `check --load` names the packages a production install would leave out (ZG2063 devDependency
 * only, ZG2064 declared nowhere): what the modules import for real, through local helper files,
 * after type-only imports are erased; builtins and declared packages are fine.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, REPO, removeDir, tempDir, writeTree, type JsonDiagnostic } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function checkLoad(root: string): { status: number; diagnostics: JsonDiagnostic[] } {
  const run = cli(['check', '--root', root, '--format', 'json', '--load']);
  expect(run.stderr).not.toMatch(/internal error|ZG9001|\n\s+at /);
  return { status: run.status, diagnostics: (JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics };
}

/** A bot with its own package.json: zhin-gen installed as a package (linked to the repository), as init.test.ts does. */
function bot(prefix: string, files: Record<string, string>): string {
  const root = writeTree(tempDir(prefix), files);
  dirs.push(root);
  linkZhinGen(root);
  return root;
}

function linkZhinGen(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(REPO, join(dir, 'node_modules', 'zhin-gen'), 'dir');
}

const tool = (name: string, imports: string): string => `${imports}
export default defineAgentTool({
  description: 'The ${name} tool',
  inputSchema: z.object({ q: z.string() }),
  requiresApproval: 'never',
  async execute() {
    return 1;
  },
});
`;

const BOT = {
  'AGENTS.md': '# Bot\n\nBe helpful.\n',
  // zod a devDependency, yaml declared nowhere (it resolves through zhin-gen's install).
  'package.json': JSON.stringify({
    name: 'deps-bot',
    type: 'module',
    dependencies: { '@zhin-gen/runtime': '*', jsonc: '*' },
    devDependencies: { zod: '*', 'zhin-gen': '*', ajv: '*' },
  }),
  'tools/alpha/index.ts': tool(
    'alpha',
    "import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\nimport { readFileSync } from 'node:fs';\nimport type { ErrorObject } from 'ajv';\nimport { parse } from './helper.js';\n\nexport const used: ErrorObject[] = [parse, readFileSync].map(() => ({}) as ErrorObject);\n",
  ),
  'tools/alpha/helper.ts': "import YAML from 'yaml';\n\nexport const parse = YAML.parse;\n",
  'tools/beta/index.ts': tool(
    'beta',
    "import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n",
  ),
};

describe('check --load: packages a production install keeps', () => {
  it('names a devDependency (with the modules importing it), an undeclared package, and zhin-gen/runtime', () => {
    const root = bot('deps', BOT);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const { status, diagnostics } = checkLoad(root);
    // Warnings: the bot may bundle them; CI still sees them.
    expect(status).toBe(0);
    const found = diagnostics.map((d) => [d.code, d.severity, d.file, d.line, d.column, d.message]);
    expect(found).toEqual([
      [
        'ZG2064',
        'warning',
        'tools/alpha/helper.ts',
        1,
        18,
        'tools/alpha/helper.ts imports "yaml", but package.json does not declare "yaml": it resolves only because another install put it there',
      ],
      [
        'ZG2063',
        'warning',
        'tools/alpha/index.ts',
        1,
        33,
        'tools/alpha/index.ts imports "zhin-gen/runtime", but package.json lists "zhin-gen" only in devDependencies',
      ],
      [
        'ZG2063',
        'warning',
        'tools/alpha/index.ts',
        2,
        19,
        'tools/alpha/index.ts imports "zod" (and 1 other module), but package.json lists "zod" only in devDependencies',
      ],
    ]);
    const runtimeHint = diagnostics.find((d) => d.message.includes('zhin-gen/runtime'))!.hint;
    expect(runtimeHint).toContain("import the runtime as '@zhin-gen/runtime'");
    expect(diagnostics.find((d) => d.message.includes('"zod"'))!.hint).toContain('npm i zod');
  });

  it("the config's `diagnostics` turns one warning off and makes another an error (the check fails)", () => {
    const root = bot('deps-cfg', {
      ...BOT,
      'zhin-gen.config.json': JSON.stringify({ diagnostics: { ZG2063: 'off', ZG2064: 'error' } }),
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const { status, diagnostics } = checkLoad(root);
    expect(status).toBe(1);
    expect(diagnostics.map((d) => [d.code, d.severity, d.file])).toEqual([
      ['ZG2064', 'error', 'tools/alpha/helper.ts'],
    ]);
    expect(diagnostics[0]!.hint).toContain('the config\'s `diagnostics` sets ZG2064 to "error"');
  });

  it('declared as dependencies (or by a workspace root listing the bot), nothing is reported', () => {
    const root = bot('deps-ok', {
      ...BOT,
      // A tsconfig `paths` alias resolves into the project: no package, nothing to declare.
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['lib/*'] } } }),
      'lib/util.ts': 'export const shout = (s: string): string => s.toUpperCase();\n',
      'tools/beta/index.ts': tool(
        'beta',
        "import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\nimport { shout } from '@/util';\n\nexport const loud = shout('x');\n",
      ),
      'package.json': JSON.stringify({
        name: 'deps-bot',
        type: 'module',
        dependencies: { '@zhin-gen/runtime': '*', zod: '*', 'zhin-gen': '*', yaml: '*' },
      }),
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(checkLoad(root).diagnostics).toEqual([]);

    // The bot as a workspace package: its own package.json declares nothing, the workspace root does.
    const workspace = writeTree(tempDir('deps-ws'), {
      'package.json': JSON.stringify({
        name: 'ws',
        private: true,
        workspaces: ['bots/*'],
        dependencies: { '@zhin-gen/runtime': '*', zod: '*', 'zhin-gen': '*', yaml: '*' },
      }),
    });
    dirs.push(workspace);
    linkZhinGen(workspace);
    const one = writeTree(join(workspace, 'bots', 'one'), {
      ...BOT,
      'package.json': JSON.stringify({ name: 'one', type: 'module' }),
    });
    expect(cli(['generate', '--root', one]).status).toBe(0);
    expect(checkLoad(one).diagnostics).toEqual([]);
    // A workspace root that does not list the bot's folder does not declare for it.
    writeFileSync(
      join(workspace, 'package.json'),
      JSON.stringify({ name: 'ws', workspaces: ['apps/*'], dependencies: { zod: '*', yaml: '*', 'zhin-gen': '*' } }),
    );
    expect(checkLoad(one).diagnostics.map((d) => d.code)).toEqual(['ZG2064', 'ZG2064', 'ZG2064', 'ZG2064']);

    // A pnpm workspace lists its packages in pnpm-workspace.yaml (with `!` exclusions), not package.json.
    writeFileSync(
      join(workspace, 'package.json'),
      JSON.stringify({
        name: 'ws',
        private: true,
        dependencies: { '@zhin-gen/runtime': '*', zod: '*', yaml: '*', 'zhin-gen': '*' },
      }),
    );
    writeFileSync(join(workspace, 'pnpm-workspace.yaml'), "packages:\n  - 'bots/*'\n  - '!bots/legacy'\n");
    expect(checkLoad(one).diagnostics).toEqual([]);
    // `**/` is any number of folders, none included (pnpm's own `!**/test/**` idiom).
    writeFileSync(join(workspace, 'pnpm-workspace.yaml'), "packages:\n  - 'bots/*'\n  - '!**/bots/one'\n");
    expect(checkLoad(one).diagnostics.map((d) => d.code)).toEqual(['ZG2064', 'ZG2064', 'ZG2064', 'ZG2064']);
  });
});
