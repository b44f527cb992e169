/**
 * `zhin-gen check --load` through the real CLI: every tool, hook and prompt-section module is
 * imported in child processes and its real definition compared with the manifest. Plain
 * `check` never runs module code, so each broken tree below passes it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli, copyFixture, removeDir, tempDir, writeTree, type JsonDiagnostic } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function tree(prefix: string, files: Record<string, string>): string {
  const dir = writeTree(tempDir(prefix), { 'AGENTS.md': '# Bot\n\nBe helpful.\n', ...files });
  dirs.push(dir);
  return dir;
}

function checkJson(root: string, ...extra: string[]): { status: number; diagnostics: JsonDiagnostic[]; ms: number } {
  const started = performance.now();
  const run = cli(['check', '--root', root, '--format', 'json', ...extra]);
  const ms = performance.now() - started;
  expect(run.stderr).not.toMatch(/internal error|ZG9001|\n\s+at /);
  return {
    status: run.status,
    diagnostics: (JSON.parse(run.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics,
    ms,
  };
}

const errorsOf = (diagnostics: readonly JsonDiagnostic[]): JsonDiagnostic[] =>
  diagnostics.filter((d) => d.severity === 'error');

/** A tool whose schema comes from a relatively imported helper function and whose module throws at import. */
const BOOM = {
  'tools/boom/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';
import { schema } from './schema.js';

if (!process.env.ZHIN_GEN_TEST_NEVER_SET) throw new Error('boom: ZHIN_GEN_TEST_NEVER_SET is not set');

export default defineAgentTool({
  description: 'Explodes at import',
  inputSchema: schema(),
  async execute() {
    return 1;
  },
});
`,
  'tools/boom/schema.ts': `import { z } from 'zod';

export function schema() {
  return z.object({ city: z.string().max(40) });
}
`,
};

const OK_TOOL = `import { defineAgentTool } from '@zhin.js/tool';
import { z } from 'zod';

export default defineAgentTool({
  description: 'Loads fine',
  inputSchema: z.object({ q: z.string() }),
  requiresApproval: 'never',
  async execute() {
    return 1;
  },
});
`;

describe('zhin-gen check --load', () => {
  it('a module that throws at import: plain check is green, check --load exits 1 at its definition', () => {
    const root = tree('load-boom', { ...BOOM, 'tools/ok/index.ts': OK_TOOL });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    // The schema was obtained without importing the module (the helper function is inlined).
    expect(cli(['inspect', '--root', root, '--json']).stdout).toMatch(/"schemaVia": "(static|inline)"/);
    const plain = checkJson(root);
    expect(plain.status).toBe(0);
    expect(plain.diagnostics).toEqual([]);

    const loaded = checkJson(root, '--load');
    expect(loaded.status).toBe(1);
    expect(errorsOf(loaded.diagnostics)).toEqual([
      expect.objectContaining({
        code: 'ZG2051',
        file: 'tools/boom/index.ts',
        line: 6,
        column: 16,
        message: expect.stringContaining('Error: boom: ZHIN_GEN_TEST_NEVER_SET is not set') as string,
      }),
    ]);
    expect(loaded.diagnostics[0]!.hint).toContain('execute()');

    const pretty = cli(['check', '--root', root, '--load']);
    expect(pretty.status).toBe(1);
    expect(pretty.stderr).toContain('tools/boom/index.ts:6:16  error  ZG2051');
    expect(pretty.stdout).toMatch(
      /zhin-gen check: 1 error, 0 warnings, output up to date; 2 modules loaded in (\d{1,3} ms|\d+\.\d s)/,
    );
  });

  it('modules that hang are reported within the time limit, and every other module is still verified', () => {
    const root = tree('load-hang', {
      // Never settles and nothing is pending: detected as soon as the event loop runs dry.
      'tools/a-stall/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\n\nawait new Promise(() => {});\n\nexport default defineAgentTool({ description: 'Stalls', async execute() { return 1; } });\n",
      // A pending timer keeps the process busy: only the time limit (and a kill) ends it.
      'tools/b-wait/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\n\nawait new Promise((resolve) => setTimeout(resolve, 120_000));\n\nexport default defineAgentTool({ description: 'Waits', async execute() { return 1; } });\n",
      'tools/c-spin/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\n\nfor (;;) {}\n\nexport default defineAgentTool({ description: 'Spins', async execute() { return 1; } });\n",
      'tools/d-exit/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\n\nprocess.exit(3);\n\nexport default defineAgentTool({ description: 'Exits', async execute() { return 1; } });\n",
      'tools/e-ok/index.ts': OK_TOOL,
      // After the bad ones in queue order: its divergence must still be found.
      'tools/f-late/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\nimport { KEYWORDS } from './words.js';\n\nexport default defineAgentTool({ description: 'Late', keywords: KEYWORDS, async execute() { return 1; } });\n",
      'tools/f-late/words.ts': "export const KEYWORDS = ['slow'];\n",
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(checkJson(root).status).toBe(0);
    const loaded = checkJson(root, '--load', '--load-timeout', '2s');
    expect(loaded.status).toBe(1);
    const errors = errorsOf(loaded.diagnostics).map((d) => [d.file, d.code, d.message]);
    expect(errors).toEqual([
      ['tools/a-stall/index.ts', 'ZG2052', expect.stringContaining('top-level await never settles')],
      ['tools/b-wait/index.ts', 'ZG2052', expect.stringContaining('did not finish loading within 2 s')],
      ['tools/c-spin/index.ts', 'ZG2052', expect.stringContaining('did not finish loading within 2 s')],
      ['tools/d-exit/index.ts', 'ZG2051', expect.stringContaining('ended the process while loading (exit code 3)')],
      [
        'tools/f-late/index.ts',
        'ZG2054',
        expect.stringContaining('`keywords` differs: the loaded module has ["slow"], the manifest has []'),
      ],
    ]);
    // Two time-outs of 2 s each (in parallel or not) plus start-up; far below a 120 s wait.
    expect(loaded.ms).toBeLessThan(30_000);
  });

  it('a real definition that differs from the static read is an error at the field', () => {
    const root = tree('load-diff', {
      // An imported const: the static read sees [] (an access or approval field read so is an
      // error of its own, ZG2012: fixtures/invalid-policy-not-static; a description, ZG2004).
      'tools/weather/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';
import { TAGS } from './text.js';

export default defineAgentTool({
  description: 'Look up the weather',
  inputSchema: z.object({ city: z.string() }),
  tags: TAGS,
  async execute() {
    return 1;
  },
});
`,
      'tools/weather/text.ts': "export const TAGS = ['outdoors'];\n",
      // A function of another module, called at top level, adds a field to the copied \`shape\`:
      // the static read cannot see that (a same-module function is seen, and sends the schema to
      // the bundle path, which imports the module: tools/search-local stays exact).
      'tools/search/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';
import { addLimit, shape } from './shape.js';

addLimit();

export default defineAgentTool({
  description: 'Search',
  inputSchema: z.object(shape),
  async execute() {
    return 1;
  },
});
`,
      'tools/search/shape.ts':
        "import { z } from 'zod';\n\nexport const shape: Record<string, z.ZodType> = { query: z.string() };\n\nexport function addLimit() {\n  shape.limit = z.number().int();\n}\n",
      'tools/search-local/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';

const shape: Record<string, z.ZodType> = { query: z.string() };
function addLimit() {
  shape.limit = z.number().int();
}
addLimit();

export default defineAgentTool({
  description: 'Search here',
  inputSchema: z.object(shape),
  async execute() {
    return 1;
  },
});
`,
      'prompt-sections/rules/index.ts':
        "import { defineAgentPromptSection } from 'zhin-gen/runtime';\nimport { ORDER } from './order.js';\n\nexport default defineAgentPromptSection({ title: 'Rules', content: 'Be kind.', order: ORDER });\n",
      'prompt-sections/rules/order.ts': 'export const ORDER = 10;\n',
    });
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(checkJson(root).status).toBe(0);
    const tools = (
      JSON.parse(cli(['inspect', '--root', root, '--json']).stdout) as {
        tools: { qualifiedName: string; schemaVia: string; inputSchema: { properties: object } }[];
      }
    ).tools;
    const local = tools.find((t) => t.qualifiedName === 'search-local')!;
    expect([local.schemaVia, Object.keys(local.inputSchema.properties)]).toEqual(['bundle', ['query', 'limit']]);
    const loaded = checkJson(root, '--load');
    expect(loaded.status).toBe(1);
    const errors = errorsOf(loaded.diagnostics).map((d) => [`${d.file}:${d.line}:${d.column}`, d.code, d.message]);
    expect(errors).toEqual([
      [
        'prompt-sections/rules/index.ts:4:16',
        'ZG2054',
        expect.stringContaining('`order` differs: the loaded module has 10, the manifest has 50'),
      ],
      [
        'tools/search/index.ts:9:16',
        'ZG2054',
        expect.stringContaining('`inputSchema` differs at properties.limit: the loaded module has {"type":"integer"'),
      ],
      [
        'tools/weather/index.ts:5:16',
        'ZG2054',
        expect.stringContaining('`tags` differs: the loaded module has ["outdoors"], the manifest has []'),
      ],
    ]);
  });

  it('a clean tree (the example bot) passes check --load', () => {
    const root = copyFixture('example-bot', 'load-clean');
    dirs.push(root);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const run = cli(['check', '--root', root, '--load']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // 8 tools (one added by plugin.ts has no module), 4 hooks, 3 prompt sections.
    expect(run.stdout).toMatch(/output up to date; \d+ modules loaded in (\d{1,3} ms|\d+\.\d s)/);
    expect(checkJson(root, '--load').diagnostics).toEqual([]);
  });

  it('usage errors: --load-timeout without a unit, without --load, or --load on another command', () => {
    const root = tree('load-usage', { 'tools/ok/index.ts': OK_TOOL });
    for (const args of [
      ['check', '--load', '--load-timeout', '10'],
      ['check', '--load-timeout', '5s'],
      ['generate', '--load'],
    ]) {
      const run = cli([...args, '--root', root]);
      expect(run.status).toBe(64);
      expect(run.stderr).toMatch(/--load/);
    }
    // A duration of nothing is a duration, and a mistake of its own.
    expect(cli(['check', '--load', '--load-timeout', '0s', '--root', root]).stderr.split('\n')[0]).toBe(
      'zhin-gen: --load-timeout 0s would fail every module: give it more than 0 (e.g. 10s or 500ms)',
    );
  });
});
