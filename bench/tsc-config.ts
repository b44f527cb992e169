/**
 * A tsconfig that type-checks a bench tree's tool modules (and optionally its generated manifest)
 * against this checkout's runtime and Zod, for `tsc --noEmit` figures (bench/module.ts,
 * bench/peers.ts). Written into the tree; returns its path.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The compiler TypeScript build the benches run `tsc` from. */
export const TSC = join(REPO, 'node_modules/typescript/lib/tsc.js');

export function writeTscConfig(root: string, withManifest: boolean): string {
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
  return config;
}
