/**
 * The dev inspector (docs/report.md): the `zhin-gen report` page, served live by the Vite dev
 * server at `/__zhin-gen/`. After each regeneration the plugin sends a custom event on Vite's HMR
 * channel; the page (which loads Vite's own HMR client) then fetches the new data and renders it
 * in place, without a reload. The report is built only when the page asks for it, once per
 * regeneration, so an unopened inspector costs one small WebSocket message per run. Only the
 * dev server has it: `vite build` and `vite preview` never call `configureServer`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ViteDevServer } from 'vite';
import { LostCacheBody } from '../compiler/cache/lost-body.js';
import type { CompileResult } from '../compiler/index.js';
import { buildReportData, renderPage, type PrincipalChoice, type ReportData } from '../compiler/report/page/index.js';
import { PLUGIN_NAME } from './diagnostics.js';
import type { ZhinGenState } from './state.js';

export const INSPECTOR_PATH = '/__zhin-gen/';
export const INSPECTOR_DATA = `${INSPECTOR_PATH}data.json`;
/** The custom HMR event announcing a new report (`data: { revision }`). */
export const REPORT_EVENT = 'zhin-gen:report';

export class DevInspector {
  private revision = 0;
  private result?: CompileResult;
  private built?: { readonly revision: number; readonly data: Promise<ReportData> };

  constructor(
    private readonly state: ZhinGenState,
    private readonly server: ViteDevServer,
    private readonly choice: PrincipalChoice = {},
  ) {
    server.middlewares.use((req, res, next) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === INSPECTOR_PATH.slice(0, -1)) return redirect(res);
      if (path !== INSPECTOR_PATH && path !== INSPECTOR_DATA) return next();
      void this.serve(req, res, path === INSPECTOR_DATA).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(`zhin-gen inspector: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
    // Vite's CLI prints the server's URLs with printUrls(); the inspector's link goes right below.
    const printUrls = server.printUrls.bind(server);
    server.printUrls = () => {
      printUrls();
      for (const url of this.urls()) server.config.logger.info(`  ➜  ${PLUGIN_NAME} inspector: ${url}`);
    };
  }

  /** The inspector's address on every local URL the server listens on. */
  urls(): string[] {
    return (this.server.resolvedUrls?.local ?? []).map((url) => new URL(INSPECTOR_PATH, url).href);
  }

  /** A regeneration finished (with or without errors): the open pages fetch the new report. */
  update(result: CompileResult): void {
    this.result = result;
    this.revision++;
    if (this.server.ws.clients.size > 0)
      this.server.ws.send({ type: 'custom', event: REPORT_EVENT, data: { revision: this.revision } });
  }

  private data(): Promise<ReportData> {
    if (this.built?.revision !== this.revision) {
      const result = this.result ?? this.state.last;
      this.built = {
        revision: this.revision,
        data: (result ? Promise.resolve(result) : this.state.run()).then((r) => this.reportOf(r)),
      };
    }
    return this.built.data;
  }

  /**
   * A run with nothing to do (the first run of a dev server on an up-to-date tree) builds its model
   * when the page first asks, maybe long after: a cache body another process replaced meanwhile
   * (cache/lost-body.ts) is then answered by a run now, never by a failed page.
   */
  private async reportOf(result: CompileResult): Promise<ReportData> {
    try {
      return await buildReportData(result, this.state.root, this.choice);
    } catch (error) {
      if (!(error instanceof LostCacheBody)) throw error;
      return await buildReportData(await this.state.run(), this.state.root, this.choice);
    }
  }

  private async serve(_req: IncomingMessage, res: ServerResponse, json: boolean): Promise<void> {
    const data = await this.data();
    res.setHeader('Cache-Control', 'no-store');
    if (json) {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(data));
      return;
    }
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      renderPage(data, {
        viteClient: `${this.server.config.base}@vite/client`,
        dataUrl: INSPECTOR_DATA,
        event: REPORT_EVENT,
      }),
    );
  }
}

function redirect(res: ServerResponse): void {
  res.statusCode = 301;
  res.setHeader('Location', INSPECTOR_PATH);
  res.end();
}
