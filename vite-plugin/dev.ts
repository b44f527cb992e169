/**
 * Vite dev server integration. Reuses Vite's own watcher: every add/change/unlink(Dir) event is
 * coalesced and handed to the compiler, which re-parses only the changed units and rewrites the
 * manifest only when its bytes change; Vite's normal HMR for the manifest file then flows through
 * `virtual:zhin-capabilities` to the modules that import it. Diagnostics go to the terminal and
 * to Vite's error overlay; the overlay clears after the next clean run. The server never stops
 * and the last good manifest keeps serving.
 */
import type { ViteDevServer } from 'vite';
import { relative, isAbsolute } from 'node:path';
import type { CompileResult } from '../compiler/index.js';
import { summary } from '../compiler/report/index.js';
import { errorMessage, overlayPayload, PLUGIN_NAME, warningMessage, type OverlayPayload } from './diagnostics.js';
import { DevInspector } from './inspector.js';
import { OutputEvents } from './output-events.js';
import type { ZhinGenState } from './state.js';
import { RESOLVED_VIRTUAL_ID } from './virtual.js';

const EVENTS = ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const;

export class ViteDev {
  /** The overlay currently shown (re-sent to clients that connect later). */
  private overlay?: OverlayPayload;
  /** What the virtual module was last loaded as: the manifest path, or '' for the empty stub. */
  private virtualLoadedAs?: string;
  private closed = false;
  private warmed = false;
  /** The live report page at /__zhin-gen/ (./inspector.ts). */
  private readonly inspector?: DevInspector;
  /** The generated modules' watcher events, which Vite's own watcher leaves to the plugin. */
  private readonly outputs: OutputEvents;

  constructor(
    private readonly state: ZhinGenState,
    private readonly server: ViteDevServer,
  ) {
    const inspector = state.options.inspector ?? true;
    if (inspector !== false) this.inspector = new DevInspector(state, server, inspector === true ? {} : inspector);
    this.outputs = new OutputEvents(
      server,
      () => state.outputPlace(),
      (file) => state.isOutput(file),
    );
    state.onRunStart = () => this.outputs.runStarts();
    // Vite's own watcher feeds the plugin's one watch loop (compiler/watch/loop.ts).
    state.onWatchResult((result) => this.report(result));
    for (const type of EVENTS) {
      server.watcher.on(type, (path: string) => {
        if (!this.closed) state.push({ type, path });
      });
    }
    const rel = relative(server.config.root, state.root);
    if (rel.startsWith('..') || isAbsolute(rel)) server.watcher.add(state.root);
    server.ws.on('vite:client:connect', (_data: unknown, client: { send(payload: OverlayPayload): void }) => {
      const overlay = this.overlay;
      // After Vite's own `connected` message.
      if (overlay) setTimeout(() => client.send(overlay), 0);
    });
  }

  /** Called by the virtual module's `load` in dev. */
  virtualLoaded(as: string): void {
    this.virtualLoadedAs = as;
  }

  report(result: CompileResult): void {
    if (this.closed) return;
    // First: the client's update is what the developer waits for; the rest is bookkeeping.
    this.outputs.runEnded();
    this.warmUp();
    const logger = this.server.config.logger;
    for (const d of this.state.newWarnings(result))
      logger.warn(`[${PLUGIN_NAME}] ${warningMessage(d)}`, { timestamp: true });
    if (result.errors > 0) {
      logger.error(`[${PLUGIN_NAME}] ${errorMessage(result)}\n${summary(result)} — last good manifest kept`, {
        timestamp: true,
      });
      this.overlay = overlayPayload(this.state.root, result);
      // With no client connected Vite would buffer the payload; the connect handler sends it instead.
      if (this.server.ws.clients.size > 0) this.server.ws.send(this.overlay);
    } else {
      if (result.written) logger.info(`[${PLUGIN_NAME}] ${summary(result)}`, { timestamp: true });
      if (this.overlay) {
        this.overlay = undefined;
        // An (empty) update makes the Vite client clear its error overlay.
        this.server.ws.send({ type: 'update', updates: [] });
      }
    }
    this.refreshVirtual();
    this.inspector?.update(result);
  }

  /**
   * A start on a warm unit cache parses nothing, so the parsers and the schema stage would be
   * loaded by the first edit. Load them in the background right after the first run instead.
   */
  private warmUp(): void {
    if (this.warmed) return;
    this.warmed = true;
    setTimeout(() => void this.state.compiler.warmup().catch(() => undefined), 50).unref();
  }

  /** The virtual module switches between the empty stub and the re-export (or a new `out`). */
  private refreshVirtual(): void {
    if (this.virtualLoadedAs === undefined) return;
    const now = this.state.manifestExists() ? this.state.outFile : '';
    if (now === this.virtualLoadedAs) return;
    this.virtualLoadedAs = undefined;
    for (const environment of Object.values(this.server.environments)) {
      const mod = environment.moduleGraph.getModuleById(RESOLVED_VIRTUAL_ID);
      if (!mod) continue;
      environment.moduleGraph.invalidateModule(mod);
      // A virtual module has no file for `reloadModule`; its importers do: they re-import it
      // (hot-updated where an HMR boundary accepts, otherwise a full reload).
      for (const importer of mod.importers) {
        if (importer.file) void environment.reloadModule(importer).catch(() => undefined);
      }
    }
  }

  close(): void {
    this.closed = true;
  }
}
