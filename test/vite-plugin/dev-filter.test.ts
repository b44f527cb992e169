/**
 * Which file events reach the compiler in a real Vite dev server. A plain app edit (a `src/`
 * module no tool imports, the root's index.html) starts no compiler run while Vite's own HMR
 * still updates the app; an edit to a `src/` module a tool's schema imports regenerates, both
 * when the dependency came from the cache of an earlier process (the dev server restarted) and
 * when a tool started importing the module during this session.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { type CompileResult, createCompiler } from '../../compiler/index.js';
import zhinVite from '../../vite-plugin/vite.js';
import { removeDir, writeTree } from '../helpers.js';
import { connectHmr, makeBot, manifestTools, readManifest, sleep, waitFor, type HmrClient } from './fixture.js';

const SHARED = (max: number): string => `import { z } from 'zod';\nexport const city = z.string().max(${max});\n`;

const cityTool = (from: string): string => `import { defineAgentTool } from '@zhin.js/tool';
import { z } from 'zod';
import { city } from '${from}';

export default defineAgentTool({
  description: 'Find a city',
  inputSchema: z.object({ city }),
  async execute(input) {
    return input;
  },
});
`;

const PLAIN = (n: number): string => `export const plain = ${n};\n`;

describe('vite dev server: which edits run the compiler', () => {
  let root: string;
  let server: ViteDevServer;
  let hmr: HmrClient;
  const runs: CompileResult[] = [];
  /** Paths Vite's watcher reported (the app's own edits are seen by Vite either way). */
  const seen: string[] = [];

  /** Writes a file, waits until Vite's watcher saw it and the plugin's quiet period is long over. */
  const editAndSettle = async (rel: string, text: string): Promise<void> => {
    const abs = join(root, rel);
    const from = seen.length;
    writeFileSync(abs, text);
    await waitFor(() => seen.slice(from).includes(abs), `Vite's watcher reporting ${rel}`);
    await sleep(400);
  };

  beforeAll(async () => {
    root = makeBot('vite-dev-filter', {
      'tools/find-city/index.ts': cityTool('../../src/shared.js'),
      'src/shared.ts': SHARED(5),
      'src/plain.ts': PLAIN(0),
      'src/extra.ts': SHARED(7),
      'index.html': '<!doctype html><script type="module" src="/src/main.ts"></script>\n',
    });
    // An earlier process leaves the unit cache: the dev server's first run is served from it.
    const warm = createCompiler({ root });
    expect((await warm.run({ write: true })).errors).toBe(0);
    await warm.dispose();
    server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [zhinVite({ onRun: (result) => runs.push(result) })],
      server: { port: 0, strictPort: false, host: '127.0.0.1' },
    });
    await server.listen();
    server.watcher.on('all', (_type: string, path: string) => seen.push(path));
    const address = server.httpServer!.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    hmr = await connectHmr(`ws://127.0.0.1:${port}/?token=${server.config.webSocketToken}`);
    await waitFor(() => runs.length > 0, 'the first run');
    expect(runs[0]!.stats.parsed).toBe(0);
    expect(readManifest(root, 'zhin-capabilities.gen.ts')).toContain('"maxLength":5');
  });

  afterAll(async () => {
    hmr?.close();
    await server?.close();
    removeDir(root);
  });

  it('a src/ module no tool imports, and index.html, start no run', async () => {
    const before = runs.length;
    await editAndSettle('src/plain.ts', PLAIN(1));
    await editAndSettle(
      'index.html',
      '<!doctype html><title>edited</title><script type="module" src="/src/main.ts"></script>\n',
    );
    expect(runs.length).toBe(before);
  });

  it('a src/ module a tool schema imports (known from the earlier process) regenerates', async () => {
    writeFileSync(join(root, 'src/shared.ts'), SHARED(9));
    await waitFor(() => readManifest(root).includes('"maxLength":9'), 'the new maxLength in the manifest');
    expect(runs.at(-1)!.stats.parsed).toBe(1);
  });

  it('a tool that starts importing a src/ module makes that module an input from then on', async () => {
    writeTree(root, { 'tools/find-city/index.ts': cityTool('../../src/extra.js') });
    await waitFor(() => readManifest(root).includes('"maxLength":7'), 'the tool with the other import');
    writeFileSync(join(root, 'src/extra.ts'), SHARED(11));
    await waitFor(() => readManifest(root).includes('"maxLength":11'), 'the edit of the newly imported module');
    // The module it no longer imports is a plain app file again.
    const before = runs.length;
    await editAndSettle('src/shared.ts', SHARED(3));
    await editAndSettle('src/plain.ts', PLAIN(2));
    expect(runs.length).toBe(before);
    expect(manifestTools(root)).toContain('find-city');
  });
});
