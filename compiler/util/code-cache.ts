/**
 * Loads a large CommonJS module (the TypeScript compiler, 9 MB) with a V8 code cache, what
 * Node 22's `module.enableCompileCache()` does for every module, done here for one file on
 * Node 20. The first run that parses compiles the file as usual and, at exit, stores the code V8
 * compiled by then (the parser included); later runs hand it back to V8 instead of compiling
 * again. The cache is keyed by the file's path, size and mtime and the Node version, lives in
 * the OS temp dir, and is only an accelerator: a missing, stale or rejected cache means a normal
 * compile, and any failure here means a plain `require`.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { tempCacheDir } from './temp-cache-dir.js';

function cacheFileFor(file: string): string {
  const stat = statSync(file);
  const key = createHash('sha256')
    .update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)
    .digest('hex')
    .slice(0, 16);
  return join(tempCacheDir(), `code-${key}.v8`);
}

function storeAtExit(script: vm.Script, cacheFile: string): void {
  process.once('exit', () => {
    try {
      const data = script.createCachedData();
      mkdirSync(dirname(cacheFile), { recursive: true });
      const temp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temp, data);
      renameSync(temp, cacheFile);
    } catch {
      rmSync(`${cacheFile}.${process.pid}.tmp`, { force: true });
    }
  });
}

/** The module's exports, or `undefined` if it could not be loaded this way. */
export function loadWithCodeCache(file: string): unknown {
  const require = createRequire(file);
  if (process.env.ZHIN_GEN_CODE_CACHE === '0') return require(file);
  let cacheFile: string;
  let script: vm.Script;
  let cachedData: Buffer | undefined;
  try {
    cacheFile = cacheFileFor(file);
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
    const bytes = readFileSync(file);
    // TypeScript's bundle is pure ASCII: read as Latin-1 it needs no UTF-8 decoding (~0.1 s).
    const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    // The CommonJS wrapper, as Node's own loader builds it.
    script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    });
  } catch {
    return require(file);
  }
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeRequire,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, require, module, file, dirname(file));
  if (!cachedData || script.cachedDataRejected) storeAtExit(script, cacheFile);
  return module.exports;
}
