/**
 * Hot updates of the generated modules in a real Vite dev server with a sharded tool table: the
 * plugin sends the update for a rewritten shard as soon as the run ends, Vite's watcher event for
 * that same write reaches later plugins with no modules (no second update), the client gets one
 * update and then the new shard; a generated file written by someone else still takes Vite's
 * normal path.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import zhinVite from '../../vite-plugin/vite.js';
import { removeDir, writeTree } from '../helpers.js';
import { connectHmr, makeBot, plainTool, readManifest, sleep, waitFor, type HmrClient } from './fixture.js';

const DIR = 'zhin-capabilities.gen.validators';

describe('vite dev server: hot updates of the generated modules', () => {
  let root: string;
  let server: ViteDevServer;
  let hmr: HmrClient;
  let port: number;
  /** What plugins after zhin-gen see in `hotUpdate` for generated files: the file and its modules. */
  const later: { file: string; modules: number }[] = [];
  const observer: Plugin = {
    name: 'observe-hot-updates',
    hotUpdate(options) {
      if (this.environment.name === 'client' && options.file.includes(DIR))
        later.push({ file: options.file, modules: options.modules.length });
    },
  };
  const shards = (): string[] => readdirSync(join(root, DIR)).filter((f) => f.startsWith('tools-'));
  const updates = (from: number) =>
    hmr.messages.slice(from).filter((m) => m.type === 'update' || m.type === 'full-reload') as {
      type: string;
      updates?: { path: string; timestamp: number }[];
    }[];
  /** A browser's requests for the whole graph (entry, virtual module, main module, every shard). */
  const load = async (query = ''): Promise<void> => {
    const urls = ['/src/main.ts', '/@id/__x00__virtual:zhin-capabilities', '/zhin-capabilities.gen.ts'];
    for (const url of [...urls, ...shards().map((f) => `/${DIR}/${f}`)]) {
      const response = await fetch(`http://127.0.0.1:${port}${url}${query}`);
      expect(response.status, url).toBe(200);
      await response.text();
    }
  };

  beforeAll(async () => {
    const bulk: Record<string, string> = {};
    for (let i = 0; i < 80; i++) bulk[`tools/bulk-${i}/index.ts`] = plainTool(`Bulk tool ${i}`);
    root = makeBot('vite-dev-generated-hmr', bulk);
    server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [zhinVite(), observer],
      server: { port: 0, strictPort: false, host: '127.0.0.1' },
    });
    await server.listen();
    const address = server.httpServer!.address();
    port = typeof address === 'object' && address ? address.port : 0;
    hmr = await connectHmr(`ws://127.0.0.1:${port}/?token=${server.config.webSocketToken}`);
    expect(shards().length).toBeGreaterThan(1);
    await load();
  });

  afterAll(async () => {
    hmr?.close();
    await server?.close();
    removeDir(root);
  });

  it('a rewritten shard gets one update, sent by the plugin; the watcher event for it is dropped', async () => {
    const shard = shards().find((f) => readManifest(root, `${DIR}/${f}`).includes('"qualifiedName":"bulk-7"'))!;
    const before = hmr.messages.length;
    later.length = 0;
    writeTree(root, { 'tools/bulk-7/index.ts': plainTool('Bulk tool seven, edited') });
    const [update] = await waitFor(() => updates(before).length > 0 && updates(before), 'an HMR update');
    expect(update).toMatchObject({ type: 'update', updates: [expect.objectContaining({ path: '/src/main.ts' })] });
    // Vite's watcher reports the write too; by then the update is out, so it brings no modules.
    await waitFor(() => later.find((e) => e.file.endsWith(shard)), "Vite's watcher event for the shard");
    await sleep(300);
    expect(later.filter((e) => e.file.endsWith(shard))).toEqual([{ file: join(root, DIR, shard), modules: 0 }]);
    expect(updates(before)).toHaveLength(1);
    // The client's re-import gets the new shard.
    const url = `/${DIR}/${shard}?t=${update!.updates![0]!.timestamp}`;
    expect(await (await fetch(`http://127.0.0.1:${port}${url}`)).text()).toContain('Bulk tool seven, edited');
  });

  it('a generated file written by someone else takes Vite’s normal path', async () => {
    await load(`?t=${Date.now()}`);
    const shard = shards()[0]!;
    const file = join(root, DIR, shard);
    const before = hmr.messages.length;
    later.length = 0;
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n// edited by hand\n`);
    await waitFor(() => updates(before).length > 0, 'an HMR update from Vite');
    expect(later.filter((e) => e.file === file)).toEqual([{ file, modules: 1 }]);
  });
});
