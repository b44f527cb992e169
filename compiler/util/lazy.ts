/**
 * Synchronous on-demand loading of CommonJS dependencies (yaml, ajv, jsonc-parser). A static
 * import loads them whenever their importer loads; most runs need none of them (a run that
 * re-parses one edited tool never reads YAML or validates agent.json), and each costs 10–40 ms.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const loaders: (() => unknown)[] = [];

export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  const load = (): T => (loaded ??= require(specifier) as T);
  loaders.push(load);
  return load;
}

/** Loads every dependency registered so far (`compiler.warmup()`: ahead of the first edit). */
export function preloadLazy(): void {
  for (const load of loaders) load();
}
