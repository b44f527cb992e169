/**
 * CLI conventions through the built CLI (subprocess): `--help` for every command, `--version`,
 * "did you mean" for commands and options, `--json` ≡ `--format json`, rounded durations and a
 * code frame under each diagnostic of the pretty output (colour only on a TTY).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../compiler/cli/commands.js';
import { codeFrame, formatDuration } from '../../../compiler/report/index.js';
import { main, type Io } from '../../../compiler/cli/main.js';
import { editDistance, suggest } from '../../../compiler/cli/suggest.js';
import { REPO, cli, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A tool whose description is blank: ZG2004 at line 4, column 16. */
const BAD_TOOL = `import { defineAgentTool } from '@zhin-gen/runtime';

export default defineAgentTool({
  description: '   ',
  async execute() {
    return 1;
  },
});
`;

let example: string;
let bad: string;
beforeAll(() => {
  example = copyFixture('example-bot', 'conventions');
  dirs.push(example);
  bad = writeTree(tempDir('conventions-bad'), { 'tools/bad/index.ts': BAD_TOOL });
  dirs.push(bad);
});

describe('--help and --version', () => {
  it('every command prints its own usage with each of its options, exit 0', () => {
    for (const spec of COMMANDS) {
      const run = cli([spec.name, '--help']);
      expect(run.status, `${spec.name} --help`).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout.startsWith(`Usage: zhin-gen ${spec.name}`)).toBe(true);
      for (const option of Object.keys(spec.options))
        expect(run.stdout, `${spec.name} --${option}`).toContain(`--${option}`);
      // -h, `help <command>`, and --help after anything else on the line (even a usage error).
      for (const args of [
        [spec.name, '-h'],
        ['help', spec.name],
        [spec.name, '--bogus', 'extra', 'args', '--help'],
        // Where an option that takes a value would take it.
        ...(spec.name === 'init' ? [] : [[spec.name, '--root', '--help']]),
      ]) {
        expect(cli(args), args.join(' ')).toEqual(run);
      }
    }
    const top = cli(['--help']);
    expect(top.status).toBe(0);
    for (const spec of COMMANDS) expect(top.stdout).toContain(`  ${spec.name} `);
  });

  it('--version prints the package version', () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-v', 'version'])
      expect(cli([flag])).toMatchObject({ status: 0, stdout: `${version}\n` });
  });
});

describe('did you mean', () => {
  it('suggests the nearest command, or the option of the command (or says which command has it)', () => {
    const cases: readonly [string[], string][] = [
      [['genrate'], 'unknown command "genrate" (did you mean "generate"?)'],
      [['inpsect'], 'unknown command "inpsect" (did you mean "inspect"?)'],
      [['cat'], 'unknown command "cat" (did you mean "catalog"?)'],
      [['--root', '.'], 'unknown command "--root" (options go after the command: zhin-gen <command> --root)'],
      [['check', '--rot', '.'], 'unknown option --rot for check (did you mean --root?)'],
      [['catalog', '--scpoe', 'group'], 'unknown option --scpoe for catalog (did you mean --scope?)'],
      [['check', '--jsn'], 'unknown option --jsn for check (did you mean --json?)'],
      [
        ['generate', '--platform', 'qq'],
        'unknown option --platform for generate (--platform is an option of catalog, mcp, report)',
      ],
      [['generate', '--load'], 'unknown option --load for generate (--load is an option of check)'],
      [
        ['inspect', '--format', 'jsn'],
        'unknown --format "jsn" for inspect: one of pretty, json (did you mean "json"?)',
      ],
      [['check', 'extra'], 'unexpected argument "extra" for check (it takes no arguments)'],
    ];
    for (const [args, message] of cases) {
      const run = cli(args);
      expect(run.status, args.join(' ')).toBe(64);
      expect(run.stderr, args.join(' ')).toContain(`zhin-gen: ${message}`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    // Far from everything: no guess.
    expect(cli(['frobnicate']).stderr).not.toContain('did you mean');
  });

  it('edit distance counts a transposition as one edit; a unique prefix is a match', () => {
    expect(editDistance('inpsect', 'inspect')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(suggest('gen', ['generate', 'check'])).toBe('generate');
    expect(suggest('c', ['check', 'catalog'])).toBeUndefined();
    expect(suggest('frobnicate', ['generate', 'check'])).toBeUndefined();
  });
});

describe('--json is --format json', () => {
  it('check, inspect and catalog print the same bytes for --json and --format json', () => {
    // Stale and with a warning: the JSON has content to compare.
    expect(cli(['generate', '--root', bad]).status).toBe(1);
    for (const [args, status] of [
      [['check', '--root', bad], 1],
      [['check', '--root', example], 2],
      [['inspect', '--root', example], 0],
      [['catalog', '--root', example, '--platform', 'icqq', '--scope', 'group', '--role', 'admin'], 0],
    ] as const) {
      const json = cli([...args, '--json']);
      const format = cli([...args, '--format', 'json']);
      expect(json.status, args.join(' ')).toBe(status);
      expect(format).toEqual(json);
      expect(() => JSON.parse(json.stdout)).not.toThrow();
    }
    const clash = cli(['check', '--root', example, '--json', '--format', 'github']);
    expect(clash.status).toBe(64);
    expect(clash.stderr).toContain('--json and --format github disagree');
  });

  it('generate --json prints the run as JSON and nothing else', () => {
    const root = copyFixture('example-bot', 'conventions-generate');
    dirs.push(root);
    const run = cli(['generate', '--root', root, '--json']);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      out: 'zhin-capabilities.gen.ts',
      state: 'written',
      counts: { tools: 8, skills: 3, agents: 2, promptSections: 3, hooks: 4 },
      errors: 0,
      warnings: 0,
      diagnostics: [],
    });
    expect(Number.isInteger(parsed.ms)).toBe(true);
    const failed = JSON.parse(cli(['generate', '--root', bad, '--json']).stdout) as {
      state: string;
      diagnostics: { code: string; line: number; column: number }[];
    };
    expect(failed.state).toBe('not written');
    expect(failed.diagnostics).toEqual([expect.objectContaining({ code: 'ZG2004', line: 4, column: 16 })]);
  });

  it('a usage error under --json prints a JSON error document on stdout, as well as stderr (exit 64)', () => {
    const missing = join(tempDir('conventions-usage'), 'nowhere');
    for (const [args, error] of [
      [['generate', '--json', '--root', missing], `--root ${missing} is not a directory`],
      [['check', '--format', 'json', '--bogus'], 'unknown option --bogus for check'],
      [['catalog', '--json', '--platform', 'qq', '--root', bad], '--platform P and --scope S are required'],
    ] as const) {
      const run = cli(args);
      expect(run.status, args.join(' ')).toBe(64);
      const parsed = JSON.parse(run.stdout) as { error: string; usage: boolean };
      expect(parsed.usage).toBe(true);
      expect(parsed.error).toContain(error);
      expect(run.stderr).toContain(error);
    }
    // mcp's stdout is the MCP channel: never a JSON error there.
    expect(cli(['mcp', '--json']).stdout).toBe('');
  });

  it('generate and check in a CommonJS package: a note to add "type": "module" (Node could not load the manifest)', () => {
    const root = writeTree(tempDir('conventions-cjs'), {
      'package.json': '{ "name": "bot", "type": "commonjs" }\n',
      'tools/echo/index.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Echo', requiresApproval: 'never', execute: () => 1 });\n",
    });
    dirs.push(root);
    for (const args of [['generate'], ['check']]) {
      const run = cli([...args, '--root', root]);
      expect(run.status, args[0]).toBe(0);
      expect(run.stderr).toContain('has no "type": "module"; add "type": "module" to package.json');
    }
    writeFileSync(join(root, 'package.json'), '{ "name": "bot", "type": "module" }\n');
    expect(cli(['check', '--root', root]).stderr).not.toContain('"type": "module"');
  });

  it('run in a directory removed since the shell entered it: one line and a hint, exit 64, no stack trace', () => {
    const parent = tempDir('conventions-gone');
    dirs.push(parent);
    // The shell enters the folder, which is then removed under it (the only way to such a cwd).
    const run = spawnSync(
      'sh',
      [
        '-c',
        'mkdir gone && cd gone && rmdir ../gone && exec "$0" "$1" generate',
        process.execPath,
        join(REPO, 'bin', 'zhin-gen.mjs'),
      ],
      { cwd: parent, encoding: 'utf8' },
    );
    expect(run.status).toBe(64);
    expect(run.stderr).toMatch(/^zhin-gen: the current directory no longer exists .*\nhint: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('a reader that goes away (| head) ends the run quietly: no EPIPE stack trace', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++)
      files[`tools/t${i}/index.ts`] =
        `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Tool number ${i} with a description long enough to fill the pipe', execute: () => ${i} });\n`;
    const root = writeTree(tempDir('conventions-epipe'), files);
    dirs.push(root);
    const child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'inspect', '--json', '--root', root]);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/Unhandled|EPIPE|\n\s+at /);
    expect(code).toBe(0);
  });

  it('watch --json prints one JSON object per run, one per line', async () => {
    const root = copyFixture('example-bot', 'conventions-watch');
    dirs.push(root);
    const child = spawn(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'watch', '--root', root, '--json'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    const line = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        if (buffered.includes('\n')) resolve(buffered);
      });
      child.once('exit', (code) => reject(new Error(`watch exited with ${code}`)));
    });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ out: 'zhin-capabilities.gen.ts', state: 'written', errors: 0 });
  });
});

describe('durations', () => {
  it('whole milliseconds under a second, seconds with one decimal above', () => {
    expect([0.2, 42.4, 999.4, 999.6, 1000, 1342, 12_345].map(formatDuration)).toEqual([
      '0 ms',
      '42 ms',
      '999 ms',
      '1.0 s',
      '1.0 s',
      '1.3 s',
      '12.3 s',
    ]);
  });

  it('the summary line carries a rounded duration', () => {
    const run = cli(['generate', '--root', bad]);
    expect(run.stdout.trim()).toMatch(/\(not written\) in (\d{1,3} ms|\d+\.\d s)$/);
  });
});

describe('code frames', () => {
  it('pretty output shows the line with a caret under the column, below each diagnostic', () => {
    const run = cli(['check', '--root', bad]);
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n');
    const head = lines.findIndex((l) => l.startsWith('tools/bad/index.ts:4:16  error  ZG2004'));
    expect(head).toBeGreaterThanOrEqual(0);
    expect(lines.slice(head + 1, head + 5)).toEqual([
      '      3 | export default defineAgentTool({',
      "    > 4 |   description: '   ',",
      '        |                ^',
      '      5 |   async execute() {',
    ]);
    expect(lines[head + 5]).toMatch(/^ {4}hint: /);
    // The caret sits under column 16 of the source line.
    const caret = lines[head + 3]!.indexOf('^') - lines[head + 2]!.indexOf('  description');
    expect(caret).toBe(15);
    // Machine formats carry no frame.
    expect(cli(['check', '--root', bad, '--format', 'github']).stdout).not.toContain(' | ');
  });

  it('a long line (minified JSON) is cut to a window that keeps the column, caret still under it', () => {
    const line = `{${Array.from({ length: 60 }, (_, i) => `"k${i}":${i}`).join(',')},}`;
    const column = line.length - 1; // the trailing comma
    const frame = codeFrame(line, 1, column, { context: 0 }).split('\n');
    expect(frame).toHaveLength(2);
    expect(frame[0]!.length).toBeLessThan(180);
    expect(frame[0]!.startsWith('> 1 | …')).toBe(true);
    const caret = frame[1]!.indexOf('^');
    expect(frame[0]![caret]).toBe(',');
    expect(frame[0]!.slice(caret)).toBe(',}');
  });

  it('colour only on a TTY', async () => {
    const capture = async (isTTY: boolean): Promise<string> => {
      let err = '';
      const io: Io = { out: () => undefined, err: (text) => void (err += text), isTTY };
      expect(await main(['check', '--root', bad], io)).toBe(1);
      return err;
    };
    const tty = await capture(true);
    expect(tty).toContain('\u001b[31m^\u001b[39m');
    expect(tty).toContain('\u001b[2m4 |\u001b[22m');
    const plain = await capture(false);
    expect(plain).not.toContain('\u001b[');
    expect(plain).toContain("> 4 |   description: '   ',");
  });

  it('diagnostics are coloured by stderr, where they are printed, not by stdout; FORCE_COLOR forces it', async () => {
    const capture = async (isTTY: boolean, errTTY: boolean): Promise<string> => {
      let err = '';
      const io: Io = { out: () => undefined, err: (text) => void (err += text), isTTY, errTTY };
      expect(await main(['check', '--root', bad], io)).toBe(1);
      return err;
    };
    // `check 2> log` on a terminal: no escapes in the log; `check | cat`: colour on the terminal.
    expect(await capture(true, false)).not.toContain('\u001b[');
    expect(await capture(false, true)).toContain('\u001b[31m^\u001b[39m');
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '1' };
    delete env.NO_COLOR;
    const forced = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'check', '--root', bad], {
      encoding: 'utf8',
      env,
    });
    expect(forced.status).toBe(1);
    expect(forced.stderr).toContain('\u001b[31m^\u001b[39m');
    const off = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'check', '--root', bad], {
      encoding: 'utf8',
      env: { ...env, NO_COLOR: '1' },
    });
    expect(off.stderr).not.toContain('\u001b[');
  });
});
