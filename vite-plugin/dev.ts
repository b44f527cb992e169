/**
 * Vite dev server integration. Reuses Vite's own watcher: every add/change/unlink(Dir) event is
 * coalesced and handed to the compiler, which re-parses only the changed units and rewrites the
 * manifest only when its bytes change; Vite's normal HMR for the manifest file then flows through
 * `virtual:zhin-capabilities` to the modules that import it. Diagnostics go to the terminal and
 * to Vite's error overlay; the overlay clears after the next clean run. The server never stops
 * and the last good manifest keeps serving.
 */
import type { EnvironmentModuleGraph, EnvironmentModuleNode, ViteDevServer } from 'vite';
import { relative, isAbsolute } from 'node:path';
import type { CompileResult } from '../compiler/index.js';
import { summary } from '../compiler/report/index.js';
import { errorMessage, overlayPayload, PLUGIN_NAME, warningMessage, type OverlayPayload } from './diagnostics.js';
import { DevInspector } from './inspector.js';
import { OutputEvents } from './output-events.js';
import { OutputRemoval } from './output-removal.js';
import type { ZhinGenState } from './state.js';
import { RESOLVED_VIRTUAL_ID } from './virtual.js';
import { DependencyDirs } from '../compiler/watch/dependency-dirs.js';
import { ThrottledChanges } from './throttled-changes.js';

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
  /**
   * Folders outside the root that hold a schema's module (a workspace package): Vite's watcher
   * does not watch them, so they are added to it once a run stamped them, as `zhin-gen watch`
   * and the side watcher do (compiler/watch/dependency-dirs.ts).
   */
  private readonly deps: DependencyDirs;
  /** The manifest and its generated folder removed by someone else: a run writes them again. */
  private readonly removal: OutputRemoval;
  /** Writes the watcher dropped within its throttle window (./throttled-changes.ts). */
  private readonly throttled: ThrottledChanges;

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
      () => state.compiler.outputStamps(),
    );
    state.onRunStart = () => this.outputs.runStarts();
    this.removal = new OutputRemoval((abs) => {
      if (!this.closed && state.compiler.outputRemoved(abs)) state.push({ type: 'unlink', path: abs });
    });
    // Vite's own watcher feeds the plugin's one watch loop (compiler/watch/loop.ts).
    state.onWatchResult((result) => this.report(result));
    this.deps = new DependencyDirs(state.compiler.root, (abs, isDir) => state.compiler.outsideWalk(abs, isDir));
    this.throttled = new ThrottledChanges((path) => {
      if (!this.closed) state.push({ type: 'change', path });
    });
    for (const type of EVENTS) {
      server.watcher.on(type, (path: string) => {
        if (this.closed) return;
        const event = { type, path };
        state.push(event);
        for (const implied of this.deps.implied(event)) state.push(implied);
        if ((type === 'change' || type === 'add') && !state.compiler.ignores(state.normalize(path)))
          this.throttled.saw(path);
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

  /**
   * Vite's `hotUpdate` for a module of the generated folder that a run created or removed (a
   * shard split or merged, the table back in the main module, `types.ts`, a validator). A run
   * does that only when it also rewrote the module that imports it (the importer's text names
   * it), whose `change` event carries the update. Left to Vite, the removed module's update
   * propagated from a node whose importer had already dropped it (no importer: a page reload),
   * and a re-created shard (merged back under an earlier name) was served from the transform
   * its node kept. Here each node of the file is invalidated, and only modules that can still
   * take an update stay: for a creation, those whose import of it failed to resolve and nodes
   * that still have importers; for a removal, none.
   */
  outputAddedOrRemoved(
    type: 'create' | 'update' | 'delete',
    file: string,
    graph: EnvironmentModuleGraph,
    modules: readonly EnvironmentModuleNode[],
  ): EnvironmentModuleNode[] | undefined {
    if (type === 'update') return undefined;
    const place = this.state.outputPlace();
    // Vite's paths use forward slashes on every system.
    if (!place || !file.replaceAll('\\', '/').startsWith(`${place.folder.replaceAll('\\', '/')}/`)) return undefined;
    const own = graph.getModulesByFile(file) ?? new Set<EnvironmentModuleNode>();
    for (const node of own) graph.invalidateModule(node);
    if (type === 'delete') return [];
    return modules.filter((node) => !own.has(node) || node.importers.size > 0);
  }

  /** Called by the virtual module's `load` in dev. */
  virtualLoaded(as: string): void {
    this.virtualLoadedAs = as;
  }

  report(result: CompileResult): void {
    if (this.closed) return;
    // First: the client's update is what the developer waits for; the rest is bookkeeping.
    this.outputs.runEnded();
    this.follow();
    this.removal.follow(this.state.outputPlace());
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
      // A fix that gives back the manifest's bytes writes nothing: the terminal still says it is fixed.
      if (result.written || this.overlay) logger.info(`[${PLUGIN_NAME}] ${summary(result)}`, { timestamp: true });
      if (this.overlay) {
        this.overlay = undefined;
        // An (empty) update makes the Vite client clear its error overlay.
        this.server.ws.send({ type: 'update', updates: [] });
      }
    }
    this.refreshVirtual();
    this.inspector?.update(result);
  }

  /** Watches the folders of the dependencies outside the walk that runs stamped since the last call. */
  private follow(): void {
    const compiler = this.state.compiler;
    for (const event of this.deps.follow(compiler.outsideDependencies(), (dirs) => this.server.watcher.add(dirs)))
      this.state.push(event);
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
    this.removal.close();
    this.throttled.close();
  }
}
