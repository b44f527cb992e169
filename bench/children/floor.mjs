// The floor: what any tool that looks at every capability must pay — walk the convention
// folders, read every file, parse each once with the same parsers the compiler uses
// (TypeScript for code, YAML for front matter, JSON for agent.json). Prints JSON.
// TypeScript is the very build the compiler uses (the one ts-morph ships), loaded with a plain
// require: no ts-morph wrapper around it, and none of the compiler's own loading tricks.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const started = performance.now();
const require = createRequire(import.meta.url);
const ts = createRequire(require.resolve('ts-morph'))('@ts-morph/common/dist/typescript.js');
const { parse: parseYaml } = await import('yaml');
const root = process.argv[2];
const workStarted = performance.now();
let files = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'src' || entry.name === 'docs')
      continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) walk(abs);
    else if (entry.isFile() && !entry.name.endsWith('.gen.ts')) {
      const text = readFileSync(abs, 'utf8');
      files++;
      if (abs.endsWith('.ts')) ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      else if (abs.endsWith('.json')) JSON.parse(text);
      else if (abs.endsWith('SKILL.md')) parseYaml(text.split(/^---$/m)[1] ?? '');
    }
  }
}
walk(root);
const end = performance.now();
console.log(
  JSON.stringify({ ms: end - started, workMs: end - workStarted, files, rssKb: process.resourceUsage().maxRSS }),
);
