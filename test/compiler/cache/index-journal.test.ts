/**
 * The cache index's journal (compiler/cache/index-journal.ts): a fresh run that changed one tool
 * appends that unit to the journal instead of rewriting the index, and a later run that decides
 * from the index alone (a stray file edited) takes the journal into account. Lines that do not
 * continue the chain from the base to the bodies on disk, that do not parse or are of a wrong
 * shape make the index unusable: the run loads the bodies and equals a cacheless run.
 */
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { changedTime } from '../../../compiler/util/file-stat.js';
import { copyFixture, pastATick, removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function setup(name: string): { root: string; cacheFile: string; index: string; journal: string } {
  const root = copyFixture('example-bot', name);
  const cacheDir = tempDir(`${name}-cache`);
  dirs.push(root, cacheDir);
  writeTree(root, { 'tools/README.md': 'Notes beside the tools.\n' });
  settleTree(root);
  const cacheFile = join(cacheDir, 'units.json');
  return { root, cacheFile, index: `${cacheFile}.index`, journal: `${cacheFile}.index.journal` };
}

/** The bodies as an index names them: `size:mtime:ino` of the cache file and of its journal. */
function bodiesStamp(cacheFile: string): string {
  const stamp = (path: string): string => {
    if (!existsSync(path)) return '-';
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}:${s.ino}`;
  };
  return `${stamp(cacheFile)}|${stamp(`${cacheFile}.journal`)}`;
}

/** Edits one file and dates it 30 s back (a stamp within a tick of a run is not trusted), leaving the others' stamps. */
function edit(root: string, path: string, from: string, to: string): void {
  const file = join(root, path);
  const before = readFileSync(file, 'utf8');
  expect(before).toContain(from);
  writeFileSync(file, before.replace(from, to));
  const past = Date.now() / 1000 - 30;
  utimesSync(file, past, past);
  pastATick();
}

async function cacheless(root: string) {
  const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
  return { code: result.code, diagnostics: result.diagnostics };
}

type Line = { prev: string; bodies: string; units: Record<string, { s: (string | number)[] }> };

describe('the index journal', () => {
  it('takes a one-change run as one line, and an index read after it takes the line into account', async () => {
    const { root, cacheFile, index, journal } = setup('index-journal-append');
    await createCompiler({ root, cacheFile }).run();
    const base = readFileSync(index, 'utf8');
    expect(existsSync(journal)).toBe(false);

    edit(root, 'tools/echo/index.ts', 'Echo a message back', 'Echo it back');
    const changed = await createCompiler({ root, cacheFile }).run();
    expect(changed.stats.parsed).toBe(1);
    expect(readFileSync(index, 'utf8')).toBe(base);
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(Object.keys((JSON.parse(lines[0]!) as Line).units)).toEqual(['tool:tools/echo']);

    // A stray file edited: the index decides. The bodies are ruined behind it and the journal's
    // last line names them, so a run that read the bodies (or an index without the journal's
    // line, whose echo stamps are old) would parse again.
    edit(root, 'tools/README.md', 'Notes', 'More notes');
    writeFileSync(cacheFile, 'x'.repeat(statSync(cacheFile).size));
    utimesSync(cacheFile, 1_700_000_000, 1_700_000_000);
    const line = JSON.parse(lines[0]!) as Line;
    line.bodies = bodiesStamp(cacheFile);
    writeFileSync(journal, `${JSON.stringify(line)}\n`);
    const decided = await createCompiler({ root, cacheFile }).run();
    expect(decided.stats.parsed).toBe(0);
    expect(decided.written).toBe(false);
    expect(readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8')).toBe((await cacheless(root)).code);
  });

  it('is not believed when a line breaks the chain, does not parse or is of a wrong shape', async () => {
    const cases: [string, (lie: Line & { output: unknown }) => string][] = [
      ['a line that does not continue the chain', (lie) => JSON.stringify({ ...lie, prev: 'elsewhere' })],
      ['a line after one cut short', (lie) => `{"prev":"${lie.prev}","bod\n${JSON.stringify(lie)}`],
      [
        'a line with units of a wrong shape',
        (lie) => JSON.stringify({ ...lie, units: { 'tool:tools/echo': { h: 1 } } }),
      ],
      ['a line with an output of a wrong shape', (lie) => JSON.stringify({ ...lie, output: { file: 1 } })],
    ];
    for (const [what, ruin] of cases) {
      const { root, cacheFile, index, journal } = setup(`index-journal-${cases.findIndex(([w]) => w === what)}`);
      await createCompiler({ root, cacheFile }).run();
      // The tool is edited without a run; a lie in the journal vouches for its new stamps. The
      // tree record is removed, so the index decides (with a record the edit skips the index).
      edit(root, 'tools/echo/index.ts', 'Echo a message back', 'Echo it back');
      rmSync(`${cacheFile}.tree`);
      const data = JSON.parse(readFileSync(index, 'utf8')) as Line & { output: unknown; summary: unknown };
      const unit = data.units['tool:tools/echo']!;
      const at = unit.s.indexOf('tools/echo/index.ts');
      const now = statSync(join(root, 'tools/echo/index.ts'));
      unit.s[at + 1] = changedTime(now);
      unit.s[at + 2] = now.size;
      unit.s[at + 4] = now.ino;
      const { output, summary } = data;
      const lie = { prev: data.bodies, bodies: data.bodies, units: { 'tool:tools/echo': unit }, output, summary };
      // In the chain, the lie is believed: the output stays as it was (what the check is for).
      writeFileSync(journal, `${JSON.stringify(lie)}\n`);
      const believed = await createCompiler({ root, cacheFile }).run({ write: false });
      expect(believed.stats.parsed, what).toBe(0);
      // That run wrote a tree record of its own: the index must decide again.
      rmSync(`${cacheFile}.tree`);
      writeFileSync(journal, `${ruin(lie)}\n`);
      const result = await createCompiler({ root, cacheFile }).run({ write: false });
      expect(result.stats.parsed, what).toBeGreaterThan(0);
      expect({ code: result.code, diagnostics: result.diagnostics }, what).toEqual(await cacheless(root));
    }
  });
});
