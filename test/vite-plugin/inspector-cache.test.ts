/**
 * The dev inspector on a dev server whose first run found nothing to do: the model it shows is
 * built from the unit cache's bodies when the page first asks. Bodies another process replaced
 * in between (a `zhin-gen generate` in another terminal) must give the page a fresh run's model,
 * not a failed request.
 */
import { afterAll, expect, it } from 'vitest';
import { createServer } from 'vite';
import { defaultCacheFile } from '../../compiler/cache/unit-entry.js';
import { createCompiler } from '../../compiler/index.js';
import zhinVite from '../../vite-plugin/vite.js';
import { replaceBodiesInPlace } from '../compiler/cache/replaced-bodies.js';
import { removeDir, settleTree } from '../helpers.js';
import { BOT_TOOLS, devConfig, makeBot } from './fixture.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

it('serves a fresh run’s report when the bodies behind a vouched first run were replaced', async () => {
  const root = makeBot('inspector-cache');
  dirs.push(root);
  settleTree(root);
  // Generated, then the tree record written by a run that found nothing to do.
  for (let i = 0; i < 2; i++) {
    const compiler = createCompiler({ root });
    await compiler.run();
    await compiler.dispose();
  }
  replaceBodiesInPlace(defaultCacheFile(root)!);
  const runs: number[] = [];
  const server = await createServer(
    devConfig(root, { plugins: [zhinVite({ onRun: (result) => void runs.push(result.stats.parsed) })] }),
  );
  await server.listen();
  try {
    const response = await fetch(`${server.resolvedUrls!.local[0]}__zhin-gen/data.json`);
    expect(response.status).toBe(200);
    const data = (await response.json()) as { tools: { name: string }[] };
    expect(data.tools.map((t) => t.name).sort()).toEqual([...BOT_TOOLS].sort());
    // The first run was vouched (nothing parsed); the page's request made a second, which parsed.
    expect(runs[0]).toBe(0);
    expect(runs.length).toBeGreaterThan(1);
  } finally {
    await server.close();
  }
}, 60_000);
