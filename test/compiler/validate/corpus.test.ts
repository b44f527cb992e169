/**
 * 286 real SKILL.md files from seven public collections (test/compiler/validate/corpus/, with
 * their licences), each compiled by the real compiler in a temp bot tree (one tree per
 * collection, each skill at skills/<dir>/SKILL.md). zhin-gen must reject exactly the skills the
 * Agent Skills reference validator rejects (its verdicts are in skills-verdicts.json), except for
 * the differences docs/authoring.md lists in its table, which this test reads: no per-skill case.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';
import { REPO, removeDir, tempDir } from '../../helpers.js';

const CORPUS = join(REPO, 'test', 'compiler', 'validate', 'corpus');

interface Verdict {
  readonly skillsRef: { readonly valid: boolean; readonly messages: readonly string[] };
  readonly copied: boolean;
}

/** One row of the docs table: what the reference says or what zhin-gen reports, and how often. */
interface Difference {
  /** A fragment of the reference validator's message that zhin-gen does not treat as an error. */
  readonly reference?: string;
  /** A zhin-gen error code the reference validator has no counterpart for. */
  readonly code?: string;
  readonly count: number;
}

const MARKER = '<!-- skills-ref differences: read by test/compiler/validate/corpus.test.ts -->';

function readDifferences(): Difference[] {
  const docs = readFileSync(join(REPO, 'docs', 'authoring.md'), 'utf8');
  const at = docs.indexOf(MARKER);
  expect(at, 'docs/authoring.md has the differences table').toBeGreaterThan(0);
  const lines = docs
    .slice(at + MARKER.length)
    .trimStart()
    .split('\n');
  const rows = lines.slice(
    2,
    lines.findIndex((line) => !line.startsWith('|')),
  );
  return rows.map((row) => {
    const cells = row.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim());
    expect(cells, row).toHaveLength(4);
    const reference = /^`([^`]+)`$/.exec(cells[0]!)?.[1];
    const code = /^\*\*(ZG\d{4})\*\*$/.exec(cells[1]!)?.[1];
    // Exactly one side per row, so a row never excuses more than it says.
    expect(Number(reference !== undefined) + Number(code !== undefined), row).toBe(1);
    expect(cells[3], row).toMatch(/^\d+$/);
    return { ...(reference ? { reference } : {}), ...(code ? { code } : {}), count: Number(cells[3]) };
  });
}

const verdicts = JSON.parse(readFileSync(join(CORPUS, 'skills-verdicts.json'), 'utf8')) as Record<string, Verdict>;
const copied = Object.keys(verdicts)
  .filter((key) => verdicts[key]!.copied)
  .sort();
const sources = [...new Set(copied.map((key) => key.split('/')[0]!))].sort();

/** zhin-gen's diagnostics per corpus skill (`<source>/<dir>`), and the skills that reached the model. */
const reported = new Map<string, Diagnostic[]>();
const loaded = new Set<string>();
const unattributed: Diagnostic[] = [];
const roots: string[] = [];

beforeAll(async () => {
  for (const source of sources) {
    const root = tempDir(`skills-corpus-${source}`);
    roots.push(root);
    for (const key of copied.filter((k) => k.startsWith(`${source}/`))) {
      const dir = key.slice(source.length + 1);
      mkdirSync(join(root, 'skills', dir), { recursive: true });
      copyFileSync(join(CORPUS, 'skills', key, 'SKILL.md'), join(root, 'skills', dir, 'SKILL.md'));
      reported.set(key, []);
    }
    const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
    for (const d of result.diagnostics) {
      const match = /^skills\/([^/]+)(?:\/|$)/.exec(d.file);
      const list = match ? reported.get(`${source}/${match[1]}`) : undefined;
      if (list) list.push(d);
      else unattributed.push(d);
    }
    for (const skill of result.model.skills) loaded.add(`${source}/${skill.name}`);
  }
}, 120_000);

afterAll(() => {
  for (const root of roots) removeDir(root);
});

describe('the Agent Skills corpus', () => {
  const differences = readDifferences();
  const references = differences.filter((d) => d.reference !== undefined);
  const codes = differences.filter((d) => d.code !== undefined);

  it('holds the 286 copied skills of seven collections, each compiled', () => {
    expect(copied).toHaveLength(286);
    expect(sources).toHaveLength(7);
    expect(unattributed).toEqual([]);
  });

  it('zhin-gen rejects exactly the skills the reference validator rejects, but for the documented differences', () => {
    const mismatches: unknown[] = [];
    for (const key of copied) {
      const reference = verdicts[key]!.skillsRef;
      const referenceErrors = reference.messages.filter((m) => !references.some((d) => m.includes(d.reference!)));
      const errors = reported.get(key)!.filter((d) => d.severity === 'error' && !codes.some((c) => c.code === d.code));
      // A reference verdict of invalid always comes with its messages: an empty list would excuse nothing.
      expect(reference.valid, key).toBe(reference.messages.length === 0);
      if (referenceErrors.length > 0 !== errors.length > 0) {
        mismatches.push({
          skill: key,
          reference: referenceErrors,
          zhinGen: errors.map((d) => `${d.code} ${d.line}:${d.column} ${d.message}`),
        });
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('each difference explains as many corpus skills as the table says', () => {
    const counts = differences.map((d) =>
      d.reference !== undefined
        ? copied.filter((key) => verdicts[key]!.skillsRef.messages.some((m) => m.includes(d.reference!))).length
        : copied.filter((key) => reported.get(key)!.some((x) => x.severity === 'error' && x.code === d.code)).length,
    );
    expect(counts).toEqual(differences.map((d) => d.count));
  });

  it('every skill zhin-gen accepts loads, unknown keys and all', () => {
    const accepted = copied.filter((key) => !reported.get(key)!.some((d) => d.severity === 'error'));
    expect(accepted.filter((key) => !loaded.has(key))).toEqual([]);
    // Unknown keys are warnings on skills that load, not silent.
    const unknownKeys = accepted.filter((key) => reported.get(key)!.some((d) => d.code === 'ZG4004'));
    expect(unknownKeys.length).toBeGreaterThan(0);
  });
});
