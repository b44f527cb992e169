// Transpiles the TypeScript sources of both packages (one file per source, same tree) so they run
// on plain Node 20: zhin-gen's compiler and plugins to dist/ (the bin, `zhin-gen/vite` in a user's
// Vite config), the runtime package to runtime/dist/ (what a deployed bot imports); and emits the
// declaration files the packages' `types` conditions point at.
import { build, transform } from 'esbuild';
import fg from 'fast-glob';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleCli } from './cli-bundle.mjs';
import { emitDeclarations } from './declarations.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const runtimeDir = join(root, 'runtime');
const runtimeDist = join(runtimeDir, 'dist');
rmSync(dist, { recursive: true, force: true });
rmSync(runtimeDist, { recursive: true, force: true });

const common = {
  format: 'esm',
  target: 'node20',
  bundle: false,
  sourcemap: 'linked',
  // Both packages ship their .ts sources (the `source` export condition), which the maps name:
  // embedding them again would double what a user downloads.
  sourcesContent: false,
  logLevel: 'warning',
  // Keep `with { type: 'json' }`: Node 20 needs it for JSON modules.
  supported: { 'import-attributes': true },
};
const sources = (patterns, cwd) =>
  fg.sync(patterns, { cwd, ignore: ['**/*.d.ts', 'dist/**', 'node_modules/**'], absolute: true });
const transpiled = Promise.all([
  build({
    ...common,
    entryPoints: sources(['compiler/**/*.ts', 'vite-plugin/**/*.ts'], root),
    outdir: dist,
    outbase: root,
    platform: 'node',
  }),
  // The runtime runs in any JS host (no Node built-ins): neutral platform, same ES level.
  build({
    ...common,
    entryPoints: sources(['**/*.ts'], runtimeDir),
    outdir: runtimeDist,
    outbase: runtimeDir,
    platform: 'neutral',
    target: 'es2022',
  }),
]);
// Synchronous TypeScript work while esbuild's own process transpiles (scripts/declarations.mjs).
await emitDeclarations(root);
await transpiled;
// The report page's client script and styles are read next to their module and inlined (compiler/report/page/render.ts).
for (const file of fg.sync(['compiler/**/*.json', 'compiler/report/page/*.{js,css}', 'vite-plugin/**/*.d.ts'], {
  cwd: root,
})) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
// The bin's bundle (scripts/cli-bundle.mjs): built from the same sources, it finds its data files in
// the file-by-file tree above, so it comes after it.
await bundleCli(root);

// The TypeScript compiler the parse stage loads (compiler/util/typescript.ts: the copy ts-morph ships), as a
// minified copy: 3.6 MB instead of 9 MB to read, decode and hand to V8 with its code cache, which
// is ~65 ms of every run that parses (measured; bench/). Same code, same version, licence header
// kept; the sidecar names the file it was made from, and util/typescript.ts uses the copy only while that file
// is still the one installed. Written wrapped as Node's loader wraps a CommonJS module
// (util/code-cache.ts CJS_WRAPPER_HEAD), so the loader hands V8 the file's own text instead of a
// concatenated second copy of it.
const require = createRequire(import.meta.url);
const typescriptFile = createRequire(require.resolve('ts-morph')).resolve('@ts-morph/common/dist/typescript.js');
const typescriptSource = readFileSync(typescriptFile, 'utf8');
const minified = await transform(typescriptSource, {
  minify: true,
  loader: 'js',
  charset: 'ascii',
  legalComments: 'inline',
});
const { CJS_WRAPPER_HEAD } = await import(pathToFileURL(join(dist, 'compiler', 'util', 'code-cache.js')).href);
writeFileSync(join(dist, 'compiler', 'util', 'typescript.min.wrapped.js'), `${CJS_WRAPPER_HEAD}${minified.code}\n})`);
rmSync(join(dist, 'compiler', 'util', 'typescript.min.cjs'), { force: true });
writeFileSync(
  join(dist, 'compiler', 'util', 'typescript.min.json'),
  `${JSON.stringify({ source: '@ts-morph/common/dist/typescript.js', size: statSync(typescriptFile).size, version: /\bversion = "([^"]+)"/.exec(typescriptSource)?.[1] ?? null })}\n`,
);

// The `pattern` strings Zod emits for the string formats the static schema translation knows
// (compiler/schema/zod-patterns.ts), taken from the installed Zod now so a run that translates a
// format does not load Zod's regex module for them; used only while that Zod version is installed.
const zodDir = dirname(require.resolve('zod/package.json'));
const zodRegexes = require(join(zodDir, 'v4', 'core', 'regexes.cjs'));
writeFileSync(
  join(dist, 'compiler', 'schema', 'zod-patterns.json'),
  `${JSON.stringify({
    zod: JSON.parse(readFileSync(join(zodDir, 'package.json'), 'utf8')).version,
    patterns: {
      email: zodRegexes.email.source,
      guid: zodRegexes.guid.source,
      uuid: zodRegexes.uuid().source,
      date: zodRegexes.date.source,
      datetime: zodRegexes.datetime({ precision: null, offset: false, local: false }).source,
    },
  })}\n`,
);
