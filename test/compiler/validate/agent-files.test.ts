import { describe, expect, it } from 'vitest';
import {
  markdownHeadings,
  validateAgentDirectory,
  type AgentDirectoryInput,
  type DirectoryEntry,
} from '../../../compiler/validate/agent-files.js';
import { validateMainAgent } from '../../../compiler/validate/agents-md.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';

const DIR = 'agents/reviewer';
const AGENTS_MD = {
  file: 'AGENTS.md',
  text: '# Main agent\n\n## Tone\n\nBe brief.\n\n## Safety rules\n\nNever leak.\n',
};

const file = (name: string): DirectoryEntry => ({ name, isDirectory: false });
const folder = (name: string): DirectoryEntry => ({ name, isDirectory: true });

function input(overrides: Partial<AgentDirectoryInput> = {}): AgentDirectoryInput {
  return {
    dir: DIR,
    entries: [file('agent.json'), file('system.md'), file('boundaries.md'), file('conventions.md')],
    files: {
      'system.md': 'You review.\n',
      'boundaries.md': 'Only review.\n',
      'conventions.md': '## Review checklist\n\n- tests\n',
    },
    rootAgentsMd: AGENTS_MD,
    ...overrides,
  };
}

function at(diagnostics: readonly Diagnostic[]): [string, string, number, number][] {
  return diagnostics.map((d) => [d.code, d.file, d.line, d.column]);
}

describe('validateAgentDirectory', () => {
  it('accepts a complete agent with every optional folder', () => {
    const entries = [
      ...input().entries,
      folder('workflows'),
      folder('tools'),
      folder('skills'),
      folder('hooks'),
      folder('knowledge'),
    ];
    expect(validateAgentDirectory(input({ entries }))).toEqual([]);
  });

  it('reports each missing required file at the directory (ZG4014)', () => {
    const diagnostics = validateAgentDirectory(
      input({
        entries: [file('system.md')],
        files: { 'system.md': 'x', 'boundaries.md': undefined, 'conventions.md': undefined },
      }),
    );
    expect(at(diagnostics)).toEqual([
      ['ZG4014', DIR, 1, 1],
      ['ZG4014', DIR, 1, 1],
      ['ZG4014', DIR, 1, 1],
    ]);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'agent "reviewer" is missing agent.json',
      'agent "reviewer" is missing boundaries.md',
      'agent "reviewer" is missing conventions.md',
    ]);
  });

  it('reports a required file that is a directory', () => {
    const entries = [file('agent.json'), folder('system.md'), file('boundaries.md'), file('conventions.md')];
    const diagnostics = validateAgentDirectory(input({ entries }));
    expect(at(diagnostics)).toEqual([['ZG4014', `${DIR}/system.md`, 1, 1]]);
    expect(diagnostics[0]!.message).toContain('is a directory');
  });

  it('reports empty or whitespace-only markdown (ZG4015) at the file', () => {
    const diagnostics = validateAgentDirectory(
      input({ files: { 'system.md': '\uFEFF\r\n  \r\n', 'boundaries.md': '', 'conventions.md': 'ok' } }),
    );
    expect(at(diagnostics)).toEqual([
      ['ZG4015', `${DIR}/boundaries.md`, 1, 1],
      ['ZG4015', `${DIR}/system.md`, 1, 1],
    ]);
    expect(diagnostics[1]!.message).toBe('system.md of agent "reviewer" is empty');
  });

  it('leaves unreadable files (text undefined) to the scanner', () => {
    expect(
      validateAgentDirectory(input({ files: { 'system.md': undefined, 'boundaries.md': 'b', 'conventions.md': 'c' } })),
    ).toEqual([]);
  });

  it('warns about unexpected entries (ZG1004), naming each', () => {
    const entries = [...input().entries, file('notes.txt'), folder('prompts'), file('workflows'), file('README.md')];
    const diagnostics = validateAgentDirectory(input({ entries }));
    expect(at(diagnostics)).toEqual([
      ['ZG1004', `${DIR}/README.md`, 1, 1],
      ['ZG1004', `${DIR}/notes.txt`, 1, 1],
      ['ZG1004', `${DIR}/prompts`, 1, 1],
      ['ZG1004', `${DIR}/workflows`, 1, 1],
    ]);
    expect(diagnostics.every((d) => d.severity === 'warning')).toBe(true);
    expect(diagnostics[2]!.message).toContain('unexpected folder "prompts"');
    expect(diagnostics[3]!.message).toContain('workflows/ must be a folder');
  });

  it('leaves a missing root AGENTS.md to validateMainAgent (one ZG4016 per plugin, not per agent)', () => {
    const { rootAgentsMd: _omit, ...rest } = input();
    expect(validateAgentDirectory(rest)).toEqual([]);
  });

  it('warns when conventions.md restates an AGENTS.md heading (ZG4017) with the AGENTS.md location', () => {
    const conventions = '# Reviewer conventions\n\nIntro.\n\n   ###   safety   RULES ##\n\nMore.\n\nTone\n----\n';
    const diagnostics = validateAgentDirectory(input({ files: { ...input().files, 'conventions.md': conventions } }));
    expect(at(diagnostics)).toEqual([
      ['ZG4017', `${DIR}/conventions.md`, 5, 4],
      ['ZG4017', `${DIR}/conventions.md`, 9, 1],
    ]);
    expect(diagnostics[0]!.severity).toBe('warning');
    expect(diagnostics[0]!.message).toBe(
      'conventions.md restates the AGENTS.md heading "Safety rules" (AGENTS.md line 7); extend AGENTS.md instead of redefining its sections',
    );
    expect(diagnostics[0]!.related).toEqual([
      { file: 'AGENTS.md', line: 7, column: 1, message: 'AGENTS.md heading "Safety rules"' },
    ]);
    expect(diagnostics[1]!.related![0]!.line).toBe(3);
  });

  it('finds restated headings at the right line in CRLF files with a BOM, outside code fences only', () => {
    const conventions = '\uFEFF# Conventions\r\n\r\n```md\r\n## Tone\r\n```\r\n\r\n## Tone\r\n';
    const agentsMd = { file: 'AGENTS.md', text: `\uFEFF${AGENTS_MD.text.replace(/\n/g, '\r\n')}` };
    const diagnostics = validateAgentDirectory(
      input({ files: { ...input().files, 'conventions.md': conventions }, rootAgentsMd: agentsMd }),
    );
    expect(at(diagnostics)).toEqual([['ZG4017', `${DIR}/conventions.md`, 7, 1]]);
    expect(diagnostics[0]!.related![0]).toMatchObject({ line: 3, column: 1 });
  });

  it('works for an agent of a child plugin', () => {
    const dir = 'plugins/maps/agents/guide';
    const diagnostics = validateAgentDirectory({ ...input(), dir, entries: [...input().entries, file('x')] });
    expect(at(diagnostics)).toEqual([['ZG1004', `${dir}/x`, 1, 1]]);
    expect(diagnostics[0]!.message).toContain('agent "guide"');
  });
});

describe('markdownHeadings', () => {
  it('reads ATX and setext headings with their positions', () => {
    const text = [
      '# One #',
      '',
      '  ## Two',
      'not #a heading',
      '',
      '#also not',
      '',
      'Three',
      '=====',
      '',
      'Four',
      'continued',
      '---',
      '',
      '---',
      '    # code',
      '- item',
      '---',
      '> quote',
      '---',
      '#',
      'Five ###',
      '===',
    ].join('\n');
    expect(markdownHeadings(text)).toEqual([
      { text: 'One', level: 1, line: 1, column: 1 },
      { text: 'Two', level: 2, line: 3, column: 3 },
      { text: 'Three', level: 1, line: 8, column: 1 },
      { text: 'Four continued', level: 2, line: 11, column: 1 },
      { text: 'Five ###', level: 1, line: 22, column: 1 },
    ]);
  });

  it('skips fenced code blocks of either fence character', () => {
    const text = '~~~\n# no\n```\n# still no\n~~~\n# yes\n````\n# no\n````\n';
    expect(markdownHeadings(text).map((h) => h.text)).toEqual(['yes']);
  });
});

describe('validateMainAgent', () => {
  it('requires AGENTS.md when the plugin has an agent (ZG4016 at agents/)', () => {
    const diagnostics = validateMainAgent({ pluginDir: '', agents: ['reviewer', 'guide'] });
    expect(at(diagnostics)).toEqual([['ZG4016', 'agents', 1, 1]]);
    expect(diagnostics[0]!.message).toBe(
      'AGENTS.md is missing, but the 2 agents under agents/ extend it (guide, reviewer)',
    );
    expect(diagnostics[0]!.related?.map((r) => r.file)).toEqual(['agents/guide', 'agents/reviewer']);
  });

  it('places the diagnostic in a child plugin', () => {
    const diagnostics = validateMainAgent({ pluginDir: 'plugins/maps', agents: ['guide'] });
    expect(at(diagnostics)).toEqual([['ZG4016', 'plugins/maps/agents', 1, 1]]);
    expect(diagnostics[0]!.message).toContain('plugins/maps/AGENTS.md is missing');
  });

  it('needs nothing without agents', () => {
    expect(validateMainAgent({ pluginDir: '.', agents: [] })).toEqual([]);
  });

  it('reports an empty AGENTS.md (ZG4015)', () => {
    const diagnostics = validateMainAgent({
      pluginDir: '',
      agents: ['reviewer'],
      agentsMd: { file: 'AGENTS.md', text: '\uFEFF \r\n' },
    });
    expect(at(diagnostics)).toEqual([['ZG4015', 'AGENTS.md', 1, 1]]);
    expect(diagnostics[0]!.hint).toContain('AGENTS.md');
  });

  it('accepts a non-empty AGENTS.md', () => {
    expect(validateMainAgent({ pluginDir: '', agents: ['reviewer'], agentsMd: AGENTS_MD })).toEqual([]);
  });
});
