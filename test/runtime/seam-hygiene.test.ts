/** runtime/seam/ and the seam's shared helpers follow the runtime rules (hygiene.test.ts covers only top-level files). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const runtimeDir = fileURLToPath(new URL('../../runtime', import.meta.url));
const files = [
  ...readdirSync(join(runtimeDir, 'seam')).filter((name) => name.endsWith('.ts')).map((name) => `seam/${name}`),
  'skills.ts',
  'live-calls.ts',
];

function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((match) => match[1]!);
}

describe('seam hygiene', () => {
  it.each(files)('%s: relative imports only (no Node built-ins, no compiler), no any, under 400 lines', (name) => {
    const source = readFileSync(join(runtimeDir, name), 'utf8');
    for (const spec of specifiers(source)) {
      expect(spec.startsWith('./') || spec.startsWith('../'), `${name} imports ${spec}`).toBe(true);
      expect(spec.includes('compiler'), `${name} imports ${spec}`).toBe(false);
    }
    expect(source).not.toMatch(/:\s*any\b|<any>|\bas any\b/);
    expect(source.split('\n').length).toBeLessThan(400);
  });

  it('the seam API is exported from the runtime barrel with the seed names', async () => {
    const runtime = await import('../../runtime/index.js');
    for (const name of ['SeamIntegration', 'capabilitySeamToken', 'seamIntegrationToken', 'BuiltinToolService', 'ToolRegistryAsService', 'SkillRegistryAsService', 'SkillTable']) {
      expect(runtime, name).toHaveProperty(name);
    }
  });
});
