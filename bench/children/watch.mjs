// Watch/dev regeneration in process: cold run, then N edits of one tool (its schema changes),
// each timed from the file event (`notify`) to the manifest written. Uses the built compiler.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCompiler } from '../../dist/compiler/index.js';

const [root, editsArg, toolArg] = process.argv.slice(2);
const edits = Number(editsArg ?? 20);
const tool = join(root, toolArg ?? 'tools/weather-0/index.ts');
const original = readFileSync(tool, 'utf8');
const compiler = createCompiler({ root, cacheFile: false });
const coldStart = performance.now();
const cold = await compiler.run({ write: true });
const coldMs = performance.now() - coldStart;
const times = [];
let parsed = 0;
try {
  for (let i = 1; i <= edits; i++) {
    writeFileSync(
      tool,
      original
        .replace('inputSchema: ', `inputSchema: /* edit ${i} */ `)
        .replace('z.object({', `z.object({\n    extra${i}: z.string().max(${i}),`),
    );
    const started = performance.now();
    compiler.notify([{ type: 'change', path: tool }]);
    const result = await compiler.run({ write: true });
    times.push(performance.now() - started);
    // Checked on the model, not by joining the whole module text (that would leave megabytes of
    // garbage for the next edit's timing to collect); the file itself is checked once at the end.
    const edited = result.model.tools.find((t) => t.source === toolArg || t.source === 'tools/weather-0/index.ts');
    if (!result.written || !(`extra${i}` in (edited?.inputSchema.properties ?? {})))
      throw new Error(`edit ${i} did not reach the manifest`);
    parsed = Math.max(parsed, result.stats.parsed);
  }
} finally {
  writeFileSync(tool, original);
}
// Above 64 tools the tool's text is in a shard of the generated folder, not in the main module.
const folder = cold.outFile.replace(/\.ts$/, '.validators');
const generated = [cold.outFile, ...(existsSync(folder) ? readdirSync(folder).map((f) => join(folder, f)) : [])];
if (!generated.some((file) => file.endsWith('.ts') && readFileSync(file, 'utf8').includes(`"extra${edits}"`)))
  throw new Error('the last edit is not in the generated modules');
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    coldMs,
    regenMs: times[times.length >> 1],
    parsedPerEdit: parsed,
    tools: cold.model.tools.length,
    rssKb: process.resourceUsage().maxRSS,
  }),
);
