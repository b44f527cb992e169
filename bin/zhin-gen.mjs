#!/usr/bin/env node
// Node >= 22.1 keeps V8's compiled code of every module between runs when asked, as tsc's own bin
// asks; it is enabled before the CLI is imported, so the bundle's modules are in it. Node 20 has
// no such API: there the TypeScript copy alone gets a code cache (compiler/util/code-cache.ts).
import module from 'node:module';

module.enableCompileCache?.();
// A reader that went away (`zhin-gen inspect | head`) is no error of ours: stop quietly, without
// Node's unhandled-'error' stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
// A shell whose directory was removed (`rm -rf` of the checkout it stands in): esbuild, and any
// relative path, asks for the working directory at once; say so instead of a stack trace.
try {
  process.cwd();
} catch {
  process.stderr.write(
    'zhin-gen: the current directory no longer exists (removed or renamed since the shell entered it)\nhint: cd into the project again, e.g. cd "$PWD"\n',
  );
  process.exit(64);
}
// The CLI's bundle (scripts/cli-bundle.mjs): a run reads a few files, not every module of the compiler.
const { main } = await import('../dist/cli/main.js');

process.exitCode = await main(process.argv.slice(2));
