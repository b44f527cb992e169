// The floor: what any tool that looks at every capability must pay — walk the convention
// folders, read every file, parse each once with the same parsers the compiler uses
// (TypeScript for code, YAML for front matter, JSON for agent.json). Prints JSON.
//
// TypeScript is loaded exactly as the compiler loads it (dist/compiler/util/typescript.js: the
// minified copy of the build ts-morph ships, with its V8 code cache), so the whole-process ratio
// compares the same parser start-up on both sides. Two lighter variants:
//   --read-only  walk and read, no parser;
//   --stat-only  walk and stat every file (mtime and size), nothing read: what any run that
//                must find out whether something changed pays without a resident process.
//
// Only the tree's own files count: the generated output (`*.gen.ts` and its `*.gen.validators/`
// folder of shards, types and validators) is zhin-gen's, not an input. Parsing it made the floor
// larger whenever the tree had its output (at 5,000 tools the folder holds 7.3 MB of generated
// TypeScript beside 6.4 MB of sources), and so flattered every ratio.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { skipped } from './tree-files.mjs';

const started = performance.now();
const args = process.argv.slice(2);
const mode = args[0] === '--read-only' ? 'read' : args[0] === '--stat-only' ? 'stat' : 'parse';
const root = mode === 'parse' ? args[0] : args[1];
const dist = process.env.ZHIN_GEN_DIST ?? join(import.meta.dirname, '..', '..', 'dist');
const ts =
  mode === 'parse' ? (await import(pathToFileURL(join(dist, 'compiler/util/typescript.js')).href)).ts : undefined;
const parseYaml = mode === 'parse' ? (await import('yaml')).parse : undefined;
const workStarted = performance.now();
let files = 0;
let bytes = 0;

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped(entry.name)) continue;
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) walk(abs);
    else if (entry.isFile()) {
      files++;
      if (mode === 'stat') {
        bytes += statSync(abs).size;
        continue;
      }
      const text = readFileSync(abs, 'utf8');
      bytes += text.length;
      if (mode === 'read') continue;
      if (abs.endsWith('.ts')) ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      else if (abs.endsWith('.json')) JSON.parse(text);
      else if (abs.endsWith('SKILL.md')) parseYaml(text.split(/^---$/m)[1] ?? '');
    }
  }
}
walk(root);
const end = performance.now();
const usage = process.resourceUsage();
console.log(
  JSON.stringify({
    ms: end - started,
    workMs: end - workStarted,
    files,
    bytes,
    rssKb: usage.maxRSS,
    // Pages the process touched for the first time (see bench/children/faults.mjs for their price).
    faults: usage.minorPageFault,
    // User + system time of the process (see children/cli.mjs).
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  }),
);
