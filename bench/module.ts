/**
 * The generated module at size: `node --import tsx bench/module.ts [N...]` (default 1000 5000;
 * trees from bench/gen-tree.ts under bench/trees/module-N). For each N: the manifest's size and
 * line count, the validators folder's size, and what a Vite dev server pays to serve it —
 * `transformRequest` of the manifest (esbuild's transform plus Vite's import analysis of every
 * `import()` in it) with the size of the source map it emits — once cold and as the median of 3
 * re-requests after the file changed (a dev-server regeneration). Also `tsc --noEmit` over the
 * tree with and without the manifest in the program (BENCH_TSC=1; minutes at 20,000 tools).
 * Prints one JSON line per N.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { createCompiler } from '../compiler/index.js';
import { validatorsDirRel } from '../compiler/emit/validator-table.js';
import { generateTree } from './gen-tree.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

function dirBytes(dir: string): number {
  let total = 0;
  try {
    for (const name of readdirSync(dir)) total += statSync(join(dir, name)).size;
  } catch {
    return 0;
  }
  return total;
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;

function tsc(root: string, withManifest: boolean): number {
  const config = join(root, `tsconfig.bench-${withManifest ? 'with' : 'without'}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        noEmit: true,
        strict: true,
        skipLibCheck: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        baseUrl: '.',
        paths: {
          'zhin-gen/runtime': [join(REPO, 'compiler/runtime-reexport.ts')],
          '@zhin-gen/runtime': [join(REPO, 'runtime/index.ts')],
          '@zhin-gen/runtime/*': [join(REPO, 'runtime/*')],
          zod: [join(REPO, 'node_modules/zod')],
        },
      },
      include: ['**/tools/**/*.ts', ...(withManifest ? ['zhin-capabilities.gen.ts'] : [])],
    }),
  );
  const started = performance.now();
  try {
    execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', config], {
      stdio: 'ignore',
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=8192' },
    });
  } catch {
    // Type errors still cost the full check; the time is what matters here.
  }
  return Math.round(performance.now() - started);
}

for (const n of sizes.length > 0 ? sizes : [1000, 5000]) {
  const root = join(HERE, 'trees', `module-${n}`);
  generateTree(n, root);
  const compiler = createCompiler({ root, cacheFile: false });
  const result = await compiler.run({ write: true });
  await compiler.dispose();
  const manifest = result.outFile;
  const bytes = statSync(manifest).size;
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    server: { middlewareMode: true, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const url = '/zhin-capabilities.gen.ts';
  let started = performance.now();
  const first = await server.transformRequest(url);
  const coldMs = performance.now() - started;
  const again: number[] = [];
  for (let i = 0; i < 3; i++) {
    // What a regeneration costs the dev server: the module changed, so it is transformed again.
    const module = await server.moduleGraph.getModuleByUrl(url);
    if (module) server.moduleGraph.invalidateModule(module);
    started = performance.now();
    await server.transformRequest(url);
    again.push(performance.now() - started);
  }
  await server.close();
  const row = {
    n,
    manifestBytes: bytes,
    manifestLines: result.code.split('\n').length,
    validatorsBytes: dirBytes(join(root, validatorsDirRel(result.outRel))),
    viteTransformColdMs: Math.round(coldMs),
    viteTransformAgainMs: Math.round(median(again)),
    viteCodeBytes: first?.code.length ?? 0,
    viteMapBytes: first?.map ? JSON.stringify(first.map).length : 0,
    ...(process.env.BENCH_TSC === '1' ? { tscWithoutMs: tsc(root, false), tscWithMs: tsc(root, true) } : {}),
  };
  console.log(JSON.stringify(row));
}
