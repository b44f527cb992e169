import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CATALOG } from '../../compiler/diagnostics.js';
import { renderDiagnosticsDoc } from '../../scripts/diagnostics-doc.js';
import { REPO } from '../helpers.js';

it('docs/diagnostics.md documents every code with its hint and is up to date', () => {
  const doc = readFileSync(join(REPO, 'docs', 'diagnostics.md'), 'utf8');
  expect(doc).toBe(renderDiagnosticsDoc());
  for (const [code, entry] of Object.entries(CATALOG)) {
    expect(doc).toContain(`### ${code} — ${entry.title}`);
    expect(doc).toContain(entry.hint);
    expect(entry.hint.length).toBeGreaterThan(20);
  }
});
