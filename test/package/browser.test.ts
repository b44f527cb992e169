/**
 * The runtime as a browser or edge bundle: its built main entry (what the package ships) bundled
 * with esbuild for the browser pulls in no Node built-in and evaluates no code (`new Function`,
 * `eval`), so it runs under a strict Content-Security-Policy. The runtime JSON Schema compiler
 * (`@zhin-gen/runtime/ajv`) is the documented exception a host opts into; it is not bundled here.
 */
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { assertBuilt } from './pack.js';

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
let code: string;
let metafile: Metafile;

beforeAll(async () => {
  assertBuilt();
  const result = await build({
    entryPoints: [join(REPO, 'runtime', 'dist', 'index.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    absWorkingDir: REPO,
    logLevel: 'silent',
  });
  code = result.outputFiles[0]!.text;
  metafile = result.metafile;
});

describe('@zhin-gen/runtime bundled for the browser', () => {
  it('imports no Node built-in and reads only its own files', () => {
    const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    expect(imports.filter((path) => BUILTINS.has(path))).toEqual([]);
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.length).toBeGreaterThan(10);
    // No dependency at all: every bundled file is the runtime's own build output.
    expect(inputs.filter((path) => !path.startsWith('runtime/dist/'))).toEqual([]);
  });

  it('evaluates no code: no `new Function`, no `eval`', () => {
    expect(code.match(/\bnew\s+Function\b|\bFunction\s*\(|\beval\s*\(/g) ?? []).toEqual([]);
  });

  it('is small (minified + gzipped size reported)', () => {
    const gzipped = gzipSync(code).length;
    console.log(`@zhin-gen/runtime browser bundle: ${code.length} B minified, ${gzipped} B minified + gzipped`);
    // A budget, not a target: a jump means something heavy was pulled into the default path.
    expect(gzipped).toBeLessThan(60_000);
  });
});
