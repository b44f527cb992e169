/** runtime/prompt/ follows the runtime rules (the top-level hygiene test does not recurse). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const promptDir = fileURLToPath(new URL('../../runtime/prompt', import.meta.url));
const files = readdirSync(promptDir).filter((name) => name.endsWith('.ts'));

describe('runtime/prompt hygiene', () => {
  it.each(files)('%s imports only runtime modules and stays small', (name) => {
    const source = readFileSync(join(promptDir, name), 'utf8');
    for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const spec = match[1]!;
      expect(spec.startsWith('./') || (spec.startsWith('../') && !spec.startsWith('../../')), `${name} imports ${spec}`).toBe(true);
      expect(spec.includes('compiler'), `${name} imports ${spec}`).toBe(false);
    }
    expect(source.split('\n').length, name).toBeLessThan(400);
  });
});
