/**
 * The CLI as a subprocess (the built bin): exit codes 0 / 1 / 2 / 64 and the machine-readable
 * outputs (`check --format json|github|sarif`, `inspect --json`) are contracts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, cli, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';

let root: string;
beforeAll(() => {
  root = copyFixture('example-bot', 'cli');
});
afterAll(() => removeDir(root));

function edit(file: string, from: string, to: string): void {
  const abs = join(root, file);
  writeFileSync(abs, readFileSync(abs, 'utf8').replace(from, to));
}

describe('zhin-gen CLI', () => {
  it('generate writes the manifest and prints a one-line summary', () => {
    const run = cli(['generate', '--root', root]);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(
      /^zhin-gen: 8 tools, 3 skills, 2 agents, 3 prompt sections, 4 hooks → zhin-capabilities\.gen\.ts \(written\) in (\d{1,3} ms|\d+\.\d s)$/,
    );
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('export const manifest');
  });

  it('check exits 0 on a clean, up-to-date tree', () => {
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ diagnostics: [], stale: false });
  });

  it('check exits 2 with a short diff and the fix command when the output is stale', () => {
    edit('tools/echo/index.ts', 'Echo a message back', 'Echo a message back twice');
    const pretty = cli(['check', '--root', root]);
    expect(pretty.status).toBe(2);
    expect(pretty.stderr).toContain('zhin-capabilities.gen.ts is out of date');
    expect(pretty.stderr).toContain('"description":"Echo a message back twice"');
    expect(pretty.stderr).toMatch(/^- .*"description":"Echo a message back"/m);
    expect(pretty.stderr).toContain('Fix: npx zhin-gen generate');
    const json = JSON.parse(cli(['check', '--root', root, '--format', 'json']).stdout);
    expect(json).toEqual({ diagnostics: [], stale: true, missing: false });
    // SARIF says it too (a code-scanning upload must not show a clean run while the job fails).
    const sarif = cli(['check', '--format', 'sarif'], root);
    expect(sarif.status).toBe(2);
    const run = JSON.parse(sarif.stdout).runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['stale']);
    expect(run.results).toEqual([
      expect.objectContaining({
        ruleId: 'stale',
        message: { text: 'zhin-capabilities.gen.ts is out of date; run npx zhin-gen generate' },
      }),
    ]);
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(cli(['check', '--root', root]).status).toBe(0);
  });

  it("the fix command check prints is this run's: its --root and --out, quoted for the shell", () => {
    const odd = writeTree(join(tempDir('cli-fix'), "it's a bot $HOME"), {
      'tools/echo/index.ts': readFileSync(join(root, 'tools', 'echo', 'index.ts'), 'utf8'),
    });
    const stale = cli(['check', '--root', odd, '--out', 'src/caps.gen.ts']);
    expect(stale.status).toBe(2);
    const fix = /^Fix: (.*)$/m.exec(stale.stderr)![1]!;
    expect(fix).toBe(`npx zhin-gen generate --root '${odd.replace("'", "'\\''")}' --out src/caps.gen.ts`);
    // Pasted into a shell (with the bin for npx), it makes that check pass.
    const run = spawnSync(
      'sh',
      ['-c', fix.replace('npx zhin-gen', `"${process.execPath}" "${join(REPO, 'bin', 'zhin-gen.mjs')}"`)],
      {
        cwd: REPO,
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(existsSync(join(odd, 'src', 'caps.gen.ts'))).toBe(true);
    expect(cli(['check', '--root', odd, '--out', 'src/caps.gen.ts']).status).toBe(0);
    removeDir(dirname(odd));
  });

  it('check exits 2 when the output is missing', () => {
    rmSync(join(root, 'zhin-capabilities.gen.ts'));
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(run.status).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ stale: true, missing: true });
    expect(cli(['generate', '--root', root]).status).toBe(0);
  });

  it('check exits 1 on errors (precedence over stale) and points at the exact line with a hint', () => {
    edit(
      'tools/echo/index.ts',
      "description: 'Echo a message back twice',",
      "description: 'Echo',\n  requiresApproval: 'sometimes',",
    );
    const json = cli(['check', '--root', root, '--format', 'json']);
    expect(json.status).toBe(1);
    const parsed = JSON.parse(json.stdout) as { diagnostics: Record<string, unknown>[]; stale: boolean };
    expect(parsed.stale).toBe(false);
    expect(parsed.diagnostics).toEqual([
      {
        code: 'ZG2006',
        severity: 'error',
        message: `tool "echo": requiresApproval "sometimes" is not one of 'never', 'on-risk', 'once', 'always'`,
        file: 'tools/echo/index.ts',
        line: 7,
        column: 21,
        hint: "`requiresApproval` is one of 'never', 'on-risk', 'once', 'always' (default 'on-risk').",
      },
    ]);
    expect(readFileSync(join(root, 'tools/echo/index.ts'), 'utf8').split('\n')[6]!.slice(20)).toBe("'sometimes',");

    const pretty = cli(['check', '--root', root]);
    expect(pretty.status).toBe(1);
    expect(pretty.stderr).toContain(
      'tools/echo/index.ts:7:21  error  ZG2006  tool "echo": requiresApproval "sometimes"',
    );
    expect(pretty.stderr).toContain('hint: `requiresApproval` is one of');
    expect(pretty.stderr).not.toMatch(/\u001b\[/);
    expect(pretty.stderr).not.toMatch(/at .*\.js:\d+/);

    // Paths as CI resolves them, from the working directory (the checkout), not from --root.
    const fromRepo = relative(REPO, root).split(sep).join('/');
    const github = cli(['check', '--root', root, '--format', 'github']);
    expect(github.status).toBe(1);
    expect(github.stdout).toContain(
      `::error file=${fromRepo}/tools/echo/index.ts,line=7,col=21,title=ZG2006::tool "echo": requiresApproval`,
    );
    expect(cli(['check', '--format', 'github'], root).stdout).toContain(
      '::error file=tools/echo/index.ts,line=7,col=21,title=ZG2006::tool "echo": requiresApproval',
    );

    const sarif = JSON.parse(cli(['check', '--root', root, '--format', 'sarif']).stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['ZG2006']);
    expect(sarif.runs[0].results[0]).toMatchObject({
      ruleId: 'ZG2006',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: `${fromRepo}/tools/echo/index.ts` },
            region: { startLine: 7, startColumn: 21 },
          },
        },
      ],
    });

    // inspect --json: the document on stdout, and why it exits 1 on stderr.
    const inspected = cli(['inspect', '--root', root, '--json']);
    expect(inspected.status).toBe(1);
    expect(JSON.parse(inspected.stdout)).toHaveProperty('tools');
    expect(inspected.stderr).toContain('tools/echo/index.ts:7:21  error  ZG2006');

    // generate refuses to write a broken manifest and exits 1.
    const before = readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8');
    expect(cli(['generate', '--root', root]).status).toBe(1);
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toBe(before);
    edit('tools/echo/index.ts', "  requiresApproval: 'sometimes',\n", '');
    expect(cli(['generate', '--root', root]).status).toBe(0);
  });

  it('warnings alone exit 0', () => {
    edit('tools/echo/index.ts', "description: 'Echo',", "description: 'Echo',\n  colour: 'blue',");
    cli(['generate', '--root', root]);
    const run = cli(['check', '--root', root, '--format', 'json']);
    expect(run.status).toBe(0);
    expect(
      JSON.parse(run.stdout).diagnostics.map((d: { code: string; severity: string }) => `${d.code}:${d.severity}`),
    ).toEqual(['ZG2010:warning']);
  });

  it('inspect --json prints the capability tree contract', () => {
    const run = cli(['inspect', '--root', root, '--json']);
    expect(run.status).toBe(0);
    const tree = JSON.parse(run.stdout);
    expect(Object.keys(tree)).toEqual(['tools', 'skills', 'agents', 'promptSections', 'hooks']);
    const weather = tree.tools.find((t: { qualifiedName: string }) => t.qualifiedName === 'maps__get-weather');
    expect(weather).toMatchObject({
      localName: 'get-weather',
      owner: 'maps',
      placement: 'plugin',
      agent: null,
      skill: null,
      source: 'plugins/maps/tools/get-weather/index.ts',
      requiresApproval: 'never',
      scopes: ['group', 'private'],
      hidden: false,
      conditional: false,
    });
    expect(weather.inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, unit: { default: 'c', type: 'string', enum: ['c', 'f'] } },
      required: ['city'],
    });
    expect(weather.schemaVia).toBe('static');
    expect(tree.tools.find((t: { qualifiedName: string }) => t.qualifiedName === 'lottery_sync').schemaVia).toBe(
      'none',
    );
    expect(tree.tools.find((t: { qualifiedName: string }) => t.qualifiedName === 'lottery_sync')).toMatchObject({
      conditional: true,
      source: 'plugin.ts',
      requiresApproval: 'always',
    });
    expect(tree.tools.find((t: { qualifiedName: string }) => t.qualifiedName === 'review__check-result')).toMatchObject(
      { placement: 'agent-skill', agent: 'reviewer', skill: 'review' },
    );
    expect(tree.skills.find((s: { qualifiedName: string }) => s.qualifiedName === 'short-url')).toMatchObject({
      name: 'short-url',
      owner: '',
      agent: null,
      tools: ['short-url', 'short-url__normalize'],
      source: 'skills/short-url/SKILL.md',
    });
    expect(tree.agents.find((a: { qualifiedName: string }) => a.qualifiedName === 'icqq')).toMatchObject({
      platforms: ['icqq'],
      tools: [],
      source: 'agents/icqq/agent.json',
    });
    const pretty = cli(['inspect', '--root', root]);
    expect(pretty.stdout).toContain('plugin maps  plugins/maps');
    expect(pretty.stdout).toContain('disclosed after load_skill "short-url"');
    expect(pretty.stdout).toContain('; schema translated statically');
    // A JSON Schema literal is evaluated (and checked against the meta-schema), not translated.
    expect(
      tree.tools.find((t: { qualifiedName: string }) => t.qualifiedName === 'review__check-result').schemaVia,
    ).toBe('inline');
    expect(pretty.stdout).toContain('; schema evaluated in the VM');
  });

  it('usage errors exit 64 without a stack trace', () => {
    // No command: the usage is the error, on stderr (stdout stays empty for a script).
    const bare = cli([]);
    expect(bare.status).toBe(64);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('generate');
    const help = cli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('generate');
    const version = cli(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(JSON.parse(cli(['--version', '--json']).stdout)).toEqual({ version: version.stdout.trim() });
    const unknown = cli(['frobnicate']);
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const badRoot = cli(['check', '--root', join(root, 'nope')]);
    expect(badRoot.status).toBe(64);
    expect(badRoot.stderr).toContain('is not a directory');
    const badFlag = cli(['check', '--root', root, '--format', 'xml']);
    expect(badFlag.status).toBe(64);
    expect(`${unknown.stderr}${badRoot.stderr}${badFlag.stderr}`).not.toMatch(/\n\s+at /);
    // An option's value left out (an unset CI variable, `--root $DIR --json`), and a value given to a flag.
    for (const [args, said] of [
      [
        ['check', '--root', '--json'],
        '--root needs a value, and "--json" after it is not one (write --root=--json if it is)',
      ],
      [['generate', '--root'], '--root needs a value'],
      [['check', '--json=1'], '--json takes no value (got --json=1)'],
    ] as const) {
      const run = cli(args, root);
      expect(run.status, args.join(' ')).toBe(64);
      expect(run.stderr.split('\n')[0]).toBe(`zhin-gen: ${said}`);
    }
  });

  it('run inside a capability folder of the tree, it refuses (exit 64) instead of writing a manifest there', () => {
    for (const dir of ['tools', 'tools/echo']) {
      const run = cli(['generate'], join(root, dir));
      expect(run.status, dir).toBe(64);
      expect(run.stderr).toContain(`is inside the tools/ folder of the tree at ${root}`);
      expect(run.stderr).toContain(`hint: run zhin-gen in ${root}`);
      expect(existsSync(join(root, dir, 'zhin-capabilities.gen.ts'))).toBe(false);
    }
    expect(cli(['check', '--root', join(root, 'tools', 'echo')]).status).toBe(64);
    // Deeper, a folder named tools is a monorepo's own: a bot there is a root like any other.
    const mono = tempDir('cli-mono');
    writeTree(mono, {
      'package.json': '{ "name": "mono", "private": true }\n',
      'tools/bots/support/tools/echo/index.ts': readFileSync(join(root, 'tools', 'echo', 'index.ts'), 'utf8'),
    });
    const bot = join(mono, 'tools', 'bots', 'support');
    expect(cli(['generate'], bot).status).toBe(0);
    removeDir(mono);
  });

  it('run in any other folder of the tree without capability folders of its own (src, plugins, a tools folder deeper), it refuses too', () => {
    const tree = writeTree(tempDir('cli-inside'), {
      'AGENTS.md': '# Bot\n\nBe helpful.\n',
      'src/main.ts': 'export {};\n',
      'plugins/maps/tools/find/index.ts': readFileSync(join(root, 'tools', 'echo', 'index.ts'), 'utf8'),
      'skills/words/SKILL.md': '---\nname: words\ndescription: Count words\n---\nCount them.\n',
      'skills/words/tools/count/index.ts': readFileSync(join(root, 'tools', 'echo', 'index.ts'), 'utf8'),
    });
    // A generated tree (its manifest at the root) is what a folder below it belongs to.
    expect(cli(['generate', '--root', tree]).status).toBe(0);
    for (const [dir, folder] of [
      ['src', 'src'],
      ['plugins', 'plugins'],
      ['skills/words/tools', 'skills'],
    ] as const) {
      for (const args of [['generate'], ['new', 'tool', 'lookup'], ['check']]) {
        const run = cli(args, join(tree, dir));
        expect(run.status, `${dir}: ${args[0]}`).toBe(64);
        expect(run.stderr).toContain(`is inside the ${folder}/ folder of the tree at ${tree}`);
      }
      expect(existsSync(join(tree, dir, 'zhin-capabilities.gen.ts'))).toBe(false);
      expect(existsSync(join(tree, dir, 'tools', 'lookup'))).toBe(false);
    }
    // Named with --root, a folder is the root asked for (as before).
    expect(cli(['check', '--root', join(tree, 'src')]).status).not.toBe(64);
    // A monorepo's own tools/ and a coding agent's AGENTS.md at the top make no tree: a bot below runs.
    const mono = writeTree(tempDir('cli-mono-agents'), {
      'package.json': '{ "name": "mono", "private": true }\n',
      'AGENTS.md': '# Repo\n\nFor coding agents.\n',
      'tools/scripts/build.ts': 'export {};\n',
      'bots/support/src/main.ts': 'export {};\n',
    });
    expect(cli(['new', 'tool', 'lookup'], join(mono, 'bots', 'support')).status).toBe(0);
    removeDir(mono);
    // A child plugin's own folder holds capability folders: a root (the plugin alone) as before.
    expect(cli(['generate'], join(tree, 'plugins', 'maps')).status).toBe(0);
    // An empty --root (an unset variable) is no silent "current directory".
    const empty = cli(['check', '--root', '']);
    expect(empty.status).toBe(64);
    expect(empty.stderr).toContain('--root is empty (an unset variable?): it takes DIR');
    for (const command of ['generate', 'check', 'inspect', 'watch', 'mcp', 'report']) {
      const run = cli([command, '--root', tree, '--out', '']);
      expect(run.status, command).toBe(64);
      expect(run.stderr.split('\n')[0], command).toBe('zhin-gen: --out is empty (an unset variable?): it takes FILE');
    }
    expect(JSON.parse(cli(['check', '--root', tree, '--out=', '--json']).stdout)).toEqual({
      error: '--out is empty (an unset variable?): it takes FILE',
      usage: true,
    });
    removeDir(tree);
  });
});
