/**
 * `zhin-gen catalog` as a subprocess on fixtures/example-bot (needs `node scripts/build.mjs`, as
 * every CLI test), plus a cross-check that it answers exactly what the runtime answers for the
 * generated module in-process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { PermissionHost, createCapabilityHost, type CapabilityManifest } from '../../../runtime/index.js';
import type { CatalogJson } from '../../../compiler/cli/catalog.js';
import { cli, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';

let root: string;
beforeAll(() => {
  root = copyFixture('example-bot', 'catalog');
});
afterAll(() => removeDir(root));

function catalog(...args: string[]): { status: number; json: CatalogJson; stderr: string } {
  const result = cli(['catalog', '--root', root, '--json', ...args]);
  return {
    status: result.status,
    json: result.stdout ? (JSON.parse(result.stdout) as CatalogJson) : (undefined as never),
    stderr: result.stderr,
  };
}
const sent = (json: CatalogJson) => json.tools.filter((tool) => tool.sent).map((tool) => `${tool.name}:${tool.state}`);
const omitted = (json: CatalogJson) => Object.fromEntries(json.omitted.map((o) => [o.name, `${o.code}: ${o.detail}`]));

describe('zhin-gen catalog', () => {
  it('icqq group turn: the platform agent is auto-selected; every left-out tool has its reason', () => {
    const { status, json } = catalog('--platform', 'icqq', '--scope', 'group', '--user', 'u1', '--role', 'master');
    expect(status).toBe(0);
    expect(json.turn).toEqual({
      platform: 'icqq',
      scope: 'group',
      user: 'u1',
      roles: ['master'],
      agent: 'icqq',
      agentSelection: 'platform',
      provider: 'anthropic',
      generation: 1,
    });
    expect(sent(json)).toEqual([
      'discover:loaded',
      'load_tool:loaded',
      'load_skill:loaded',
      'ask_user:loaded',
      'echo:deferred',
      'maps__get-weather:deferred',
      'short-url:deferred',
    ]);
    expect(json.skills.map((s) => s.name)).toEqual(['short-url']);
    expect(json.agents.map((a) => `${a.name}${a.selected ? '*' : ''}`)).toEqual(['icqq*', 'reviewer']);
    expect(omitted(json)).toEqual({
      admin__mute: 'skill-not-loaded: not yet disclosed: skill icqq__admin is not loaded',
      'review__check-result': 'agent-not-selected: not yet disclosed: agent reviewer is not selected',
      'reviewer__check-result': 'agent-not-selected: not yet disclosed: agent reviewer is not selected',
      'short-url__normalize': 'skill-not-loaded: not yet disclosed: skill short-url is not loaded',
      icqq__admin:
        'permission: permit platform(icqq,admin) failed (decided by the platform checker registered for that adapter)',
      reviewer__review: 'agent-not-selected: not yet disclosed: agent reviewer is not selected',
    });
    expect(json.conditional).toEqual([
      {
        name: 'lottery_sync',
        source: 'plugin.ts',
        detail: 'added by setup() at runtime; setup() is not run by catalog',
      },
    ]);
  });

  it('another platform never sees the platform agent; --agent and --skill disclose; openai sends only the loaded set', () => {
    const { status, json } = catalog(
      '--platform',
      'discord',
      '--scope',
      'channel',
      '--agent',
      'reviewer',
      '--skill',
      'reviewer__review',
      '--provider',
      'openai',
    );
    expect(status).toBe(0);
    expect(json.turn.agentSelection).toBe('explicit');
    expect(json.agents.map((a) => a.name)).toEqual(['reviewer']);
    expect(sent(json)).toEqual([
      'discover:loaded',
      'load_tool:loaded',
      'load_skill:loaded',
      'ask_user:loaded',
      'echo:loaded',
      'review__check-result:loaded',
    ]);
    expect(json.tools.find((tool) => tool.name === 'echo')).toMatchObject({ reason: 'pinned', sent: true });
    expect(json.tools.find((tool) => tool.name === 'short-url')).toMatchObject({ state: 'deferred', sent: false });
    expect(json.requestedSkills).toEqual([{ name: 'reviewer__review', status: 'loaded', detail: null }]);
    expect(omitted(json)).toMatchObject({
      'maps__get-weather': 'scope: scope "channel" is not in [group, private]',
      admin__mute: 'agent-not-selected: not yet disclosed: agent icqq is not selected',
      icqq__admin: 'agent-not-selected: not yet disclosed: agent icqq is not selected',
    });
  });

  it('a skill that exists but is not available is reported; an unknown one fails the command', () => {
    const unavailable = catalog('--platform', 'icqq', '--scope', 'group', '--skill', 'icqq__admin');
    expect(unavailable.status).toBe(0);
    expect(unavailable.json.requestedSkills).toEqual([
      {
        name: 'icqq__admin',
        status: 'unavailable',
        detail: 'permit platform(icqq,admin) failed (decided by the platform checker registered for that adapter)',
      },
    ]);
    expect(unavailable.stderr).toBe('');
    const unknown = catalog('--platform', 'icqq', '--scope', 'group', '--skill', 'nope');
    expect(unknown.status).toBe(1);
    // Why, on stderr (stdout is the JSON document).
    expect(unknown.stderr).toContain('zhin-gen catalog: --skill nope: no skill of this name in the manifest');
  });

  it('usage and routing errors', () => {
    expect(cli(['catalog', '--root', root, '--platform', 'icqq'])).toMatchObject({
      status: 64,
      stderr: expect.stringContaining('--platform P and --scope S are required'),
    });
    expect(cli(['catalog', '--root', root, '--platform', 'icqq', '--scope', 'guild']).status).toBe(64);
    expect(
      cli(['catalog', '--root', root, '--platform', 'icqq', '--scope', 'group', '--provider', 'gemini']).status,
    ).toBe(64);
    const wrongPlatform = cli([
      'catalog',
      '--root',
      root,
      '--platform',
      'discord',
      '--scope',
      'group',
      '--agent',
      'icqq',
    ]);
    expect(wrongPlatform).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('agent "icqq" is not available for a "discord" turn: it serves platforms [icqq]'),
    });
    expect(
      cli(['catalog', '--root', root, '--platform', 'icqq', '--scope', 'group', '--agent', 'ghost']),
    ).toMatchObject({ status: 1, stderr: expect.stringContaining('unknown agent "ghost"') });
  });

  it('--json prints a JSON document when it fails too: the error, and the tree errors located', () => {
    const ghost = cli([
      'catalog',
      '--root',
      root,
      '--platform',
      'icqq',
      '--scope',
      'group',
      '--agent',
      'ghost',
      '--json',
    ]);
    expect(ghost.status).toBe(1);
    expect(JSON.parse(ghost.stdout)).toEqual({
      error: expect.stringContaining('unknown agent "ghost"'),
      diagnostics: [],
    });
    const broken = tempDir('catalog-broken');
    try {
      writeTree(broken, { 'tools/t/index.ts': 'export default 5;\n' });
      const run = cli(['catalog', '--root', broken, '--platform', 'icqq', '--scope', 'group', '--json']);
      expect(run.status).toBe(1);
      const doc = JSON.parse(run.stdout) as {
        error: string;
        diagnostics: { code: string; file: string; line: number }[];
      };
      expect(doc.error).toBe('the tree has errors; fix them first');
      expect(doc.diagnostics).toEqual([expect.objectContaining({ code: 'ZG2002', file: 'tools/t/index.ts', line: 1 })]);
    } finally {
      removeDir(broken);
    }
  });

  it('pretty output names the sent tools and the reasons', () => {
    const result = cli(['catalog', '--root', root, '--platform', 'icqq', '--scope', 'group']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('agent icqq (platform agent, auto-selected); provider anthropic');
    expect(result.stdout).toMatch(/Tools sent \(anthropic\): 4 loaded, 3 deferred/);
    expect(result.stdout).toMatch(/tool {2}reviewer__check-result +not yet disclosed: agent reviewer is not selected/);
    // openai sends only the loaded set: the others are listed as not sent (not as "discover",
    // the meta tool's name), and the header counts them.
    const openai = cli(['catalog', '--root', root, '--platform', 'icqq', '--scope', 'group', '--provider', 'openai']);
    expect(openai.stdout).toMatch(/Tools sent \(openai\): 4 loaded, 0 deferred; 3 listed but not sent/);
    expect(openai.stdout).toMatch(/^ {2}not sent +echo +Echo a message back$/m);
    expect(openai.stdout).not.toMatch(/^ {2}discover +echo/m);
  });

  it("pretty output shows the tree's escape sequences and bidi controls as escapes, never sends them to the terminal", () => {
    const hostile = 'hello \x1b[31mRED\x1b[0m \x1b]0;TITLE\x07 \u202egnirts\u202c end \r over';
    const tree = writeTree(tempDir('catalog-ansi'), {
      'tools/t/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: ${JSON.stringify(hostile)}, requiresApproval: 'never', async execute() { return 1; } });\n`,
      'skills/s/SKILL.md': `---\nname: s\ndescription: ${JSON.stringify(`skill ${hostile}\nsecond line`)}\n---\nBody.\n`,
    });
    try {
      for (const command of [
        ['catalog', '--root', tree, '--platform', 'qq', '--scope', 'group'],
        ['inspect', '--root', tree],
      ]) {
        const result = cli(command);
        expect(result.status, command[0]).toBe(0);
        expect(result.stdout, command[0]).not.toMatch(/[\x1b\x07\r\u202e\u202c]/);
        if (command[0] === 'catalog') {
          expect(result.stdout).toContain('hello \\x1b[31mRED\\x1b[0m \\x1b]0;TITLE\\x07 \\u{202e}gnirts');
          // A description's first line, one row each: no `\x0a` in the middle of a row.
          expect(result.stdout).not.toContain('second line');
        }
      }
      // A name is shown as an escape in diagnostics too (here a tool folder's name, ZG1001).
      const named = writeTree(tempDir('catalog-bidi'), { 'tools/a\u202eb/index.ts': 'export default 1;\n' });
      const check = cli(['check', '--root', named]);
      removeDir(named);
      expect(check.stdout + check.stderr).not.toContain('\u202e');
      expect(check.stderr).toContain('tools/a\\u{202e}b');
    } finally {
      removeDir(tree);
    }
  });

  it('answers exactly what a host answers for the generated module', async () => {
    const compiler = createCompiler({ root });
    try {
      const result = await compiler.run({ write: true });
      expect(result.errors).toBe(0);
      const { manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
        manifest: CapabilityManifest;
      };
      const host = createCapabilityHost({ permissions: new PermissionHost() });
      await host.load(manifest);
      const turn = await host.beginTurn({
        sessionKey: 'x',
        message: { $adapter: 'discord', $channel: { id: 'c', type: 'group' }, $sender: { id: 'u' } },
        question: { ask: async () => '' },
      });
      const listing = await turn.deferred.listing();
      const { json } = catalog('--platform', 'discord', '--scope', 'group', '--user', 'u');
      expect(json.tools.map((tool) => [tool.name, tool.state])).toEqual(
        listing.tools.map((tool) => [tool.name, tool.state]),
      );
      expect(json.skills.map((s) => s.name)).toEqual(listing.skills.map((s) => s.name));
      expect(json.omitted.map((o) => o.name)).toEqual((await turn.deferred.omissions()).map((o) => o.name));
      await turn.end();
    } finally {
      await compiler.dispose();
    }
  });
});

describe('a tree with a prompt section whose module computes its content', () => {
  it('catalog and report answer without importing it (no internal error); the report says the size is computed', () => {
    const root = writeTree(tempDir('catalog-computed-section'), {
      'prompt-sections/rules/index.ts':
        "import { defineAgentPromptSection } from 'zhin-gen/runtime';\nconst RULES = ['Be brief.', 'Cite sources.'];\nexport default defineAgentPromptSection({ title: 'Rules', content: RULES.join('\\n'), maxChars: 100 });\n",
      'tools/echo/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Echo', requiresApproval: 'never', execute: () => 1 });\n",
    });
    try {
      const listed = cli(['catalog', '--root', root, '--platform', 'qq', '--scope', 'group', '--json']);
      expect(listed.stderr).toBe('');
      expect(listed.status).toBe(0);
      expect((JSON.parse(listed.stdout) as CatalogJson).tools.map((t) => t.name)).toContain('echo');
      const reported = cli(['report', '--root', root, '--out', 'report.html']);
      expect(reported.stderr).toBe('');
      expect(reported.status).toBe(0);
      const page = readFileSync(join(root, 'report.html'), 'utf8');
      const embedded = /<script type="application\/json" id="zhin-report-data">([^<]*)<\/script>/.exec(page)![1]!;
      const data = JSON.parse(embedded) as { prompt: { sections: { id: string; contentChars: number | null }[] } };
      expect(data.prompt.sections).toMatchObject([{ id: ':rules', contentChars: null }]);
      expect(page).not.toContain('Cite sources');
    } finally {
      removeDir(root);
    }
  });
});
