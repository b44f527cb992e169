/**
 * A 5,000-tool report (bench/gen-tree.ts) loads and searches in a real browser. The timings are
 * measured, not asserted (the machine is shared): first paint and search latency of the large
 * page, as ratios to the same measurements of the example bot's page (the floor) in the same run,
 * printed and written to test/tmp/screenshots/report-5000.json. What is asserted is what makes
 * the page usable at that size: only the rows in view are in the DOM, search finds one tool
 * among 5,000, the keyboard reaches the last row.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTree } from '../../../bench/gen-tree.js';
import { cli, copyFixture, removeDir, tempDir } from '../../helpers.js';
import { focused, launch, openPage, SCREENSHOTS, screenshot } from './browser.js';

interface Timings {
  /** Navigation start to the end of the first render (the page's own clock). */
  readonly loadMs: number;
  /** The client script alone: parse the data, build the rows, render the first view. */
  readonly firstPaintMs: number;
  /** One search keystroke: filter every row and render the view, per query. */
  readonly searchMs: readonly number[];
  /** Switching to each tab (built on every switch), per tab. */
  readonly tabMs: Readonly<Record<string, number>>;
}

const QUERIES = ['weather', 'ticket-1234', 'p2 g1 poll', 'zzz-no-match'];

async function measure(page: Page, url: string): Promise<Timings> {
  await page.goto(url);
  await page.waitForSelector('#panel-tree [role="option"]');
  const { loadMs, firstPaintMs } = await page.evaluate(() => {
    const report = (window as unknown as { zhinReport: { timings: { firstPaintMs: number } } }).zhinReport;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { loadMs: navigation.domContentLoadedEventEnd, firstPaintMs: report.timings.firstPaintMs };
  });
  const searchMs: number[] = [];
  for (const query of QUERIES) {
    searchMs.push(
      await page.evaluate((q) => {
        const input = document.getElementById('zr-search') as HTMLInputElement;
        const t0 = performance.now();
        input.value = q;
        input.dispatchEvent(new Event('input'));
        // The DOM is updated synchronously; reading layout makes the browser finish it too.
        void document.getElementById('panel-tree')!.offsetHeight;
        return performance.now() - t0;
      }, query),
    );
  }
  await page.evaluate(() => {
    const input = document.getElementById('zr-search') as HTMLInputElement;
    input.value = '';
    input.dispatchEvent(new Event('input'));
  });
  const tabMs = await page.evaluate(() => {
    const times: Record<string, number> = {};
    for (const tab of ['disclosure', 'access', 'cost', 'prompt', 'diagnostics', 'tree']) {
      const t0 = performance.now();
      (document.getElementById(`tab-${tab}`) as HTMLButtonElement).click();
      void document.getElementById(`panel-${tab}`)!.offsetHeight;
      times[tab] = performance.now() - t0;
    }
    return times;
  });
  return { loadMs, firstPaintMs, searchMs, tabMs };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

let browser: Browser;
let big: string;
let small: string;

beforeAll(async () => {
  big = tempDir('report-5000');
  generateTree(5000, big);
  small = copyFixture('example-bot', 'report-floor');
  for (const root of [big, small]) expect(cli(['report', '--root', root]).status).toBe(0);
  browser = await launch();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  removeDir(big);
  removeDir(small);
});

describe('a 5,000-tool report', () => {
  it('loads, searches and navigates with only the visible rows in the DOM', async () => {
    const floorPage = await openPage(browser);
    const floor = await measure(floorPage.page, pathToFileURL(join(small, 'zhin-gen-report.html')).href);
    await floorPage.page.close();

    const { page, errors, requests } = await openPage(browser);
    const large = await measure(page, pathToFileURL(join(big, 'zhin-gen-report.html')).href);
    const rows = await page.locator('#panel-tree [role="option"]').count();
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(120);
    // Every tool, skill, agent and plugin is a row of the list, though few are in the DOM.
    expect(Number(await page.locator('#panel-tree [role="listbox"]').getAttribute('aria-rowcount'))).toBeGreaterThan(
      5000,
    );
    // One tool among 5,000, found by name and opened with the keyboard.
    await page.focus('#zr-search');
    await page.keyboard.type('ticket-1');
    await page.keyboard.press('Enter');
    expect((await focused(page)).text).toContain('ticket-1');
    await page.keyboard.press('End');
    const last = await focused(page);
    expect(last.role).toBe('option');
    // The access matrix at this size: virtualised too, the last row reachable with Ctrl+End.
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Access' }).click();
    await page.locator('#panel-access [role="gridcell"]').first().focus();
    await page.keyboard.press('Control+End');
    expect((await focused(page)).label).toMatch(/^\S+, console \/ channel \/ master: /);
    expect(await page.locator('#panel-access [role="gridcell"]').count()).toBeLessThan(120 * 9);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    await screenshot(page, 'report-5000-access');

    const numbers = {
      tools: 5000,
      floorTools: 8,
      large,
      floor,
      ratios: {
        load: +(large.loadMs / floor.loadMs).toFixed(1),
        firstPaint: +(large.firstPaintMs / floor.firstPaintMs).toFixed(1),
        search: +(median(large.searchMs) / Math.max(0.1, median(floor.searchMs))).toFixed(1),
      },
    };
    writeFileSync(join(SCREENSHOTS, 'report-5000.json'), `${JSON.stringify(numbers, null, 2)}\n`);
    console.log(`report page at 5,000 tools: ${JSON.stringify(numbers)}`);
  }, 120_000);
});
