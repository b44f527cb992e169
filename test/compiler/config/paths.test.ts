/**
 * Where the output may go (docs/config.md "Output path"), through the real CLI: an output that
 * is an input of the tree, a file zhin-gen did not write, a directory or a path below a file is
 * refused with a located diagnostic (a usage error for `--out`) and nothing on disk changes; an
 * output outside the root imports the tree by paths that resolve wherever the command runs;
 * paths that Node and tsc would read differently in an import specifier are refused.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { specifierProblem } from '../../../compiler/emit/paths.js';
import type { CapabilityManifest } from '../../../runtime/index.js';
import { cli, REPO, removeDir, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const tool = (description: string): string =>
  toolSource(
    `{ description: '${description}', inputSchema: z.object({ text: z.string() }), async execute({ text }) { return text; } }`,
  );

const TREE = {
  'AGENTS.md': '# Bot\n\nBe brief.\n',
  'plugin.ts':
    "import { definePlugin } from 'zhin-gen/runtime';\n\nexport default definePlugin({ name: 'bot', setup() {} });\n",
  'tools/ok/index.ts': tool('Says ok'),
  'tools/ok/helper.ts': 'export const helper = 1;\n',
  'ext/child/tools/extra/index.ts': tool('Child tool'),
  'ext/child/AGENTS.md': '# Child\n',
  'src/lib.ts': 'export const mine = true;\n',
} as const;

/** Every file below `dir` with its bytes (directories too), for "nothing was written". */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) files.set(path, '<link>');
      else if (entry.isDirectory()) {
        files.set(`${path}/`, '');
        visit(join(abs, entry.name), path);
      } else files.set(path, readFileSync(join(abs, entry.name)).toString('base64'));
    }
  };
  visit(dir, '');
  return files;
}

function project(
  prefix: string,
  config: Record<string, unknown> | undefined,
  extra: Record<string, string> = {},
): string {
  const root = writeTree(tempDir(prefix), {
    ...TREE,
    ...extra,
    ...(config ? { 'zhin-gen.config.json': `${JSON.stringify(config, null, 2)}\n` } : {}),
  });
  dirs.push(root);
  return root;
}

describe('an output that is an input of the tree', () => {
  // [out, what the message says]: the config file also names a child plugin, whose inputs count too.
  const cases: readonly (readonly [string, RegExp])[] = [
    ['AGENTS.md', /is the AGENTS\.md of the root plugin/],
    ['tools/ok/helper.ts', /lies inside tools\/ of the root plugin/],
    ['tools/ok/index.ts', /lies inside tools\/ of the root plugin/],
    ['tools/new/caps.gen.ts', /lies inside tools\/ of the root plugin/],
    ['skills/caps.gen.ts', /lies inside skills\/ of the root plugin/],
    ['plugins/caps.gen.ts', /lies inside plugins\/ of the root plugin/],
    ['plugin.ts', /is the plugin entry plugin\.ts of the root plugin/],
    ['zhin-gen.config.json', /is zhin-gen\.config\.json, which holds or may hold the configuration/],
    ['package.json', /is package\.json, which holds or may hold the configuration/],
    ['ext/child/tools/extra/index.ts', /lies inside tools\/ of the configured child plugin "child" \(ext\/child\)/],
    ['ext/child/AGENTS.md', /is the AGENTS\.md of the configured child plugin "child"/],
    ['linked/caps.gen.ts', /lies inside tools\/ of the root plugin/],
  ];
  for (const [out, message] of cases) {
    it(`refuses out: "${out}" with ZG1102 at the option, and writes nothing`, () => {
      const root = project('out-input', { out, plugins: { child: 'ext/child' } });
      symlinkSync(join(root, 'tools', 'ok'), join(root, 'linked'));
      const before = snapshot(root);
      for (const command of ['generate', 'check']) {
        const run = cli([command, '--root', root]);
        expect(run.status).toBe(1);
        // `{\n  "out": "…"`: the value starts at line 2, column 10.
        expect(run.stderr).toContain('zhin-gen.config.json:2:10  error  ZG1102');
        expect(run.stderr).toMatch(message);
        expect(run.stderr).not.toContain('ZG9001');
        // The refused path is still read as the input it is: no tool goes missing.
        expect(run.stderr).not.toMatch(/ZG1003|ZG3006/);
      }
      expect(snapshot(root)).toEqual(before);
    });
  }

  it('locates `out` in a zhin-gen.config.ts and in the "zhin-gen" key of package.json', () => {
    const ts = project('out-ts', undefined, {
      'zhin-gen.config.ts': "export default {\n  permits: [],\n  out: 'tools/ok/helper.ts',\n};\n",
    });
    const before = snapshot(ts);
    const run = cli(['generate', '--root', ts]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('zhin-gen.config.ts:3:3  error  ZG1102');
    expect(snapshot(ts)).toEqual(before);

    const pkg = project('out-pkg', undefined, {
      'package.json': '{\n  "name": "bot",\n  "zhin-gen": { "out": "AGENTS.md" }\n}\n',
    });
    const pkgBefore = snapshot(pkg);
    const inPkg = cli(['generate', '--root', pkg]);
    expect(inPkg.status).toBe(1);
    expect(inPkg.stderr).toContain('package.json:3:24  error  ZG1102');
    expect(snapshot(pkg)).toEqual(pkgBefore);
  });

  it('refuses out naming a file zhin-gen did not write (ZG1103), but replaces its own manifest', () => {
    const root = project('out-foreign', { out: 'src/lib.ts' });
    const before = snapshot(root);
    const run = cli(['generate', '--root', root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('zhin-gen.config.json:2:10  error  ZG1103');
    expect(snapshot(root)).toEqual(before);

    writeFileSync(join(root, 'zhin-gen.config.json'), '{ "out": "src/caps.gen.ts" }\n');
    expect(cli(['generate', '--root', root]).status).toBe(0);
    const generated = readFileSync(join(root, 'src/caps.gen.ts'), 'utf8');
    writeFileSync(join(root, 'src/caps.gen.ts'), generated.replace('Says ok', 'Says old'));
    expect(cli(['generate', '--root', root]).status).toBe(0);
    expect(readFileSync(join(root, 'src/caps.gen.ts'), 'utf8')).toBe(generated);
  });

  it('refuses a path that is not a TypeScript module (ZG1105)', () => {
    const root = project('out-ext', { out: 'README.md' });
    const run = cli(['generate', '--root', root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('zhin-gen.config.json:2:10  error  ZG1105');
    expect(existsSync(join(root, 'README.md'))).toBe(false);
  });
});

describe('--out on the command line', () => {
  it('is a usage error (64) naming the flag when it is an input, a directory or below a file; nothing is written', () => {
    const root = project('out-flag', undefined);
    const before = snapshot(root);
    for (const [out, code] of [
      ['AGENTS.md', 'ZG1102'],
      ['tools/ok/helper.ts', 'ZG1102'],
      ['src', 'ZG1104'],
      ['src/lib.ts/caps.gen.ts', 'ZG1104'],
      ['src/lib.ts', 'ZG1103'],
    ] as const) {
      for (const command of ['generate', 'check', 'inspect']) {
        const run = cli([command, '--root', root, '--out', out]);
        expect(run.status, `${command} --out ${out}`).toBe(64);
        expect(run.stderr).toContain(`zhin-gen: --out ${out}: `);
        expect(run.stderr).toContain(`[${code}]`);
        expect(run.stderr).not.toContain('ZG9001');
      }
    }
    expect(snapshot(root)).toEqual(before);
  });

  it('a config `out` naming an existing directory or a path below a file is a located ZG1104', () => {
    for (const out of ['src', 'src/lib.ts/caps.gen.ts', 'gen/']) {
      const root = project('out-dir', { out });
      const before = snapshot(root);
      const run = cli(['generate', '--root', root]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('zhin-gen.config.json:2:10  error  ZG1104');
      expect(run.stderr).not.toContain('ZG9001');
      expect(snapshot(root)).toEqual(before);
    }
  });

  it('a directory that appears at the output later (watch mode) is a located ZG1104, not an internal error', async () => {
    const root = project('out-later', { out: 'caps.gen.ts' });
    const compiler = createCompiler({ root, cacheFile: false });
    try {
      expect((await compiler.run()).errors).toBe(0);
      rmSync(join(root, 'caps.gen.ts'));
      mkdirSync(join(root, 'caps.gen.ts'));
      compiler.notify([{ type: 'change', path: join(root, 'tools/ok/index.ts') }]);
      const result = await compiler.run();
      expect(result.written).toBe(false);
      expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([
        'zhin-gen.config.json:2:10 ZG1104',
      ]);
      expect(statSync(join(root, 'caps.gen.ts')).isDirectory()).toBe(true);
    } finally {
      await compiler.dispose();
    }
  });
});

describe('an output outside the root', () => {
  it('is resolved against the root: the same bytes from every working directory, and its imports load', async () => {
    const base = tempDir('out-outside');
    dirs.push(base);
    const root = writeTree(join(base, 'bot'), { ...TREE, 'zhin-gen.config.json': '{ "out": "../gen/caps.gen.ts" }\n' });
    const out = join(base, 'gen', 'caps.gen.ts');
    const outputs = new Set<string>();
    for (const cwd of [REPO, root, base, '/']) {
      rmSync(out, { force: true });
      const run = cli(['generate', '--root', root], cwd);
      expect(run.status, run.stderr).toBe(0);
      outputs.add(readFileSync(out, 'utf8'));
      expect(cli(['check', '--root', root], cwd).status).toBe(0);
    }
    expect(outputs.size).toBe(1);
    const code = [...outputs][0]!;
    expect(code).toContain('import("../bot/tools/ok/index.js")');
    const { manifest } = (await import(`${out}?t=${Date.now()}`)) as { manifest: CapabilityManifest };
    const loaded = (await manifest.tools.find((t) => t.qualifiedName === 'ok')!.load()) as {
      default: { description: string };
    };
    expect(loaded.default.description).toBe('Says ok');
  });
});

describe('paths that become import specifiers', () => {
  it('names the characters Node and tsc read differently', () => {
    for (const bad of ['a#b', 'a?b', 'a%20b', 'a\\b', 'a\tb', 'a\nb']) expect(specifierProblem(bad), bad).toBeDefined();
    for (const good of ['ext/my plugin', 'ext/ünïcode', 'ext/a+b@c', '../ext/(x)'])
      expect(specifierProblem(good), good).toBeUndefined();
  });

  it('refuses a configured child plugin whose directory has #, % or ?; check is never green for it', () => {
    const root = project('out-spec', { out: 'caps.gen.ts' }, { 'ext/a#b%20c?d/tools/odd/index.ts': tool('Odd tool') });
    // A manifest from before the plugin was configured is on disk: check must not pass it.
    expect(cli(['generate', '--root', root]).status).toBe(0);
    writeFileSync(
      join(root, 'zhin-gen.config.json'),
      '{\n  "out": "caps.gen.ts",\n  "plugins": { "odd": "ext/a#b%20c?d" }\n}\n',
    );
    const before = snapshot(root);
    for (const command of ['generate', 'check']) {
      const run = cli([command, '--root', root]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('zhin-gen.config.json:3:23  error  ZG1106');
      expect(run.stderr).toContain('Configured child plugin "odd" → "ext/a#b%20c?d" contains "#"');
    }
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses an output outside the root when its imports would pass through such a directory', () => {
    const base = tempDir('out-spec-root');
    dirs.push(base);
    const root = writeTree(join(base, 'b#ot'), {
      ...TREE,
      'zhin-gen.config.json': '{\n  "out": "../gen/caps.gen.ts"\n}\n',
    });
    const run = cli(['generate', '--root', root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('zhin-gen.config.json:2:10  error  ZG1106');
    expect(run.stderr).toContain('pass through "../b#ot"');
    expect(existsSync(join(base, 'gen'))).toBe(false);
  });

  it('accepts child plugin directories with spaces, non-ASCII letters or a leading dot, and their loaders load', async () => {
    const root = project(
      'out-spec-ok',
      { out: 'caps.gen.ts', plugins: { wide: 'ext/my plügin', dot: '.ext/dot' } },
      {
        'ext/my plügin/tools/wide/index.ts': tool('Wide tool'),
        '.ext/dot/tools/hidden/index.ts': tool('Dotted tool'),
      },
    );
    const run = cli(['generate', '--root', root]);
    expect(run.status, run.stderr).toBe(0);
    // "./.ext/…", not ".ext/…": a specifier starting with a dot directory would be a bare package name.
    expect(readFileSync(join(root, 'caps.gen.ts'), 'utf8')).toContain('import("./.ext/dot/tools/hidden/index.js")');
    const { manifest } = (await import(`${join(root, 'caps.gen.ts')}?t=${Date.now()}`)) as {
      manifest: CapabilityManifest;
    };
    for (const [name, description] of [
      ['wide__wide', 'Wide tool'],
      ['dot__hidden', 'Dotted tool'],
    ] as const) {
      const loaded = (await manifest.tools.find((t) => t.qualifiedName === name)!.load()) as {
        default: { description: string };
      };
      expect(loaded.default.description).toBe(description);
    }
  });
});
