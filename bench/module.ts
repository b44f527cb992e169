/**
 * The generated module at size: `node --import tsx bench/module.ts [N...]` (default 1000 5000;
 * trees from bench/gen-tree.ts under bench/trees/module-N). For each N: the manifest's size and
 * line count, its tool shards (a large bot's table: compiler/emit/shards.ts), `items.ts` and the folder's
 * size, and what a Vite dev server pays to serve it — `transformRequest` of the manifest and of
 * every shard it imports (esbuild's transform plus Vite's import analysis of every `import()`)
 * with the size of the source maps — once cold and as the median of 3 re-requests of what one
 * tool's edit changes (the manifest, or its shard: a dev-server regeneration). `vite build` of an
 * entry that imports the manifest (tool modules external: the cost of the generated modules
 * themselves). Also `tsc --noEmit` over the tree with and without the manifest in the program
 * (BENCH_TSC=1; minutes at 20,000 tools). `BENCH_CHECKOUT=<dir>` generates with another
 * checkout's compiler. Prints one JSON line per N.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import { build, createServer } from 'vite';
import type { createCompiler as createOwnCompiler } from '../compiler/index.js';
import { validatorsDirRel } from '../compiler/emit/validator-table.js';
import { generateTree } from './gen-tree.js';
import { TSC, writeTscConfig } from './tsc-config.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..');
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const CHECKOUT = process.env.BENCH_CHECKOUT ?? REPO;
const { createCompiler } = (await import(pathToFileURL(join(CHECKOUT, 'compiler', 'index.ts')).href)) as {
  createCompiler: typeof createOwnCompiler;
};

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
  const config = writeTscConfig(root, withManifest);
  const started = performance.now();
  try {
    execFileSync(process.execPath, [TSC, '-p', config], {
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
  const folder = join(root, validatorsDirRel(result.outRel));
  const folderRel = validatorsDirRel(result.outRel);
  // The shards and, beside them, items.ts (the manifest's non-tool data: compiler/emit/items-module.ts).
  const shards = [
    ...result.code.matchAll(/^import (?:shard\d+|\{ items \}) from "\.\/[^"]*?\/((?:tools-|items)[^"]*)\.js";$/gm),
  ].map((m) => `/${folderRel}/${m[1]}.ts`);
  const itemsUrl = shards.find((url) => url.endsWith('/items.ts'));
  const itemsBytes = itemsUrl ? statSync(join(root, itemsUrl)).size : 0;
  const shardBytes = shards.filter((url) => url !== itemsUrl).map((url) => statSync(join(root, url)).size);
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
  let mapBytes = first?.map ? JSON.stringify(first.map).length : 0;
  for (const shard of shards) {
    const done = await server.transformRequest(shard);
    mapBytes += done?.map ? JSON.stringify(done.map).length : 0;
  }
  const coldMs = performance.now() - started;
  // One tool's edit changes its shard (sharded) or the manifest (one module): the largest such file.
  const tables = shards.filter((url) => url !== itemsUrl);
  const changed = tables.length > 0 ? tables[shardBytes.indexOf(Math.max(...shardBytes))]! : url;
  const again: number[] = [];
  for (let i = 0; i < 3; i++) {
    const module = await server.moduleGraph.getModuleByUrl(changed);
    if (module) server.moduleGraph.invalidateModule(module);
    started = performance.now();
    await server.transformRequest(changed);
    again.push(performance.now() - started);
  }
  await server.close();
  // vite build of the generated modules alone: the tools' own modules stay external.
  writeFileSync(
    join(root, 'bench-entry.ts'),
    "import { manifest } from './zhin-capabilities.gen.ts';\nexport default manifest;\n",
  );
  started = performance.now();
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      rollupOptions: {
        input: join(root, 'bench-entry.ts'),
        external: (id) => /[\\/](tools)[\\/]/.test(id) || id.startsWith('@zhin-gen/') || id === 'zod',
      },
    },
  });
  const buildMs = performance.now() - started;
  const row = {
    n,
    manifestBytes: bytes,
    manifestLines: result.code.split('\n').length,
    shards: shardBytes.length,
    itemsBytes,
    shardBytesMax: shardBytes.length > 0 ? Math.max(...shardBytes) : 0,
    shardBytesTotal: shardBytes.reduce((a, b) => a + b, 0),
    folderBytes: dirBytes(folder),
    viteTransformColdMs: Math.round(coldMs),
    viteTransformAgainMs: Math.round(median(again)),
    viteMapBytes: mapBytes,
    viteBuildMs: Math.round(buildMs),
    ...(process.env.BENCH_TSC === '1' ? { tscWithoutMs: tsc(root, false), tscWithMs: tsc(root, true) } : {}),
  };
  console.log(JSON.stringify(row));
}
