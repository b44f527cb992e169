/**
 * The config's `diagnostics` option: a warning turned `off` is not reported, one set to `error`
 * fails the run (nothing written, `check` exits 1); errors and unknown codes cannot be set, and
 * each such setting is a located ZG1100. Through the real CLI, on the compile path and on the
 * run the cache vouches for (the same tree run twice).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, type JsonDiagnostic, removeDir, tempDir, toolSource, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

// `zhin-gen new`'s placeholder left in a description: ZG2065, a warning.
const TREE = {
  'tools/lookup/index.ts': toolSource(
    "{\n  description: 'Say here what the tool does and when to use it.',\n  inputSchema: z.object({ q: z.string() }),\n  async execute() {\n    return 1;\n  },\n}",
  ),
};

function run(command: 'generate' | 'check', root: string): { status: number; diagnostics: JsonDiagnostic[] } {
  const result = cli([command, '--root', root, ...(command === 'check' ? ['--format', 'json'] : ['--json'])]);
  expect(result.stderr).not.toMatch(/internal error|ZG9001|\n\s+at /);
  return {
    status: result.status,
    diagnostics: (JSON.parse(result.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics,
  };
}

const seen = (diagnostics: readonly JsonDiagnostic[]) => diagnostics.map((d) => `${d.code} ${d.severity} ${d.file}`);

function tree(prefix: string, config?: unknown): string {
  const root = writeTree(tempDir(prefix), {
    ...TREE,
    ...(config !== undefined ? { 'zhin-gen.config.json': `${JSON.stringify(config, null, 2)}\n` } : {}),
  });
  dirs.push(root);
  return root;
}

describe('config diagnostics', () => {
  it('reports the warning by default', () => {
    const root = tree('sev-default');
    for (const command of ['generate', 'check'] as const) {
      const { status, diagnostics } = run(command, root);
      expect(status).toBe(0);
      expect(seen(diagnostics)).toEqual(['ZG2065 warning tools/lookup/index.ts']);
    }
  });

  it('"off" leaves the warning out, on a compiled run and on a vouched one', () => {
    const root = tree('sev-off', { diagnostics: { ZG2065: 'off' } });
    expect(run('generate', root)).toEqual({ status: 0, diagnostics: [] });
    expect(existsSync(join(root, 'zhin-capabilities.gen.ts'))).toBe(true);
    // The second run is vouched for by the cache: the recorded summary still holds the warning.
    expect(run('generate', root)).toEqual({ status: 0, diagnostics: [] });
    expect(run('check', root)).toEqual({ status: 0, diagnostics: [] });
  });

  it('"error" fails generate without writing, and fails check on an output written before', () => {
    const root = tree('sev-error', { diagnostics: { ZG2065: 'error' } });
    const first = run('generate', root);
    expect(first.status).toBe(1);
    expect(seen(first.diagnostics)).toEqual(['ZG2065 error tools/lookup/index.ts']);
    expect(first.diagnostics[0]!.hint).toContain('the config\'s `diagnostics` sets ZG2065 to "error"');
    expect(existsSync(join(root, 'zhin-capabilities.gen.ts'))).toBe(false);

    // Written while it was a warning, then the config tightened: check fails on that output,
    // and the setting costs no new parse (it is applied after the cache).
    writeFileSync(join(root, 'zhin-gen.config.json'), '{}\n');
    expect(run('generate', root).status).toBe(0);
    writeFileSync(join(root, 'zhin-gen.config.json'), JSON.stringify({ diagnostics: { ZG2065: 'error' } }));
    const again = JSON.parse(cli(['generate', '--root', root, '--json']).stdout) as { parsed: number; errors: number };
    expect(again).toMatchObject({ parsed: 0, errors: 1 });
    const check = run('check', root);
    expect(check.status).toBe(1);
    expect(seen(check.diagnostics)).toEqual(['ZG2065 error tools/lookup/index.ts']);
  });

  it('rejects errors, unknown codes and unknown settings at their place in the config', () => {
    const root = tree('sev-bad', {
      diagnostics: { ZG2001: 'off', ZG0000: 'off', ZG2065: 'ignore', ZG3001: 'error', toString: 'off' },
    });
    const { status, diagnostics } = run('check', root);
    expect(status).toBe(1);
    expect(diagnostics.filter((d) => d.code === 'ZG1100').map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '3:15 Config option `diagnostics.ZG2001`: ZG2001 is an error, which no setting turns off or lowers; only warnings can be set',
      '4:15 Config option `diagnostics.ZG0000`: `ZG0000` is no diagnostic code of zhin-gen (docs/diagnostics.md lists them)',
      '5:15 Config option `diagnostics.ZG2065`: "ignore" is no setting; use "off", "warning" or "error"',
      '6:15 Config option `diagnostics.ZG3001`: ZG3001 is an error, which no setting turns off or lowers; only warnings can be set',
      '7:17 Config option `diagnostics.toString`: `toString` is no diagnostic code of zhin-gen (docs/diagnostics.md lists them)',
    ]);
    // A rejected config is not half-used: the warning is still reported as a warning.
    expect(seen(diagnostics.filter((d) => d.code !== 'ZG1100'))).toEqual(['ZG2065 warning tools/lookup/index.ts']);
  });
});
