/**
 * `zhin-gen migrate` end to end, through the real CLI: every `fixtures/migrate-<case>/` holds an
 * earlier-layout tree (`input/`), the plan the CLI prints for it (`expected-plan.txt`) and the
 * tree after `--write` (`expected/`). One loop, no per-case code; regenerate after an intended
 * change with `UPDATE_GOLDEN=1 npx vitest run test/compiler/migrate/migrate.test.ts`.
 * Then: a second run changes nothing, names are kept, stubs are reported and marked, the migrated
 * trees check clean, and a compiled migrated tree loads and runs a migrated tool in a turn.
 *
 * Each fixture is migrated once (`migrate`, `migrate --json`, `migrate --write`: see migrated()),
 * and every test reads that run; a test that writes into a migrated tree works on its own copy.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { type CapabilityManifest, createCapabilityHost } from '../../../runtime/index.js';
import { im } from '../../runtime/fixture.js';
import { type CliResult, cli, copyTree, FIXTURES, removeDir, tempDir, writeTree } from '../../helpers.js';
import { typeErrors } from './typecheck.js';

const update = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(FIXTURES)
  .filter((name) => name.startsWith('migrate-') && existsSync(join(FIXTURES, name, 'input')))
  .sort();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

/** Every file of a tree with its bytes (hex), for exact comparisons. */
function snapshot(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name.endsWith('.gen.ts')) continue;
    if (entry.name.endsWith('.gen.validators')) continue;
    if (entry.isDirectory()) Object.assign(out, snapshot(root, path));
    else out[path] = readFileSync(join(root, path)).toString('hex');
  }
  return out;
}

function fresh(name: string): string {
  const dir = copyTree(join(FIXTURES, name, 'input'), name);
  dirs.push(dir);
  return dir;
}

interface PlanJson {
  readonly changes: unknown[];
  readonly notes: { code: string; file: string; message: string }[];
}

function planJson(root: string): PlanJson {
  const run = cli(['migrate', '--root', root, '--json']);
  return JSON.parse(run.stdout) as PlanJson;
}

/** One fixture through the CLI: the plan (text and JSON), then `--write`. */
interface Migration {
  /** The tree before, and after both plans ran (the plans write nothing). */
  readonly before: Record<string, string>;
  readonly afterPlans: Record<string, string>;
  readonly plan: CliResult;
  readonly planJson: PlanJson;
  readonly write: CliResult;
  /** The migrated tree: read it, never write to it (migratedCopy gives a tree to change). */
  readonly root: string;
}

const migrations = new Map<string, Migration>();

/** The CLI's migration of a fixture, run once for every test that reads it. */
function migrated(name: string): Migration {
  const known = migrations.get(name);
  if (known) return known;
  const root = fresh(name);
  const before = snapshot(root);
  const plan = cli(['migrate', '--root', root]);
  const json = planJson(root);
  const afterPlans = snapshot(root);
  const write = cli(['migrate', '--root', root, '--write']);
  const migration: Migration = { before, afterPlans, plan, planJson: json, write, root };
  migrations.set(name, migration);
  return migration;
}

/** A copy of the migrated tree that a test may write into (generate, a second --write). */
function migratedCopy(name: string): string {
  const dir = copyTree(migrated(name).root, `${name}-migrated`);
  dirs.push(dir);
  return dir;
}

describe('zhin-gen migrate: golden plans and trees', () => {
  it('has a fixture for every construct family', () => {
    expect(cases).toEqual([
      'migrate-agent-folder',
      'migrate-agents',
      'migrate-cannot',
      'migrate-flat-tools',
      'migrate-private-tools',
    ]);
  });

  for (const name of cases) {
    it(`${name}: the plan, then --write, then a second run that changes nothing`, () => {
      const { before, afterPlans, plan, write, root } = migrated(name);
      const goldenPlan = join(FIXTURES, name, 'expected-plan.txt');
      if (update) writeFileSync(goldenPlan, plan.stdout);
      expect(plan.stdout).toBe(readFileSync(goldenPlan, 'utf8'));
      expect(plan.stderr).toBe('');
      // The plan (text and --json) writes nothing.
      expect(afterPlans).toEqual(before);
      const cannot = plan.stdout.includes(' ZG6001 ');
      expect(plan.status).toBe(cannot ? 1 : 0);

      expect(write.stdout).toContain('zhin-gen migrate: applied.');
      const goldenTree = join(FIXTURES, name, 'expected');
      if (update) {
        rmSync(goldenTree, { recursive: true, force: true });
        cpSync(root, goldenTree, { recursive: true });
      }
      expect(snapshot(root)).toEqual(snapshot(goldenTree));

      const copy = migratedCopy(name);
      const again = planJson(copy);
      expect(again.changes).toEqual([]);
      const afterSecond = snapshot(copy);
      expect(afterSecond).toEqual(snapshot(root));
      cli(['migrate', '--root', copy, '--write']);
      expect(snapshot(copy)).toEqual(afterSecond);
    });
  }
});

describe('zhin-gen migrate: behaviour', () => {
  it('a tree already in the new layout is left byte for byte, and the plan says so', () => {
    const root = copyTree(join(FIXTURES, 'example-bot'), 'migrate-new-layout');
    dirs.push(root);
    const before = snapshot(root);
    const plan = cli(['migrate', '--root', root]);
    expect(plan.stdout.trim()).toBe("zhin-gen migrate: nothing to migrate (the tree is in zhin-gen's layout)");
    expect(plan.status).toBe(0);
    const write = cli(['migrate', '--root', root, '--write']);
    expect(write.status).toBe(0);
    expect(snapshot(root)).toEqual(before);
    // Nothing applied is not said to be.
    expect(write.stdout).toContain("nothing to migrate (the tree is in zhin-gen's layout)");
    expect(write.stdout).not.toContain('applied');
    expect(write.stdout).toContain('zhin-gen migrate: the compiler reports 0 errors and 0 warnings on the tree');
  });

  it('a migrated module imports the define helpers from @zhin-gen/runtime (plain tsc and node find no seed name)', () => {
    for (const name of cases) {
      const { root, planJson: plan } = migrated(name);
      const tree = snapshot(root);
      // A module migrate reports it cannot convert is left exactly as it was, imports and all.
      const leftAsItWas = new Set(plan.notes.filter((n) => n.code === 'ZG6001').map((n) => n.file));
      const code = Object.keys(tree).filter((path) => /\.(m?[jt]s)$/.test(path) && !leftAsItWas.has(path));
      expect(code.length, name).toBeGreaterThan(0);
      for (const path of code) {
        const text = Buffer.from(tree[path]!, 'hex').toString('utf8');
        expect(text, `${name}: ${path}`).not.toMatch(/from '@zhin\.js\/(?:tool|prompt-section|agent)'/);
      }
    }
    // A module migrate does not touch keeps its seed-name import (the example bot's own, in zhin-gen's layout).
    const root = copyTree(join(FIXTURES, 'example-bot'), 'migrate-seed-kept');
    dirs.push(root);
    const echo = readFileSync(join(root, 'tools', 'echo', 'index.ts'), 'utf8');
    expect(echo).toContain("from '@zhin.js/tool'");
    expect(cli(['migrate', '--root', root, '--write']).status).toBe(0);
    expect(readFileSync(join(root, 'tools', 'echo', 'index.ts'), 'utf8')).toBe(echo);
  });

  it('runtime names are kept: every earlier name is in the migrated manifest, or reported as changed', async () => {
    for (const name of ['migrate-agent-folder', 'migrate-flat-tools', 'migrate-agents', 'migrate-private-tools']) {
      const { root, planJson: plan } = migrated(name);
      const renames = plan.notes.filter((n) => n.code === 'ZG6003');
      const { model } = await createCompiler({ root, cacheFile: false }).run({ write: false });
      const earlier = JSON.parse(readFileSync(join(FIXTURES, name, 'earlier-names.json'), 'utf8')) as Record<
        'tools' | 'skills' | 'agents' | 'promptSections',
        string[]
      >;
      const now = {
        tools: model.tools.map((t) => t.qualifiedName),
        skills: model.skills.map((s) => s.qualifiedName),
        agents: model.agents.map((a) => a.qualifiedName),
        promptSections: model.promptSections.map((s) => s.name),
      };
      for (const kind of ['tools', 'skills', 'agents', 'promptSections'] as const) {
        for (const earlierName of earlier[kind]) {
          const renamed = renames.find((r) => r.message.includes(`"${earlierName}" is not a valid`));
          if (renamed) expect(now[kind]).not.toContain(earlierName);
          else expect(now[kind], `${name}: ${kind} ${earlierName}`).toContain(earlierName);
        }
      }
    }
  });

  it('a renamed tool has every tools: reference rewritten, each listed', () => {
    const { root, plan, planJson: json } = migrated('migrate-flat-tools');
    const rename = json.notes.find((n) => n.code === 'ZG6003')!;
    expect(rename).toMatchObject({ file: 'tools/$dice.ts' });
    expect(plan.stdout).toContain('skills/games/SKILL.md:4:9  `tools` entry "$dice" → "dice"');
    expect(readFileSync(join(root, 'skills/games/SKILL.md'), 'utf8')).toContain('tools: [dice, echo]');
  });

  it('a renamed tool never takes a name another tool of the plugin has or keeps', async () => {
    const tool = (description: string) =>
      `import { defineAgentTool } from 'zhin-gen/runtime';\n\nexport default defineAgentTool({ description: '${description}', async execute() { return '${description}'; } });\n`;
    const root = writeTree(tempDir('migrate-taken'), {
      'tools/$dice.ts': tool('Roll dice'),
      'tools/dice.ts': tool('Other dice'),
      'tools/Roll.ts': tool('Upper roll'),
      'tools/roll.ts': tool('Lower roll'),
      'tools/Echo.ts': tool('Upper echo'),
      'tools/echo/index.ts': tool('New echo'),
    });
    dirs.push(root);
    const write = cli(['migrate', '--root', root, '--write']);
    expect(write.stdout + write.stderr).not.toContain('exists already');
    const { model } = await createCompiler({ root, cacheFile: false }).run({ write: false });
    expect(Object.fromEntries(model.tools.map((t) => [t.qualifiedName, t.description]))).toEqual({
      dice: 'Other dice',
      dice_2: 'Roll dice',
      roll: 'Lower roll',
      roll_2: 'Upper roll',
      echo: 'New echo',
      echo_2: 'Upper echo',
    });
  });

  it('nor the name a .tool.md in a sub-folder gives in its front matter', async () => {
    const root = writeTree(tempDir('migrate-taken-md'), {
      'tools/$dice.ts':
        "import { defineAgentTool } from 'zhin-gen/runtime';\n\nexport default defineAgentTool({ description: 'Roll dice', async execute() { return 1; } });\n",
      'tools/game/roll.tool.md': '---\nname: dice\ndescription: Game dice\napproval: never\n---\n',
      'tools/game/handler.ts': 'export default async function () {\n  return 6;\n}\n',
    });
    dirs.push(root);
    const write = cli(['migrate', '--root', root, '--write']);
    expect(write.stdout + write.stderr).not.toContain('exists already');
    const { model } = await createCompiler({ root, cacheFile: false }).run({ write: false });
    expect(Object.fromEntries(model.tools.map((t) => [t.qualifiedName, t.description]))).toEqual({
      dice: 'Game dice',
      dice_2: 'Roll dice',
    });
  });

  it('stubs are created marked and reported, one note per stub file', () => {
    const { root, planJson: json } = migrated('migrate-agents');
    const notes = json.notes.filter((n) => n.code === 'ZG6002' && n.message.includes('is a stub'));
    const stubs = notes.map((n) => n.file).sort();
    expect(stubs).toEqual([
      'AGENTS.md',
      'agents/planner/boundaries.md',
      'agents/planner/conventions.md',
      'agents/researcher/boundaries.md',
      'agents/researcher/conventions.md',
      'agents/reviewer/boundaries.md',
      'agents/reviewer/conventions.md',
    ]);
    for (const stub of stubs) expect(readFileSync(join(root, stub), 'utf8')).toMatch(/^<!-- zhin-gen migrate: STUB\./);
  });

  it('stubs fail check until written by hand (ZG4018 at each), and migrate --write says so with exit 1', () => {
    const { write, planJson: json } = migrated('migrate-agents');
    expect(write.status).toBe(1);
    const root = migratedCopy('migrate-agents');
    // The stub files, and the agent.json files given a placeholder description (that note sits at the source).
    const stubs = [
      ...json.notes.filter((n) => n.code === 'ZG6002' && n.message.includes('is a stub')).map((n) => n.file),
      ...readdirSync(join(root, 'agents'))
        .map((agent) => `agents/${agent}/agent.json`)
        .filter(
          (file) =>
            existsSync(join(root, file)) && readFileSync(join(root, file), 'utf8').includes('TODO(zhin-gen migrate)'),
        ),
    ];
    expect(stubs.some((file) => file.endsWith('agent.json'))).toBe(true);
    const check = JSON.parse(cli(['check', '--root', root, '--format', 'json']).stdout) as {
      diagnostics: { code: string; severity: string; file: string }[];
    };
    const errors = check.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.every((d) => d.code === 'ZG4018')).toBe(true);
    // Every stub file, and each agent.json whose description is a placeholder.
    expect(new Set(errors.map((d) => d.file))).toEqual(new Set(stubs));
    // Written by hand: the tree checks clean.
    for (const file of stubs) {
      const at = join(root, file);
      const text = readFileSync(at, 'utf8');
      writeFileSync(
        at,
        file.endsWith('agent.json')
          ? `${JSON.stringify({ ...JSON.parse(text), description: 'Researches a topic' }, null, 2)}\n`
          : `# ${file === 'AGENTS.md' ? 'Main agent' : file.endsWith('boundaries.md') ? 'Boundaries' : 'Conventions'}\n\nWritten by hand.\n`,
      );
    }
    const generated = cli(['generate', '--root', root]);
    expect(generated.status, generated.stderr).toBe(0);
    expect(cli(['check', '--root', root]).status).toBe(0);
  });

  it('the migrated trees check clean after generate (no errors)', () => {
    for (const name of ['migrate-agent-folder', 'migrate-flat-tools', 'migrate-private-tools']) {
      expect(migrated(name).write.status, name).toBe(0);
      const root = migratedCopy(name);
      expect(cli(['generate', '--root', root]).status, name).toBe(0);
      const check = cli(['check', '--root', root]);
      expect(check.stdout, `${name}\n${check.stderr}`).toMatch(
        /^zhin-gen check: 0 errors, \d+ warnings?, output up to date/,
      );
      expect(check.status).toBe(0);
    }
  });

  it('the migrated trees type-check with plain tsc: one import per helper, from the runtime', () => {
    // The fixtures' plugin.ts imported the helpers from zhin.js, @zhin.js/tool and @zhin.js/agent/tools.
    for (const name of ['migrate-agent-folder', 'migrate-flat-tools', 'migrate-agents', 'migrate-private-tools']) {
      const { root } = migrated(name);
      expect(typeErrors(root), name).toEqual([]);
    }
  });

  it('a failed --write leaves every file as it was', () => {
    const root = fresh('migrate-agent-folder');
    // A failure the plan cannot foresee (a folder or a file in the way is refused at plan time,
    // hostile.test.ts): tools/ exists and is immutable, so even root cannot create the tool
    // folders in it, while the moves elsewhere in the tree are written first.
    const tools = join(root, 'tools');
    mkdirSync(tools, { recursive: true });
    execFileSync('chattr', ['+i', tools]);
    try {
      const before = snapshot(root);
      const write = cli(['migrate', '--root', root, '--write']);
      expect(write.status).toBe(1);
      expect(write.stderr).toContain('zhin-gen migrate: writing failed, every file is as it was');
      expect(snapshot(root)).toEqual(before);
    } finally {
      execFileSync('chattr', ['-i', tools]);
    }
  });
});

describe('zhin-gen migrate: the migrated tree runs', () => {
  it('host.load accepts the compiled manifest and a turn calls the migrated tools', async () => {
    for (const name of ['migrate-agent-folder', 'migrate-flat-tools']) expect(migrated(name).write.status).toBe(0);
    const root = migratedCopy('migrate-agent-folder');
    const flat = migratedCopy('migrate-flat-tools');
    // Generated in the migrated tree itself: the manifest imports its tools and validators relatively.
    const load = async (dir: string): Promise<CapabilityManifest> => {
      const result = await createCompiler({ root: dir, cacheFile: false }).run({ write: true });
      expect(result.errors).toBe(0);
      const url = pathToFileURL(join(dir, 'zhin-capabilities.gen.ts')).href;
      return ((await import(/* @vite-ignore */ url)) as { manifest: CapabilityManifest }).manifest;
    };
    const lottery = await load(root);
    const sync = lottery.tools.find((t) => t.qualifiedName === 'lottery_sync')!;
    expect([sync.requiresApproval, sync.permissions]).toEqual(['always', ['platform(icqq,admin)']]);
    const host = createCapabilityHost();
    await host.load(lottery);
    const turn = await host.beginTurn({ sessionKey: 'qq:private:migrate', message: im({ adapter: 'qq' }) });
    expect(await turn.execute('lottery_latest', { game: 'dlt' })).toMatchObject({
      status: 'completed',
      output: 'dlt #24001: 3 11 19 25 31 4 9',
    });
    // The setup tools of the migrated plugin.ts: the module loads, its helpers come from the runtime.
    expect(await turn.execute('lottery_games', {})).toMatchObject({ status: 'completed', output: 'dlt ssq' });
    expect(await turn.execute('lottery_issue', {})).toMatchObject({ status: 'completed', output: 'dlt #24001' });
    expect((await turn.systemPrompt()).text).toContain('## Lottery rules\n\nDraw results are final.');
    await turn.end();

    const games = createCapabilityHost();
    await games.load(await load(flat));
    const echo = await games.beginTurn({ sessionKey: 'qq:private:echo', message: im({ adapter: 'qq' }) });
    expect(await echo.execute('echo', { text: 'hi', times: 2 })).toMatchObject({
      status: 'completed',
      output: 'hi hi',
    });
    await echo.end();
  });
});
