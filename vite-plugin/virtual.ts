/**
 * `virtual:zhin-capabilities`: re-exports the generated manifest module so application code
 * imports it without knowing the output path. Before any manifest exists (a dev server started
 * on an invalid tree) it serves an empty manifest so the app keeps loading; the overlay shows why.
 *
 * Also: tool modules import `define*` from the seed package names (`@zhin.js/tool`, ...). When
 * such a package is not installed, imports of it resolve to `@zhin-gen/runtime`, which exports the
 * same helpers, so a bundle of a plugin tree works without the zhin.js packages.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RUNTIME_PACKAGE, runtimeEntryFile } from '../compiler/runtime-entry.js';

export const VIRTUAL_ID = 'virtual:zhin-capabilities';
/** Rollup convention: a `\0` prefix keeps other plugins away from the virtual id. */
export const RESOLVED_VIRTUAL_ID = `\0${VIRTUAL_ID}`;
export const RUNTIME_MODULE = RUNTIME_PACKAGE;

export function isVirtualId(id: string): boolean {
  return (
    id === RESOLVED_VIRTUAL_ID ||
    id === VIRTUAL_ID ||
    id.endsWith(encodeURIComponent(RESOLVED_VIRTUAL_ID)) ||
    id.endsWith(RESOLVED_VIRTUAL_ID)
  );
}

const EMPTY_MANIFEST =
  '{ version: 1, hash: "", plugins: [], tools: [], skills: [], agents: [], promptSections: [], hooks: [] }';

export function virtualModuleCode(outFile: string): string {
  if (existsSync(outFile)) return `export * from ${JSON.stringify(outFile.split('\\').join('/'))};\n`;
  return `// zhin-gen: no manifest has been generated yet (see the diagnostics).\nexport const manifest = ${EMPTY_MANIFEST};\n`;
}

/** Seed module names (from the resolved `modules` option) that may fall back to @zhin-gen/runtime. */
export function isAliasable(id: string, modules: readonly string[]): boolean {
  return id !== RUNTIME_MODULE && id.startsWith('@zhin.js/') && modules.includes(id);
}

/** Whether `node_modules/<name>` exists in the importer's directory or any parent. */
export function isInstalled(name: string, fromDir: string): boolean {
  let dir = fromDir;
  for (;;) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

/** The runtime zhin-gen itself depends on (source when running from source, dist otherwise). */
export function ownRuntimeEntry(): string {
  const entry = runtimeEntryFile();
  if (entry === undefined)
    throw new Error(
      `zhin-gen cannot resolve its runtime package ${RUNTIME_PACKAGE} (a dependency of zhin-gen: reinstall it)`,
    );
  return entry;
}

/**
 * A generated module as JavaScript, for Rollup, which reads no TypeScript: the documented
 * `@rollup/plugin-typescript` fixes its file list when `typescript()` is called — before the
 * first build has written the manifest — so on a clean checkout it handed Rollup the generated
 * TypeScript as it is (`Expected ',', got '{'`). The other bundlers read TypeScript themselves.
 */
export async function generatedModuleJs(code: string, file: string): Promise<{ code: string; map: string }> {
  const { transform } = await import('esbuild');
  const out = await transform(code, { loader: 'ts', format: 'esm', sourcefile: file, sourcemap: 'external' });
  return { code: out.code, map: out.map };
}
