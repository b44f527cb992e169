/**
 * What the static translation is for, seen from outside: the real CLI (`bin/zhin-gen.mjs`, a
 * fresh process) generates a tree whose schemas are all in the subset without importing Zod at
 * all, and the output is byte for byte what evaluating every schema with Zod gives
 * (`ZHIN_GEN_STATIC_SCHEMAS=0`). A module-resolution hook records every Zod import.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { REPO, removeDir, tempDir, writeTree } from '../../helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (/[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(result.url)) appendFileSync(process.env.ZG_ZOD_LOG, result.url + '\\n');
  return result;
}
`;

function toolFile(schema: string, before = ''): string {
  return `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { z } from 'zod';\n${before}\nexport default defineAgentTool({ description: 'A tool', inputSchema: ${schema}, execute: async () => 'ok' });\n`;
}

/** Runs `generate` in a fresh process; returns the Zod modules it resolved and the output. */
function generate(root: string, env: Record<string, string> = {}): { zod: string[]; output: string } {
  const tmp = tempDir('static-cli-tmp');
  dirs.push(tmp);
  const log = join(root, 'zod.log');
  writeFileSync(log, '');
  const hooks = join(root, 'hooks.mjs');
  writeFileSync(hooks, HOOKS);
  const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  const run = spawnSync(
    process.execPath,
    ['--import', register, join(REPO, 'bin/zhin-gen.mjs'), 'generate', '--root', root],
    {
      encoding: 'utf8',
      // A fresh TMPDIR: no unit cache from an earlier run (the tree has no node_modules).
      env: { ...process.env, ...env, ZG_ZOD_LOG: log, TMPDIR: tmp },
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return {
    zod: readFileSync(log, 'utf8').split('\n').filter(Boolean),
    output: readFileSync(join(root, 'zhin-capabilities.gen.ts'), 'utf8'),
  };
}

describe('static schemas in a real CLI process', () => {
  it('never import Zod, and give the bytes evaluation gives', () => {
    const root = tempDir('static-cli');
    dirs.push(root);
    writeTree(root, {
      'tools/weather/index.ts': toolFile(
        "z.object({ city: z.string().min(1).describe('City'), days: z.number().int().min(1).max(7).default(3) })",
      ),
      'tools/remind/index.ts': toolFile(
        'Input',
        "const When = z.string().datetime();\nconst Input = z.object({ at: When, text: z.string().max(200), tags: z.array(z.enum(['a', 'b'])).optional() });",
      ),
      // Every format with a pattern: the built process takes them from dist (zod-patterns.json).
      'tools/formats/index.ts': toolFile(
        'z.object({ e: z.string().email(), u: z.string().uuid(), g: z.string().guid(), d: z.string().date(), t: z.string().datetime(), l: z.url() })',
      ),
    });
    const translated = generate(root);
    expect(translated.zod).toEqual([]);
    const evaluated = generate(root, { ZHIN_GEN_STATIC_SCHEMAS: '0' });
    expect(evaluated.zod.length).toBeGreaterThan(0);
    expect(translated.output).toBe(evaluated.output);
    expect(translated.output).toContain('"format":"date-time"');
  });

  it('ZHIN_GEN_STATIC_SCHEMAS=0 evaluates again even with a warm unit cache (the setting is part of its key)', async () => {
    const root = tempDir('static-switch');
    dirs.push(root);
    writeTree(root, { 'tools/weather/index.ts': toolFile('z.object({ city: z.string().min(1) })') });
    const cacheFile = join(root, 'units.json');
    const first = await createCompiler({ root, cacheFile }).run();
    expect(first.model.tools[0]!.schemaVia).toBe('static');
    process.env.ZHIN_GEN_STATIC_SCHEMAS = '0';
    try {
      const evaluated = await createCompiler({ root, cacheFile }).run();
      expect(evaluated.stats.parsed).toBeGreaterThan(0);
      expect(evaluated.model.tools[0]!.schemaVia).toBe('inline');
      expect(evaluated.code).toBe(first.code);
    } finally {
      delete process.env.ZHIN_GEN_STATIC_SCHEMAS;
    }
    expect((await createCompiler({ root, cacheFile }).run()).model.tools[0]!.schemaVia).toBe('static');
  });

  it('load Zod only when some schema is outside the subset', () => {
    const root = tempDir('static-cli-mixed');
    dirs.push(root);
    writeTree(root, {
      'tools/plain/index.ts': toolFile('z.object({ q: z.string() })'),
      'tools/record/index.ts': toolFile('z.object({ v: z.record(z.enum(["a", "b"]), z.number()) })'),
    });
    const run = generate(root);
    expect(run.zod.length).toBeGreaterThan(0);
    expect(run.output).toContain(
      '"v":{"type":"object","propertyNames":{"type":"string","enum":["a","b"]},"additionalProperties":{"type":"number"},"required":["a","b"]}',
    );
  });
});
