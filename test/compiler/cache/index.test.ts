/**
 * The unit cache's index (compiler/cache/index-file.ts): a run over an unchanged tree decides
 * "nothing to do" from the index and the file stamps alone, without reading the cache's bodies;
 * what it reports (counts, diagnostics, the model when asked for) is what a full run reports; and
 * an index that does not describe the bodies on disk is never used.
 */
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { copyFixture, removeDir, settleTree, tempDir, writeTree } from '../../helpers.js';
import { asciiJson } from '../../../compiler/util/ascii-json.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function setup(name: string): { root: string; cacheFile: string; index: string } {
  const root = copyFixture('example-bot', name);
  const cacheDir = tempDir(`${name}-cache`);
  dirs.push(root, cacheDir);
  // Stamps of files written within a timestamp tick of a run are not trusted (cache/racy.ts).
  settleTree(root);
  const cacheFile = join(cacheDir, 'units.json');
  return { root, cacheFile, index: `${cacheFile}.index` };
}

/**
 * Overwrites the cache's bodies with the same number of bytes that are not JSON, then makes the
 * index name the bodies as they now are: only a run that never reads the bodies can still find
 * its units cached.
 */
function ruinBodiesBehindTheIndex(cacheFile: string, index: string): void {
  const size = statSync(cacheFile).size;
  writeFileSync(cacheFile, 'x'.repeat(size));
  utimesSync(cacheFile, 1_700_000_000, 1_700_000_000);
  const s = statSync(cacheFile);
  const journal = existsSync(`${cacheFile}.journal`) ? statSync(`${cacheFile}.journal`) : undefined;
  const data = JSON.parse(readFileSync(index, 'utf8')) as { bodies: string };
  data.bodies = `${s.size}:${s.mtimeMs}:${s.ino}|${journal ? `${journal.size}:${journal.mtimeMs}:${journal.ino}` : '-'}`;
  writeFileSync(index, JSON.stringify(data));
}

describe('the unit cache index', () => {
  it('is written unit by unit as the one JSON text of its frame, units, output and summary', async () => {
    const { root, cacheFile, index } = setup('index-bytes');
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.errors).toBe(0);
    const text = readFileSync(index, 'utf8');
    const data = JSON.parse(text) as Record<string, unknown>;
    // Byte for byte what one JSON.stringify of the whole index gives, keys in the frame's order,
    // with every non-ASCII character escaped (util/ascii-json.ts).
    expect(text).toBe(asciiJson(JSON.stringify(data)));
    expect(text).toMatch(/^[\x00-\x7f]*$/);
    expect(Object.keys(data)).toEqual(['version', 'configKey', 'bodies', 'units', 'output', 'summary']);
    expect(Object.keys(data.units as object).length).toBeGreaterThan(3);
  });

  it('decides that nothing changed without reading the bodies, and reports what a full run reports', async () => {
    const { root, cacheFile, index } = setup('index-noop');
    // A tool with a warning: the vouched run must still report it.
    writeTree(root, {
      'tools/warned/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'Has an unknown field', timeoutMs: 5000, async execute() { return 1; } });\n`,
    });
    settleTree(root);
    const cold = await createCompiler({ root, cacheFile }).run();
    expect(cold.errors).toBe(0);
    expect(cold.warnings).toBeGreaterThan(0);
    expect(existsSync(index)).toBe(true);
    const full = await createCompiler({ root, cacheFile: false }).run();

    ruinBodiesBehindTheIndex(cacheFile, index);
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.written).toBe(false);
    expect(warm.counts).toEqual(cold.counts);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.code).toBe(full.code);
  });

  it('builds the model of a vouched run from the cache on request, equal to a full run', async () => {
    const { root, cacheFile } = setup('index-model');
    await createCompiler({ root, cacheFile }).run();
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    const full = await createCompiler({ root, cacheFile: false }).run();
    expect(JSON.stringify(warm.model)).toBe(JSON.stringify(full.model));
    expect(warm.counts.tools).toBe(full.model.tools.length);
  });

  it('reports layout problems that appeared since, though the output stays vouched for', async () => {
    const { root, cacheFile } = setup('index-layout');
    const cold = await createCompiler({ root, cacheFile }).run();
    // A file directly inside tools/ is no unit and no input of the manifest, but a diagnostic.
    writeFileSync(join(root, 'tools/stray.ts'), 'export {};\n');
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.diagnostics.filter((d) => d.file === 'tools/stray.ts')).toHaveLength(1);
    expect(warm.diagnostics.length).toBe(cold.diagnostics.length + 1);
  });

  it('never uses an index for other bodies: a changed tool is parsed and reaches the manifest', async () => {
    const { root, cacheFile, index } = setup('index-stale');
    await createCompiler({ root, cacheFile }).run();
    const before = readFileSync(index, 'utf8');
    // The bodies change under the index (another process persisted): the index is not used.
    writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').replace('Echo a message back', 'Echo a message Back'));
    const tool = join(root, 'tools/echo/index.ts');
    writeFileSync(tool, readFileSync(tool, 'utf8').replace('Echo a message back', 'Echo it back'));
    const run = await createCompiler({ root, cacheFile }).run();
    expect(run.stats.parsed).toBeGreaterThan(0);
    expect(readFileSync(run.outFile, 'utf8')).toContain('Echo it back');
    expect(readFileSync(index, 'utf8')).not.toBe(before);
    // The new index serves the next run.
    expect((await createCompiler({ root, cacheFile }).run()).stats.parsed).toBe(0);
  });

  it.each([
    ['missing', (index: string) => rmSync(index)],
    ['truncated', (index: string) => writeFileSync(index, readFileSync(index, 'utf8').slice(0, 200))],
    ['null', (index: string) => writeFileSync(index, 'null')],
    ['stamps of the wrong shape', (index: string) => edit(index, (d) => stampsOf(d).splice(0, 1))],
    ['a summary with a diagnostic of an unknown code', (index: string) => edit(index, (d) => badSummary(d))],
    ['counts that are strings', (index: string) => edit(index, (d) => (summaryOf(d).counts.tools = '1'))],
  ])('an index %s costs the bodies load, and is written again', async (_name, damage) => {
    const { root, cacheFile, index } = setup('index-damage');
    const cold = await createCompiler({ root, cacheFile }).run();
    damage(index);
    // The tree record (cache/tree-record.ts) would vouch before the index is read: without it,
    // this run is the index's (test/compiler/cache/tree-record.test.ts covers the record).
    rmSync(`${cacheFile}.tree`);
    const warm = await createCompiler({ root, cacheFile }).run();
    expect(warm.stats.parsed).toBe(0);
    expect(warm.code).toBe(cold.code);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(warm.counts).toEqual(cold.counts);
    // Rewritten: the next run decides from it again (bodies ruined behind it prove it).
    ruinBodiesBehindTheIndex(cacheFile, index);
    const next = await createCompiler({ root, cacheFile }).run();
    expect(next.stats.parsed).toBe(0);
    expect(next.counts).toEqual(cold.counts);
  });
});

type IndexData = { units: Record<string, { s: unknown[] }>; summary: { counts: Record<string, unknown> } & object };

function edit(index: string, change: (data: IndexData) => void): void {
  const data = JSON.parse(readFileSync(index, 'utf8')) as IndexData;
  change(data);
  writeFileSync(index, JSON.stringify(data));
}

function stampsOf(data: IndexData): unknown[] {
  return Object.values(data.units)[0]!.s;
}

function summaryOf(data: IndexData): { counts: Record<string, unknown> } {
  return data.summary;
}

function badSummary(data: IndexData): void {
  (data.summary as unknown as { diagnostics: unknown[] }).diagnostics = [
    { code: 'ZG0000', severity: 'warning', message: 'x', file: 'a', line: 1, column: 1 },
  ];
}
