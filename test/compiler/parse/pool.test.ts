/**
 * Parsing over worker threads (compiler/parse/pool.ts), through the built CLI (the pool runs
 * the built worker module): a cold run with the pool writes byte for byte what a run on the
 * main thread writes — the manifest, every generated validator module, the same diagnostics —
 * and a warm run after a pooled run trusts what the workers recorded (nothing parsed again).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validatorsDirRel } from '../../../compiler/emit/validator-table.js';
import { copyFixture, REPO, removeDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Tools of every schema shape the parse stage handles: static, fragment import, const, evaluated, none, broken. */
function tools(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`tools/t${i}/fragment.ts`] =
      `import { z } from 'zod';\nexport const paging = z.object({ page: z.number().int().min(${i}) });\n`;
    const schema = [
      `z.object({ q${i}: z.string().max(${i + 1}) })`,
      `z.object({ paging: paging.optional(), n: z.number().min(${i}) })`,
      'input',
      `z.object({ when: z.string().refine((v) => v.length > ${i}) })`,
      undefined,
    ][i % 5];
    files[`tools/t${i}/index.ts`] = `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';
import { paging } from './fragment.js';
const input = z.object({ id: z.string().uuid(), size: z.number().int().max(${i}) });
void paging; void input;
export default defineAgentTool({
  description: 'Tool ${i}',${schema ? `\n  inputSchema: ${schema},` : ''}
  ${i % 7 === 3 ? 'timeoutMs: 5,' : ''}
  async execute() { return ${i}; },
});
`;
  }
  return files;
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = { manifest: readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8') };
  const validators = join(root, validatorsDirRel('zhin-capabilities.gen.ts'));
  let names: string[] = [];
  try {
    names = readdirSync(validators).sort();
  } catch {
    names = [];
  }
  for (const name of names) out[name] = readFileSync(join(validators, name), 'utf8');
  return out;
}

function generate(root: string, workers: string): { json: Record<string, unknown>; stderr: string } {
  // The real CLI (the built bin) with the pool setting.
  const run = spawnSync(process.execPath, [join(REPO, 'bin', 'zhin-gen.mjs'), 'generate', '--root', root, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ZHIN_GEN_WORKERS: workers },
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return { json: JSON.parse(run.stdout) as Record<string, unknown>, stderr: run.stderr };
}

describe('the parse worker pool', () => {
  it('writes byte for byte what a single-threaded run writes, and leaves a cache a warm run trusts', () => {
    const root = copyFixture('example-bot', 'parse-pool');
    dirs.push(root);
    writeTree(root, tools(60));
    const cache = join(root, 'node_modules', '.cache');
    writeTree(root, { 'node_modules/.keep': '' });

    const single = generate(root, '0');
    expect(single.json.workers).toBe(0);
    const expected = snapshot(root);
    rmSync(join(root, 'zhin-capabilities.gen.ts'));
    rmSync(join(root, validatorsDirRel('zhin-capabilities.gen.ts')), { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });

    const pooled = generate(root, '2');
    expect(pooled.json.workers).toBe(2);
    expect(pooled.json.parsed).toBe(single.json.parsed);
    expect({ ...pooled.json, ms: 0, workers: 0 }).toEqual({ ...single.json, ms: 0 });
    expect(snapshot(root)).toEqual(expected);

    const warm = generate(root, '2');
    expect(warm.json.parsed).toBe(0);
    expect(warm.json.state).toBe('unchanged');
  });
});
