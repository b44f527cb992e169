/**
 * Loads the TypeScript compiler API the parse, schema and emit stages use: the copy ts-morph ships
 * (`@ts-morph/common/dist/typescript.js`, the very module `ts-morph`'s `ts` export is), loaded
 * by itself. Importing `ts-morph` for it also loads ts-morph's own 3 MB of code, and importing
 * CommonJS through ESM makes Node scan the 9 MB file for named exports; together ~0.3 s of a
 * run that re-parses one file. On Node 20, which has no module compile cache, the compiled code
 * is also kept in a V8 code cache next to the unit cache (util/code-cache.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ts as TS } from 'ts-morph';
import { loadWithCodeCache } from './code-cache.js';

export type TypeScript = typeof TS;

const require = createRequire(import.meta.url);

function typescriptFile(): string | undefined {
  try {
    // Resolved from ts-morph itself, so a nested (pnpm) @ts-morph/common is found too.
    return createRequire(require.resolve('ts-morph')).resolve('@ts-morph/common/dist/typescript.js');
  } catch {
    return undefined;
  }
}

/**
 * The minified copy of `file` the build wrote beside this module (scripts/build.mjs), its body
 * already wrapped for util/code-cache.ts, if it was made from the file installed now (same size):
 * fewer bytes to read and compile, same compiler. Running from the sources (tests, tsx) there is none.
 */
function minifiedCopy(file: string): string | undefined {
  try {
    const copy = fileURLToPath(new URL('./typescript.min.wrapped.js', import.meta.url));
    const made = JSON.parse(readFileSync(fileURLToPath(new URL('./typescript.min.json', import.meta.url)), 'utf8')) as {
      size?: unknown;
    };
    return made.size === statSync(file).size && statSync(copy).isFile() ? copy : undefined;
  } catch {
    return undefined;
  }
}

function load(): TypeScript {
  const file = typescriptFile();
  if (file) {
    for (const [candidate, wrapped] of [
      [minifiedCopy(file), true],
      [file, false],
    ] as const) {
      if (candidate === undefined) continue;
      const loaded = loadWithCodeCache(candidate, wrapped) as Partial<TypeScript> | undefined;
      if (loaded && typeof loaded.createSourceFile === 'function') return loaded as TypeScript;
    }
  }
  // Another layout of ts-morph: its public export is the same compiler.
  return (require('ts-morph') as { ts: TypeScript }).ts;
}

let loaded: TypeScript | undefined;

/**
 * The compiler API, loaded on the first call: a module that needs it only now and then (the emit
 * stage types a generated validator only when it writes one: emit/validator-typing.ts) imports
 * this instead of util/typescript.ts, whose import loads it.
 */
export function loadTypeScript(): TypeScript {
  loaded ??= load();
  return loaded;
}
