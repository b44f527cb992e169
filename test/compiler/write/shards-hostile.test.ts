/**
 * Hostile text in a sharded tool table (compiler/emit/shards.ts): descriptions and schema keys
 * with quotes, backslashes, `*\/`, `</script>`, U+2028/U+2029, `${`, backticks and newlines reach
 * the host exactly as written, and no module of the generated folder carries a raw line
 * separator or a closing script tag.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { SHARD_TOOLS } from '../../../compiler/emit/shards.js';
import type { CapabilityManifest } from '../../../runtime/index.js';
import { removeDir, tempDir, writeTree } from '../../helpers.js';

const HOSTILE = 'It\'s "q" \\ back\\\\slash */ /* </script> <!-- \u2028 \u2029 ${x} `t` \n nl \\u0027 \\\' end';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

it('keeps hostile descriptions and schema keys exact and inert in every shard', async () => {
  const files: Record<string, string> = { 'AGENTS.md': '# Bot\n' };
  const schema = `{ type: 'object', properties: { ${JSON.stringify(HOSTILE)}: { type: 'string', description: ${JSON.stringify(HOSTILE)} } } }`;
  for (let i = 0; i < SHARD_TOOLS + 6; i++)
    files[`tools/kind-${i}/index.ts`] =
      `import { defineAgentTool } from '@zhin-gen/runtime';\nexport default defineAgentTool({ description: ${JSON.stringify(`${HOSTILE} ${i}`)}, requiresApproval: 'never', inputSchema: ${schema}, async execute() { return 1; } });\n`;
  const root = writeTree(tempDir('shards-hostile'), files);
  dirs.push(root);
  const result = await createCompiler({ root, cacheFile: false }).run();
  expect(result.errors, JSON.stringify(result.diagnostics)).toBe(0);
  const folder = join(root, 'zhin-capabilities.gen.validators');
  const modules = readdirSync(folder);
  expect(modules.filter((name) => name.startsWith('tools-')).length).toBeGreaterThan(1);
  for (const name of modules) {
    const text = readFileSync(join(folder, name), 'utf8');
    expect(/[\u2028\u2029]/.test(text), name).toBe(false);
    expect(text.includes('</script'), name).toBe(false);
  }
  const { manifest } = (await import(pathToFileURL(join(root, 'zhin-capabilities.gen.ts')).href)) as {
    manifest: CapabilityManifest;
  };
  expect(manifest.tools).toHaveLength(SHARD_TOOLS + 6);
  for (const tool of manifest.tools) {
    const i = Number(tool.qualifiedName.slice('kind-'.length));
    expect(tool.description).toBe(`${HOSTILE} ${i}`);
    const properties = (tool.inputSchema as { properties: Record<string, { description: string }> }).properties;
    expect(Object.keys(properties)).toEqual([HOSTILE]);
    expect(properties[HOSTILE]!.description).toBe(HOSTILE);
  }
});
