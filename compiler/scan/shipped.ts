/**
 * Installed plugin packages that ship their own generated manifest (docs/config.md "Installed
 * plugin packages"). A package declares it with the `./zhin-capabilities` subpath export of its
 * package.json, pointing at its built manifest module; a bot names the package in `plugins` and
 * the compiler reads that manifest instead of scanning the package's sources (which a package
 * need not even ship). Its capabilities join the bot under the instance key: names prefixed with
 * `<key>__`, as if the package were the child plugin `plugins/<key>/`. The bot's generated
 * manifest imports the package's one and the runtime merges it (runtime/generation/packages.ts).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareStrings, diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import { sha256 } from '../util/hash.js';
import { evaluateAfresh, forgetRequired, moduleGraph, readStamped, type StampedModule } from './module-graph.js';

/** The subpath a package exports its generated manifest module at. */
export const SHIPPED_MANIFEST_EXPORT = './zhin-capabilities';

export interface ShippedPackage {
  /** Instance key in the bot's `plugins`. */
  readonly owner: string;
  /** The package name as written in the config. */
  readonly name: string;
  /** Absolute path of the manifest module the export points at. */
  readonly file: string;
  /** Where the config names the package, for diagnostics. */
  readonly at: SourceLocation;
}

/** What the bot's compiler needs of a shipped manifest: names and the import specifier. */
export interface ShippedCapabilities {
  readonly owner: string;
  readonly name: string;
  /** `<name>/zhin-capabilities`: what the bot's manifest imports. */
  readonly specifier: string;
  /** Qualified in the bot (`<key>__<name>`): public tools any skill or agent may reference. */
  readonly publicTools: readonly string[];
  /** Every tool and skill name it adds to the bot (qualified), for conflict checks. */
  readonly tools: readonly string[];
  readonly skills: readonly string[];
  /** Digest input: the output must change when the package's manifest does. */
  readonly stamp: string;
}

/** The export target of `./zhin-capabilities` in a package directory, when it declares one. */
export function shippedManifestFile(packageDir: string): string | undefined {
  let pkg: { exports?: unknown };
  try {
    pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8').replace(/^\uFEFF/, '')) as {
      exports?: unknown;
    };
  } catch {
    return undefined;
  }
  const exports = pkg.exports;
  if (typeof exports !== 'object' || exports === null) return undefined;
  let target = (exports as Record<string, unknown>)[SHIPPED_MANIFEST_EXPORT];
  // Conditional exports: the ones a Node import of the module would take.
  for (let depth = 0; typeof target === 'object' && target !== null && depth < 4; depth++) {
    const conditions = target as Record<string, unknown>;
    target = conditions.import ?? conditions.node ?? conditions.default;
  }
  return typeof target === 'string' ? join(packageDir, target) : undefined;
}

function prefix(owner: string, name: string): string {
  return `${owner.split('/').join('__')}__${name}`;
}

interface ManifestShape {
  readonly version?: unknown;
  readonly tools?: readonly { qualifiedName?: unknown; placement?: unknown }[];
  readonly skills?: readonly { qualifiedName?: unknown }[];
}

function isCapabilityList(value: unknown, key: string): boolean {
  if (value === undefined) return key === 'skills';
  return (
    Array.isArray(value) &&
    value.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as { qualifiedName?: unknown }).qualifiedName === 'string',
    )
  );
}

/** The real path of a file, or of the nearest folder above it that exists (a package not built yet, linked from `node_modules/`). */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    const dir = dirname(file);
    return dir === file ? file : join(realPath(dir), basename(file));
  }
}

/**
 * The module, evaluated from its bytes now: the URL carries a digest of them, so a process that
 * imported an earlier version (a watch session after a config change, a dev server restarted in
 * place) evaluates the new one instead of getting the module it cached under the same URL.
 * `fresh`: the modules it imports are evaluated again too (a large package's manifest imports
 * its shards), in a loader namespace of their own: the process evaluated this manifest before,
 * from other bytes (scan/module-graph.ts `evaluateAfresh`).
 */
async function importModule(file: string, bytes: Buffer, fresh: boolean): Promise<unknown> {
  const url = `${pathToFileURL(file).href}?zhin-gen=${sha256(bytes).slice(0, 16)}`;
  if (fresh || /\.(c|m)?ts$/.test(file)) {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(url, import.meta.url);
  }
  return import(url);
}

/** Reads each package's shipped manifest; a module that cannot be read is a ZG1060 at the config entry. */
export async function readShippedPackages(
  packages: readonly ShippedPackage[],
): Promise<{ packages: ShippedCapabilities[]; diagnostics: Diagnostic[]; files: StampedModule[] }> {
  const out: ShippedCapabilities[] = [];
  const diagnostics: Diagnostic[] = [];
  const files: StampedModule[] = [];
  for (const pkg of packages) {
    const fail = (why: string): void => {
      diagnostics.push(
        diag('ZG1060', {
          ...pkg.at,
          message: `Plugin "${pkg.owner}" → "${pkg.name}" exports ${SHIPPED_MANIFEST_EXPORT}, but its manifest cannot be read: ${why}`,
        }),
      );
    };
    const path = realPath(pkg.file);
    const read = readStamped(path);
    // What watch mode follows (listed by every read: a dev server's first run is not told it watches).
    const graph = moduleGraph(path, read);
    files.push(...graph);
    if (read.bytes === undefined) {
      fail(`${pkg.file} does not exist (is the package built?)`);
      continue;
    }
    let manifest: ManifestShape | undefined;
    try {
      const fresh = evaluateAfresh(graph);
      if (fresh) forgetRequired(graph);
      manifest = ((await importModule(pkg.file, read.bytes, fresh)) as { manifest?: ManifestShape }).manifest;
    } catch (error) {
      fail(`importing it threw: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      continue;
    }
    if (typeof manifest !== 'object' || manifest === null || manifest.version !== 1 || !Array.isArray(manifest.tools)) {
      fail('it does not export a version 1 `manifest`');
      continue;
    }
    // A package's module is not the compiler's output until checked: a malformed entry is this
    // package's ZG1060, never a crash of the bot's build nor a capability left out in silence.
    const malformed = ['tools', 'skills'].find((key) => !isCapabilityList(manifest[key as 'tools' | 'skills'], key));
    if (malformed !== undefined) {
      fail(`its manifest's \`${malformed}\` is not a list of capabilities with a string \`qualifiedName\` each`);
      continue;
    }
    const names = (list: readonly { qualifiedName?: unknown }[] | undefined): string[] =>
      (list ?? []).map((item) => item.qualifiedName as string);
    const tools = names(manifest.tools);
    const publicTools = names(manifest.tools.filter((t) => t.placement === 'plugin'));
    const skills = names(manifest.skills);
    out.push({
      owner: pkg.owner,
      name: pkg.name,
      specifier: `${pkg.name}/zhin-capabilities`,
      publicTools: publicTools.map((n) => prefix(pkg.owner, n)).sort(compareStrings),
      tools: tools.map((n) => prefix(pkg.owner, n)).sort(compareStrings),
      skills: skills.map((n) => prefix(pkg.owner, n)).sort(compareStrings),
      // What the bot's output is made of, as evaluated: never the file's stamp now, which may be
      // newer than a module a process evaluated before (a later fresh run must not match it).
      stamp: `${pkg.file}:${JSON.stringify([tools, publicTools, skills])}`,
    });
  }
  return { packages: out, diagnostics, files };
}
