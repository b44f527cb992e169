/**
 * SKILL.md checking over the Agent Skills corpus (test/compiler/validate/corpus/: 286 real
 * files): the floor is reading each front matter with the same YAML parser and nothing else; the
 * measured side is the compiler's reader + schema + rules (`checkSkillMd`). The schema's validator
 * is generated ahead of time (compiler/schema/skill-validator.gen.ts), so no process compiles it.
 * Run: node --import tsx bench/skill-md.ts [rounds]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { checkSkillMd } from '../compiler/validate/skill.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CORPUS = join(REPO, 'test', 'compiler', 'validate', 'corpus', 'skills');

const files: { file: string; text: string; dirName: string }[] = [];
for (const source of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  for (const skill of readdirSync(join(CORPUS, source.name), { withFileTypes: true }).filter((d) => d.isDirectory())) {
    const text = readFileSync(join(CORPUS, source.name, skill.name, 'SKILL.md'), 'utf8');
    files.push({ file: `skills/${skill.name}/SKILL.md`, text, dirName: skill.name });
  }
}

function floor(): void {
  for (const { text } of files) {
    const body = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    const end = body.indexOf('\n---', 3);
    parseDocument(body.slice(4, end), { prettyErrors: false, uniqueKeys: true }).toJS();
  }
}

function check(): void {
  for (const input of files) checkSkillMd(input);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time(fn: () => void, rounds: number): number {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const rounds = Number(process.argv[2] ?? 15);
const f = time(floor, rounds);
const c = time(check, rounds);
console.log(`${files.length} SKILL.md files, median of ${rounds} rounds`);
console.log(`floor (YAML front matter only): ${f.toFixed(1)} ms`);
console.log(`checkSkillMd (read + schema + rules): ${c.toFixed(1)} ms (${(c / f).toFixed(2)}× the floor)`);
