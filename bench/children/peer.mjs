// A peer doing comparable whole-tree work, in a fresh process (bench/peers.ts times it):
//   tsmorph <root>   a generator built on a ts-morph Project, the way one is usually written:
//                    every tool module added to the Project, its `export default
//                    defineAgentTool({...})` found by walking the AST, its name (the folder),
//                    description and input schema's source text collected into a JSON manifest
//                    written beside the tree (syntax only: no type checker, no module resolution)
//   tsmorph-typed <root> <tsconfig>   the same generator also asking the type checker for each
//                    tool's input type (what a generator emitting a typed manifest needs): the
//                    Project built from the tree's tsconfig, so zod and the runtime resolve
//   tsc <config>     `tsc -p <config>` (noEmit) in this process: TypeScript's own lib/tsc.js
//   esbuild <root>   one esbuild bundle of every tool module (an entry importing each; zod and
//                    the runtime external), written beside the tree; esbuild's own process is
//                    stopped and reaped before reporting, so its CPU time counts (cutime)
// Prints JSON as the other children do: rssKb, cpuMs (user + system, all threads), workMs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { skipped } from './tree-files.mjs';

const [kind, given, tsconfig] = process.argv.slice(2);
const target = resolve(given);
/** User + system time of the process, plus that of its reaped children (/proc: clock ticks). */
function cpuMs() {
  const own = (process.cpuUsage().user + process.cpuUsage().system) / 1000;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After ") ": field 3 is index 0, so cutime (16) and cstime (17) are 13 and 14.
    return own + ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return own;
  }
}
const report = (workMs) =>
  console.log(JSON.stringify({ workMs, rssKb: process.resourceUsage().maxRSS, cpuMs: cpuMs() }));

/** Whether this process still has a child (exited but not reaped counts: it is still listed). */
function childrenLeft() {
  try {
    return readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

/** Every `tools/<name>/index.ts` under the convention folders (as the floor walks them). */
function toolModules(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (skipped(entry.name)) continue;
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.name === 'index.ts' && dir.split(sep).at(-2) === 'tools') found.push(abs);
    }
  };
  walk(root);
  return found.sort();
}

if (kind === 'tsmorph' || kind === 'tsmorph-typed') {
  const { Project, SyntaxKind } = await import('ts-morph');
  const typed = kind === 'tsmorph-typed';
  const started = performance.now();
  const project = typed
    ? new Project({ tsConfigFilePath: resolve(tsconfig), skipAddingFilesFromTsConfig: true })
    : new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  const tools = [];
  // Every file first, then the queries: the checker is built once (adding a file after a type
  // query makes ts-morph build a new program, which made this quadratic: 220 s at 1,000 tools).
  const sources = toolModules(target).map((file) => [file, project.addSourceFileAtPath(file)]);
  for (const [file, source] of sources) {
    const call = source.getExportAssignment((e) => !e.isExportEquals())?.getExpressionIfKind(SyntaxKind.CallExpression);
    if (call?.getExpression().getText() !== 'defineAgentTool') continue;
    const definition = call.getArguments()[0]?.asKind(SyntaxKind.ObjectLiteralExpression);
    const property = (name) => definition?.getProperty(name)?.asKind(SyntaxKind.PropertyAssignment)?.getInitializer();
    const schema = property('inputSchema');
    tools.push({
      name: file.split(sep).at(-2),
      file: relative(target, file),
      description: property('description')?.getText(),
      inputSchema: schema?.getText(),
      ...(typed && schema ? { inputType: schema.getType().getText(schema) } : {}),
    });
  }
  writeFileSync(join(target, `.peer-${kind}.json`), JSON.stringify(tools));
  report(performance.now() - started);
} else if (kind === 'tsc') {
  const started = performance.now();
  // lib/tsc.js runs the command line of process.argv when it is loaded, then exits.
  process.argv = [process.argv[0], 'tsc', '-p', target];
  process.on('exit', () => report(performance.now() - started));
  createRequire(import.meta.url)('typescript/lib/tsc.js');
} else if (kind === 'esbuild') {
  const { build, stop } = await import('esbuild');
  const started = performance.now();
  const modules = toolModules(target);
  const entry = modules.map((m, i) => `export { default as t${i} } from ${JSON.stringify(m)};`).join('\n');
  await build({
    stdin: { contents: entry, resolveDir: target, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    external: ['zod', 'zhin-gen', 'zhin-gen/*', '@zhin-gen/*'],
    outfile: join(target, '.peer-esbuild.js'),
    logLevel: 'error',
  });
  const workMs = performance.now() - started;
  await stop();
  // stop() only signals the service process: wait until it is gone and reaped (no child left),
  // so that its CPU time is in cutime.
  for (let waited = 0; waited < 10_000 && childrenLeft(); waited += 20)
    await new Promise((done) => setTimeout(done, 20));
  report(workMs);
} else {
  console.error(`unknown peer ${kind}`);
  process.exit(2);
}
