/**
 * Parse results hold no reference to their source text (compiler/util/own-text.ts): a cold run
 * keeps every unit's result, and a string cut out of a file by TypeScript's scanner would keep
 * the whole file alive with it. Real tool files (with a large comment, so a retained text is
 * unmistakable) through the real parser and schema extractor; the heap is measured after a full
 * garbage collection, with only the results kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createReader } from '../../../compiler/cache/reader.js';
import { parseUnit, type ParseEnv, type UnitResult } from '../../../compiler/parse/units.js';
import type { CapabilityUnit } from '../../../compiler/scan/layout.js';
import { SchemaCache } from '../../../compiler/schema/stage.js';
import { ownText } from '../../../compiler/util/own-text.js';
import { ts } from '../../../compiler/util/typescript.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOLS = 60;
/** Bytes of comment per tool file: 60 retained texts are 12 MB, far above the heap's noise. */
const PADDING = 200_000;

function toolFile(i: number): string {
  return `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';
export default defineAgentTool({
  description: 'Looks up the forecast number ${i} for a city',
  inputSchema: z.object({ city: z.string().describe('The city to look the forecast up for'), days: z.number().max(${i + 1}) }),
  async execute() { return ${i}; },
});
// ${'x'.repeat(PADDING)}
`;
}

function unitOf(i: number): CapabilityUnit {
  const dir = `tools/t${i}`;
  return {
    kind: 'tool',
    owner: '',
    placement: 'plugin',
    name: `t${i}`,
    dir,
    entry: `${dir}/index.ts`,
    files: [`${dir}/index.ts`],
    entries: [{ name: 'index.ts', isDirectory: false }],
    pluginDir: '',
  };
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Every tool parsed, the results kept (and `keep` of each file's text beside them). */
async function parseAll(
  root: string,
  keep: (text: string) => string | undefined,
): Promise<{ results: UnitResult[]; kept: (string | undefined)[]; retained: number }> {
  // The reader's own memo of recent texts is not under test: every read goes to the disk.
  const kept: (string | undefined)[] = [];
  const read = (path: string): string | undefined => {
    const text = readFileSync(join(root, path), 'utf8');
    kept.push(keep(text));
    return text;
  };
  const extractSchema = await new SchemaCache(root).extractor(createReader(root));
  const env: ParseEnv = {
    ts,
    readFile: read,
    readProblem: () => undefined,
    modules: ['zhin-gen/runtime'],
    customPermits: [],
    extractSchema,
    agentsMdOf: () => undefined,
  };
  // Warm-up: the parser's and extractor's own allocations are not counted against the results.
  parseUnit(unitOf(0), env);
  kept.length = 0;
  const before = heapAfterGc();
  const results = Array.from({ length: TOOLS }, (_, i) => parseUnit(unitOf(i), env));
  return { results, kept, retained: heapAfterGc() - before };
}

describe('parse results and their source text', () => {
  const root = tempDir('parse-detach');
  dirs.push(root);
  writeTree(root, Object.fromEntries(Array.from({ length: TOOLS }, (_, i) => [`tools/t${i}/index.ts`, toolFile(i)])));
  const sources = TOOLS * PADDING;

  it('keeps no tool file alive through its result, which holds the strings the file had', async () => {
    const { results, retained } = await parseAll(root, () => undefined);
    expect(retained).toBeLessThan(sources / 10);
    const data = results[7]!.data as { description: string; schema: { schema: unknown } };
    expect(data.description).toBe('Looks up the forecast number 7 for a city');
    expect(JSON.stringify(data.schema.schema)).toContain('The city to look the forecast up for');
  });

  it('sees a retained text: a slice of each file kept beside the results keeps every file', async () => {
    const { results, kept, retained } = await parseAll(root, (text) => text.slice(0, 40));
    expect(retained).toBeGreaterThan(sources / 2);
    expect(kept.every((k) => k?.startsWith('import { defineAgentTool }'))).toBe(true);
    expect(results).toHaveLength(TOOLS);
  });

  it('copies a string without changing it', () => {
    const text = `${'a'.repeat(30)}é🙂`;
    for (const part of [text.slice(2, 20), text.slice(0, 5), text.slice(25), '']) expect(ownText(part)).toBe(part);
  });
});
