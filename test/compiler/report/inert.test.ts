/**
 * The report page stays inert whatever the tree contains, and shows a broken tree's diagnostics
 * with their code frames. Both pages come from the real CLI and are opened in headless Chromium.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, copyFixture, removeDir, tempDir, writeTree } from '../../helpers.js';
import { focused, launch, openPage, screenshot } from './browser.js';

const ATTACK = '</script><img src=x onerror=alert(1)>';
const HOSTILE: Record<string, string> = {
  'AGENTS.md': '# Bot\n\nBe helpful.\n',
  'tools/evil/index.ts': `import { defineAgentTool } from 'zhin-gen/runtime';
import { z } from 'zod';

export default defineAgentTool({
  description: ${JSON.stringify(ATTACK)},
  inputSchema: z.object({
    q: z.string().describe('<img src=x onerror=alert(2)>'),
    mode: z.enum(['</script><script>alert(3)</script>', '<!--']),
  }),
  platforms: ['<svg onload=alert(4)>'],
  async execute() {
    return 1;
  },
});
`,
  'skills/evil/SKILL.md': `---\nname: evil\ndescription: "<iframe src=javascript:alert(5)></iframe> and ]]> and \\u2028"\n---\nDo it.\n`,
  'agents/evil/agent.json': JSON.stringify({ description: '"><script>alert(6)</script>' }),
  'agents/evil/system.md': '# System\n\n<script>alert(7)</script>\n',
  'agents/evil/boundaries.md': '# Boundaries\n\nNone.\n',
  'agents/evil/conventions.md': '# Evil conventions\n\nNone.\n',
  'prompt-sections/evil/index.ts': `import { defineAgentPromptSection } from 'zhin-gen/runtime';

export default defineAgentPromptSection({
  title: '<style>body{display:none}</style>',
  content: 'SECRET-PROMPT-TEXT <script>alert(8)</script>',
  layer: 'context',
});
`,
};

const BAD_TOOL = `import { defineAgentTool } from '@zhin.js/tool';

export default defineAgentTool({
  description: '   ',
  async execute() {
    return 1;
  },
});
`;

let browser: Browser;
const dirs: string[] = [];

beforeAll(async () => {
  browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  dirs.forEach(removeDir);
});

describe('the report page', () => {
  it('is inert with hostile names, descriptions, schemas, titles and texts', async () => {
    const root = writeTree(tempDir('report-hostile'), HOSTILE);
    dirs.push(root);
    const run = cli(['report', '--root', root]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const file = join(root, 'zhin-gen-report.html');
    const html = readFileSync(file, 'utf8');
    // No text of the tree reaches the HTML unescaped, and prompt content not at all.
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<!--');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toContain('SECRET-PROMPT-TEXT');
    expect(html).not.toContain('alert(7)');

    const { page, requests, errors, dialogs } = await openPage(browser);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('[data-name="evil"]');
    for (const tab of ['Access', 'Cost', 'Prompt', 'Disclosure', 'Diagnostics', 'Tree']) {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
    }
    await page.locator('#panel-tree [data-name="evil"].kind-tool').click();
    // The description is shown as text, character for character.
    expect(await page.locator('#zr-detail .description').textContent()).toBe(ATTACK);
    expect(await page.locator('#zr-detail [data-field="q"]').textContent()).toContain('<img src=x onerror=alert(2)>');
    expect(
      await page.locator('#zr-detail [data-field="mode"] option').evaluateAll((o) => o.map((n) => n.textContent)),
    ).toEqual(['"</script><script>alert(3)</script>"', '"<!--"']);
    await page.getByRole('tab', { name: 'Prompt' }).click();
    expect(await page.locator('#zr-prompt-bars').textContent()).toContain('<style>body{display:none}</style>');
    await page.getByRole('tab', { name: 'Tree' }).click();
    const injected = await page.evaluate(() => ({
      elements: document.querySelectorAll('img, iframe, svg, style:not(head style)').length,
      scripts: document.scripts.length,
      bodyShown: getComputedStyle(document.body).display !== 'none',
    }));
    expect(injected).toEqual({ elements: 0, scripts: 2, bodyShown: true });
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    await screenshot(page, 'report-hostile');
    await page.close();
  });

  it('of a tree with errors shows them with code frames (and is written; exit 1)', async () => {
    const root = copyFixture('example-bot', 'report-errors');
    dirs.push(root);
    writeTree(root, { 'tools/bad/index.ts': BAD_TOOL });
    const run = cli(['report', '--root', root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('tools/bad/index.ts:4:16  error  ZG2004');
    expect(run.stderr).toContain('the tree has errors');
    const { page, errors } = await openPage(browser);
    await page.goto(pathToFileURL(join(root, 'zhin-gen-report.html')).href);
    await page.waitForSelector('[data-name="bad"]');
    expect(await page.locator('.banner').textContent()).toContain('the tree has errors');
    expect(await page.locator('[data-name="bad"] .row-diag').textContent()).toBe('1 diagnostic');
    // Keyboard: from the search box to the tab list, End to the last tab (Diagnostics).
    await page.focus('#zr-search');
    await page.keyboard.press('Tab');
    await page.keyboard.press('End');
    expect((await focused(page)).text).toBe('Diagnostics (1)');
    const panel = page.locator('#panel-diagnostics');
    expect(await panel.locator('.diagnostic strong').textContent()).toBe('error ZG2004');
    const frame = await panel.locator('pre.frame').textContent();
    expect(frame).toContain("> 4 |   description: '   ',");
    expect(frame).toMatch(/\n {2}\s*\| {16}\^/);
    expect(await panel.locator('.hint').textContent()).toMatch(/^hint: /);
    expect(errors).toEqual([]);
    await screenshot(page, 'report-errors');
    await page.close();
  });
});
