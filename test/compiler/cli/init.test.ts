/**
 * `zhin-gen init` through the built CLI: the scaffolded bot passes `zhin-gen check`, `tsc` with
 * its own tsconfig and its own `npm test` (check, tsc, vite build, one real turn), as
 * subprocesses. A second init skips everything; existing files stay byte-identical.
 *
 * The bot lives in test/tmp, so `@zhin-gen/runtime`, `zod`, `vite`, `typescript` and
 * `@types/node` resolve from the repository's node_modules (the runtime is its workspace). zhin-gen
 * itself is not in node_modules (it is the repository), so each bot gets what `npm install` would
 * give it: node_modules/zhin-gen linked to the repository and its bin in node_modules/.bin.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BOT_PACKAGE_RANGES } from '../../../compiler/scaffold/project.js';
import { REPO, cli, removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function fresh(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

/** What installing zhin-gen as a dev dependency puts into the bot (see the header). */
function linkZhinGen(bot: string): void {
  mkdirSync(join(bot, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(REPO, join(bot, 'node_modules', 'zhin-gen'), 'dir');
  symlinkSync(join(REPO, 'bin', 'zhin-gen.mjs'), join(bot, 'node_modules', '.bin', 'zhin-gen'));
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(command, [...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** Every file under a directory (POSIX, relative), node_modules left out. */
function filesOf(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const abs = join(dir, entry.name);
    return entry.isDirectory() ? filesOf(root, abs) : [relative(root, abs).split('\\').join('/')];
  });
}

function snapshot(root: string): Record<string, string> {
  return Object.fromEntries(filesOf(root).map((file) => [file, readFileSync(join(root, file), 'utf8')]));
}

interface InitJson {
  written: string[];
  skipped: string[];
  failed: { path: string; reason: string }[];
  manifest: { file: string; state: string };
  notes: string[];
  diagnostics: unknown[];
}

const SCAFFOLD = [
  'package.json',
  'tsconfig.json',
  'vite.config.ts',
  'src/main.ts',
  '.gitignore',
  'AGENTS.md',
  'tools/echo/index.ts',
  'skills/words/SKILL.md',
  'skills/words/tools/count/index.ts',
  'agents/reviewer/agent.json',
  'agents/reviewer/system.md',
  'agents/reviewer/boundaries.md',
  'agents/reviewer/conventions.md',
  'prompt-sections/house-style/index.ts',
  'zhin-capabilities.gen.ts',
];

describe('zhin-gen init', () => {
  it('scaffolds a bot that passes check, tsc and its own npm test (a real turn)', () => {
    const bot = join(fresh('init'), 'My Bot');
    const init = cli(['init', bot]);
    expect(init.stderr).toBe('');
    expect(init.status).toBe(0);
    for (const file of SCAFFOLD) expect(init.stdout).toContain(`created  ${file}`);
    expect(init.stdout).toContain(`${SCAFFOLD.length} created, 0 skipped.`);
    // Beside the scaffold, what generate writes next to the manifest: the discover index (docs/catalog.md).
    expect(filesOf(bot).sort()).toEqual([...SCAFFOLD, 'zhin-capabilities.gen.validators/search.ts'].sort());

    const pkg = JSON.parse(readFileSync(join(bot, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> & string
    >;
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    expect(pkg.name).toBe('my-bot');
    expect(pkg.type).toBe('module');
    // What the built bot imports at run time is a dependency; the toolchain is not.
    expect(Object.keys(pkg.dependencies!).sort()).toEqual(['@zhin-gen/runtime', 'zod']);
    expect(Object.keys(pkg.devDependencies!).sort()).toEqual(['@types/node', 'typescript', 'vite', 'zhin-gen']);
    expect(pkg.dependencies!['@zhin-gen/runtime']).toBe(`^${version}`);
    expect(pkg.devDependencies!['zhin-gen']).toBe(`^${version}`);
    // Every import in the scaffold names a package on the registry, never a zhin.js seed name.
    const sources = Object.entries(snapshot(bot)).filter(([file]) => file.endsWith('.ts'));
    for (const [file, text] of sources) expect(text, file).not.toMatch(/@zhin\.js\//);

    // zhin-gen check, as a subprocess: the manifest init generated is current.
    const check = cli(['check', '--root', bot]);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);

    linkZhinGen(bot);
    const tsc = run(process.execPath, [TSC, '--noEmit', '-p', join(bot, 'tsconfig.json')], bot);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // npm test: zhin-gen check && tsc --noEmit && vite build && node dist/main.js
    const test = run('npm', ['test'], bot);
    expect(test.stderr).not.toMatch(/error/i);
    expect(test.status).toBe(0);
    expect(test.stdout).toContain('zhin-gen check: 0 errors, 0 warnings, output up to date');
    expect(test.stdout).toContain('echo: completed "echo: hello from zhin-gen"');
    expect(test.stdout).toContain('words__count: completed 3');
    expect(existsSync(join(bot, 'dist', 'main.js'))).toBe(true);
  }, 180_000);

  it('a second init into the same directory skips every file and lists it; nothing changes', () => {
    const bot = fresh('init-again');
    expect(cli(['init', bot]).status).toBe(0);
    const before = snapshot(bot);
    const again = cli(['init', '--json', bot]);
    expect(again.status).toBe(0);
    const report = JSON.parse(again.stdout) as InitJson;
    expect(report.written).toEqual([]);
    expect(report.skipped.sort()).toEqual([...SCAFFOLD].sort());
    expect(report.manifest).toEqual({ file: 'zhin-capabilities.gen.ts', state: 'kept' });
    expect(snapshot(bot)).toEqual(before);

    const pretty = cli(['init', bot]);
    expect(pretty.status).toBe(0);
    for (const file of SCAFFOLD) expect(pretty.stdout).toContain(`skipped  ${file}`);
    expect(pretty.stdout).toContain(`0 created, ${SCAFFOLD.length} skipped.`);
    expect(snapshot(bot)).toEqual(before);
  });

  it('keeps existing files byte-identical, writes the rest, and says when a kept package.json is not ESM', () => {
    const bot = fresh('init-existing');
    const mine = {
      'package.json': '{ "name": "mine", "type": "commonjs" }\n',
      'tools/echo/index.ts':
        "// my own echo\nimport { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: 'My echo',\n  async execute() {\n    return 'mine';\n  },\n});\n",
      'AGENTS.md': '# Mine\n\nMy rules.\n',
    };
    for (const [file, text] of Object.entries(mine)) {
      mkdirSync(join(bot, file, '..'), { recursive: true });
      writeFileSync(join(bot, file), text);
    }
    const init = cli(['init', bot, '--json']);
    expect(init.status).toBe(0);
    const report = JSON.parse(init.stdout) as InitJson;
    expect(report.skipped.sort()).toEqual(Object.keys(mine).sort());
    expect(report.written.sort()).toEqual(SCAFFOLD.filter((file) => !(file in mine)).sort());
    expect(report.notes).toEqual([expect.stringContaining('no "type": "module"')]);
    for (const [file, text] of Object.entries(mine)) expect(readFileSync(join(bot, file), 'utf8')).toBe(text);
    // The kept tool is the one the manifest serves.
    expect(readFileSync(join(bot, 'zhin-capabilities.gen.ts'), 'utf8')).toContain('"description":"My echo"');
    expect(cli(['check', '--root', bot]).status).toBe(0);
  });

  it('in an npm init project: the next steps name the packages and scripts it lacks, not its placeholder npm test', () => {
    const bot = fresh('init-npm-init');
    const placeholder = 'echo "Error: no test specified" && exit 1';
    writeFileSync(
      join(bot, 'package.json'),
      `${JSON.stringify({ name: 'mine', type: 'module', scripts: { test: placeholder }, dependencies: { zod: '^4.0.0' } }, null, 2)}\n`,
    );
    const init = cli(['init', bot]);
    expect(init.status).toBe(0);
    const next = init.stdout.slice(init.stdout.indexOf('Next:'));
    expect(next).toContain('npm i @zhin-gen/runtime\n');
    expect(next).toMatch(/npm i -D @types\/node typescript vite zhin-gen\n/);
    expect(next).toContain('"check": "zhin-gen check"');
    expect(next).not.toContain('"test":');
    expect(next).not.toContain('npm test');
    expect(next).toContain('npx zhin-gen check');
    expect(readFileSync(join(bot, '.gitignore'), 'utf8')).toContain('zhin-gen-report.html');
  });

  it('a path that is a file is a usage error; a file in the way of a directory is reported, not overwritten', () => {
    const base = fresh('init-blocked');
    writeFileSync(join(base, 'file'), 'x');
    const onFile = cli(['init', join(base, 'file')]);
    expect(onFile.status).toBe(64);
    expect(onFile.stderr).toContain('is not a directory');
    // Below a file: the directory cannot be made (said so, exit 1; it was an internal error).
    const below = cli(['init', join(base, 'file', 'sub')]);
    expect(below.status).toBe(1);
    expect(below.stderr).toContain(`zhin-gen init: cannot create ${join(base, 'file', 'sub')}: ENOTDIR`);
    expect(below.stderr).not.toContain('internal error');
    // --json: the documented document, the folder listed as failed (not `{ "error" }`).
    const belowJson = cli(['init', join(base, 'file', 'sub'), '--json']);
    expect(belowJson.status).toBe(1);
    expect(JSON.parse(belowJson.stdout)).toMatchObject({
      root: join(base, 'file', 'sub'),
      written: [],
      failed: [{ path: '.', reason: 'ENOTDIR' }],
      manifest: { state: 'not written' },
    });

    const bot = join(base, 'bot');
    mkdirSync(bot);
    writeFileSync(join(bot, 'src'), 'not a directory\n');
    const blocked = cli(['init', bot]);
    expect(blocked.status).toBe(1);
    expect(blocked.stdout).toContain('failed   src/main.ts: a parent path is a file');
    expect(readFileSync(join(bot, 'src'), 'utf8')).toBe('not a directory\n');
    expect(`${onFile.stderr}${blocked.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('the scaffold asks for the majors of the packages zhin-gen is developed and tested with', () => {
    const require = createRequire(join(REPO, 'package.json'));
    for (const [name, range] of Object.entries(BOT_PACKAGE_RANGES)) {
      const installed = (require(`${name}/package.json`) as { version: string }).version;
      expect(`${name}@^${installed.split('.')[0]}`).toBe(`${name}@${range.replace(/\..*/, '')}`);
    }
  });
});
