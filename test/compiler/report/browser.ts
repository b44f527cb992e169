/**
 * Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for the report page
 * tests: every page records the requests it makes, its console errors, uncaught exceptions and
 * dialogs (an `alert()` from injected markup would be one), so a test can assert there were none.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO } from '../../helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = join(REPO, 'test', 'tmp', 'screenshots');

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface Watched {
  readonly page: Page;
  /** URLs requested other than the page itself (file:// of the page, or the dev server). */
  readonly requests: string[];
  readonly errors: string[];
  readonly dialogs: string[];
}

export async function openPage(browser: Browser, width = 1280, height = 800): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width, height } });
  const watched: Watched = { page, requests: [], errors: [], dialogs: [] };
  page.on('request', (request) => watched.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(message.text());
  });
  page.on('pageerror', (error) => watched.errors.push(error.message));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return watched;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The focused element's visible text and a few attributes (keyboard tests look at what has focus). */
export function focused(page: Page): Promise<{ text: string; role: string | null; id: string; label: string | null }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return {
      text: element.textContent ?? '',
      role: element.getAttribute('role'),
      id: element.id,
      label: element.getAttribute('aria-label'),
    };
  });
}
