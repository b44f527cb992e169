// The CLI as a bundle with code splitting (dist/cli/): `zhin-gen generate` / `check` on a tree
// where nothing changed reads a handful of files instead of ~90 modules one by one (each one a
// resolve, a read and a compile: ~100 ms of a run that is otherwise a walk and a stat per file).
// Everything a warm run does not need (the parsers, the schema stage, the report page, the other
// commands) stays behind the dynamic imports it already sits behind, each its own chunk.
//
// Only the compiler's own modules are bundled: packages (the runtime, TypeScript, Zod, tsx...)
// stay imports, so a bot's manifest and the CLI share one copy of `@zhin-gen/runtime`. A
// module's `import.meta.url` is rewritten to the URL of its file-by-file copy in dist/, so the
// files it finds beside itself (the TypeScript copy, the parse worker, the report page's assets,
// JSON data) are found where they always were; the public entry points (package.json `exports`)
// keep the file-by-file build.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Where the bundle goes, relative to dist/. bin/zhin-gen.mjs imports its `main.js`. */
export const CLI_BUNDLE_DIR = 'cli';

const posix = (path) => path.split(sep).join('/');

/** @param {string} root the repository root; dist/ must hold the file-by-file build already. */
export async function bundleCli(root) {
  const dist = join(root, 'dist');
  const outdir = join(dist, CLI_BUNDLE_DIR);
  const compilerDir = join(root, 'compiler') + sep;
  const metaUrl = {
    name: 'file-by-file import.meta.url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!args.path.startsWith(compilerDir) || !source.includes('import.meta.url')) return { loader: 'ts' };
        const copy = join(dist, relative(root, args.path)).replace(/\.ts$/, '.js');
        const url = `new URL(${JSON.stringify(posix(relative(outdir, copy)))}, import.meta.url).href`;
        return { contents: source.replace(/\bimport\.meta\.url\b/g, url), loader: 'ts' };
      });
    },
  };
  await build({
    entryPoints: { main: join(root, 'compiler', 'cli', 'main.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // tsconfig.json maps the runtime's subpaths to its sources (for type-checking): it stays a package here.
    external: ['@zhin-gen/runtime', '@zhin-gen/runtime/*'],
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    supported: { 'import-attributes': true },
    plugins: [metaUrl],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  await bundleCli(join(dirname(fileURLToPath(import.meta.url)), '..'));
