/**
 * `zhin-gen report` through the built CLI: the --json summary, the author's choice of matrix
 * columns, usage errors (nothing written), and the page's data agreeing with `inspect --json`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';

let root: string;
beforeAll(() => {
  root = copyFixture('example-bot', 'cli-report');
});
afterAll(() => removeDir(root));

/** The data document embedded in a written page. */
function pageData(file: string): {
  principals: { platform: string; scope: string; role: string }[];
  tools: { name: string; placement: string; source: string; disclosure: string; access: number }[];
  access: { cells: (string | null)[][] };
} {
  const html = readFileSync(file, 'utf8');
  const json = /<script type="application\/json" id="zhin-report-data">(.*?)<\/script>/s.exec(html)![1]!;
  return JSON.parse(json);
}

describe('zhin-gen report', () => {
  it('--json summarises what was written', () => {
    const run = cli(['report', '--root', root, '--json']);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({
      out: 'zhin-gen-report.html',
      tools: 8,
      principals: 9,
      errors: 0,
      warnings: 0,
      runtime: true,
    });
    expect(summary.bytes).toBe(readFileSync(join(root, 'zhin-gen-report.html')).length);
    const data = pageData(join(root, 'zhin-gen-report.html'));
    // The tree is inspect's: same tools, placements, sources and disclosure sentences.
    const inspect = JSON.parse(cli(['inspect', '--root', root, '--json']).stdout) as {
      tools: { qualifiedName: string; placement: string; source: string; disclosure: string }[];
    };
    expect(data.tools.map((t) => [t.name, t.placement, t.source, t.disclosure])).toEqual(
      inspect.tools.map((t) => [t.qualifiedName, t.placement, t.source, t.disclosure]),
    );
  });

  it('the author chooses the matrix columns', () => {
    const run = cli([
      'report',
      '--root',
      root,
      '--out',
      'review/custom.html',
      '--platform',
      'qq',
      '--platform',
      'icqq',
      '--scope',
      'group',
      '--role',
      'master',
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('8 tools × 2 principals → review/custom.html');
    const data = pageData(join(root, 'review', 'custom.html'));
    expect(data.principals).toEqual([
      { platform: 'qq', scope: 'group', role: 'master' },
      { platform: 'icqq', scope: 'group', role: 'master' },
    ]);
    // admin__mute is an icqq tool: denied on qq for its platform, on icqq for its permit.
    const mute = data.tools.find((t) => t.name === 'admin__mute')!;
    const [qq, icqq] = data.access.cells[mute.access]!;
    expect(qq).toBe('platform "qq" is not in [icqq]');
    expect(icqq).toMatch(/^permit platform\(icqq,admin\) failed/);
  });

  it('refuses an --out that is not .html or is a directory, and an unknown --scope (exit 64, nothing written)', () => {
    for (const [args, message] of [
      [['--out', 'report.ts'], '--out report.ts: the report is an .html file'],
      [['--out', 'tools.html', '--scope', 'room'], 'unknown --scope "room" (private, group or channel)'],
    ] as const) {
      const run = cli(['report', '--root', root, ...args]);
      expect(run.status, args.join(' ')).toBe(64);
      expect(run.stderr).toContain(`zhin-gen report: ${message}`);
    }
    expect(existsSync(join(root, 'report.ts'))).toBe(false);
    expect(existsSync(join(root, 'tools.html'))).toBe(false);
    mkdirSync(join(root, 'folder.html'));
    const dir = cli(['report', '--root', root, '--out', 'folder.html']);
    expect(dir.status).toBe(64);
    expect(dir.stderr).toContain('zhin-gen report: --out folder.html: is a directory');
    // The default name is named too when it is a directory.
    rmSync(join(root, 'zhin-gen-report.html'), { force: true });
    mkdirSync(join(root, 'zhin-gen-report.html'));
    const fallback = cli(['report', '--root', root]);
    expect(fallback.status).toBe(64);
    expect(fallback.stderr).toContain('zhin-gen report: --out zhin-gen-report.html: is a directory');
    removeDir(join(root, 'zhin-gen-report.html'));
  });

  it("a report it cannot write is the user's error (exit 1), not an internal one", () => {
    writeFileSync(join(root, 'not-a-folder'), 'x');
    const run = cli(['report', '--root', root, '--out', 'not-a-folder/report.html']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/zhin-gen report: cannot write not-a-folder\/report\.html: (ENOTDIR|EEXIST)/);
    expect(run.stderr).not.toContain('internal error');
    // --json: a document that says why, also when it fails.
    const json = cli(['report', '--root', root, '--out', 'not-a-folder/report.html', '--json']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatch(/^cannot write not-a-folder\/report\.html: (ENOTDIR|EEXIST)$/);
    const usage = cli(['report', '--root', root, '--out', 'report.ts', '--json']);
    expect(JSON.parse(usage.stdout)).toEqual({ error: '--out report.ts: the report is an .html file', usage: true });
  });

  it('--json of a tree with errors lists them (the page is written, exit 1)', () => {
    const broken = writeTree(tempDir('report-broken'), { 'tools/Bad Name/index.ts': 'export default 1;\n' });
    try {
      const run = cli(['report', '--root', broken, '--json']);
      expect(run.status).toBe(1);
      const summary = JSON.parse(run.stdout) as { errors: number; diagnostics: { code: string; file: string }[] };
      expect(summary.errors).toBeGreaterThan(0);
      expect(summary.diagnostics.map((d) => `${d.code} ${d.file}`)).toContain('ZG1001 tools/Bad Name');
      expect(existsSync(join(broken, 'zhin-gen-report.html'))).toBe(true);
    } finally {
      removeDir(broken);
    }
  });
});
