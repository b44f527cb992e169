// The floor: what any tool that looks at every capability must pay — walk the convention
// folders, read every file, parse each once with the same parsers the compiler uses
// (TypeScript for code, YAML for front matter, JSON for agent.json). Prints JSON.
//
// TypeScript is loaded exactly as the compiler loads it (dist/compiler/util/typescript.js: the
// minified copy of the build ts-morph ships, with its V8 code cache), so the whole-process ratio
// compares the same parser start-up on both sides. `--read-only`: walk and read, no parser.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const started = performance.now();
const args = process.argv.slice(2);
const readOnly = args[0] === '--read-only';
const root = readOnly ? args[1] : args[0];
const dist = process.env.ZHIN_GEN_DIST ?? join(import.meta.dirname, '..', '..', 'dist');
const ts = readOnly ? undefined : (await import(pathToFileURL(join(dist, 'compiler/util/typescript.js')).href)).ts;
const parseYaml = readOnly ? undefined : (await import('yaml')).parse;
const workStarted = performance.now();
let files = 0;
let bytes = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'src' || entry.name === 'docs')
      continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) walk(abs);
    else if (entry.isFile() && !entry.name.endsWith('.gen.ts')) {
      const text = readFileSync(abs, 'utf8');
      files++;
      bytes += text.length;
      if (readOnly) continue;
      if (abs.endsWith('.ts')) ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      else if (abs.endsWith('.json')) JSON.parse(text);
      else if (abs.endsWith('SKILL.md')) parseYaml(text.split(/^---$/m)[1] ?? '');
    }
  }
}
walk(root);
const end = performance.now();
console.log(
  JSON.stringify({
    ms: end - started,
    workMs: end - workStarted,
    files,
    bytes,
    rssKb: process.resourceUsage().maxRSS,
    // User + system time of the process (see children/cli.mjs).
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  }),
);
