/**
 * The layout store (compiler/scan/layout-store.ts): a fresh compiler whose walk lists what the
 * last one did takes the layout and units from `units.json.layout` instead of deriving them; its
 * output and diagnostics equal a cacheless run's for every edit kind. A planted layout of the
 * right key is believed (so the test fails if the store is never read); one of another key,
 * damaged or of a wrong shape is derived again, exactly. The file names paths by their position
 * in the walked list; every fixture's layout comes back from it exactly.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { buildLayout, collectUnits } from '../../../compiler/scan/layout.js';
import { layoutKey, LayoutStore } from '../../../compiler/scan/layout-store.js';
import { listDigest } from '../../../compiler/scan/inventory.js';
import { walkTree } from '../../../compiler/scan/walk.js';
import type { Diagnostic } from '../../../compiler/diagnostics.js';
import { copyFixture, FIXTURES, removeDir, settleTree, tempDir, toolSource, writeTree } from '../../helpers.js';

/** The store's file (layout format 2), as far as these tests ruin it. */
interface StoredFile {
  readonly plugins: readonly (readonly unknown[])[];
  readonly caps: readonly (number | string)[];
  readonly units: readonly (number | string | null)[];
  readonly diagnostics: readonly Diagnostic[];
  readonly unitDiagnostics: readonly unknown[];
}

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function setup(name: string): { root: string; cacheFile: string; store: string } {
  const root = copyFixture('example-bot', name);
  const cacheDir = tempDir(`${name}-cache`);
  dirs.push(root, cacheDir);
  // A layout diagnostic (a stray file in tools/) and a nested skill tool: both come from the store.
  writeTree(root, { 'tools/stray.ts': 'export {};\n' });
  settleTree(root);
  const cacheFile = join(cacheDir, 'units.json');
  return { root, cacheFile, store: `${cacheFile}.layout` };
}

async function cacheless(root: string) {
  const result = await createCompiler({ root, cacheFile: false }).run({ write: false });
  return { code: result.code, diagnostics: result.diagnostics, counts: result.counts };
}

async function cached(root: string, cacheFile: string) {
  const result = await createCompiler({ root, cacheFile }).run();
  return { code: result.code, diagnostics: result.diagnostics, counts: result.counts };
}

/** Ways to ruin a store file; each must make it unusable. */
const DAMAGED: [string, (file: StoredFile) => unknown][] = [
  ['not JSON', () => '{"version'],
  ['another key', (file) => ({ ...file, key: '0' })],
  ['a unit of an unknown directory', (file) => ({ ...file, units: [99_999, ...file.units.slice(1)] })],
  ['a unit of an unknown plugin', (file) => ({ ...file, units: [file.units[0], 7, ...file.units.slice(2)] })],
  [
    'a placement code out of range',
    (file) => ({ ...file, units: [...file.units.slice(0, 2), 9, ...file.units.slice(3)] }),
  ],
  [
    'a unit entry outside its files',
    (file) => ({ ...file, units: [...file.units.slice(0, 5), file.caps[1], ...file.units.slice(6)] }),
  ],
  ['units not in sixes', (file) => ({ ...file, units: file.units.slice(1) })],
  ['a capability of an unknown kind', (file) => ({ ...file, caps: [7, ...file.caps.slice(1)] })],
  ['a position past the list', (file) => ({ ...file, caps: [file.caps[0], 1e9, ...file.caps.slice(2)] })],
  ['a name where a position is', (file) => ({ ...file, caps: [file.caps[0], 'length', ...file.caps.slice(2)] })],
  [
    'a count past the end',
    (file) => ({ ...file, caps: [...file.caps.slice(0, 2), file.caps.length, ...file.caps.slice(3)] }),
  ],
  [
    'a count that is not an integer',
    (file) => ({ ...file, caps: [...file.caps.slice(0, 2), 0.5, ...file.caps.slice(3)] }),
  ],
  ['values after the last capability', (file) => ({ ...file, caps: [...file.caps, 0] })],
  ['a plugin of the wrong shape', (file) => ({ ...file, plugins: [[1], ...file.plugins.slice(1)] })],
  [
    'a nesting deeper than the stack',
    (file) => ({
      ...file,
      // One more capability under the root plugin: a chain of 200,000 single children.
      plugins: [[...file.plugins[0]!.slice(0, 4), (file.plugins[0]![4] as number) + 1], ...file.plugins.slice(1)],
      caps: [
        ...Array.from({ length: 200_000 }, () => [0, file.caps[1], 0, 0, 1]).flat(),
        0,
        file.caps[1],
        0,
        0,
        0,
        ...file.caps,
      ],
    }),
  ],
  ['a diagnostic of the wrong shape', (file) => ({ ...file, unitDiagnostics: [{ code: 'nope' }] })],
];

const TOOL = toolSource(`{ description: 'Added later', async execute() { return 1; } }`);

describe('the layout store', () => {
  it('serves a fresh compiler the layout of the same list; every edit equals a cacheless run', async () => {
    const { root, cacheFile, store } = setup('layout-store-edits');
    expect(await cached(root, cacheFile)).toEqual(await cacheless(root));
    expect(existsSync(store)).toBe(true);
    const edits: [string, () => void][] = [
      [
        'a tool edited',
        () =>
          writeFileSync(
            join(root, 'tools/echo/index.ts'),
            readFileSync(join(root, 'tools/echo/index.ts'), 'utf8').replace('Echo', 'Echo it'),
          ),
      ],
      ['a tool added', () => writeTree(root, { 'tools/later/index.ts': TOOL })],
      [
        'a tool renamed',
        () => {
          writeTree(root, { 'tools/later-two/index.ts': TOOL });
          rmSync(join(root, 'tools/later'), { recursive: true });
        },
      ],
      ['a tool removed', () => rmSync(join(root, 'tools/later-two'), { recursive: true })],
      ['the stray file removed', () => rmSync(join(root, 'tools/stray.ts'))],
    ];
    for (const [what, apply] of edits) {
      apply();
      settleTree(root);
      expect(await cached(root, cacheFile), what).toEqual(await cacheless(root));
    }
  });

  it('is believed when its key matches (so it is read), and derived again when it is not usable', async () => {
    const { root, cacheFile, store } = setup('layout-store-planted');
    await cached(root, cacheFile);
    const data = JSON.parse(readFileSync(store, 'utf8')) as StoredFile;
    const layoutProblems = data.diagnostics.map((d) => `${d.code} ${d.file}`);
    expect(layoutProblems.length).toBeGreaterThan(0);
    const expected = await cacheless(root);
    const total = (counts: typeof expected.counts): number =>
      counts.tools + counts.skills + counts.agents + counts.promptSections + counts.hooks;
    // A planted layout of the right key and shape whose last unit is left out, without the
    // layout's diagnostics: a run that reads the store reports one capability fewer, and none of them.
    writeFileSync(store, JSON.stringify({ ...data, units: data.units.slice(0, -6), diagnostics: [] }));
    writeTree(root, {
      'tools/echo/index.ts': readFileSync(join(root, 'tools/echo/index.ts'), 'utf8').replace('Echo', 'Echo two'),
    });
    settleTree(root);
    const believed = await createCompiler({ root, cacheFile }).run({ write: false });
    expect(total(believed.counts)).toBe(total(expected.counts) - 1);
    const reported = believed.diagnostics.map((d) => `${d.code} ${d.file}`);
    for (const problem of layoutProblems) expect(reported).not.toContain(problem);

    const fresh = await cacheless(root);
    // The planted store goes: each case below ruins the store a run with the true layout wrote.
    rmSync(store);
    for (const [what, ruin] of DAMAGED) {
      await cached(root, cacheFile);
      const before = readFileSync(store, 'utf8');
      const ruined = ruin(JSON.parse(before) as StoredFile);
      writeFileSync(store, typeof ruined === 'string' ? ruined : JSON.stringify(ruined));
      expect(readFileSync(store, 'utf8'), what).not.toBe(before);
      expect(await cached(root, cacheFile), what).toEqual(fresh);
    }
  });

  it('restores exactly what buildLayout and collectUnits give, file arrays shared with their directory', () => {
    const dir = tempDir('layout-store-unit');
    dirs.push(dir);
    const list = [
      'AGENTS.md',
      'plugins/',
      'plugins/maps/',
      'plugins/maps/tools/',
      'plugins/maps/tools/where/',
      'plugins/maps/tools/where/index.ts',
      'skills/',
      'skills/a/',
      'skills/a/SKILL.md',
      'skills/a/tools/',
      'skills/a/tools/t/',
      'skills/a/tools/t/index.ts',
      'tools/',
      'tools/Bad Name/',
      'tools/Bad Name/index.ts',
      'tools/x.ts',
    ];
    const layout = buildLayout(list, ['plugin.ts'], []);
    const derived = { layout, units: collectUnits(layout) };
    const store = new LayoutStore(join(dir, 'units.json.layout'));
    const key = layoutKey(listDigest(list), ['plugin.ts'], []);
    store.save(key, derived, list);
    const loaded = new LayoutStore(store.file).load(key, list);
    expect(loaded).toEqual(derived);
    // Every path is stored as its position in the list: no path text in the file.
    const text = readFileSync(store.file, 'utf8');
    expect(text).not.toContain('tools/t/index.ts');
    for (const [what, ruin] of DAMAGED) {
      const ruined = ruin(JSON.parse(text) as StoredFile);
      writeFileSync(store.file, typeof ruined === 'string' ? ruined : JSON.stringify(ruined));
      expect(new LayoutStore(store.file).load(key, list), what).toBeUndefined();
    }
    writeFileSync(store.file, text);
    const skillTool = loaded!.units.units.find((u) => u.dir === 'skills/a/tools/t')!;
    const cap = loaded!.layout.plugins[0]!.caps.find((c) => c.dir === 'skills/a')!.children[0]!;
    expect(skillTool.files).toBe(cap.files);
    expect(new LayoutStore(store.file).load(layoutKey(listDigest(list), ['plugin.mts'], []), list)).toBeUndefined();
    const longer = [...list, 'tools/y.ts'];
    expect(new LayoutStore(store.file).load(layoutKey(listDigest(longer), ['plugin.ts'], []), longer)).toBeUndefined();
  });

  it('writes nothing for a list that lacks a directory its layout names', () => {
    const dir = tempDir('layout-store-partial');
    dirs.push(dir);
    // A list of files without their directories (a hand-made inventory): nothing to point at.
    const list = ['tools/a/index.ts', 'tools/b/index.ts'];
    const layout = buildLayout(list, ['plugin.ts'], []);
    const store = new LayoutStore(join(dir, 'units.json.layout'));
    store.save(layoutKey(listDigest(list), ['plugin.ts'], []), { layout, units: collectUnits(layout) }, list);
    expect(existsSync(store.file)).toBe(false);
  });

  it('round-trips the layout of every fixture tree, as walked', () => {
    const dir = tempDir('layout-store-fixtures');
    dirs.push(dir);
    const cases = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(cases.length).toBeGreaterThan(20);
    for (const { name } of cases) {
      const root = join(FIXTURES, name);
      const { paths } = walkTree({ root, pluginEntry: ['plugin.ts'], allowed: [], outFile: `${root}/out.ts` });
      for (const extra of [[], [{ owner: 'extra', dir: 'tools' }]]) {
        const layout = buildLayout(paths, ['plugin.ts'], extra);
        const derived = { layout, units: collectUnits(layout) };
        const store = new LayoutStore(join(dir, `${name}-${extra.length}.layout`));
        const key = layoutKey(listDigest(paths), ['plugin.ts'], extra);
        store.save(key, derived, paths);
        expect(new LayoutStore(store.file).load(key, paths), name).toEqual(derived);
      }
    }
  });
});
