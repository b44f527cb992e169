/**
 * Loads a large CommonJS module (the TypeScript compiler, 9 MB) with a V8 code cache, what
 * Node 22's `module.enableCompileCache()` does for every module, done here for one file on
 * Node 20. The first run that parses compiles the file as usual and, at exit, stores the code V8
 * compiled by then (the parser included); later runs hand it back to V8 instead of compiling
 * again. The cache is keyed by the file's path, size and mtime and the Node version, lives in
 * the OS temp dir, and is only an accelerator: a missing, stale or rejected cache means a normal
 * compile, and any failure here means a plain `require`.
 *
 * A file can also hold the module's body already wrapped the way Node's loader wraps it (the
 * build writes TypeScript's minified copy so): V8 then compiles the file's own text. Wrapping it
 * here costs a second copy of a 3.6 MB string (the concatenation is flattened before V8 compiles
 * it), and on the virtual machines the benches run on every megabyte first touched costs ~2.5 ms
 * of page faults (bench/children/faults.mjs). Such a file is no CommonJS module: a failure to
 * load it is `undefined`, for the caller to fall back on another file.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { tempCacheDir } from './temp-cache-dir.js';

/** Where the file's code cache lives; undefined when the temp cache folder cannot be trusted. */
function cacheFileFor(file: string): string | undefined {
  const dir = tempCacheDir();
  if (dir === undefined) return undefined;
  const stat = statSync(file);
  const key = createHash('sha256')
    .update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)
    .digest('hex')
    .slice(0, 16);
  return join(dir, `code-${key}.v8`);
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

/** The CommonJS wrapper, as Node's own loader builds it (a wrapped file starts with exactly this). */
export const CJS_WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {';

/**
 * The module's exports, or `undefined` if it could not be loaded this way. `wrapped`: the file
 * holds the body already wrapped (CJS_WRAPPER_HEAD, the body, then a line `})`).
 */
export function loadWithCodeCache(file: string, wrapped = false): unknown {
  const require = createRequire(file);
  const useCache = process.env.ZHIN_GEN_CODE_CACHE !== '0';
  if (!useCache && !wrapped) return require(file);
  let cacheFile: string | undefined;
  let script: vm.Script;
  let cachedData: Buffer | undefined;
  try {
    cacheFile = useCache ? cacheFileFor(file) : undefined;
    try {
      cachedData = cacheFile === undefined ? undefined : readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
    const bytes = readFileSync(file);
    // TypeScript's bundle is pure ASCII: read as Latin-1 it needs no UTF-8 decoding (~0.1 s).
    const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    if (wrapped && !source.startsWith(CJS_WRAPPER_HEAD)) return undefined;
    script = new vm.Script(wrapped ? source : `${CJS_WRAPPER_HEAD}${source}\n})`, {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    });
  } catch {
    return wrapped ? undefined : require(file);
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
  if (cacheFile !== undefined && (!cachedData || script.cachedDataRejected)) storeAtExit(script, cacheFile);
  return module.exports;
}
