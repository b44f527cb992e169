// Transpiles the TypeScript sources to dist/ (one file per source, same tree) so the package
// runs on plain Node 20: the bin, `zhin-gen/vite` in a user's Vite config, the runtime in any
// host. Type information stays with the .ts sources (the "types" export condition).
import { build } from 'esbuild';
import fg from 'fast-glob';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const entryPoints = fg.sync(['compiler/**/*.ts', 'runtime/**/*.ts', 'vite-plugin/**/*.ts'], {
  cwd: root,
  ignore: ['**/*.d.ts'],
  absolute: true,
});
await build({
  entryPoints,
  outdir: dist,
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  bundle: false,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Keep `with { type: 'json' }`: Node 20 needs it for JSON modules.
  supported: { 'import-attributes': true },
});
for (const file of fg.sync(['compiler/**/*.json', 'vite-plugin/**/*.d.ts'], { cwd: root })) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
