/**
 * The dev inspector on a real Vite dev server, opened in headless Chromium at the link the server
 * prints: editing a tool on disk updates the open page over Vite's HMR channel without a reload,
 * an error shows with its code frame, and the fix clears it. Production builds and `vite preview`
 * have no inspector, and `inspector: false` turns it off in dev.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, createLogger, createServer, preview, type ViteDevServer } from 'vite';
import zhinVite from '../../vite-plugin/vite.js';
import { removeDir, writeTree } from '../helpers.js';
import { launch, openPage, screenshot, type Watched } from '../compiler/report/browser.js';
import { devConfig, makeBot, plainTool, tool } from './fixture.js';

const config = devConfig;

const dirs: string[] = [];
let browser: Browser;
afterAll(async () => {
  await browser?.close();
  dirs.forEach(removeDir);
});

describe('dev inspector', () => {
  let root: string;
  let server: ViteDevServer;
  let link: string;
  let watched: Watched;
  const printed: string[] = [];

  beforeAll(async () => {
    root = makeBot('inspector-dev');
    dirs.push(root);
    const logger = createLogger('info', { allowClearScreen: false });
    logger.info = (message) => void printed.push(message);
    server = await createServer(config(root, { logLevel: 'info', customLogger: logger, plugins: [zhinVite()] }));
    await server.listen();
    // What Vite's CLI does once the server listens.
    server.printUrls();
    browser = await launch();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it('prints a link to the inspector when the server starts', () => {
    const line = printed.find((message) => message.includes('zhin-gen inspector:'));
    expect(line).toBeDefined();
    link = /(http:\/\/\S+\/__zhin-gen\/)/.exec(line!)![1]!;
    expect(link).toBe(`${server.resolvedUrls!.local[0]}__zhin-gen/`);
  });

  it('serves the report page at /__zhin-gen/', async () => {
    watched = await openPage(browser);
    await watched.page.goto(link);
    await watched.page.waitForSelector('[data-name="echo"]');
    expect(await watched.page.locator('#zr-title').textContent()).toMatch(/^zhin-gen report: inspector-dev-/);
    expect(await watched.page.locator('[data-name="maps__get-weather"]').count()).toBe(1);
    expect(watched.errors).toEqual([]);
    await screenshot(watched.page, 'inspector-start');
  });

  it('updates the open page after an edit, without a reload', async () => {
    const { page } = watched;
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'the same document';
    });
    await page.locator('[data-name="echo"]').click();
    const revision = await page.evaluate(() => Number(document.body.dataset.revision));
    writeTree(root, {
      'tools/echo/index.ts': tool(
        'Echo a message back, louder',
        'z.object({ message: z.string(), loud: z.boolean() })',
      ),
      'tools/ping/index.ts': plainTool('Ping the bot'),
    });
    await page.waitForSelector('[data-name="ping"]', { timeout: 30_000 });
    await page.waitForFunction(
      () => document.querySelector('#zr-detail .description')?.textContent === 'Echo a message back, louder',
      undefined,
      { timeout: 30_000 },
    );
    expect(await page.locator('#zr-detail [data-field="loud"]').textContent()).toContain('boolean');
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('the same document');
    expect(await page.evaluate(() => Number(document.body.dataset.revision))).toBeGreaterThan(revision);
    expect(navigations).toBe(0);
    await screenshot(page, 'inspector-updated');
  });

  it('shows an error with its code frame, and clears it after the fix', async () => {
    const { page } = watched;
    writeTree(root, { 'tools/ping/index.ts': plainTool('   ') });
    await page.waitForFunction(
      () => document.querySelector('#tab-diagnostics')?.textContent === 'Diagnostics (1)',
      undefined,
      {
        timeout: 30_000,
      },
    );
    // Vite's own error overlay shows too (the page runs Vite's client); Escape closes it.
    await page.waitForSelector('vite-error-overlay', { timeout: 30_000 });
    await page.keyboard.press('Escape');
    await page.waitForSelector('vite-error-overlay', { state: 'detached' });
    await page.locator('#tab-diagnostics').click();
    expect(await page.locator('#panel-diagnostics pre.frame').textContent()).toContain('description: "   ",');
    expect(await page.locator('.banner').textContent()).toContain('the tree has errors');
    await screenshot(page, 'inspector-error');
    writeTree(root, { 'tools/ping/index.ts': plainTool('Ping the bot') });
    await page.waitForFunction(
      () => document.querySelector('#tab-diagnostics')?.textContent === 'Diagnostics (0)',
      undefined,
      {
        timeout: 30_000,
      },
    );
    expect(await page.locator('.banner').isHidden()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('the same document');
  });
});

describe('no inspector outside the dev server', () => {
  it('a production build contains none and `vite preview` serves none', async () => {
    const root = makeBot('inspector-build');
    dirs.push(root);
    const buildConfig = config(root, {
      plugins: [zhinVite()],
      build: { ssr: 'src/main.ts', outDir: 'dist', rollupOptions: { output: { entryFileNames: 'main.js' } } },
      ssr: { noExternal: true, resolve: { conditions: ['source'], externalConditions: ['source'] } },
    });
    await build(buildConfig);
    const out = join(root, 'dist');
    expect(existsSync(join(out, 'main.js'))).toBe(true);
    for (const file of readdirSync(out, { recursive: true }) as string[]) {
      const path = join(out, file);
      if (file.endsWith('.js')) expect(readFileSync(path, 'utf8')).not.toContain('__zhin-gen');
    }
    const server = await preview({ ...buildConfig, preview: { port: 0, host: '127.0.0.1' } });
    try {
      const response = await fetch(`${server.resolvedUrls!.local[0]}__zhin-gen/`);
      expect(response.status).toBe(404);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('inspector: false turns it off in dev', async () => {
    const root = makeBot('inspector-off');
    dirs.push(root);
    const server = await createServer(config(root, { plugins: [zhinVite({ inspector: false })] }));
    await server.listen();
    try {
      const response = await fetch(`${server.resolvedUrls!.local[0]}__zhin-gen/data.json`);
      expect(response.headers.get('content-type') ?? '').not.toContain('application/json');
    } finally {
      await server.close();
    }
  }, 60_000);
});
