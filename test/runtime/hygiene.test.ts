/** The runtime runs in any JS host: no Node built-ins, no compiler code, no eager tool imports. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const runtimeDir = fileURLToPath(new URL('../../runtime', import.meta.url));
const files = readdirSync(runtimeDir).filter((name) => name.endsWith('.ts'));
const NODE_BUILTINS = ['fs', 'path', 'crypto', 'url', 'os', 'child_process', 'module', 'util', 'events', 'stream', 'worker_threads', 'perf_hooks'];

function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) found.push(match[1]!);
  return found;
}

describe('runtime hygiene', () => {
  it.each(files)('%s imports no Node built-in and no compiler module', (name) => {
    const source = readFileSync(join(runtimeDir, name), 'utf8');
    for (const spec of specifiers(source)) {
      expect(spec.startsWith('node:'), `${name} imports ${spec}`).toBe(false);
      expect(NODE_BUILTINS.includes(spec.split('/')[0]!), `${name} imports ${spec}`).toBe(false);
      expect(spec.includes('compiler'), `${name} imports ${spec}`).toBe(false);
      // Not even Ajv: JSON Schema validators are generated at build time (test/runtime/validators.test.ts).
      expect(spec.startsWith('./'), `${name} imports ${spec}`).toBe(true);
    }
  });

  it('keeps every runtime file small', () => {
    for (const name of files) {
      const lines = readFileSync(join(runtimeDir, name), 'utf8').split('\n').length;
      expect(lines, name).toBeLessThan(400);
    }
  });
});
