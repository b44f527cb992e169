/**
 * The layout store (compiler/scan/layout-store.ts): a fresh compiler whose walk lists what the
 * last one did takes the layout and units from `units.json.layout` instead of deriving them; its
 * output and diagnostics equal a cacheless run's for every edit kind. A planted layout of the
 * right key is believed (so the test fails if the store is never read); one of another key,
 * damaged or of a wrong shape is derived again, exactly.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCompiler } from '../../../compiler/index.js';
import { buildLayout, collectUnits } from '../../../compiler/scan/layout.js';
import { layoutKey, LayoutStore } from '../../../compiler/scan/layout-store.js';
import { copyFixture, removeDir, settleTree, tempDir, toolSource, writeTree } from '../../helpers.js';

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
    const data = JSON.parse(readFileSync(store, 'utf8')) as {
      units: { dir: string }[];
      layout: { diagnostics: { code: string; file: string }[] };
    };
    const layoutProblems = data.layout.diagnostics.map((d) => `${d.code} ${d.file}`);
    expect(layoutProblems.length).toBeGreaterThan(0);
    const expected = await cacheless(root);
    // A planted layout whose units leave out tools/echo (of the right key and shape): a run that
    // reads the store reports one tool fewer, and none of the layout's diagnostics.
    const planted = structuredClone(data);
    planted.units = planted.units.filter((u) => u.dir !== 'tools/echo');
    planted.layout.diagnostics = [];
    writeFileSync(store, JSON.stringify(planted));
    writeTree(root, {
      'tools/echo/index.ts': readFileSync(join(root, 'tools/echo/index.ts'), 'utf8').replace('Echo', 'Echo two'),
    });
    settleTree(root);
    const believed = await createCompiler({ root, cacheFile }).run({ write: false });
    expect(believed.counts.tools).toBe(expected.counts.tools - 1);
    const reported = believed.diagnostics.map((d) => `${d.code} ${d.file}`);
    for (const problem of layoutProblems) expect(reported).not.toContain(problem);

    const fresh = await cacheless(root);
    const damaged: [string, (text: string) => string][] = [
      ['not JSON', () => '{"version'],
      ['another key', (text) => text.replace(/"key":"[0-9a-f]+"/, '"key":"0"')],
      ['a unit of an unknown directory', (text) => text.replace('"dir":"tools/echo"', '"dir":"tools/nowhere"')],
      ['a capability of an unknown kind', (text) => text.replace('"kind":"tool"', '"kind":"widget"')],
      ['files that are not strings', (text) => text.replace(/"files":\["tools\/echo\/index.ts"\]/, '"files":[1]')],
      ['a diagnostic of the wrong shape', (text) => text.replace(/"code":"ZG\d+"/, '"code":"nope"')],
      [
        'a unit entry outside its files',
        (text) => text.replace('"entry":"tools/echo/index.ts"', '"entry":"tools/x.ts"'),
      ],
    ];
    for (const [what, ruin] of damaged) {
      await cached(root, cacheFile);
      const text = readFileSync(store, 'utf8');
      const ruined = ruin(text);
      expect(ruined, what).not.toBe(text);
      writeFileSync(store, ruined);
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
    const key = layoutKey(list, ['plugin.ts'], []);
    store.save(key, derived);
    const loaded = new LayoutStore(store.file).load(key);
    expect(loaded).toEqual(derived);
    const skillTool = loaded!.units.units.find((u) => u.dir === 'skills/a/tools/t')!;
    const cap = loaded!.layout.plugins[0]!.caps.find((c) => c.dir === 'skills/a')!.children[0]!;
    expect(skillTool.files).toBe(cap.files);
    expect(new LayoutStore(store.file).load(layoutKey(list, ['plugin.mts'], []))).toBeUndefined();
    expect(new LayoutStore(store.file).load(layoutKey([...list, 'tools/y.ts'], ['plugin.ts'], []))).toBeUndefined();
  });
});
