/**
 * Writes docs/diagnostics.md from the catalog (`npm run docs:diagnostics`), so the documented
 * codes and hints can never drift from the ones the compiler prints (a test checks it).
 */
import { writeFileSync } from 'node:fs';
import { CATALOG } from '../compiler/diagnostics.js';

const RANGES: Record<string, string> = {
  ZG1: 'Scan, layout and configuration',
  ZG2: 'Definitions and schemas',
  ZG3: 'Names and conflicts',
  ZG4: 'Manifests: SKILL.md, agent.json, AGENTS.md',
  ZG5: 'Provider profiles',
  ZG6: 'zhin-gen migrate',
  ZG9: 'Internal',
};

export function renderDiagnosticsDoc(): string {
  const lines = [
    '# Diagnostics',
    '',
    'Every problem zhin-gen reports has a stable code, a severity, a location (file, line, column) and a hint.',
    'All problems of a run are collected in one pass. `zhin-gen check` exits 1 when any **error** is reported;',
    "warnings alone exit 0. A project may turn a warning off or make it an error by its code (the config's",
    '[`diagnostics`](config.md#diagnostics) option); errors are always errors. This page is generated from the catalog',
    'in `compiler/diagnostics/` (`npm run docs:diagnostics`).',
    '',
  ];
  let range = '';
  for (const [code, entry] of Object.entries(CATALOG)) {
    if (code.slice(0, 3) !== range) {
      range = code.slice(0, 3);
      lines.push(`## ${range}xxx — ${RANGES[range]}`, '');
    }
    lines.push(`### ${code} — ${entry.title}`, '', `Severity: **${entry.severity}**`, '', `Hint: ${entry.hint}`, '');
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(new URL('../docs/diagnostics.md', import.meta.url), renderDiagnosticsDoc());
}
