/**
 * Names from the tree reach terminals and CI logs escaped (compiler/report/printable.ts): a
 * directory named with a colour sequence or a newline, through the real CLI's pretty and GitHub
 * formats (NO_COLOR, so any escape character in the output came from the tree).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeFrame } from '../../../compiler/report/index.js';
import { cli, removeDir, tempDir } from '../../helpers.js';

const root = tempDir('printable');
afterAll(() => removeDir(root));

describe('a code frame of a line with control characters', () => {
  it('keeps its caret under the reported column, after the escapes', () => {
    const frame = codeFrame("  /*\u001b\u0007*/ description: '   ',", 1, 23).split('\n');
    expect(frame[0]).toContain('/*\\x1b\\x07*/');
    const caret = frame[1]!.indexOf('^');
    expect(frame[0]![caret]).toBe("'");
  });
});

describe('diagnostics of hostile names', () => {
  it('show control characters escaped, one line per diagnostic', () => {
    const red = 'x\u001b[31mRED\u001b[0m';
    const split = 'x\ny';
    for (const name of [red, split]) {
      mkdirSync(join(root, 'tools', name), { recursive: true });
      writeFileSync(join(root, 'tools', name, 'index.ts'), "const a = '\u001b[2J';\nexport default a;\n");
    }
    const pretty = cli(['check', '--root', root]);
    expect(pretty.status).toBe(1);
    expect(pretty.stderr).not.toContain('\u001b');
    expect(pretty.stderr).toContain('tools/x\\x1b[31mRED\\x1b[0m');
    expect(pretty.stderr).toContain('tools/x\\x0ay');
    // Each diagnostic's head line starts with the file: no line begins with the name's second half.
    expect(pretty.stderr.split('\n').some((line) => line.startsWith('y/'))).toBe(false);
    const github = cli(['check', '--root', root, '--format', 'github']);
    expect(github.stdout).not.toContain('\u001b');
    expect(github.stdout).toContain('x\\x1b[31mRED');
  });
});
