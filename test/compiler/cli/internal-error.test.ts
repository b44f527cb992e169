/**
 * A bug in zhin-gen itself under `--json` (ZG9001): stdout still carries one JSON document,
 * `{ "error", "internal": true }`, beside the message on stderr, so a CI step that parses stdout
 * reports the failure instead of a JSON parse error. The fault is injected at the compiler's
 * boundary (its run throws): no tree makes the real compiler throw once its bugs are fixed.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

vi.mock('../../../compiler/context.js', async (original) => {
  const actual = await original<typeof import('../../../compiler/context.js')>();
  return {
    ...actual,
    createCompiler: (...args: Parameters<typeof actual.createCompiler>) => {
      const compiler = actual.createCompiler(...args);
      compiler.run = () => Promise.reject(new Error('injected fault'));
      return compiler;
    },
  };
});

const { main } = await import('../../../compiler/cli/main.js');

const root = tempDir('internal-error');
writeTree(root, { 'AGENTS.md': '# Bot\n\nA bot.\n' });
afterAll(() => removeDir(root));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { isTTY: false, out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('an internal error under --json', () => {
  it('prints {error, internal: true} on stdout and the message on stderr, exit 1', async () => {
    for (const argv of [
      ['generate', '--json', '--root', root],
      ['check', '--format', 'json', '--root', root],
    ]) {
      const { code, out, err } = await run(argv);
      expect(code, argv.join(' ')).toBe(1);
      expect(JSON.parse(out)).toEqual({ error: 'internal error (ZG9001): injected fault', internal: true });
      expect(err).toContain('internal error (ZG9001): injected fault');
    }
  });

  it('without --json, stdout stays empty', async () => {
    const { code, out, err } = await run(['generate', '--root', root]);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('ZG9001');
  });
});
