/**
 * `zhin-gen report` end to end: the real CLI (built bin) writes the page for a copy of the example
 * bot, headless Chromium opens it from disk, and the assertions are on what a person sees and
 * does — the owner tree, a schema form, a denied cell's reason, the cost chart, the prompt bars —
 * reached with the keyboard only. The page must make no request but its own file, and agree with
 * `zhin-gen inspect --json` and `zhin-gen catalog --json` (it is built from the same model and the
 * same runtime code).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, copyFixture, removeDir } from '../../helpers.js';
import { focused, launch, openPage, screenshot, type Watched } from './browser.js';

let browser: Browser;
let root: string;
let page: Watched;
let reportRun: ReturnType<typeof cli>;

beforeAll(async () => {
  root = copyFixture('example-bot', 'report-page');
  reportRun = cli(['report', '--root', root]);
  browser = await launch();
  page = await openPage(browser);
  await page.page.goto(pathToFileURL(join(root, 'zhin-gen-report.html')).href);
  await page.page.waitForSelector('[data-name="echo"]');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  removeDir(root);
});

const key = (name: string) => page.page.keyboard.press(name);
const text = (selector: string) => page.page.locator(selector).innerText();

describe('zhin-gen report (example bot)', () => {
  it('writes one self-contained page and says so', () => {
    expect(reportRun.stderr).toBe('');
    expect(reportRun.status).toBe(0);
    expect(reportRun.stdout).toMatch(
      /^zhin-gen report: 8 tools × 9 principals → zhin-gen-report\.html \(\d+ KiB\) in /,
    );
    const html = readFileSync(join(root, 'zhin-gen-report.html'), 'utf8');
    // Nothing is loaded from elsewhere: no src/href attributes at all, and a policy forbidding it.
    expect(html).not.toMatch(/\s(src|href)=/);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain("connect-src 'none'");
  });

  it('shows the owner tree with placements and sources, and makes no request', async () => {
    const rows = await page.page.locator('#panel-tree [role="option"]').evaluateAll((nodes) =>
      nodes.map((n) => ({
        name: n.getAttribute('data-name'),
        text: n.textContent,
        indent: Number.parseFloat((n as HTMLElement).style.paddingLeft),
      })),
    );
    const row = (name: string) => rows.find((r) => r.name === name)!;
    expect(row('(root plugin)').text).toContain('plugin');
    expect(row('echo').text).toContain('tools/echo/index.ts');
    expect(row('icqq__admin').text).toContain('agents/icqq/skills/admin/SKILL.md');
    // admin__mute sits below its skill, which sits below its agent.
    expect(row('admin__mute').indent).toBeGreaterThan(row('icqq__admin').indent);
    expect(row('icqq__admin').indent).toBeGreaterThan(row('icqq').indent);
    expect(row('maps__get-weather').indent).toBeGreaterThan(row('plugin maps').indent);
    const inspect = JSON.parse(cli(['inspect', '--root', root, '--json']).stdout) as {
      tools: { qualifiedName: string; placement: string; source: string }[];
    };
    for (const tool of inspect.tools)
      expect(row(tool.qualifiedName).text).toContain(`${tool.placement} ${tool.source}`);
    expect(page.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    expect(page.errors).toEqual([]);
    await screenshot(page.page, 'report-tree');
  });

  it('search and the keyboard reach a tool, whose schema is a form', async () => {
    await page.page.locator('body').click({ position: { x: 900, y: 700 } });
    await key('/');
    expect((await focused(page.page)).label).toBe('Search capabilities');
    await page.page.keyboard.type('weather');
    expect(await page.page.locator('#panel-tree [role="option"]').count()).toBe(1);
    await key('Enter');
    expect((await focused(page.page)).text).toContain('maps__get-weather');
    const detail = page.page.locator('#zr-detail');
    expect(await detail.locator('h2').innerText()).toBe('maps__get-weather');
    const form = detail.getByRole('form', { name: 'Input of maps__get-weather' });
    const city = form.getByLabel(/city/);
    expect(await city.getAttribute('type')).toBe('text');
    expect(await form.locator('[data-field="city"]').innerText()).toContain('required');
    expect(await form.locator('[data-field="city"]').innerText()).toContain('at least 1 character');
    const unit = form.getByLabel(/unit/);
    expect(await unit.locator('option').allInnerTexts()).toEqual(['"c"', '"f"']);
    expect(await form.locator('[data-field="unit"]').innerText()).toContain('optional');
    expect(await form.locator('[data-field="unit"]').innerText()).toContain('default "c"');
    // Its size: bytes of the schema, and per provider the request object's bytes and tokens.
    expect(await detail.locator('table.sizes').innerText()).toMatch(/anthropic request\s+\d+\s+\d+/);
    await screenshot(page.page, 'report-schema-form');
    // Escape in the search clears it: the whole tree is back.
    await key('/');
    await key('Escape');
    expect(await page.page.locator('#panel-tree [role="option"]').count()).toBeGreaterThan(20);
  });

  it('the access matrix gives a denied cell its reason on keyboard focus and on hover', async () => {
    // From the search box (where "/" leads), keys only.
    await page.page.focus('#zr-search');
    expect(await page.page.inputValue('#zr-search')).toBe('');
    await key('Tab');
    expect((await focused(page.page)).role).toBe('tab');
    await key('ArrowRight');
    await key('ArrowRight');
    expect((await focused(page.page)).text).toBe('Access');
    await key('Tab');
    // The first cell: admin__mute for icqq / private / user.
    let cell = await focused(page.page);
    expect(cell.role).toBe('gridcell');
    expect(cell.label).toMatch(/^admin__mute, icqq \/ private \/ user: denied: /);
    const tooltip = page.page.locator('#zr-tooltip');
    expect(await tooltip.isVisible()).toBe(true);
    expect(await tooltip.innerText()).toContain('scope');
    // maps__get-weather (row 4) in a channel (column 7) is outside its scopes.
    for (let i = 0; i < 3; i++) await key('ArrowDown');
    for (let i = 0; i < 6; i++) await key('ArrowRight');
    cell = await focused(page.page);
    expect(cell.label).toMatch(/^maps__get-weather, icqq \/ channel \/ user: denied: .*channel/);
    expect(await tooltip.innerText()).toMatch(/denied: .*channel/);
    expect(await text('#zr-access-status')).toContain('maps__get-weather × icqq / channel / user: denied');
    await screenshot(page.page, 'report-access-denied');
    // admin__mute in a group, as master: only its platform permit stands in the way (no checker is registered).
    await key('ArrowUp');
    await key('ArrowUp');
    await key('ArrowUp');
    await key('ArrowLeft');
    expect((await focused(page.page)).label).toMatch(
      /^admin__mute, icqq \/ group \/ master: denied: .*platform\(icqq,admin\)/,
    );
    await key('Escape');
    // Hover shows the same reason.
    await page.page.locator('[data-row="3"][data-col="0"]').hover();
    expect(await tooltip.innerText()).toBe('admitted');
  });

  it('the cost chart compares all tools with the deferred turn start', async () => {
    await page.page.locator('#tab-access').focus();
    await key('ArrowRight');
    expect((await focused(page.page)).text).toBe('Cost');
    const chart = await text('#zr-cost-chart');
    const tokens = (label: RegExp) => Number(label.exec(chart)![1]!.replace(/,/g, ''));
    const all = tokens(/anthropic: all 8 tools\s+([\d,]+) tokens/);
    const deferred = tokens(/anthropic: deferred turn start \(\d+ sent\)\s+([\d,]+) tokens/);
    expect(all).toBeGreaterThan(0);
    expect(deferred).toBeGreaterThan(0);
    expect(chart).toMatch(/openai: all 8 tools/);
    await screenshot(page.page, 'report-cost');
  });

  it('prompt sections are budget bars against systemPromptMaxChars, without their content', async () => {
    await key('ArrowRight');
    expect((await focused(page.page)).text).toBe('Prompt');
    const panel = await text('#panel-prompt');
    expect(panel).toContain('systemPromptMaxChars: 100,000 characters');
    const bars = await text('#zr-prompt-bars');
    expect(bars).toMatch(
      /Project rules \(:project-rules\)\s+1,000 chars \(1\.0% of the budget\) maxChars, preferred, context order 70/,
    );
    expect(bars).toMatch(/QQ group etiquette \(:icqq-etiquette\)\s+400 chars/);
    // Assembly order (docs/prompt.md): task, then context, then constraints.
    expect(bars.indexOf('Scheduled digest')).toBeLessThan(bars.indexOf('Project rules'));
    expect(bars.indexOf('Project rules')).toBeLessThan(bars.indexOf('QQ group etiquette'));
    const source = readFileSync(join(root, 'prompt-sections', 'project-rules', 'index.ts'), 'utf8');
    const content = /content: [`'"]([^`'"]{20,})/.exec(source)?.[1];
    if (content) expect(readFileSync(join(root, 'zhin-gen-report.html'), 'utf8')).not.toContain(content);
    await screenshot(page.page, 'report-prompt');
  });

  it('disclosure stages are what zhin-gen catalog lists for the same turns', async () => {
    await page.page.locator('#tab-prompt').focus();
    await key('ArrowLeft');
    await key('ArrowLeft');
    await key('ArrowLeft');
    expect((await focused(page.page)).text).toBe('Disclosure');
    const stage = (title: string) => page.page.locator(`[data-stage="${title}"]`);
    const start = await stage('Turn start (platform agent icqq auto-selected)').innerText();
    const catalog = JSON.parse(
      cli(['catalog', '--root', root, '--platform', 'icqq', '--scope', 'group', '--role', 'master', '--json']).stdout,
    ) as { tools: { name: string }[] };
    expect(start).toContain(`${catalog.tools.length} tools listed`);
    for (const tool of catalog.tools) expect(start).toContain(tool.name);
    const skill = await stage('load_skill reviewer__review (agent reviewer)').innerText();
    const withSkill = JSON.parse(
      cli([
        'catalog',
        '--root',
        root,
        '--platform',
        'icqq',
        '--scope',
        'group',
        '--role',
        'master',
        '--agent',
        'reviewer',
        '--skill',
        'reviewer__review',
        '--json',
      ]).stdout,
    ) as { tools: { name: string }[] };
    expect(skill).toContain(`${withSkill.tools.length} tools listed: 1 added`);
    expect(skill).toContain('review__check-result');
    await screenshot(page.page, 'report-disclosure');
  });
});
