/**
 * The tree record (compiler/cache/tree-record.ts): a fresh run over an unchanged tree ends after
 * the walk and a stat per file, reading neither the cache's index nor its bodies, and reports
 * what a full run reports; any change a walk and a stat can see (a file edited, added or removed,
 * AGENTS.md, a file outside the walk a tool imports, the output or its validators folder) sends
 * the run down the full path; a damaged record costs the index read it would have saved.
 */
import {
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { changedTime } from '../../../compiler/util/file-stat.js';
import { copyFixture, pastATick, removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const SHARED_TOOL = `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';
import { city } from '../../src/shared.js';
export default defineAgentTool({
  description: 'Uses a schema fragment outside the walk',
  inputSchema: z.object({ city }),
  async execute() { return 1; },
});
`;

function setup(name: string): { root: string; cacheFile: string; record: string } {
  const root = copyFixture('example-bot', name);
  const cacheDir = tempDir(`${name}-cache`);
  dirs.push(root, cacheDir);
  writeTree(root, {
    'src/shared.ts': `import { z } from 'zod';\nexport const city = z.string().max(5);\n`,
    'tools/shared/index.ts': SHARED_TOOL,
    // A layout problem and a tool warning: a vouched run must still report both.
    'tools/README.md': 'Notes beside the tools.\n',
    'tools/warned/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Has an unknown field', timeoutMs: 5000, async execute() { return 1; } });\n`,
  });
  settleTree(root);
  const cacheFile = join(cacheDir, 'units.json');
  return { root, cacheFile, record: `${cacheFile}.tree` };
}

/** `name`=`size:mtime:ino` of a file, as the record names the bodies it was written beside. */
function stampOf(path: string): string {
  const s = statSync(path);
  return `${s.size}:${s.mtimeMs}:${s.ino}`;
}

/**
 * Overwrites the index and the bodies with bytes that are not JSON, then makes the record name
 * the bodies as they now are: only a run that reads neither can still find the tree unchanged.
 */
function ruinEverythingButTheRecord(cacheFile: string, record: string): void {
  writeFileSync(`${cacheFile}.index`, 'not json');
  writeFileSync(cacheFile, 'x'.repeat(statSync(cacheFile).size));
  utimesSync(cacheFile, 1_700_000_000, 1_700_000_000);
  const journal = existsSync(`${cacheFile}.journal`) ? stampOf(`${cacheFile}.journal`) : '-';
  const data = JSON.parse(readFileSync(record, 'utf8')) as { bodies: string };
  data.bodies = `${stampOf(cacheFile)}|${journal}`;
  writeFileSync(record, JSON.stringify(data));
}

async function full(root: string): Promise<string> {
  return (await createCompiler({ root, cacheFile: false }).run({ write: false })).code;
}

describe('the tree record', () => {
  it('ends a run over an unchanged tree after the walk, reporting what a full run reports', async () => {
    const { root, cacheFile, record } = setup('tree-noop');
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.errors).toBe(0);
    expect(cold.diagnostics.some((d) => d.file === 'tools/README.md')).toBe(true);
    expect(cold.diagnostics.some((d) => d.file === 'tools/warned/index.ts')).toBe(true);
    expect(existsSync(record)).toBe(true);
    const expected = await full(root);

    ruinEverythingButTheRecord(cacheFile, record);
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.stats.units).toBe(cold.stats.units);
    expect(warm.written).toBe(false);
    expect(warm.counts).toEqual(cold.counts);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.code).toBe(expected);
  });

  it('is not believed once edited by hand, however well-formed the edit (its seal no longer matches)', async () => {
    const { root, cacheFile, record } = setup('tree-sealed');
    const cold = await createCompiler({ root, cacheFile }).run();
    const text = readFileSync(record, 'utf8');
    const edits: [string, string][] = [
      ['a warning made an error', text.replace('"severity":"warning"', '"severity":"error"')],
      ['a count changed', text.replace(/"tools":(\d+)/, (_, n: string) => `"tools":${Number(n) + 1}`)],
      ['the seal removed', text.replace(/"seal":"[0-9a-f]+",/, '')],
    ];
    for (const [what, edited] of edits) {
      expect(edited, what).not.toBe(text);
      writeFileSync(record, edited);
      const warm = await createCompiler({ root, cacheFile }).run();
      expect(warm.diagnostics, what).toEqual(cold.diagnostics);
      expect(warm.counts, what).toEqual(cold.counts);
      expect(warm.errors, what).toBe(0);
    }
    // The index's summary, which a run the index vouches for replays, is sealed the same way.
    rmSync(record, { force: true });
    const index = `${cacheFile}.index`;
    const summary = readFileSync(index, 'utf8');
    const edited = summary.replace(/("summary":\{.*)"severity":"warning"/, '$1"severity":"error"');
    expect(edited).not.toBe(summary);
    writeFileSync(index, edited);
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.errors).toBe(0);
  });

  it('builds the model of a run it vouched for from the cache on request, equal to a full run', async () => {
    const { root, cacheFile } = setup('tree-model');
    await createCompiler({ root, cacheFile }).run();
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    const fresh = await createCompiler({ root, cacheFile: false }).run({ write: false });
    expect(JSON.stringify(warm.model)).toBe(JSON.stringify(fresh.model));
  });

  it.each([
    ['a tool edited', (root: string) => edit(root, 'tools/echo/index.ts', 'Echo a message back', 'Echo it back')],
    ['a tool edited to the same size', (root: string) => edit(root, 'tools/echo/index.ts', 'Echo a', 'Echo b')],
    ['a tool added', (root: string) => writeTree(root, { 'tools/added/index.ts': SHARED_TOOL })],
    ['a tool removed', (root: string) => rmSync(join(root, 'tools/warned'), { recursive: true })],
    ['AGENTS.md edited', (root: string) => edit(root, 'AGENTS.md', /$/, '\nOne more rule.\n')],
    ['a fragment outside the walk edited', (root: string) => edit(root, 'src/shared.ts', 'max(5)', 'max(9)')],
    ['the output edited by hand', (root: string) => edit(root, 'zhin-capabilities.gen.ts', /$/, '// by hand\n')],
  ])('is not used after %s: the output is a full run’s', async (_name, change) => {
    const { root, cacheFile } = setup('tree-change');
    const cold = await createCompiler({ root, cacheFile }).run();
    change(root);
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.errors).toBe(0);
    const expected = await full(root);
    expect(run.code).toBe(expected);
    expect(readFileSync(cold.outFile, 'utf8')).toBe(expected);
    // The record written by that run serves the next one.
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.stats.parsed).toBe(0);
    expect(next.written).toBe(false);
    expect(next.code).toBe(expected);
  });

  // A file of the same size and date as the one it replaces (both written in one clock tick, a
  // copy that kept its date): only the inode, or for a copy into the same file the ctime, tells
  // them apart. Before, the record and the unit cache both took it for the stamped file, and
  // the tool kept its old text.
  it.each([
    ['moved over it', 'move', 'Echo b'],
    ['linked to in its place', 'link', 'Echo b'],
    ['copied into it, its date kept (cp -p)', 'copy', 'Echo b'],
    ['moved over it with the same bytes', 'move', 'Echo a'],
  ])('sees another file of the same size and date %s', async (_name, how, text) => {
    const { root, cacheFile } = setup('tree-identity');
    const tool = join(root, 'tools/echo/index.ts');
    writeTree(root, { 'elsewhere/echo.ts': readFileSync(tool, 'utf8').replace('Echo a', text) });
    settleTree(root);
    expect(statSync(join(root, 'elsewhere/echo.ts')).mtimeMs).toBe(statSync(tool).mtimeMs);
    const cold = await createCompiler({ root, cacheFile }).run();
    if (how === 'move') renameSync(join(root, 'elsewhere/echo.ts'), tool);
    else if (how === 'copy') {
      const { atime, mtime } = statSync(tool);
      writeFileSync(tool, readFileSync(join(root, 'elsewhere/echo.ts')));
      utimesSync(tool, atime, mtime);
      expect(statSync(tool).mtimeMs).toBe(statSync(join(root, 'elsewhere/echo.ts')).mtimeMs);
      // Settled: the copy is not told by a racy stamp (cache/racy.ts) but by its ctime.
      pastATick();
    } else {
      rmSync(tool);
      symlinkSync('../../elsewhere/echo.ts', tool);
    }
    const run = await createCompiler({ root, cacheFile }).run();
    const expected = await full(root);
    expect(run.code).toBe(expected);
    expect(run.code.includes(`${text} message back`)).toBe(true);
    // The same bytes under another inode: compared by content, nothing parsed again.
    if (text === 'Echo a') {
      expect(run.code).toBe(cold.code);
      expect(run.stats.parsed).toBe(0);
    } else expect(run.code).not.toBe(cold.code);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.stats.parsed).toBe(0);
    expect(next.code).toBe(expected);
  });

  it('sees the output replaced by a file of the same size and date, and writes it again', async () => {
    const { root, cacheFile } = setup('tree-output-identity');
    const cold = await createCompiler({ root, cacheFile }).run();
    const past = Date.now() / 1000 - 60;
    // The output dated back (the next run records it so), and a same-size edit of it elsewhere, of that date.
    utimesSync(cold.outFile, past, past);
    const other = join(root, 'elsewhere.gen.ts');
    writeFileSync(other, cold.code.replace('Echo a', 'Echo b'));
    utimesSync(other, past, past);
    const dated = await createCompiler({ root, cacheFile }).run();
    expect(dated.written).toBe(false);
    renameSync(other, cold.outFile);
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.written).toBe(true);
    expect(readFileSync(cold.outFile, 'utf8')).toBe(cold.code);
  });

  it('sees the output edited in place to the same size with its date put back, and writes it again', async () => {
    const { root, cacheFile } = setup('tree-output-ctime');
    const cold = await createCompiler({ root, cacheFile }).run();
    pastATick();
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.written).toBe(false);
    const { atime, mtime, ino } = statSync(cold.outFile);
    writeFileSync(cold.outFile, cold.code.replace('Echo a', 'Echo b'));
    utimesSync(cold.outFile, atime, mtime);
    expect(statSync(cold.outFile).ino).toBe(ino);
    pastATick();
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.written).toBe(true);
    expect(readFileSync(cold.outFile, 'utf8')).toBe(cold.code);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.written).toBe(false);
    expect(next.stats.parsed).toBe(0);
  });

  it('after a unit changed, the index is not consulted: one that vouches for the new stamps is not believed', async () => {
    const { root, cacheFile } = setup('tree-units-digest');
    await createCompiler({ root, cacheFile }).run();
    edit(root, 'tools/echo/index.ts', 'Echo a message back', 'Echo it back');
    // An index (still naming the bodies on disk) that holds the edited file's new stamp: the
    // index check alone would find every unit current and vouch for the old output.
    const index = `${cacheFile}.index`;
    const data = JSON.parse(readFileSync(index, 'utf8')) as { units: Record<string, { s: (string | number)[] }> };
    const now = statSync(join(root, 'tools/echo/index.ts'));
    const stamps = data.units['tool:tools/echo']!.s;
    const at = stamps.indexOf('tools/echo/index.ts');
    expect(at).toBeGreaterThanOrEqual(0);
    stamps[at + 1] = changedTime(now);
    stamps[at + 2] = now.size;
    stamps[at + 4] = now.ino;
    writeFileSync(index, JSON.stringify(data));
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.stats.parsed).toBe(1);
    expect(readFileSync(run.outFile, 'utf8')).toContain('Echo it back');
    expect(run.code).toBe(await full(root));
  });

  it('after only a file no unit depends on was edited, the index still decides (the bodies are not read)', async () => {
    const { root, cacheFile, record } = setup('tree-loose-edit');
    const cold = await createCompiler({ root, cacheFile }).run();
    edit(root, 'tools/README.md', 'Notes', 'More notes');
    // Bodies that are not JSON, with the index and the record naming them as they now are: a run
    // that loads the bodies parses every unit again.
    writeFileSync(cacheFile, 'x'.repeat(statSync(cacheFile).size));
    utimesSync(cacheFile, 1_700_000_000, 1_700_000_000);
    const journal = existsSync(`${cacheFile}.journal`) ? stampOf(`${cacheFile}.journal`) : '-';
    for (const file of [record, `${cacheFile}.index`])
      change(file, (data) => {
        data.bodies = `${stampOf(cacheFile)}|${journal}`;
      });
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.stats.parsed).toBe(0);
    expect(run.written).toBe(false);
    expect(run.counts).toEqual(cold.counts);
    expect(run.diagnostics).toEqual(cold.diagnostics);
  });

  it("leaves tools' helper modules out: an edit of one still ends the run after the walk, which never stats it", async () => {
    const { root, cacheFile, record } = setup('tree-helper-edit');
    const cold = await createCompiler({ root, cacheFile }).run();
    const expected = await full(root);
    const unstat = (JSON.parse(readFileSync(record, 'utf8')) as { unstat?: number[] }).unstat;
    expect(unstat?.length).toBeGreaterThan(0);
    // The runtime helper `execute` calls: its content is never read, so it is not in the digest.
    edit(root, 'tools/short-url/client.ts', 'hash * 31', 'hash * 37');
    ruinEverythingButTheRecord(cacheFile, record);
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.written).toBe(false);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.code).toBe(expected);
  });

  it('stats a helper again once a schema reads it, and sees it move; and a list that shifted stats them all', async () => {
    const { root, cacheFile } = setup('tree-helper-read');
    await createCompiler({ root, cacheFile }).run();
    // The helper becomes what the tool's schema is made of.
    writeTree(root, {
      'tools/short-url/client.ts': `import { z } from 'zod';\nexport const input = z.object({ url: z.string() });\n`,
      'tools/short-url/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { input } from './client.js';\nexport default defineAgentTool({ description: 'Shorten a long URL', inputSchema: input, async execute() { return 'ok'; } });\n`,
    });
    settleTree(root);
    const read = await createCompiler({ root, cacheFile }).run();
    expect(read.code).toBe(await full(root));
    expect(read.code).not.toContain('longUrl');
    edit(root, 'tools/short-url/client.ts', 'url: z.string()', 'longUrl: z.string()');
    settleTree(root);
    const moved = await createCompiler({ root, cacheFile }).run();
    expect(moved.stats.parsed).toBe(1);
    expect(moved.code).toContain('longUrl');
    expect(moved.code).toBe(await full(root));
    // A file added before the others in the list: every index after it moves, the record's
    // helper indices no longer name helpers, and the run must not be fooled by them.
    writeTree(root, { 'tools/echo/aaa.ts': 'export const a = 1;\n' });
    edit(root, 'tools/short-url/client.ts', 'longUrl: z.string()', 'shortUrl: z.string()');
    settleTree(root);
    const shifted = await createCompiler({ root, cacheFile }).run();
    expect(shifted.code).toContain('shortUrl');
    expect(shifted.code).toBe(await full(root));
  });

  // With the list unchanged, a run the record does not vouch for leaves the helpers unstat'ed
  // (cache/tree-check.ts `fill`); one that a schema starts to import is stamped as the run read it.
  const USES_CLIENT = `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { input } from './client.js';\nexport default defineAgentTool({ description: 'Shorten a long URL', inputSchema: input, async execute() { return 'ok'; } });\n`;
  const CLIENT = `import { z } from 'zod';\nexport const input = z.object({ url: z.string() });\n`;
  const recordOf = (record: string): { unstat: number[]; list?: string } => {
    const data = JSON.parse(readFileSync(record, 'utf8')) as { unstat?: number[]; list?: string };
    return { unstat: data.unstat ?? [], ...(data.list ? { list: data.list } : {}) };
  };

  it('records a helper a schema starts to read in a run over the same list, and the next run ends after the walk', async () => {
    const { root, cacheFile, record } = setup('tree-helper-same-list');
    await createCompiler({ root, cacheFile }).run();
    const before = recordOf(record);
    expect(before.list).toMatch(/^[0-9a-f]+$/);
    // Same paths: only the contents change, so the walk leaves the recorded helpers unstat'ed.
    writeTree(root, { 'tools/short-url/client.ts': CLIENT, 'tools/short-url/index.ts': USES_CLIENT });
    settleTree(root);
    const read = await createCompiler({ root, cacheFile }).run();
    expect(read.stats.parsed).toBe(1);
    const expected = await full(root);
    expect(read.code).toBe(expected);
    const after = recordOf(record);
    expect(after.list).toBe(before.list);
    // The helper is a dependency now: one fewer file left out.
    expect(after.unstat.length).toBe(before.unstat.length - 1);
    ruinEverythingButTheRecord(cacheFile, record);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.stats.parsed).toBe(0);
    expect(next.written).toBe(false);
    expect(next.code).toBe(expected);
  });

  it('writes no record from a helper a schema starts to read that was written within a tick of the run', async () => {
    const { root, cacheFile, record } = setup('tree-helper-racy');
    await createCompiler({ root, cacheFile }).run();
    writeTree(root, { 'tools/short-url/client.ts': CLIENT, 'tools/short-url/index.ts': USES_CLIENT });
    settleTree(root);
    const client = join(root, 'tools/short-url/client.ts');
    const ahead = (Date.now() + 30_000.5) / 1000;
    utimesSync(client, ahead, ahead);
    const read = await createCompiler({ root, cacheFile }).run();
    expect(read.code).toBe(await full(root));
    // A same-size edit keeping the mtime: only a run that reads the helper again sees it.
    edit(root, 'tools/short-url/client.ts', 'url: z.string()', 'uri: z.string()');
    utimesSync(client, ahead, ahead);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.code).toContain('uri');
    expect(next.code).toBe(await full(root));
    expect(existsSync(record)).toBe(true);
  });

  it('is not used once the validators folder changed: the folder is written again', async () => {
    const { root, cacheFile } = setup('tree-validators');
    const cold = await createCompiler({ root, cacheFile }).run();
    const folder = `${cold.outFile.replace(/\.ts$/, '')}.validators`;
    expect(existsSync(folder)).toBe(true);
    rmSync(folder, { recursive: true });
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.errors).toBe(0);
    expect(existsSync(folder)).toBe(true);
  });

  // A save lands on the file system's clock tick: two same-size saves within one tick keep the
  // stamp. A whole-second mtime (ext3, HFS+, SMB) and a sub-second one dated ahead of the clock.
  it.each([
    ['on a whole second', () => (Math.floor(Date.now() / 1000) + 1) * 1000],
    ['within a millisecond tick', () => Date.now() + 30_000.5],
  ])('never vouches for a file written %s of the run that read it', async (_name, mtimeOf) => {
    const { root, cacheFile, record } = setup('tree-racy');
    const tool = join(root, 'tools/echo/index.ts');
    const mtime = mtimeOf() / 1000;
    utimesSync(tool, mtime, mtime);
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.errors).toBe(0);
    const stamp = statSync(tool);
    edit(root, 'tools/echo/index.ts', 'Echo a', 'Echo b');
    utimesSync(tool, mtime, mtime);
    expect(statSync(tool).mtimeMs).toBe(stamp.mtimeMs);
    expect(statSync(tool).size).toBe(stamp.size);
    const run = await createCompiler({ root, cacheFile }).run();
    const expected = await full(root);
    expect(expected).not.toBe(cold.code);
    expect(run.code).toBe(expected);
    expect(readFileSync(cold.outFile, 'utf8')).toBe(expected);
    // Once the file is older than a tick its stamp is trusted again: the record answers alone.
    settleTree(root);
    await createCompiler({ root, cacheFile }).run();
    ruinEverythingButTheRecord(cacheFile, record);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.stats.parsed).toBe(0);
    expect(next.code).toBe(expected);
  });

  // A touch (same bytes, new mtime) makes a run compare the content and take the new mtime as the
  // file's stamp; taken within a tick of that mtime, the stamp must not vouch for a same-size save
  // made in the same tick.
  it('never re-stamps a touched file from a content match within a tick of its mtime', async () => {
    const { root, cacheFile } = setup('tree-racy-touch');
    const tool = join(root, 'tools/echo/index.ts');
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.errors).toBe(0);
    const mtime = (Date.now() + 30_000.5) / 1000;
    utimesSync(tool, mtime, mtime);
    const touched = await createCompiler({ root, cacheFile }).run();
    expect(touched.code).toBe(cold.code);
    edit(root, 'tools/echo/index.ts', 'Echo a', 'Echo b');
    utimesSync(tool, mtime, mtime);
    const run = await createCompiler({ root, cacheFile }).run();
    const expected = await full(root);
    expect(expected).not.toBe(cold.code);
    expect(run.code).toBe(expected);
  });

  it.each([
    ['not JSON', (record: string) => writeFileSync(record, '{"version":')],
    ['null', (record: string) => writeFileSync(record, 'null')],
    ['of another version', (record: string) => change(record, (d) => (d.version = 'zhin-gen-cache-0'))],
    ['with a digest that is a number', (record: string) => change(record, (d) => (d.digest = 1))],
    ['with extras that are not paths', (record: string) => change(record, (d) => (d.extras = [1]))],
    ['with a layout diagnostic of an unknown code', (record: string) => change(record, (d) => (d.layout = [{}]))],
    ['with a summary without counts', (record: string) => change(record, (d) => (d.summary = { digest: 'x' }))],
  ])('a record %s costs the index read, and is written again', async (_name, damage) => {
    const { root, cacheFile, record } = setup('tree-damage');
    const cold = await createCompiler({ root, cacheFile }).run();
    damage(record);
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.code).toBe(cold.code);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.counts).toEqual(cold.counts);
    // Written again: the next run decides from it alone.
    ruinEverythingButTheRecord(cacheFile, record);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.stats.parsed).toBe(0);
    expect(next.counts).toEqual(cold.counts);
    expect(next.diagnostics).toEqual(cold.diagnostics);
  });
});

function edit(root: string, path: string, from: string | RegExp, to: string): void {
  const file = join(root, path);
  const before = readFileSync(file, 'utf8');
  const after = before.replace(from, to);
  expect(after).not.toBe(before);
  writeFileSync(file, after);
}

function change(record: string, update: (data: Record<string, unknown>) => void): void {
  const data = JSON.parse(readFileSync(record, 'utf8')) as Record<string, unknown>;
  update(data);
  writeFileSync(record, JSON.stringify(data));
}
