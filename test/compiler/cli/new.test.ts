/**
 * `zhin-gen new` through the built CLI, for every placement: after `new` and `generate`,
 * `check` exits 0 and `inspect --json` lists the capability under the qualifiedName `new`
 * printed. Bad names are usage errors naming the rule; nothing is ever overwritten.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, removeDir, tempDir } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A bot from `zhin-gen init` (tool echo, skill words, agent reviewer, section house-style). */
function bot(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  const init = cli(['init', dir]);
  expect(init.status).toBe(0);
  return dir;
}

interface NewJson {
  kind: string;
  qualifiedName: string;
  placement: string;
  owner: string;
  dir: string;
  written: string[];
}

interface InspectJson {
  tools: {
    qualifiedName: string;
    placement: string;
    owner: string;
    agent: string | null;
    skill: string | null;
    source: string;
  }[];
  skills: { qualifiedName: string; owner: string; agent: string | null; source: string }[];
  agents: { qualifiedName: string; owner: string; source: string }[];
  promptSections: { id: string; owner: string; source: string }[];
}

function newJson(root: string, ...args: string[]): NewJson {
  const run = cli(['new', ...args, '--root', root, '--json']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as NewJson;
}

function inspect(root: string): InspectJson {
  const run = cli(['inspect', '--root', root, '--json']);
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as InspectJson;
}

describe('zhin-gen new: every placement', () => {
  let root: string;
  const made: { args: string[]; json: NewJson }[] = [];
  const cases: readonly { args: string[]; qualifiedName: string; placement: string; dir: string; files: string[] }[] = [
    {
      args: ['tool', 'lookup'],
      qualifiedName: 'lookup',
      placement: 'plugin',
      dir: 'tools/lookup',
      files: ['tools/lookup/index.ts'],
    },
    {
      args: ['tool', 'check', '--agent', 'reviewer'],
      qualifiedName: 'reviewer__check',
      placement: 'agent',
      dir: 'agents/reviewer/tools/check',
      files: ['agents/reviewer/tools/check/index.ts'],
    },
    {
      args: ['tool', 'normalize', '--skill', 'words'],
      qualifiedName: 'words__normalize',
      placement: 'skill',
      dir: 'skills/words/tools/normalize',
      files: ['skills/words/tools/normalize/index.ts'],
    },
    {
      args: ['skill', 'review', '--agent', 'reviewer'],
      qualifiedName: 'reviewer__review',
      placement: 'agent-skill',
      dir: 'agents/reviewer/skills/review',
      files: ['agents/reviewer/skills/review/SKILL.md'],
    },
    {
      args: ['tool', 'verdict', '--agent', 'reviewer', '--skill', 'review'],
      qualifiedName: 'review__verdict',
      placement: 'agent-skill',
      dir: 'agents/reviewer/skills/review/tools/verdict',
      files: ['agents/reviewer/skills/review/tools/verdict/index.ts'],
    },
    {
      args: ['skill', 'research'],
      qualifiedName: 'research',
      placement: 'skill',
      dir: 'skills/research',
      files: ['skills/research/SKILL.md'],
    },
    {
      args: ['agent', 'planner'],
      qualifiedName: 'planner',
      placement: 'agent',
      dir: 'agents/planner',
      files: ['agent.json', 'system.md', 'boundaries.md', 'conventions.md'].map((f) => `agents/planner/${f}`),
    },
    {
      args: ['section', 'tone'],
      qualifiedName: ':tone',
      placement: 'section',
      dir: 'prompt-sections/tone',
      files: ['prompt-sections/tone/index.ts'],
    },
    // A child plugin: new ones are created under plugins/<key>; an agent brings the plugin's AGENTS.md.
    {
      args: ['tool', 'get-weather', '--plugin', 'maps'],
      qualifiedName: 'maps__get-weather',
      placement: 'plugin',
      dir: 'plugins/maps/tools/get-weather',
      files: ['plugins/maps/tools/get-weather/index.ts'],
    },
    {
      args: ['agent', 'guide', '--plugin', 'maps'],
      qualifiedName: 'maps__guide',
      placement: 'agent',
      dir: 'plugins/maps/agents/guide',
      files: [
        ...['agent.json', 'system.md', 'boundaries.md', 'conventions.md'].map((f) => `plugins/maps/agents/guide/${f}`),
        'plugins/maps/AGENTS.md',
      ],
    },
    {
      args: ['tool', 'route', '--plugin', 'maps', '--agent', 'guide'],
      qualifiedName: 'maps__guide__route',
      placement: 'agent',
      dir: 'plugins/maps/agents/guide/tools/route',
      files: ['plugins/maps/agents/guide/tools/route/index.ts'],
    },
    {
      args: ['skill', 'cities', '--plugin', 'maps'],
      qualifiedName: 'maps__cities',
      placement: 'skill',
      dir: 'plugins/maps/skills/cities',
      files: ['plugins/maps/skills/cities/SKILL.md'],
    },
    {
      args: ['tool', 'list', '--plugin', 'maps', '--skill', 'cities'],
      qualifiedName: 'maps__cities__list',
      placement: 'skill',
      dir: 'plugins/maps/skills/cities/tools/list',
      files: ['plugins/maps/skills/cities/tools/list/index.ts'],
    },
    {
      args: ['section', 'units', '--plugin', 'maps/cn'],
      qualifiedName: 'maps/cn:units',
      placement: 'section',
      dir: 'plugins/maps/plugins/cn/prompt-sections/units',
      files: ['plugins/maps/plugins/cn/prompt-sections/units/index.ts'],
    },
  ];

  beforeAll(() => {
    root = bot('new');
    for (const c of cases) made.push({ args: c.args, json: newJson(root, ...c.args) });
  }, 120_000);

  it('writes the folder and files of each placement and prints its qualifiedName', () => {
    for (const [index, c] of cases.entries()) {
      const { json } = made[index]!;
      expect({
        args: c.args,
        qualifiedName: json.qualifiedName,
        placement: json.placement,
        dir: json.dir,
        written: json.written,
      }).toEqual({
        args: c.args,
        qualifiedName: c.qualifiedName,
        placement: c.placement,
        dir: c.dir,
        written: c.files,
      });
    }
  });

  it('after generate, check exits 0, warns at each placeholder new wrote, and inspect lists each capability under the printed name', () => {
    // Every file new writes holds text for the author to replace, which the model would be sent:
    // a warning each (ZG2065), and nothing else.
    const warned = (stderr: string): string[] =>
      [...stderr.matchAll(/^(\S+):\d+:\d+ {2}(\w+) {2}(ZG\d+)/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`).sort();
    const expected = [...new Set(made.flatMap((m) => m.json.written))].map((file) => `${file} warning ZG2065`).sort();
    const generate = cli(['generate', '--root', root]);
    expect(generate.status).toBe(0);
    expect(warned(generate.stderr)).toEqual(expected);
    const check = cli(['check', '--root', root]);
    expect(check.status).toBe(0);
    expect(warned(check.stderr)).toEqual(expected);
    const tree = inspect(root);
    for (const [index, c] of cases.entries()) {
      const printed = made[index]!.json.qualifiedName;
      const kind = c.args[0];
      const listed =
        kind === 'tool'
          ? tree.tools.find((t) => t.qualifiedName === printed)
          : kind === 'skill'
            ? tree.skills.find((s) => s.qualifiedName === printed)
            : kind === 'agent'
              ? tree.agents.find((a) => a.qualifiedName === printed)
              : tree.promptSections.find((p) => p.id === printed);
      expect(listed, `${c.args.join(' ')} → ${printed}`).toBeDefined();
      expect(listed!.source.startsWith(c.dir), printed).toBe(true);
    }
    expect(tree.tools.find((t) => t.qualifiedName === 'review__verdict')).toMatchObject({
      placement: 'agent-skill',
      agent: 'reviewer',
      skill: 'review',
    });
  });

  it('the pretty output names the qualifiedName and the next step', () => {
    const dir = bot('new-pretty');
    const run = cli(['new', 'tool', 'lookup', '--root', dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('zhin-gen new: tool "lookup" → qualifiedName lookup');
    expect(run.stdout).toContain('created  tools/lookup/index.ts');
    expect(run.stdout).toContain('npx zhin-gen generate');
  });
});

describe('zhin-gen new: refusals', () => {
  let root: string;
  beforeAll(() => {
    root = bot('new-refuse');
  });

  it('bad names are usage errors that state the rule; nothing is written', () => {
    const cases: readonly [string[], string][] = [
      [['tool', 'Lookup'], 'tool name "Lookup" does not match ^[a-z0-9][a-z0-9_-]*$'],
      [['tool', 'a__b'], 'tool name "a__b" contains "__", which separates owner segments in qualifiedNames'],
      [['skill', 'my_skill'], 'skill name "my_skill" does not match ^[a-z0-9][a-z0-9-]*$'],
      [['skill', 'pdf--tools'], 'skill name "pdf--tools" contains "--"; skill names never have two hyphens in a row'],
      [['tool', 'fill', '--skill', 'pdf-'], '--skill "pdf-" ends with "-"'],
      [['agent', 'Planner'], 'agent name "Planner" does not match'],
      [['tool', 'x', '--plugin', 'Maps'], '--plugin segment "Maps" does not match ^[a-z0-9][a-z0-9-]*$'],
      [['tool', 'discover'], 'would take the reserved name "discover"'],
      [['tool', 'x'.repeat(65)], 'does not match ^[a-zA-Z0-9_-]{1,64}$'],
      [['tol', 'x'], 'unknown kind "tol" (did you mean "tool"?)'],
      [['tool'], 'give a kind and a name'],
      [['section', 's', '--agent', 'reviewer'], '--agent does not apply to new section'],
      [['skill', 's', '--skill', 'words'], '--skill applies to new tool only'],
      [['agent', 'a', '--agent', 'reviewer'], '--agent does not apply to new agent'],
      // Valid names the scan leaves out as editor leftovers: written, they would never compile.
      [['tool', '4913'], 'tool name "4913" is a name the scan ignores as an editor\'s leftover'],
      [['skill', 'notes-'], 'skill name "notes-" ends with "-"'],
      [['agent', 'draft.tmp'], 'agent name "draft.tmp" does not match'],
      [['tool', 'x', '--plugin', '4913'], '--plugin segment "4913" is a name the scan ignores'],
    ];
    const before = cli(['inspect', '--root', root, '--json']).stdout;
    for (const [args, message] of cases) {
      const run = cli(['new', ...args, '--root', root]);
      expect(run.status, args.join(' ')).toBe(64);
      expect(run.stderr, args.join(' ')).toContain(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(cli(['inspect', '--root', root, '--json']).stdout).toBe(before);
  });

  it('refuses to overwrite: an existing capability is exit 1 and its files stay byte-identical', () => {
    const file = join(root, 'tools/echo/index.ts');
    const before = readFileSync(file, 'utf8');
    const run = cli(['new', 'tool', 'echo', '--root', root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('tools/echo already exists; nothing was written');
    expect(readFileSync(file, 'utf8')).toBe(before);
    // An agent's files are never replaced either, not even one of the four.
    writeFileSync(join(root, 'agents/reviewer/system.md'), '# Mine\n\nKeep me.\n');
    const agent = cli(['new', 'agent', 'reviewer', '--root', root]);
    expect(agent.status).toBe(1);
    expect(readFileSync(join(root, 'agents/reviewer/system.md'), 'utf8')).toBe('# Mine\n\nKeep me.\n');
  });

  it('an agent or skill named by a flag must exist; a name another placement already takes is refused', () => {
    const ghost = cli(['new', 'tool', 'x', '--agent', 'ghost', '--root', root]);
    expect(ghost.status).toBe(1);
    expect(ghost.stderr).toContain(
      'agent "ghost" does not exist (no agents/ghost/agent.json); create it first: zhin-gen new agent ghost',
    );
    // --json: the command's document with why, nothing written (not main's `{ "error" }` fallback).
    const ghostJson = cli(['new', 'tool', 'x', '--agent', 'ghost', '--root', root, '--json']);
    expect(ghostJson.status).toBe(1);
    expect(JSON.parse(ghostJson.stdout)).toEqual({
      kind: 'tool',
      name: 'x',
      error: expect.stringContaining('agent "ghost" does not exist') as string,
      written: [],
      skipped: [],
      failed: [],
    });
    const noSkill = cli(['new', 'tool', 'x', '--skill', 'nope', '--agent', 'reviewer', '--root', root]);
    expect(noSkill.status).toBe(1);
    expect(noSkill.stderr).toContain('skill "nope" does not exist (no agents/reviewer/skills/nope/SKILL.md)');
    // agents/maps/tools/x and plugins/maps/tools/x would both be maps__x.
    expect(cli(['new', 'agent', 'maps', '--root', root]).status).toBe(0);
    expect(cli(['new', 'tool', 'x', '--agent', 'maps', '--root', root]).status).toBe(0);
    const clash = cli(['new', 'tool', 'x', '--plugin', 'maps', '--root', root]);
    expect(clash.status).toBe(1);
    expect(clash.stderr).toContain('tool maps__x would clash with maps__x (agents/maps/tools/x/index.ts)');
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(cli(['check', '--root', root]).status).toBe(0);
  });
});
