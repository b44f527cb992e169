/**
 * Hot updates of the generated modules in a real Vite dev server with a sharded tool table: the
 * plugin sends the update for a rewritten shard as soon as the run ends, Vite's watcher does not
 * watch the generated modules (no second invalidation, no second update), the client gets one
 * update and then the new shard; a shard another process rewrote is updated after the plugin's
 * next run.
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

  it('a rewritten shard gets one update, sent by the plugin; Vite’s watcher never reports the write', async () => {
    const shard = shards().find((f) => readManifest(root, `${DIR}/${f}`).includes('"qualifiedName":"bulk-7"'))!;
    const before = hmr.messages.length;
    later.length = 0;
    writeTree(root, { 'tools/bulk-7/index.ts': plainTool('Bulk tool seven, edited') });
    const [update] = await waitFor(() => updates(before).length > 0 && updates(before), 'an HMR update');
    expect(update).toMatchObject({ type: 'update', updates: [expect.objectContaining({ path: '/src/main.ts' })] });
    await sleep(400);
    // Vite's watcher no longer watches the served shard (search.ts, never served here, it still does).
    expect(later.filter((e) => e.file.endsWith(shard))).toEqual([]);
    expect(updates(before)).toHaveLength(1);
    // The client's re-import gets the new shard.
    const url = `/${DIR}/${shard}?t=${update!.updates![0]!.timestamp}`;
    expect(await (await fetch(`http://127.0.0.1:${port}${url}`)).text()).toContain('Bulk tool seven, edited');
  });

  it('a shard edited by hand is served as the next run leaves it on disk', async () => {
    await load(`?t=${Date.now()}`);
    const other = shards().find((f) => !readManifest(root, `${DIR}/${f}`).includes('"qualifiedName":"bulk-9"'))!;
    const file = join(root, DIR, other);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexport const writer = "edited by hand";\n`);
    await sleep(300);
    const before = hmr.messages.length;
    writeTree(root, { 'tools/bulk-9/index.ts': plainTool('Bulk tool nine, edited') });
    await waitFor(() => readManifest(root, `${DIR}/${other}`) !== '' && updates(before).length > 0, 'an update');
    await sleep(300);
    const latest = updates(before).at(-1)!.updates![0]!.timestamp;
    const served = await (await fetch(`http://127.0.0.1:${port}/${DIR}/${other}?t=${latest}`)).text();
    // The run repairs a generated module edited in place (its seal); either way the client gets the disk's bytes.
    expect(served.includes('edited by hand')).toBe(readManifest(root, `${DIR}/${other}`).includes('edited by hand'));
  });
});
