/**
 * Generated validators at scale (docs/runtime.md "Validation"): emit time for N distinct JSON
 * Schemas (cold: every module generated and written; warm: a rerun that finds them all), one
 * schema edit, the folder's size, and the first validation of one tool (import its module +
 * validate) in a fresh process. Run: `node --import tsx bench/validators.ts [N...]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emitValidatorModule, validatorKey } from '../compiler/emit/validators.js';
import type { ValidatorTable } from '../compiler/emit/validator-table.js';
import { validatorsDir } from '../compiler/write/folder-stamp.js';
import { removeStaleValidators, writeValidators } from '../compiler/write/validators.js';
import type { JsonSchema } from '../runtime/contract/manifest.js';

function schema(i: number): JsonSchema {
  // A typical tool: a few typed fields, one enum, one pattern, bounds; distinct per tool.
  return {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1, maxLength: 80 + (i % 7), description: `City for tool ${i}` },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      units: { enum: ['metric', 'imperial'] },
      code: { type: 'string', pattern: `^[A-Z]{${1 + (i % 3)}}$` },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    },
    required: ['city'],
    additionalProperties: false,
  };
}

function table(schemas: readonly JsonSchema[]): ValidatorTable {
  const map = new Map<string, JsonSchema>();
  for (const s of schemas) map.set(validatorKey(JSON.stringify(s)), s);
  return { keys: [...map.keys()].sort(), schemas: map, cases: '', sha: '' };
}

for (const n of process.argv.slice(2).map(Number).filter(Boolean).length
  ? process.argv.slice(2).map(Number)
  : [1000, 20000]) {
  const root = join(tmpdir(), `zhin-validators-bench-${n}-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const outRel = 'zhin-capabilities.gen.ts';
  const schemas = Array.from({ length: n }, (_, i) => schema(i));
  let t = performance.now();
  const cold = table(schemas);
  const keyed = performance.now() - t;
  t = performance.now();
  const written = writeValidators(root, outRel, cold);
  const coldMs = performance.now() - t;
  const dir = validatorsDir(root, outRel);
  const files = readdirSync(dir);
  const bytes = files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  t = performance.now();
  const again = writeValidators(root, outRel, table(schemas));
  const warmMs = performance.now() - t;
  const edited = [...schemas];
  edited[0] = { ...schema(0), required: ['city', 'days'] };
  t = performance.now();
  const editTable = table(edited);
  const editWrites = writeValidators(root, outRel, editTable);
  const removed = removeStaleValidators(root, outRel, editTable);
  const editMs = performance.now() - t;
  // First validation in a fresh process: import one module (the JS a bundler emits) and validate.
  const probe = join(root, 'probe.mjs');
  writeFileSync(join(root, 'one.mjs'), emitValidatorModule(schema(1), { typescript: false }));
  writeFileSync(
    probe,
    `const t = performance.now(); const { default: v } = await import('./one.mjs'); const ok = v({ city: 'Paris', days: 3 }); const bad = v({ days: 30 }); console.log(JSON.stringify({ ms: performance.now() - t, ok, bad }));`,
  );
  const first = JSON.parse(execFileSync(process.execPath, [probe], { encoding: 'utf8' })) as { ms: number };
  console.log(
    JSON.stringify({
      tools: n,
      keysMs: Math.round(keyed),
      coldEmitMs: Math.round(coldMs),
      written,
      files: files.length,
      totalKB: Math.round(bytes / 1024),
      perFileBytes: Math.round(bytes / files.length),
      warmRerunMs: Math.round(warmMs * 10) / 10,
      rewrittenOnWarm: again,
      oneSchemaEditMs: Math.round(editMs * 10) / 10,
      editWrites,
      removed,
      firstValidationMs: Math.round(first.ms * 100) / 100,
    }),
  );
  rmSync(root, { recursive: true, force: true });
}
