/**
 * A real Vite dev server (listening on a random port) with a real WebSocket client on its HMR
 * socket, driven by editing files on disk: create a tool, change a schema, introduce an error
 * (overlay payload with file/line/column), fix it (overlay cleared), delete a tool, change the
 * config; a 200-file burst coalesces; the plugin's own output never triggers a run; the dev
 * server keeps serving the last good manifest throughout (checked through the SSR module runner).
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createServer, type Logger, type Plugin, type ViteDevServer } from 'vite';
import type { CompileResult } from '../../compiler/index.js';
import zhinVite from '../../vite-plugin/vite.js';
import { removeDir, writeTree } from '../helpers.js';
import {
  BOT_TOOLS,
  connectHmr,
  devConfig,
  makeBot,
  manifestTools,
  plainTool,
  readManifest,
  sleep,
  tool,
  waitFor,
  type HmrClient,
} from './fixture.js';

interface Run {
  readonly result: CompileResult;
  readonly trigger: string;
}

/** A Vite logger that keeps what the plugin prints (`[zhin-gen] …` lines, by level). */
function keepLogs(logs: string[]): Logger {
  const logger = createLogger('silent');
  const keep = (level: string) => (message: string) => void logs.push(`${level} ${message}`);
  return { ...logger, info: keep('info'), warn: keep('warn'), warnOnce: keep('warn'), error: keep('error') };
}

async function startDev(
  root: string,
  runs: Run[],
  plugins: Plugin[] = [],
  logs: string[] = [],
): Promise<{ server: ViteDevServer; hmr: HmrClient; port: number }> {
  const server = await createServer(
    devConfig(root, {
      plugins: [zhinVite({ onRun: (result, trigger) => runs.push({ result, trigger }) }), ...plugins],
      customLogger: keepLogs(logs),
    }),
  );
  await server.listen();
  const address = server.httpServer!.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const hmr = await connectHmr(`ws://127.0.0.1:${port}/?token=${server.config.webSocketToken}`);
  return { server, hmr, port };
}

/** Requests the entry, the virtual module and the manifest like a browser would (client module graph). */
async function browse(port: number): Promise<void> {
  for (const url of ['/src/main.ts', '/@id/__x00__virtual:zhin-capabilities', '/zhin-capabilities.gen.ts']) {
    const response = await fetch(`http://127.0.0.1:${port}${url}`);
    expect(response.status, url).toBe(200);
    await response.text();
  }
}

const updatesOf = (hmr: HmrClient, from: number): { type: string; updates?: { path: string }[] }[] =>
  hmr.messages.slice(from).filter((m) => m.type === 'update' || m.type === 'full-reload') as never;

describe('vite dev server', () => {
  let root: string;
  let server: ViteDevServer;
  let hmr: HmrClient;
  let port: number;
  const runs: Run[] = [];
  const logs: string[] = [];
  const watchRuns = (): Run[] => runs.filter((r) => r.trigger === 'watch');

  beforeAll(async () => {
    root = makeBot('vite-dev');
    ({ server, hmr, port } = await startDev(root, runs, [], logs));
    await browse(port);
  });

  afterAll(async () => {
    hmr?.close();
    await server?.close();
    removeDir(root);
  });

  it('generates on start and serves the manifest through the virtual module (SSR module runner)', async () => {
    expect(runs[0]?.trigger).toBe('build');
    expect(manifestTools(root)).toEqual([...BOT_TOOLS].sort());
    const main = (await server.ssrLoadModule('/src/main.ts')) as {
      call(name: string, input: unknown): Promise<unknown>;
    };
    expect(await main.call('echo', { message: 'dev' })).toBe('echo: dev');
  });

  it('creating a tool regenerates incrementally and hot-updates the importers', async () => {
    const before = hmr.messages.length;
    const runsBefore = watchRuns().length;
    writeTree(root, { 'tools/ping/index.ts': plainTool('Ping the bot') });
    await waitFor(() => manifestTools(root).includes('ping'), 'ping in the manifest');
    const run = await waitFor(
      () => watchRuns().find((r, i) => i >= runsBefore && r.result.written),
      'a written watch run',
    );
    expect(run.result.stats.parsed).toBe(1); // only the new unit was parsed
    const updates = await waitFor(() => updatesOf(hmr, before).length > 0 && updatesOf(hmr, before), 'an HMR update');
    expect(updates[0]).toMatchObject({ type: 'update', updates: [expect.objectContaining({ path: '/src/main.ts' })] });
    const virtual = (await server.ssrLoadModule('virtual:zhin-capabilities')) as {
      manifest: { tools: { qualifiedName: string }[] };
    };
    expect(virtual.manifest.tools.map((t) => t.qualifiedName)).toContain('ping');
  });

  it('changing a schema re-parses that tool only and rewrites the manifest', async () => {
    const runsBefore = watchRuns().length;
    writeTree(root, {
      'tools/echo/index.ts': tool(
        'Echo a message back',
        'z.object({ message: z.string(), times: z.number().int().min(1).optional() })',
      ),
    });
    await waitFor(() => readManifest(root).includes('"times":{"type":"integer"'), 'the new property in the schema');
    const written = watchRuns()
      .slice(runsBefore)
      .find((r) => r.result.written)!;
    expect(written.result.stats.parsed).toBe(1);
    expect(written.result.errors).toBe(0);
  });

  it('a second write within the watcher’s 50 ms throttle (a formatter after a save) still reaches the manifest', async () => {
    // Vite's chokidar reports the first write and drops the second; the plugin stamps the file
    // again after the window (vite-plugin/throttled-changes.ts). Each round writes twice ~10 ms apart.
    for (let round = 0; round < 3; round++) {
      const file = join(root, 'tools/echo/index.ts');
      writeFileSync(file, tool(`Echo saved ${round}`));
      await waitFor(() => readManifest(root).includes(`Echo saved ${round}`), `save ${round}`);
      writeFileSync(file, tool(`Echo first ${round}`));
      await sleep(10);
      writeFileSync(file, tool(`Echo formatted ${round}`));
      await waitFor(
        () => readManifest(root).includes(`Echo formatted ${round}`),
        `the second write of round ${round}`,
        5_000,
      );
      await sleep(100);
      expect(readManifest(root)).toContain(`Echo formatted ${round}`);
    }
  });

  it('an error shows in the overlay with file, line and column; the last good manifest keeps serving', async () => {
    const before = hmr.messages.length;
    const good = readManifest(root);
    writeTree(root, { 'tools/ping/index.ts': plainTool('   ') });
    const payload = (await waitFor(
      () => hmr.messages.slice(before).find((m) => m.type === 'error'),
      'an error payload',
    )) as unknown as {
      err: {
        message: string;
        id: string;
        plugin: string;
        pluginCode: string;
        loc: { file: string; line: number; column: number };
        frame: string;
        stack: string;
      };
    };
    const file = join(root, 'tools', 'ping', 'index.ts');
    expect(payload.err).toMatchObject({
      plugin: 'zhin-gen',
      pluginCode: 'ZG2004',
      id: file,
      stack: '',
      loc: { file, line: 4, column: 15 },
    });
    expect(payload.err.message).toContain('tools/ping/index.ts:4:16  error  ZG2004');
    expect(payload.err.message).toContain('hint:');
    expect(payload.err.frame).toContain('> 4 |   description: "   ",');
    // Nothing written; the server still serves the last good manifest.
    expect(readManifest(root)).toBe(good);
    const virtual = (await server.ssrLoadModule('virtual:zhin-capabilities')) as {
      manifest: { tools: { qualifiedName: string }[] };
    };
    expect(virtual.manifest.tools.map((t) => t.qualifiedName)).toContain('ping');
    const response = await fetch(`http://127.0.0.1:${port}/src/main.ts`);
    expect(response.status).toBe(200);
  });

  it('a client connecting while the error persists gets the overlay too', async () => {
    const late = await connectHmr(`ws://127.0.0.1:${port}/?token=${server.config.webSocketToken}`);
    try {
      const payload = await waitFor(
        () => late.messages.find((m) => m.type === 'error'),
        'the overlay for a late client',
      );
      expect(JSON.stringify(payload)).toContain('ZG2004');
    } finally {
      late.close();
    }
  });

  it('fixing the error clears the overlay (an update follows the error), and the terminal says so', async () => {
    const before = hmr.messages.length;
    const logged = logs.length;
    writeTree(root, { 'tools/ping/index.ts': plainTool('Ping the bot') });
    // The manifest bytes equal the last good ones: nothing is rewritten, the overlay still clears.
    const clear = await waitFor(
      () => hmr.messages.slice(before).find((m) => m.type === 'update' || m.type === 'full-reload'),
      'an overlay-clearing message',
    );
    expect(clear).toMatchObject({ type: 'update' });
    expect(hmr.messages.slice(before).some((m) => m.type === 'error')).toBe(false);
    expect(watchRuns().at(-1)!.result.errors).toBe(0);
    // Not written (the bytes are the last good ones), yet the error's last words are not the last.
    expect(watchRuns().at(-1)!.result.written).toBe(false);
    expect(logs.slice(logged)).toEqual([expect.stringMatching(/^info \[zhin-gen\] zhin-gen: 5 tools.*\(unchanged\)/)]);
  });

  it('deleting a tool removes it from the manifest and hot-updates', async () => {
    const before = hmr.messages.length;
    rmSync(join(root, 'tools', 'ping'), { recursive: true });
    await waitFor(() => !manifestTools(root).includes('ping'), 'ping removed');
    await waitFor(() => updatesOf(hmr, before).length > 0, 'an HMR update');
    expect(manifestTools(root)).toEqual([...BOT_TOOLS].sort());
  });

  it('its own output never triggers a run', async () => {
    await sleep(300);
    const count = runs.length;
    // Touch the output like a write would (and a temp file like the atomic writer's).
    writeFileSync(join(root, 'zhin-capabilities.gen.ts'), readManifest(root));
    writeFileSync(join(root, 'zhin-capabilities.gen.ts.123.abc.tmp'), 'x');
    rmSync(join(root, 'zhin-capabilities.gen.ts.123.abc.tmp'));
    await sleep(400);
    expect(runs.length).toBe(count);
  });

  // An `rm` or a `git clean` of the output while the server runs (vite-plugin/output-removal.ts):
  // before, nothing saw it, and the server served an empty manifest until an unrelated edit.
  it('writes the manifest and its generated folder again when they are removed', async () => {
    await sleep(300);
    const written = readManifest(root);
    const folder = join(root, 'zhin-capabilities.gen.validators');
    expect(existsSync(folder)).toBe(true);
    for (const path of ['zhin-capabilities.gen.ts', 'zhin-capabilities.gen.validators']) {
      const count = watchRuns().length;
      rmSync(join(root, path), { recursive: true });
      await waitFor(
        () => watchRuns().length > count && readManifest(root) === written && existsSync(folder),
        `${path} written again`,
      );
    }
    expect(manifestTools(root)).toEqual([...BOT_TOOLS].sort());
  });

  it('writes a module of the generated folder again when it is removed or edited in place', async () => {
    await sleep(300);
    const folder = join(root, 'zhin-capabilities.gen.validators');
    const module = join(folder, 'search.ts');
    const written = readFileSync(module, 'utf8');
    for (const [what, act] of [
      ['removed', () => rmSync(module)],
      ['edited in place', () => appendFileSync(module, '// edited\n')],
    ] as const) {
      const count = watchRuns().length;
      act();
      await waitFor(
        () => watchRuns().length > count && existsSync(module) && readFileSync(module, 'utf8') === written,
        `search.ts ${what}, written again`,
      );
    }
    await sleep(300);
    const count = watchRuns().length;
    await sleep(400);
    expect(watchRuns().length, 'the rewrite started no run of its own').toBe(count);
  });

  it('a config file change regenerates with the new options', async () => {
    writeTree(root, { 'zhin-gen.config.json': JSON.stringify({ importExtension: '.ts' }) });
    await waitFor(
      () => readManifest(root).includes('import("./tools/echo/index.ts")'),
      'the manifest with .ts imports',
    );
    rmSync(join(root, 'zhin-gen.config.json'));
    await waitFor(
      () => readManifest(root).includes('import("./tools/echo/index.js")'),
      'the manifest back to .js imports',
    );
  });

  it('a half-saved config that moves `out` keeps the virtual module on the last good manifest', async () => {
    const virtual = async () => (await fetch(`http://127.0.0.1:${port}/@id/__x00__virtual:zhin-capabilities`)).text();
    writeTree(root, { 'zhin-gen.config.json': JSON.stringify({ out: 'gen/caps.ts' }) });
    await waitFor(() => readManifest(root, 'gen/caps.ts').includes('import('), 'the manifest at gen/caps.ts');
    await waitFor(async () => (await virtual()).includes('/gen/caps.ts'), 'the virtual module on gen/caps.ts');
    const before = runs.length;
    writeFileSync(join(root, 'zhin-gen.config.json'), '{ "out": "gen/caps.ts", ');
    await waitFor(() => runs.length > before && runs.at(-1)!.result.errors > 0, 'the run with the config error');
    const served = await virtual();
    expect(served).toContain('/gen/caps.ts');
    expect(served).not.toContain('no manifest');
    rmSync(join(root, 'zhin-gen.config.json'));
    await waitFor(async () => (await virtual()).includes('/zhin-capabilities.gen.ts'), 'the default output again');
  });

  it('a burst of 200 files (a branch checkout) coalesces into at most three runs', async () => {
    await sleep(200);
    const before = watchRuns().length;
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) {
      const name = `bulk-${String(i).padStart(3, '0')}`;
      files[`tools/${name}/index.ts`] = plainTool(`Bulk tool ${i}`);
      files[`tools/${name}/helper.ts`] = `export const n = ${i};\n`;
    }
    writeTree(root, files);
    await waitFor(
      () => manifestTools(root).filter((n) => n.startsWith('bulk-')).length === 100,
      'all 100 bulk tools',
      60_000,
    );
    await sleep(300);
    const burstRuns = watchRuns().slice(before);
    expect(burstRuns.length).toBeGreaterThanOrEqual(1);
    expect(burstRuns.length).toBeLessThanOrEqual(3);
    // Cleanup as one burst too.
    for (let i = 0; i < 100; i++)
      rmSync(join(root, 'tools', `bulk-${String(i).padStart(3, '0')}`), { recursive: true });
    await waitFor(() => manifestTools(root).length === BOT_TOOLS.length, 'bulk tools removed', 60_000);
  });
});

describe('vite dev server with a sharded tool table', () => {
  it('an edit to one tool re-transforms its shard only, and HMR delivers the change', async () => {
    const bulk: Record<string, string> = {};
    for (let i = 0; i < 80; i++) bulk[`tools/bulk-${i}/index.ts`] = plainTool(`Bulk tool ${i}`);
    const root = makeBot('vite-dev-shards', bulk);
    const runs: Run[] = [];
    // What the client environment transforms: a soft-invalidated importer is not transformed again.
    const transformed: string[] = [];
    const counter: Plugin = {
      name: 'count-transforms',
      transform(_code, id) {
        if (this.environment.name === 'client') transformed.push(id);
      },
    };
    const { server, hmr, port } = await startDev(root, runs, [counter]);
    const dir = 'zhin-capabilities.gen.validators';
    const shards = () =>
      readdirSync(join(root, dir))
        .filter((f) => f.startsWith('tools-') && f.endsWith('.ts'))
        .map((f) => `/${dir}/${f}`);
    // Everything a browser loads: the entry, the virtual module, the main module and its shards.
    const load = async () => {
      await browse(port);
      for (const url of shards()) expect((await fetch(`http://127.0.0.1:${port}${url}`)).status, url).toBe(200);
    };
    try {
      expect(shards().length).toBeGreaterThan(1);
      await load();
      const shard = shards().find((url) => readManifest(root, url.slice(1)).includes('"qualifiedName":"bulk-5"'))!;
      const main = readManifest(root);
      const before = hmr.messages.length;
      transformed.length = 0;
      writeTree(root, { 'tools/bulk-5/index.ts': plainTool('Bulk tool five, edited') });
      await waitFor(() => readManifest(root, shard.slice(1)).includes('Bulk tool five, edited'), 'the edited shard');
      const updates = await waitFor(() => updatesOf(hmr, before).length > 0 && updatesOf(hmr, before), 'an HMR update');
      expect(updates[0]).toMatchObject({
        type: 'update',
        updates: [expect.objectContaining({ path: '/src/main.ts' })],
      });
      expect(readManifest(root)).toBe(main);
      await load();
      const generated = transformed.filter((id) => id.includes('zhin-capabilities.gen'));
      expect(generated.map((id) => id.slice(root.length))).toEqual([shard]);
      const virtual = (await server.ssrLoadModule('virtual:zhin-capabilities')) as {
        manifest: { tools: { qualifiedName: string; description: string }[] };
      };
      const tool = virtual.manifest.tools.find((t) => t.qualifiedName === 'bulk-5');
      expect(tool?.description).toBe('Bulk tool five, edited');
    } finally {
      hmr.close();
      await server.close();
      removeDir(root);
    }
  });
});

describe('vite dev server with its output in a folder of its own', () => {
  // On Linux a watch of a removed folder reports nothing more and no error: the folder made
  // again by the run is watched by its inode (vite-plugin/output-removal.ts).
  it('writes the output again after the folder holding it was removed, and again after that', async () => {
    const root = makeBot('vite-dev-out-folder', {
      'zhin-gen.config.json': JSON.stringify({ out: 'src/gen/caps.gen.ts' }),
    });
    const runs: Run[] = [];
    const { server, hmr } = await startDev(root, runs);
    const out = join(root, 'src/gen/caps.gen.ts');
    const watchRuns = (): number => runs.filter((r) => r.trigger === 'watch').length;
    try {
      await waitFor(() => existsSync(out), 'the first run');
      const written = readManifest(root, 'src/gen/caps.gen.ts');
      for (const path of ['src/gen', 'src/gen/caps.gen.ts', 'src/gen/caps.gen.validators']) {
        await sleep(200);
        const count = watchRuns();
        rmSync(join(root, path), { recursive: true });
        await waitFor(
          () => watchRuns() > count && readManifest(root, 'src/gen/caps.gen.ts') === written,
          `${path} removed, the output written again`,
        );
      }
    } finally {
      hmr.close();
      await server.close();
      removeDir(root);
    }
  });
});

describe('vite dev server with a schema module outside its root', () => {
  it('follows an edit of a workspace package module a tool schema imports', async () => {
    const root = makeBot('vite-dev-outside');
    // A sibling of the bot, as a monorepo's `packages/shared`: outside Vite's root and its watcher.
    const shared = `${root}-shared`;
    const name = shared.slice(shared.lastIndexOf('/') + 1);
    writeTree(shared, {
      'schema.ts': "import { z } from 'zod';\nexport const input = z.object({ q: z.string().max(1) });\n",
    });
    writeTree(root, {
      'tools/uses-shared/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';\nimport { input } from '../../../${name}/schema.js';\nexport default defineAgentTool({ description: 'Uses a shared schema', inputSchema: input, async execute() { return 'ok'; } });\n`,
    });
    const runs: Run[] = [];
    const { server, hmr } = await startDev(root, runs);
    try {
      expect(runs[0]!.result.errors).toBe(0);
      expect(manifestTools(root)).toContain('uses-shared');
      const limit = (n: number): string => `"maxLength":${n}`;
      const generated = (): string => readManifest(root);
      expect(generated()).toContain(limit(1));
      writeTree(shared, {
        'schema.ts': "import { z } from 'zod';\nexport const input = z.object({ q: z.string().max(2) });\n",
      });
      await waitFor(() => generated().includes(limit(2)), 'the edit of the module outside the root');
    } finally {
      hmr.close();
      await server.close();
      removeDir(root);
      removeDir(shared);
    }
  });
});

describe('vite dev server with a workspace package that ships its manifest', () => {
  it('reads the package again when its build rewrites a module its manifest imports', async () => {
    const root = makeBot('vite-dev-shipped');
    // The package's own folder, linked into the bot's node_modules as a workspace links it.
    const pkg = `${root}-geo`;
    const shard = (placement: string): string =>
      `export default [{ qualifiedName: 'weather', placement: '${placement}' }];\n`;
    writeTree(pkg, {
      'package.json': JSON.stringify({
        name: 'geo-plugin',
        type: 'module',
        exports: { './zhin-capabilities': { import: './dist/zhin-capabilities.gen.js' } },
      }),
      'dist/zhin-capabilities.gen.js':
        "import tools from './parts/tools-0.js';\nexport const manifest = { version: 1, tools, skills: [] };\n",
      'dist/parts/tools-0.js': shard('plugin'),
    });
    writeTree(root, {
      'zhin-gen.config.json': JSON.stringify({ plugins: { geo: 'geo-plugin' } }),
      'skills/trip/SKILL.md':
        '---\nname: trip\ndescription: Plan a day trip\ntools: [geo__weather]\n---\nCheck the weather first.\n',
    });
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(pkg, join(root, 'node_modules', 'geo-plugin'), 'dir');
    const runs: Run[] = [];
    const { server, hmr } = await startDev(root, runs);
    const codes = (run: Run | undefined): string[] => run?.result.diagnostics.map((d) => d.code) ?? [];
    try {
      expect(runs[0]!.result.errors).toBe(0);
      // The build makes the package's tool private: the bot's skill may no longer name it.
      writeTree(pkg, { 'dist/parts/tools-0.js': shard('agent') });
      await waitFor(() => codes(runs.at(-1)).includes('ZG3006'), 'the rebuilt module read again');
      writeTree(pkg, { 'dist/parts/tools-0.js': shard('plugin') });
      await waitFor(() => runs.at(-1)!.result.errors === 0, 'the module rebuilt back');
    } finally {
      hmr.close();
      await server.close();
      removeDir(root);
      removeDir(pkg);
    }
  });
});

describe('vite dev server started on an invalid tree', () => {
  it('keeps running with an empty manifest, shows the overlay, then switches the virtual module to the real manifest', async () => {
    const root = makeBot('vite-dev-invalid', { 'tools/echo/index.ts': plainTool('') });
    const runs: Run[] = [];
    const { server, hmr, port } = await startDev(root, runs);
    try {
      expect(runs[0]!.result.errors).toBeGreaterThan(0);
      const overlay = await waitFor(
        () => hmr.messages.find((m) => m.type === 'error'),
        'the startup error in the overlay',
      );
      expect(JSON.stringify(overlay)).toContain('tools/echo/index.ts');
      await browse(port).catch(() => undefined);
      const stub = await (await fetch(`http://127.0.0.1:${port}/@id/__x00__virtual:zhin-capabilities`)).text();
      expect(stub).toContain('no manifest has been generated yet');
      const before = hmr.messages.length;
      mkdirSync(join(root, 'tools', 'echo'), { recursive: true });
      writeFileSync(join(root, 'tools', 'echo', 'index.ts'), plainTool('Echo'));
      await waitFor(() => manifestTools(root).includes('echo'), 'the first manifest');
      await waitFor(
        () =>
          updatesOf(hmr, before).some(
            (m) => m.type === 'full-reload' || m.updates?.some((u) => u.path === '/src/main.ts'),
          ),
        'the importer of the virtual module updated',
      );
      const response = await fetch(`http://127.0.0.1:${port}/@id/__x00__virtual:zhin-capabilities`);
      const real = await response.text();
      expect(response.status, real).toBe(200);
      expect(real).toContain('export * from "/zhin-capabilities.gen.ts"');
    } finally {
      hmr.close();
      await server.close();
      removeDir(root);
    }
  });
});
