// `generate` / `check` in a fresh process, two ways:
//   default: the real CLI main() (same code as bin/zhin-gen.mjs); the parent times the process.
//   --work:  load every module first (compiler.warmup()), then time only the run — the work
//            itself, comparable with the floor's own work time.
// Each mode imports only what it runs: the CLI path loads exactly what bin/zhin-gen.mjs loads.
// ZHIN_GEN_DIST picks the build (another checkout's dist/, for before/after runs).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.env.ZHIN_GEN_DIST ?? join(import.meta.dirname, '..', '..', 'dist');
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const args = process.argv.slice(2);
// CPU time of the whole process, worker threads included (user + system, ms): on a shared
// machine it moves far less with the load than the wall time does.
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
if (args[0] === '--work') {
  const { createCompiler } = await load('compiler/index.js');
  const compiler = createCompiler({ root: args[1] });
  await compiler.warmup();
  await import('zod');
  const started = performance.now();
  const result = await compiler.run({ write: true });
  const workMs = performance.now() - started;
  await compiler.dispose();
  console.log(
    JSON.stringify({
      workMs,
      parsed: result.stats.parsed,
      rssKb: process.resourceUsage().maxRSS,
      faults: process.resourceUsage().minorPageFault,
      cpuMs: cpuMs(),
    }),
  );
} else {
  // The bin's bundle; a build from before it existed (BENCH_COMPARE) runs its file-by-file main.
  const bundled = existsSync(join(dist, 'cli', 'main.js'));
  const { main } = await load(bundled ? 'cli/main.js' : 'compiler/cli/main.js');
  const io = { out: () => {}, err: () => {}, isTTY: false };
  const code = await main(args, io);
  if (code !== 0) process.exitCode = code;
  const usage = process.resourceUsage();
  console.log(JSON.stringify({ code, rssKb: usage.maxRSS, faults: usage.minorPageFault, cpuMs: cpuMs() }));
}
