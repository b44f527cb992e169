/**
 * Hot updates for the generated modules, sent by the plugin as soon as a compiler run ends
 * instead of when Vite's file watcher reports the writes. The run blocks the event loop while it
 * writes, so the watcher's events came only after it, went through every plugin's `hotUpdate`
 * hook, and (arriving while the client was already fetching the new shard) invalidated the
 * freshly transformed shard a second time: at 5,000 tools the shard was transformed twice per
 * edit. So Vite's watcher ignores each generated module the dev server has served, and
 * after every clean run each of them is checked by one stat: a file whose mtime moved since it
 * was transformed gets `reloadModule` (Vite's own invalidation and update propagation). A write by another process (`zhin-gen generate` in a terminal) is picked
 * up by the plugin's next run the same way.
 *
 * Should Vite's watcher report one of these files anyway, `hotUpdate` drops the event for a write
 * the plugin already sent an update for (same mtime, per environment) and lets any other through.
 */
import { statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { ViteDevServer } from 'vite';
import { validatorsDirRel } from '../compiler/emit/validator-table.js';

type Environment = ViteDevServer['environments'][string];

export class GeneratedHmr {
  /** Generated modules as served: "<environment>\0<file>" → the file's mtime when transformed. */
  private readonly served = new Map<string, number>();
  /** Writes already handled (an update sent, by this plugin or Vite): same key → mtime. */
  private readonly handled = new Map<string, number>();
  private outFile = '';
  private folder = '';

  constructor(private readonly server: ViteDevServer) {}

  /** Served generated files Vite's watcher ignores (`ignores`, in its `ignored` option). */
  private readonly unwatched = new Set<string>();

  /** Where the generated modules are (after every run: `out` may change with the config). */
  locate(root: string, outFile: string, outRel: string): void {
    this.outFile = outFile;
    this.folder = join(root, validatorsDirRel(outRel)) + sep;
  }

  private isGenerated(file: string): boolean {
    return this.outFile !== '' && (file === this.outFile || file.startsWith(this.folder));
  }

  /** A module was transformed for an environment: its file's mtime is what that environment holds. */
  transformed(environment: string, id: string): void {
    const file = id.split('?', 1)[0]!;
    if (!this.isGenerated(file)) return;
    const mtime = mtimeOf(file);
    if (mtime === undefined) return;
    this.served.set(`${environment}\0${file}`, mtime);
    // Only a file that exists: Vite's resolver learns which files exist from its watcher's add
    // and unlink events, so a module not written yet (the first manifest of a tree that had
    // errors, a new shard) must still reach it.
    if (this.unwatched.has(file)) return;
    this.unwatched.add(file);
    // `unwatch` closes the watch the watcher already holds for the file; the path it then adds
    // to its ignore list is taken out again, as the watcher tests every path it sees against each
    // entry of that list (hundreds of milliseconds per edit with 512 shards served). From then on
    // the `ignored` function (`ignores`) keeps the file out when a write re-creates it.
    const watcher = this.server.watcher as typeof this.server.watcher & {
      _ignoredPaths?: Set<string>;
      _userIgnored?: unknown;
    };
    watcher.unwatch(file);
    if (watcher._ignoredPaths?.delete(file)) watcher._userIgnored = undefined;
  }

  /** Vite's watcher option `ignored`: a served generated module (paths as the watcher gives them). */
  ignores(path: string): boolean {
    return this.unwatched.size > 0 && this.unwatched.has(path.replaceAll('\\', '/'));
  }

  /** After a clean run: an update for each served generated module whose file changed since. */
  refresh(): void {
    for (const [key, mtime] of this.served) {
      const file = key.slice(key.indexOf('\0') + 1);
      const now = mtimeOf(file);
      if (now === undefined || now === mtime || this.handled.get(key) === now) continue;
      this.handled.set(key, now);
      const environment = this.environment(key.slice(0, key.indexOf('\0')));
      for (const mod of environment?.moduleGraph.getModulesByFile(file) ?? [])
        void environment!.reloadModule(mod).catch(() => undefined);
    }
  }

  /**
   * Vite's `hotUpdate` for a file: `[]` (no update) when this write was handled already,
   * otherwise undefined (Vite's normal path) and the write counts as handled.
   */
  hotUpdate(environment: string, file: string): [] | undefined {
    if (!this.isGenerated(file)) return undefined;
    const key = `${environment}\0${file}`;
    const now = mtimeOf(file);
    if (now !== undefined && this.handled.get(key) === now) return [];
    if (now !== undefined) this.handled.set(key, now);
    return undefined;
  }

  private environment(name: string): Environment | undefined {
    return this.server.environments[name];
  }
}

function mtimeOf(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}
