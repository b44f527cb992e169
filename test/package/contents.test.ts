/**
 * What `npm pack` puts in each tarball is enough: every `exports` target (every condition), the
 * bin, every relative import of a shipped module or declaration, every source map and the sources
 * it names, and every file the shipped docs link to. And nothing install-time points at a file
 * that is not shipped (npm runs `prepare` of a git dependency, warns on others).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { outsideTempDir, packAll, removeTree, type ExportsValue, type Packed } from './pack.js';

let dest: string;
let packages: ReturnType<typeof packAll>;

beforeAll(() => {
  dest = outsideTempDir('pack');
  packages = packAll(dest);
});
afterAll(() => removeTree(dest));

const sourceDir = (pkg: Packed): string => (pkg.name === 'zhin-gen' ? REPO : join(REPO, 'runtime'));

function exportTargets(value: ExportsValue, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (value !== null) for (const target of Object.values(value)) exportTargets(target, into);
  return into;
}

/** Relative specifiers a shipped file needs at run time or type-check time, and its source map. */
function references(path: string, text: string): string[] {
  const out: string[] = [];
  if (/\.(m?js|d\.ts)$/.test(path)) {
    // TypeScript's import scanner: real import/export/import() only, not code inside a string
    // (the scaffold's templates hold import lines of the files they write).
    for (const ref of ts.preProcessFile(text, true, true).importedFiles)
      if (ref.fileName.startsWith('.')) out.push(ref.fileName);
    const map = /\/\/# sourceMappingURL=([^\s]+)\s*$/.exec(text);
    if (map && !map[1]!.startsWith('data:')) out.push(`./${map[1]}`);
  }
  if (path.endsWith('.map'))
    for (const source of (JSON.parse(text) as { sources: string[] }).sources)
      out.push(source.startsWith('.') ? source : `./${source}`);
  if (path.endsWith('.md')) {
    // Markdown links and images to files (not URLs, not in-page anchors).
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.split('#')[0]!;
      if (target !== '' && !/^[a-z]+:/i.test(target)) out.push(target.startsWith('.') ? target : `./${target}`);
    }
  }
  return out;
}

describe.each(['zhinGen', 'runtime'] as const)('%s tarball', (which) => {
  const pkg = (): Packed => packages[which];
  const shipped = (): Set<string> => new Set(pkg().files.map((f) => f.path));

  it('ships every exports target and bin file', () => {
    const { manifest } = pkg();
    const targets = [
      ...exportTargets(manifest.exports ?? null),
      ...Object.values(typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {})),
    ];
    expect(targets.length).toBeGreaterThan(3);
    const missing = targets.map((t) => normalize(t)).filter((t) => !shipped().has(t));
    expect(missing).toEqual([]);
  });

  it('ships every file a shipped module, declaration, source map or doc refers to', () => {
    const files = shipped();
    const missing: string[] = [];
    for (const file of files) {
      if (!/\.(m?js|d\.ts|map|md)$/.test(file)) continue;
      const text = readFileSync(join(sourceDir(pkg()), file), 'utf8');
      for (const ref of references(file, text)) {
        const target = normalize(join(dirname(file), ref));
        // A directory link (docs/) is fine when the package ships files under it.
        const present = files.has(target) || [...files].some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
        if (!present) missing.push(`${file} → ${ref}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is the size docs/packages.md states (within 20%), and every subpath it exports is in its table', () => {
    const doc = readFileSync(join(REPO, 'docs', 'packages.md'), 'utf8').replace(/\s+/g, ' ');
    const { name, size, unpackedSize, manifest } = pkg();
    const stated = new RegExp(`\`${name}\` tarball is ([\\d.]+) MB \\(([\\d.]+) MB unpacked`).exec(doc);
    expect(stated, `no size of ${name} in docs/packages.md`).not.toBeNull();
    const within = (actual: number, mb: string) => Math.abs(actual / 1e6 / Number(mb) - 1) <= 0.2;
    expect(within(size, stated![1]!), `${name} tarball: ${size} bytes, docs say ${stated![1]} MB`).toBe(true);
    expect(
      within(unpackedSize, stated![2]!),
      `${name} unpacked: ${unpackedSize} bytes, docs say ${stated![2]} MB`,
    ).toBe(true);
    if (which !== 'runtime') return;
    const exported = typeof manifest.exports === 'object' && manifest.exports !== null ? manifest.exports : {};
    for (const subpath of Object.keys(exported)) {
      if (subpath === '.' || subpath === './package.json') continue;
      const short = subpath.slice(1);
      expect(doc.includes(`\`${name}${short}\``) || doc.includes(`\`${short}\``), subpath).toBe(true);
    }
  });

  it('runs nothing at install time (no prepare/install scripts in the published package.json)', () => {
    const scripts = pkg().manifest.scripts ?? {};
    expect(
      Object.keys(scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name)),
    ).toEqual([]);
  });
});

describe('the dependency split', () => {
  it('the runtime has no dependencies, only optional peers if any, and no compiler or bundler code', () => {
    const { manifest, files } = packages.runtime;
    expect(manifest.dependencies ?? {}).toEqual({});
    for (const peer of Object.keys(manifest.peerDependencies ?? {}))
      expect(manifest.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
    expect(files.map((f) => f.path).filter((p) => /^(compiler|vite-plugin|bin)\//.test(p))).toEqual([]);
    const pkg = manifest as { readonly type?: string; readonly sideEffects?: boolean };
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
  });

  it('zhin-gen depends on the runtime at its own version and ships no runtime sources of its own', () => {
    const { manifest, files } = packages.zhinGen;
    expect(manifest.dependencies?.['@zhin-gen/runtime']).toBe(packages.runtime.version);
    expect(packages.runtime.version).toBe(manifest.version);
    expect(files.map((f) => f.path).filter((p) => p.startsWith('runtime/') || p.startsWith('dist/runtime/'))).toEqual(
      [],
    );
  });
});
