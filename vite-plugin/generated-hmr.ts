/**
 * Hot updates for the generated modules, sent by the plugin as soon as a compiler run has written
 * them instead of when Vite's file watcher reports the writes. The run blocks the event loop while
 * it writes, so the watcher's events for those files come only after it, then pass through every
 * plugin's `hotUpdate` hook: at 20,000 tools that was tens of milliseconds between the run's end
 * and the HMR update. Here a run that wrote something is followed at once by a `reloadModule` of
 * each generated module the dev server has served and whose file changed since (one stat per
 * served module); the watcher's later event for the same write is dropped in `hotUpdate`.
 *
 * Whichever comes first handles a write, the other sees it as handled (by the file's mtime, per
 * environment): a write the watcher reports first (the run yielded to the event loop while
 * writing) takes Vite's normal path, and a file edited by anyone else is never dropped, as its
 * mtime is not one this plugin sent an update for.
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
    if (mtime !== undefined) this.served.set(`${environment}\0${file}`, mtime);
  }

  /** After a run that wrote: an update for each served generated module whose file changed. */
  written(): void {
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
