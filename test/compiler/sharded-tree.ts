/**
 * What the sharded-output tests share: a tree of numbered tools (every third with a JSON Schema,
 * the rest with Zod, so both validator kinds land in the shards) and a strict `tsc` over a
 * generated module and a file that uses its types.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers.js';

/** The default main module and generated folder of a sharded tree. */
export const OUT = 'zhin-capabilities.gen.ts';
export const DIR = 'zhin-capabilities.gen.validators';

/** The main module and every file of the generated folder, by path. */
export function generatedFiles(root: string): Map<string, string> {
  const out = new Map([[OUT, readFileSync(join(root, OUT), 'utf8')]]);
  for (const name of readdirSync(join(root, DIR)).sort())
    out.set(`${DIR}/${name}`, readFileSync(join(root, DIR, name), 'utf8'));
  return out;
}

/** The source of tool `kind-<i>`; `min` changes its schema, `description` its text. */
export const shardedTool = (i: number, description = `Look up record kind ${i}`, min = 1): string =>
  i % 3 === 0
    ? `import { defineAgentTool } from '@zhin-gen/runtime';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  inputSchema: { type: 'object', properties: { id: { type: 'string', minLength: ${min} } }, required: ['id'] },\n  async execute() {\n    return ${i};\n  },\n});\n`
    : `import { defineAgentTool } from '@zhin-gen/runtime';\nimport { z } from 'zod';\n\nexport default defineAgentTool({\n  description: ${JSON.stringify(description)},\n  requiresApproval: 'never',\n  inputSchema: z.object({ id: z.string().min(${min}) }),\n  async execute({ id }) {\n    return id;\n  },\n});\n`;

/** AGENTS.md and tools `kind-0` … `kind-<n-1>`. */
export function shardedTree(n: number): Record<string, string> {
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n' };
  for (let i = 0; i < n; i++) files[`tools/kind-${i}/index.ts`] = shardedTool(i);
  return files;
}

/** A strict tsconfig.json over `files`, the runtime mapped to its sources (plus `paths`). */
export function strictTsconfig(files: readonly string[], paths: Record<string, readonly string[]> = {}): string {
  return JSON.stringify({
    compilerOptions: {
      noEmit: true,
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      paths: {
        '@zhin-gen/runtime': [join(REPO, 'runtime/index.ts')],
        '@zhin-gen/runtime/*': [join(REPO, 'runtime/*')],
        ...paths,
      },
    },
    files,
  });
}

/** The repository's `tsc -p root`. */
export function tsc(root: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', root], { encoding: 'utf8' });
}
