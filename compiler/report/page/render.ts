/**
 * The report page: one HTML document with its styles, script and data inline, so it opens from
 * disk with no network. The page is inert whatever the tree contains: the data travels as JSON
 * in a non-executable script element with `<`, `>`, `&` and the JS line separators escaped (no
 * text of the tree can close the element), the client builds every node with `textContent`,
 * and a Content-Security-Policy allows only the page's own scripts (by hash), no network, no
 * images but data: URLs, so even an injected element could neither run nor fetch anything.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ReportData } from './data.js';

/** The dev inspector's additions: where the live data is, and Vite's HMR client. */
export interface LiveOptions {
  readonly viteClient: string;
  readonly dataUrl: string;
  /** The custom HMR event that announces a new report. */
  readonly event: string;
}

let assets: { readonly script: string; readonly style: string } | undefined;

/** The client script and styles, beside this module (copied next to it in dist/ by scripts/build.mjs). */
function pageAssets(): { readonly script: string; readonly style: string } {
  const read = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  assets ??= {
    script: ['client-ui.js', 'client-schema.js', 'client-views.js', 'client.js'].map(read).join('\n'),
    style: read('style.css'),
  };
  return assets;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that can sit inside a `<script>` element: nothing in it can end the element or a JS line. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export function renderPage(data: ReportData, live?: LiveOptions): string {
  const { script, style } = pageAssets();
  const boot = live
    ? `import { createHotContext } from ${JSON.stringify(live.viteClient)};\nconst hot = createHotContext('/__zhin-gen/');\nhot.on(${JSON.stringify(live.event)}, () => window.zhinReport.refresh(${JSON.stringify(live.dataUrl)}));\n`
    : '';
  // Constant text and base64 hashes: nothing in it needs escaping inside the double-quoted attribute.
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src data:',
    `script-src ${hash(script)}${live ? ` ${hash(boot)} 'self'` : ''}`,
    live ? "connect-src 'self'" : "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const title = `zhin-gen report: ${data.title}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<noscript><p>${escapeHtml(title)}: ${data.tools.length} tools, ${data.errors} errors, ${data.warnings} warnings. The page needs JavaScript to show more.</p></noscript>
<div id="app"></div>
<script type="application/json" id="zhin-report-data">${scriptJson(data)}</script>
<script>${script}</script>
${live ? `<script type="module">${boot}</script>\n` : ''}</body>
</html>
`;
}
