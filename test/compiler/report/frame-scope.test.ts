/**
 * Code frames never read what a tree links to outside its root (compiler/report/code-frame.ts):
 * the scan refuses such a link (ZG1005) and its diagnostic is located at the link, so a frame read
 * through it printed the target (a secret, or `/dev/zero` for ever) to the terminal, the CI log
 * and the report page. The real CLI, on a tree on disk.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, REPO, removeDir, tempDir, writeTree } from '../../helpers.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) removeDir(dir);
});

function tree(link: (root: string) => void): string {
  const root = tempDir('frame-scope');
  dirs.push(root);
  writeTree(root, {
    'tools/echo/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';

export default defineAgentTool({
  description: 'Echo',
  async execute() {
    return 'x';
  },
});
`,
    'prompt-sections/rules/index.ts': 'export default 1;\n',
  });
  link(root);
  return root;
}

describe('code frames', () => {
  it('are not read through a link that leaves the root: check, report', () => {
    const outside = tempDir('frame-secret');
    dirs.push(outside);
    writeFileSync(join(outside, 'secret.md'), `${SECRET}\n`);
    const root = tree((r) => symlinkSync(join(outside, 'secret.md'), join(r, 'AGENTS.md')));
    const check = cli(['check', '--root', root]);
    expect(check.stderr).toMatch(/AGENTS\.md:1:1 +warning +ZG1005/);
    expect(check.stdout + check.stderr).not.toContain(SECRET);
    // A frame is still shown for a file inside the root (the prompt section's error).
    expect(check.stderr).toContain('> 1 | export default 1;');
    const report = cli(['report', '--root', root]);
    expect(report.stdout + report.stderr).not.toContain(SECRET);
    expect(readFileSync(join(root, 'zhin-gen-report.html'), 'utf8')).not.toContain(SECRET);
  });

  it('are not read from a device: a link to /dev/zero ends at once', () => {
    const root = tree((r) => symlinkSync('/dev/zero', join(r, 'AGENTS.md')));
    // Read for a frame, /dev/zero never ends: the run is killed after 20 s rather than hang the suite.
    const check = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'check', '--root', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 20_000,
    });
    expect(check.signal).toBeNull();
    expect(check.stderr).toMatch(/AGENTS\.md:1:1 +warning +ZG1005/);
  });
});
